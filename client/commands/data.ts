/** `lockin data`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('data')
    .description('(data: not implemented yet)')
    .action(() => {
      throw new Error('lockin data is not implemented yet');
    });
}
