/**
 * `lockin obligations check [--scale S] [--tasks q3,q98] [--json]`: validates the executable
 * obligations of the corpus (activities/obligations/check.ts, run by the obligationsCheck
 * workflow): a table per task, the labellers' accuracy on known truth, totals; exit 1 on any
 * failure. `lockin obligations calibrate`: the labellers on the realistic faults (the
 * labellerCalibrationCheck workflow). Both workflows write their results under
 * `<lockin home>/commands/`, which this module reads and prints.
 * `lockin obligations diff <taskId> <Oid> <edited>` stores an edited copy of gold as the violation
 * `obligations/<Oid>/violation.diff`; `lockin obligations apply <taskId> <Oid>` prints (or writes)
 * the violation applied to gold, to edit it again (activities/tasks/violation.ts).
 */
import { Command } from 'commander';
import * as fs from 'fs';
import * as path from 'path';
import type { WorkflowHandle } from '@temporalio/client';
import { DEFAULT_SPARK_SETTINGS } from '../../protocol/settings';
import { obligationsCheckProgressQuery } from '../../protocol/queries';
import { databaseDir, tasksRoot } from '../../activities/common/paths';
import { readCalibration, readObligationsCheck, readObligationsCheckTask, type CalibrationFile, type LabellerAccuracy, type TaskObligationsCheck } from '../../activities/results';
import { listTaskIds, loadTask, displayPath } from '../../activities/tasks/load';
import { applyViolation, GOLD_SOLUTION, parseViolationDiff, VIOLATION_FILE, violationDiff } from '../../activities/tasks/violation';
import { labellerCalibrationCheck, obligationsCheck } from '../../workflows/commands';
import { commandsDir, commandWorkflowId, runCommandWorkflow } from '../commandWorkflow';

const yn = (b: boolean | null): string => (b === null ? '-' : b ? 'yes' : 'NO');

/** The table of one task, as printed. */
export function formatTaskCheck(r: TaskObligationsCheck): string {
  const lines = [`${r.taskId} (SF=${r.scale}): ${r.ok ? 'OK' : 'FAILED'}`];
  lines.push(`  id   kind                form            tests  gold  killed  ${r.swaps ? 'swaps told  ' : ''}reference`);
  for (const o of r.obligations) {
    const sw = r.swaps ? `${o.swaps ? `${o.swaps.checked - o.swaps.undetected.length}/${o.swaps.checked}` : '-'}`.padEnd(12) : '';
    lines.push(`  ${o.id.padEnd(4)} ${o.kind.padEnd(19)} ${o.form.padEnd(15)} ${String(o.tests).padStart(5)}  ${yn(o.goldPasses).padEnd(4)}  ${yn(o.killed).padEnd(6)}  ${sw}${o.reference}`);
    if (o.form === 'not-executable') lines.push(`       reason: ${o.note}`);
    if (o.alsoDeclared.length) lines.push(`       also violates (declared): ${o.alsoDeclared.join(', ')}`);
    for (const f of o.failures) lines.push(`       FAIL: ${f}`);
  }
  for (const g of r.goldFailures) lines.push(`  FAIL on gold: ${g}`);
  for (const p of r.problems) lines.push(`  PROBLEM: ${p}`);
  for (const n of r.notes) lines.push(`  note: ${n}`);
  return lines.join('\n');
}

const pct = (c: number, n: number): string => (n === 0 ? '-' : `${((100 * c) / n).toFixed(1)} %`);

