/**
 * `lockin obligations check [--scale S] [--tasks q3,q98] [--json]`: validates the executable
 * obligations of the corpus (activities/obligations/check.ts): a table per task, the labellers'
 * accuracy on known truth, totals; exit 1 on any failure.
 * `lockin obligations diff <taskId> <Oid> <edited>` stores an edited copy of gold as the violation
 * `obligations/<Oid>/violation.diff`; `lockin obligations apply <taskId> <Oid>` prints (or writes)
 * the violation applied to gold, to edit it again (activities/tasks/violation.ts).
 */
import { Command } from 'commander';
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_SPARK_SETTINGS } from '../../protocol/settings';
import { databaseDir, tasksRoot } from '../../activities/common/paths';
import { checkTaskObligations, type TaskObligationsCheck } from '../../activities/obligations/check';
import { calibrateLabellers, type CalibrationFile } from '../../activities/obligations/calibration';
import { startHeartbeat } from '../../activities/common/heartbeat';
import { inLanes } from '../../protocol/pool';
import { mergeAccuracy, type LabellerAccuracy } from '../../activities/obligations/accuracy';
import { listTaskIds, loadTask, displayPath } from '../../activities/tasks/load';
import { applyViolation, GOLD_SOLUTION, parseViolationDiff, VIOLATION_FILE, violationDiff } from '../../activities/tasks/violation';

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
      const beat = startHeartbeat((what) => process.stderr.write(`[calibrate] ${what}\n`));
      const c = await calibrateLabellers({ tasks: ids, settings: DEFAULT_SPARK_SETTINGS, root, onProgress: (w) => beat.say(w) }).finally(() => beat.stop());
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
      const byIndex: TaskObligationsCheck[] = [];
      const started = Date.now();
      const since = (t: number) => `${((Date.now() - t) / 1000).toFixed(0)} s`;
      const checkOne = async (i: number, taskId: string) => {
        const t0 = Date.now();
        // Progress on stderr (stdout stays the tables or the JSON document).
        // A phase that runs for minutes without a line (the acceptance tests) is repeated each minute.
        const beat = startHeartbeat((what) => process.stderr.write(`[obligations] ${taskId} (${i + 1}/${ids.length}, ${since(started)}): ${what}\n`));
        const r = await checkTaskObligations({ taskId, scale, settings, root, skipReference: opts.skipReference, swaps: opts.swaps, onProgress: (what) => beat.say(what), ...(opts.keep ? { workDir: path.resolve(opts.keep, taskId) } : {}) }).finally(() => beat.stop());
        beat.say(`${r.ok ? 'OK' : 'FAILED'} in ${since(t0)}`);
        beat.stop();
        byIndex[i] = r;
        if (!opts.json) console.log(formatTaskCheck(r) + '\n');
      };
      // A pool of `concurrency` lanes over the tasks in order; tables print as tasks finish.
      await inLanes(ids, opts.concurrency, (taskId, i) => checkOne(i, taskId));
      const results = ids.map((_, i) => byIndex[i]);
      const all = results.flatMap((r) => r.obligations);
      const count = (f: string) => all.filter((o) => o.form === f).length;
      const totals = {
        tasks: results.length,
        tasksOk: results.filter((r) => r.ok).length,
        obligations: all.length,
        executable: count('executable'),
        notExecutable: count('not-executable'),
        missing: count('missing'),
        incomplete: count('incomplete'),
        equivalent: all.filter((o) => o.reference === 'equivalent').length,
        failures: all.reduce((s, o) => s + o.failures.length, 0) + results.reduce((s, r) => s + r.problems.length + r.goldFailures.length, 0),
        executableShare: all.length ? count('executable') / all.length : 0,
      };
      const labellers = mergeAccuracy(results.map((r) => r.labellers));
      if (opts.json) console.log(JSON.stringify({ scale, tasks: results, totals, labellers }, null, 2));
      else {
        console.log(formatAccuracy(labellers));
        console.log(`\ntotals: ${totals.tasksOk}/${totals.tasks} tasks ok; ${totals.obligations} obligations: ${totals.executable} executable (${pct(totals.executable, totals.obligations)}), ${totals.notExecutable} with a reason, ${totals.missing} missing, ${totals.incomplete} incomplete; ${totals.equivalent} violation(s) equivalent at SF=${scale}; ${totals.failures} failure(s)`);
      }
      if (results.some((r) => !r.ok)) process.exitCode = 1;
    });
}
