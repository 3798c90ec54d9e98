/** `lockin labels`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('labels')
    .description('(labels: not implemented yet)')
    .action(() => {
      throw new Error('lockin labels is not implemented yet');
    });
}