/** The labellers' confusion matrices and accuracy, as printed. */
export function formatAccuracy(acc: ReadonlyArray<LabellerAccuracy>): string {
  const lines = [
    'labeller accuracy on known truth (gold: all satisfied; violation of O: O violated, others satisfied)',
    '  each labeller labels every obligation of every program it applies to (gold and each violation); a label other than the truth counts as wrong (partial and execution-failed too)',
  ];
  for (const a of acc) {
    const row = (t: 'satisfied' | 'violated') => Object.entries(a.confusion[t]).map(([k, v]) => `${k} ${v}`).join(', ') || '-';
    lines.push(`  ${a.labeller.padEnd(12)} ${pct(a.correct, a.n).padStart(8)} of its ${a.n} labels right   truth satisfied → ${row('satisfied')};  truth violated → ${row('violated')}`);
    const cls = Object.entries(a.byClass).map(([k, v]) => `${k} ${pct(v.correct, v.n)} (${v.n})`).join(', ');
    if (cls) lines.push(`               by class: ${cls}`);
    const kinds = Object.entries(a.byKind).map(([k, v]) => `${k} ${pct(v.correct, v.n)}`).join(', ');
    if (kinds) lines.push(`               by kind: ${kinds}`);
    const errs = a.errors ?? [];
    if (errs.length) {
      const shown = errs.slice(0, 20).map((e) => `${e.task ? `${e.task} ` : ''}${e.program === 'gold' ? 'gold' : `violation ${e.program}`}: ${e.obligation} (truth ${e.truth}, labelled ${e.label})`);
      lines.push(`               wrong: ${shown.join('; ')}${errs.length > 20 ? `; and ${errs.length - 20} more (--json lists all)` : ''}`);
    }
  }
  lines.push('  judge: not measured here (no judge replies are made by this check)');
  return lines.join('\n');
}

/** The labellers on the realistic faults, as printed: agreement with its interval, the confusion matrix, the disagreements. */
export function formatCalibration(c: CalibrationFile): string {
  const lines = ['labellers on realistic faults (tasks/<id>/faults/: whole wrong programs labelled by hand before any labeller ran)'];
  for (const t of c.tasks) lines.push(`  ${t.taskId}: ${t.faults.length} fault program(s) ${t.faults.join(', ')}${t.cached ? ' (cached)' : ''}${t.notExecutable.length ? `; not executable: ${t.notExecutable.join(', ')}` : ''}${t.problems.map((p) => `
    PROBLEM: ${p}`).join('')}`);
  for (const l of c.labellers) {
    const a = l.agreement;
    const ci = a.p === null ? '-' : `${(100 * a.p).toFixed(1)} % [${(100 * a.lower).toFixed(1)}, ${(100 * a.upper).toFixed(1)}]`;
    const conf = Object.entries(l.confusion).map(([t, row]) => `truth ${t} → ${Object.entries(row).map(([k, v]) => `${k} ${v}`).join(', ')}`).join('; ');
    lines.push(`  ${l.labeller.padEnd(15)} ${String(l.agree).padStart(4)}/${String(l.n).padEnd(4)} agree  ${ci}   ${conf}`);
    for (const e of l.errors.slice(0, 30)) lines.push(`      wrong: ${e.task}/${e.fault} ${e.obligation}: truth ${e.truth}, labelled ${e.label}${e.evidence ? ` (${e.evidence.slice(0, 160)})` : ''}`);
    if (l.errors.length > 30) lines.push(`      and ${l.errors.length - 30} more (--json lists all)`);
  }
  return lines.join('\n');
}

/**
 * Writes `tasks/<taskId>/obligations/<id>/violation.diff` from an edited copy of gold. The header's
 * description is `what`, else the one of the diff already there, whose "Also violates" lines are kept.
 * Returns: the diff's path and text.
 * @throws InputError (the edited copy equals gold; no description) or Error (no such obligation).
 */
