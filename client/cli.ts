/**
 * The `lockin` command tree (commander). Each command group lives in its own module under
 * client/commands/ and exports `register(program)`.
 */
import { Command } from 'commander';
import * as doctor from './commands/doctor';
import * as server from './commands/server';
import * as worker from './commands/worker';
import * as data from './commands/data';
import * as compare from './commands/compare';
import * as controls from './commands/controls';
import * as tasks from './commands/tasks';
import * as gold from './commands/gold';
import * as study from './commands/study';
import * as report from './commands/report';
import * as labels from './commands/labels';
import * as obligations from './commands/obligations';

/** Builds the command tree. */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('lockin')
    .description('A durable study runner: is LLM-written PySpark code right, or does it merely pass its own tests?')
    .showHelpAfterError();
  for (const mod of [doctor, server, worker, data, compare, controls, tasks, gold, study, report, labels, obligations]) mod.register(program);
  return program;
}

/** Parses argv and runs the chosen command. */
export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
