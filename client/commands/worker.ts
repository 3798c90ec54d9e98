/** `lockin worker`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('worker')
    .description('(worker: not implemented yet)')
    .action(() => {
      throw new Error('lockin worker is not implemented yet');
    });
}
