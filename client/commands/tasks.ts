/** `lockin tasks`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('tasks')
    .description('(tasks: not implemented yet)')
    .action(() => {
      throw new Error('lockin tasks is not implemented yet');
    });
}
