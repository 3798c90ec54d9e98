/**
 * `lockin tasks`: the task corpus (docs/protocol.md §1).
 *   tasks check [--scale S] [taskId…]        validate task folders + eligibility.yaml; exit 1 on any problem
 *   tasks show <taskId>                       print the prompt exactly as the model sees it
 *   tasks scaffold <taskId> --tables a,b      write a task.yaml skeleton with full column lists
 *   tasks build-replay [taskId…]              write replay/gold/ and default replay/lockin/<taskId>/plan-audit/ files
 */
import { Command } from 'commander';
import * as fs from 'fs';
import * as path from 'path';
import { databaseDir, tasksRoot } from '../../activities/common/paths';
import { InputError } from '../../activities/common/errors';
import { STUDY_TASKS } from '../../protocol/corpus';
import { checkCorpus } from '../../activities/tasks/corpus';
import { formatProblem, loadTask } from '../../activities/tasks/load';
import { renderTaskPrompt } from '../../activities/model/prompts';
import { buildReplay } from '../../activities/model/replayCorpus';
import { scaffoldTask } from '../../activities/tasks/scaffold';

/** The scale used when --scale is not given: 1 when its database exists, else 0.01. */
export function defaultScale(): number {
  return fs.existsSync(path.join(databaseDir(1), 'manifest.json')) ? 1 : 0.01;
}

function parseScale(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--scale: "${v}" is not a positive number`);
  return n;
}

/**
 * Refuses task ids without a folder under tasks/, naming them and the study's tasks.
 * @throws InputError (field taskId) for the first such id.
 */
export function checkTaskFolders(taskIds: string[], root = tasksRoot()): void {
  const missing = taskIds.filter((id) => !fs.existsSync(path.join(root, id)));
  if (missing.length) throw new InputError(`no task folder for ${missing.join(', ')} under ${root} (the study's ${STUDY_TASKS.length} tasks: ${STUDY_TASKS.join(' ')})`, undefined, 'taskId');
}

/** Defines the options, arguments, sub-commands and actions of `lockin tasks` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const tasks = cmd;

  tasks
    .command('check')
    .description('validate task folders (zod, passages, ids, SQL leak, SQL fragments in prompts, manifest, reference schema) and eligibility.yaml')
    .option('--scale <S>', 'scale whose database manifest and reference schemas are used (default: 1 if built, else 0.01)', parseScale)
    .argument('[taskId...]', 'variant ids (default: every task folder)')
    .action(async (taskIds: string[], opts: { scale?: number }) => {
      const scale = opts.scale ?? defaultScale();
      checkTaskFolders(taskIds);
      const rep = await checkCorpus({ scale, ids: taskIds });
      for (const t of rep.tasks) {
        const ran = Object.entries(t.checked).filter(([, v]) => v).map(([k]) => k);
        if (t.ok) console.log(`${t.taskId}: OK (${t.obligations} obligations; checked: schema, passages, ids${ran.length ? ', ' + ran.join(', ') : ''})`);
        else {
          console.log(`${t.taskId}: ${t.problems.length} problem(s)`);
          for (const p of t.problems) console.log(`  ${formatProblem(p)}`);
        }
      }
      const e = rep.eligibility;
      if (e.problems.length === 0) console.log(`eligibility.yaml: OK (${e.summary ?? `${e.entries} variants`})`);
      else {
        console.log(`eligibility.yaml: ${e.problems.length} problem(s)`);
        for (const p of e.problems.slice(0, 40)) console.log(`  ${formatProblem(p)}`);
      }
      for (const n of rep.notes) console.log(`note: ${n}`);
      const tt = rep.totals;
      console.log(`scale: ${rep.scale}`);
      console.log(`tasks: ${tt.tasks} (${tt.ok} OK, ${tt.tasks - tt.ok} with problems)`);
      console.log(`obligations: ${tt.obligations}${tt.ok > 0 ? ` (mean ${(tt.obligations / Math.max(1, tt.tasks)).toFixed(1)} per task)` : ''}`);
      console.log(`  per class: ${Object.entries(tt.byClass).map(([k, v]) => `${k} ${v}`).join(', ')}`);
      console.log(`  per kind: ${Object.entries(tt.byKind).map(([k, v]) => `${k} ${v}`).join(', ')}`);
      const sf = Object.values(tt.sqlFragments).reduce((a, b) => a + b, 0);
      console.log(`SQL fragments in prompts: ${sf}${sf ? ` (${Object.entries(tt.sqlFragments).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`);
      if (tt.ok !== tt.tasks || e.problems.length > 0) process.exitCode = 1;
    });

  tasks
    .command('show')
    .description('print the task prompt exactly as the model sees it')
    .argument('<taskId>', 'variant id, e.g. q3')
    .action((taskId: string) => {
      const t = loadTask(taskId);
      process.stdout.write(renderTaskPrompt(t.task));
    });

  tasks
    .command('scaffold')
    .description('write tasks/<taskId>/task.yaml with the full column lists of the given tables')
    .argument('<taskId>', 'variant id, e.g. q3')
    .requiredOption('--tables <a,b>', 'comma-separated TPC-DS table names')
    .option('--scale <S>', 'scale whose manifest gives the column types (default: 1 if built, else 0.01)', parseScale)
    .option('--force', 'overwrite an existing task.yaml')
    .action(async (taskId: string, opts: { tables: string; scale?: number; force?: boolean }) => {
      const tables = opts.tables.split(',').map((s) => s.trim()).filter(Boolean);
      const r = await scaffoldTask(taskId, tables, { scale: opts.scale ?? defaultScale(), force: opts.force });
      console.log(`wrote ${r.path} (column types from ${r.source})`);
    });

  tasks
    .command('build-replay')
    .description('write replay/gold/<taskId>/ from gold folders and default replay/lockin/<taskId>/plan-audit/ files (never overwrites authored ones)')
    .argument('[taskId...]', 'variant ids (default: every task folder)')
    .action((taskIds: string[]) => {
      const rep = buildReplay({ ids: taskIds });
      for (const line of rep.lines) console.log(line);
      console.log(`replay/gold: ${rep.goldTasks} task(s), ${rep.goldFiles} file(s) written; replay/lockin: ${rep.lockinWritten} default file(s) written, ${rep.lockinKept} authored file(s) kept`);
      if (rep.problems.length > 0) {
        for (const p of rep.problems) console.log(`problem: ${p}`);
        process.exitCode = 1;
      }
    });
}
