/** `lockin controls`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('controls')
    .description('(controls: not implemented yet)')
    .action(() => {
      throw new Error('lockin controls is not implemented yet');
    });
}
