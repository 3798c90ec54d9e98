/** `lockin report`: not implemented yet. */
import { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('report')
    .description('(report: not implemented yet)')
    .action(() => {
      throw new Error('lockin report is not implemented yet');
    });
}
