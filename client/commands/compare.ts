/** `lockin compare`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('compare')
    .description('(compare: not implemented yet)')
    .action(() => {
      throw new Error('lockin compare is not implemented yet');
    });
}
