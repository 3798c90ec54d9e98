/** `lockin study`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('study')
    .description('(study: not implemented yet)')
    .action(() => {
      throw new Error('lockin study is not implemented yet');
    });
}
