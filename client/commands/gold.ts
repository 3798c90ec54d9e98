/** `lockin gold`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('gold')
    .description('(gold: not implemented yet)')
    .action(() => {
      throw new Error('lockin gold is not implemented yet');
    });
}
