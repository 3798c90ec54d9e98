/** `lockin doctor`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('doctor')
    .description('(doctor: not implemented yet)')
    .action(() => {
      throw new Error('lockin doctor is not implemented yet');
    });
}
