/** `lockin server`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('server')
    .description('(server: not implemented yet)')
    .action(() => {
      throw new Error('lockin server is not implemented yet');
    });
}