export function writeViolationDiff(opts: { taskId: string; id: string; edited: string; what?: string; root: string }): { file: string; text: string } {
  const task = loadTask(opts.taskId, opts.root);
  if (!task.obligations.obligations.some((o) => o.id === opts.id)) throw new Error(`${task.obligationsFile}: no obligation ${opts.id}`);
  const file = path.join(task.dir, 'obligations', opts.id, VIOLATION_FILE);
  const before = fs.existsSync(file) ? parseViolationDiff(fs.readFileSync(file, 'utf8'), displayPath(file), opts.id) : undefined;
  const what = opts.what ?? before?.what;
  if (!what) throw new Error(`--what: say what the violation does (no ${displayPath(file)} to take it from)`);
  const gold = fs.readFileSync(path.join(task.dir, GOLD_SOLUTION), 'utf8');
  const text = violationDiff({ taskId: task.taskId, id: opts.id, what, gold, edited: fs.readFileSync(opts.edited, 'utf8'), also: before?.also ?? [] });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return { file, text };
}

/** Defines `lockin obligations` on `cmd` (client/cli.ts loads this module only when it runs). */
export function define(cmd: Command): void {
  const ob = cmd;
  ob.command('diff <taskId> <oid> <edited>')
    .description(`store an edited copy of ${GOLD_SOLUTION} as the violation obligations/<oid>/${VIOLATION_FILE} (a unified diff against gold)`)
    .option('--what <text>', 'what the violation does, for the header "# Violation of <oid> (<text>) in the gold solution for <taskId>." (default: the existing diff\'s)')
    .option('--root <dir>', 'corpus root (default: tasks/)')
    .action((taskId: string, oid: string, edited: string, opts: { what?: string; root?: string }) => {
      const { file, text } = writeViolationDiff({ taskId, id: oid, edited: path.resolve(edited), what: opts.what, root: opts.root ? path.resolve(opts.root) : tasksRoot() });
      console.log(`wrote ${displayPath(file)}\n${text}`);
    });
  ob.command('apply <taskId> <oid>')
    .description(`print ${GOLD_SOLUTION} with the violation of <oid> applied (or write it with --out), to edit and store again with obligations diff`)
    .option('--out <file>', 'write the applied violation here instead of printing it')
    .option('--root <dir>', 'corpus root (default: tasks/)')
    .action((taskId: string, oid: string, opts: { out?: string; root?: string }) => {
      const task = loadTask(taskId, opts.root ? path.resolve(opts.root) : tasksRoot());
      const file = path.join(task.dir, 'obligations', oid, VIOLATION_FILE);
      if (!fs.existsSync(file)) throw new Error(`${displayPath(file)}: no such file`);
      const text = applyViolation(fs.readFileSync(path.join(task.dir, GOLD_SOLUTION), 'utf8'), fs.readFileSync(file, 'utf8'), displayPath(file), oid);
      if (opts.out) fs.writeFileSync(opts.out, text);
      else process.stdout.write(text);
    });
  ob.command('calibrate')
    .description('measure the code, test, mechanism and plan labellers on the realistic faults (tasks/<id>/faults/) against their hand labels')
    .option('--tasks <ids>', 'comma-separated task ids (default: every task folder with faults)')
    .option('--root <dir>', 'corpus root (default: tasks/)')
    .option('--json', 'print the calibration file (JSON) instead of the summary')
    .action(async (opts: { tasks?: string; root?: string; json?: boolean }) => {
      const root = opts.root ? path.resolve(opts.root) : tasksRoot();
      const ids = opts.tasks ? opts.tasks.split(',').map((s) => s.trim()).filter(Boolean) : listTaskIds(root).filter((id) => fs.existsSync(path.join(root, id, 'faults')));
      // The labellerCalibrationCheck workflow runs the calibration ([calibrate] lines on stderr) and writes it to a file of its own.
      const key = { tasks: ids, settings: DEFAULT_SPARK_SETTINGS, root };
      const outFile = path.join(commandsDir(), commandWorkflowId('calibrate', key), 'calibration.json');
      const r = await runCommandWorkflow(labellerCalibrationCheck, [{ ...key, outFile }], { name: 'calibrate', relay: '' });
      const c = readCalibration(r.file);
      console.log(opts.json ? JSON.stringify(c, null, 2) : formatCalibration(c));
      if (c.tasks.some((t) => t.problems.length)) process.exitCode = 1;
    });

  ob.command('check')
    .description('run every acceptance test on gold and on the violations, and every violation against the reference')
    .option('--scale <S>', 'scale factor of the database and references (default: 1 when built, else 0.01)', (v) => Number(v))
    .option('--tasks <ids>', 'comma-separated task ids (default: every task folder)')
    .option('--root <dir>', 'corpus root (default: tasks/)')
    .option('--driver-memory <mem>', 'spark.driver.memory of each run', '2g')
    .option('--json', 'print one JSON document instead of tables')
    .option('--skip-reference', 'do not run the violations against the reference (a quicker check of the tests alone)')
    .option('--keep <dir>', 'keep the staged runs and outputs under this folder')
    .option('--concurrency <n>', 'tasks checked at once (each runs one Spark process at a time)', (v) => Number(v), 1)
    .option('--no-swaps', 'skip the discrimination check (gold reading each same-typed alternative of every column an obligation names)')
    .action(async (opts: { scale?: number; tasks?: string; root?: string; driverMemory: string; json?: boolean; skipReference?: boolean; keep?: string; concurrency: number; swaps: boolean }) => {
      if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) throw new Error('--concurrency: not a positive integer');
      const scale = opts.scale ?? (fs.existsSync(path.join(databaseDir(1), 'manifest.json')) ? 1 : 0.01);
      if (!Number.isFinite(scale) || scale <= 0) throw new Error('--scale: not a positive number');
      const root = opts.root ? path.resolve(opts.root) : tasksRoot();
      const ids = opts.tasks ? opts.tasks.split(',').map((s) => s.trim()).filter(Boolean) : listTaskIds(root);
      const settings = { ...DEFAULT_SPARK_SETTINGS, driverMemory: opts.driverMemory };
      // The obligationsCheck workflow checks the tasks ([obligations] lines on stderr, printed by
      // the worker that runs each task); each table is printed as its task ends.
      const key = { tasks: ids, scale, settings, root, skipReference: Boolean(opts.skipReference), swaps: opts.swaps, concurrency: opts.concurrency, ...(opts.keep ? { keep: path.resolve(opts.keep) } : {}) };
      const outDir = path.join(commandsDir(), commandWorkflowId('obligations-check', key));
      const printed = new Set<number>();
      const printDone = (done: ReadonlyArray<{ index: number; file: string }>) => {
        for (const d of done) {
          if (printed.has(d.index)) continue;
          printed.add(d.index);
          if (!opts.json) console.log(formatTaskCheck(readObligationsCheckTask(d.file)) + '\n');
        }
      };
      const watch = (handle: WorkflowHandle<typeof obligationsCheck>) => {
        let inFlight: Promise<void> = Promise.resolve();
        const timer = setInterval(() => {
          inFlight = inFlight.then(() => handle.query(obligationsCheckProgressQuery).then(printDone, () => undefined));
        }, 1000);
        return async () => {
          clearInterval(timer);
          await inFlight;
        };
      };
      const res = await runCommandWorkflow(obligationsCheck, [{ ...key, outDir }], { name: 'obligations-check', relay: '', watch });
      printDone(res.done);
      const doc = readObligationsCheck(res.file);
      const { totals, labellers } = doc;
      if (opts.json) console.log(JSON.stringify(doc, null, 2));
      else {
        console.log(formatAccuracy(labellers));
        console.log(`\ntotals: ${totals.tasksOk}/${totals.tasks} tasks ok; ${totals.obligations} obligations: ${totals.executable} executable (${pct(totals.executable, totals.obligations)}), ${totals.notExecutable} with a reason, ${totals.missing} missing, ${totals.incomplete} incomplete; ${totals.equivalent} violation(s) equivalent at SF=${scale}; ${totals.failures} failure(s)`);
      }
      if (!res.ok) process.exitCode = 1;
    });
}
