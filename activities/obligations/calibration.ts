/**
 * The labellers measured on realistic faults (the calibration set, activities/tasks/faults.ts):
 * whole wrong programs with several co-occurring mistakes and suites that repeat them, labelled
 * by hand before any labeller ran. Beside the single-obligation violations (accuracy.ts, where
 * each program breaks exactly the obligation it was written for), this measures the labels on
 * mistakes nobody wrote to fit one acceptance test.
 *
 * For each fault program: the executable labels (labels.ts executableLabels: the acceptance
 * tests on its solution, its suite test by test on gold and the violations) and the plan
 * heuristic on its plan.md (heuristic.ts heuristicPlan) are compared, obligation by obligation,
 * with the hand labels. Four labellers are tallied:
 *   - `code` (executable code labels) against the hand code label (satisfied / violated);
 *   - `test` (executable test labels) against the hand test label (covered / not-covered);
 *   - `mechanism` (Table VI's category from the executable test label and its `repeats`) against
 *     the hand mechanism, over the obligations the hand labels call violated;
 *   - `plan-heuristic` against the hand plan label (five values).
 * Agreement = matching labels / labels compared, with a Wilson 95 % interval (the labels of one
 * program are not independent: the interval understates the uncertainty).
 * Obligations without an executable form get no executable label and are counted apart.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SparkMode, SparkSettings } from '../../protocol/settings';
import { lockinHome, tasksRoot } from '../common/paths';
import { canonicalJson } from '../common/hash';
import { readFaults, type Fault, type Mechanism } from '../tasks/faults';
import { readTaskForms } from '../tasks/executable';
import { loadTask } from '../tasks/load';
import { formFiles } from './studyAccuracy';
import { executableLabels, type ExecutableLabelsFile } from './labels';
import { heuristicPlan, keyTerms } from './heuristic';
import { wilson, type Proportion } from '../common/intervals';

export const CALIBRATION_LABELLERS = ['code', 'test', 'mechanism', 'plan-heuristic'] as const;
export type CalibrationLabeller = (typeof CALIBRATION_LABELLERS)[number];

/** One compared label. */
export interface CalibrationItem {
  task: string;
  fault: string;
  obligation: string;
  labeller: CalibrationLabeller;
  truth: string;
  label: string;
  /** The labeller's evidence (the failing tests, the suite's finding). */
  evidence?: string;
}

/** One labeller's tally. */
export interface CalibrationTally {
  labeller: CalibrationLabeller;
  n: number;
  agree: number;
  /** Agreement with its Wilson 95 % interval (fractions). */
  agreement: Proportion;
  /** confusion[truth][label] = count. */
  confusion: Record<string, Record<string, number>>;
  /** The disagreements, each named. */
  errors: CalibrationItem[];
}

/** The calibration of the labellers on a set of tasks' faults (`runs/<id>/labeller-calibration.json`). */
export interface CalibrationFile {
  schemaVersion: 1;
  /** Per task: its faults (names) and the obligations left unlabelled for want of an executable form. */
  tasks: { taskId: string; faults: string[]; notExecutable: string[]; cached: boolean; problems: string[] }[];
  labellers: CalibrationTally[];
  items: CalibrationItem[];
}

/** Table VI's category of an executable test label (labels.ts): covered → inadequate check, repeats → repeated logic, else no test. */
export function mechanismOf(t: ExecutableLabelsFile['test'][string] | undefined): Mechanism | 'unknown' {
  if (!t) return 'unknown';
  if (t.label === 'covered') return 'inadequate-check';
  return t.repeats ? 'repeats-incorrect-logic' : 'no-test-covered';
}

/**
 * Compares one fault's labels with its hand labels (pure).
 * Inputs: the fault (its hand labels and plan text), the task's obligations with their executable
 * form status, and its executable labels. Returns the compared items.
 */
export function compareFault(
  fault: Pick<Fault, 'taskId' | 'name' | 'labels'>,
  obligations: ReadonlyArray<{ id: string; statement: string; executable: boolean }>,
  labels: Pick<ExecutableLabelsFile, 'code' | 'test'>,
  planText: string,
): CalibrationItem[] {
  const items: CalibrationItem[] = [];
  const at = { task: fault.taskId, fault: fault.name };
  for (const ob of obligations) {
    const hand = fault.labels.labels[ob.id];
    items.push({ ...at, obligation: ob.id, labeller: 'plan-heuristic', truth: hand.plan, label: heuristicPlan(keyTerms(ob.statement), planText) });
    if (!ob.executable) continue;
    const code = labels.code[ob.id];
    const test = labels.test[ob.id];
    items.push({ ...at, obligation: ob.id, labeller: 'code', truth: hand.code, label: code?.label ?? 'missing', ...(code ? { evidence: code.evidence } : {}) });
    items.push({ ...at, obligation: ob.id, labeller: 'test', truth: hand.test, label: test?.label ?? 'missing', ...(test ? { evidence: test.evidence } : {}) });
    if (hand.code === 'violated') items.push({ ...at, obligation: ob.id, labeller: 'mechanism', truth: hand.mechanism!, label: mechanismOf(test), ...(test ? { evidence: test.evidence } : {}) });
  }
  return items;
}

/** Tallies compared items per labeller (pure). */
export function tallyCalibration(items: ReadonlyArray<CalibrationItem>): CalibrationTally[] {
  return CALIBRATION_LABELLERS.map((labeller) => {
    const mine = items.filter((i) => i.labeller === labeller);
    const confusion: Record<string, Record<string, number>> = {};
    for (const i of mine) {
      confusion[i.truth] = confusion[i.truth] ?? {};
      confusion[i.truth][i.label] = (confusion[i.truth][i.label] ?? 0) + 1;
    }
    const agree = mine.filter((i) => i.truth === i.label).length;
    return { labeller, n: mine.length, agree, agreement: wilson(agree, mine.length), confusion, errors: mine.filter((i) => i.truth !== i.label) };
  });
}

/** Bump when the measurement's meaning changes, so that cached results are not reused. */
const CACHE_VERSION = 1;

/** The cache key of a task's calibration: its forms' files, every fault file, the settings. */
export function calibrationKey(taskDir: string, settings: SparkSettings, mode: string): string {
  const h = crypto.createHash('sha256');
  h.update(`lockin labeller calibration v${CACHE_VERSION}\nsettings ${canonicalJson(settings)}\nmode ${mode}\n`);
  const files = [...formFiles(taskDir)];
  const faults = path.join(taskDir, 'faults');
  if (fs.existsSync(faults))
    for (const name of fs.readdirSync(faults).sort())
      for (const f of ['solution.py', 'test_solution.py', 'plan.md', 'labels.yaml']) if (fs.existsSync(path.join(faults, name, f))) files.push(path.join('faults', name, f));
  for (const f of files) {
    h.update(`${f}\n`);
    h.update(fs.readFileSync(path.join(taskDir, f)));
    h.update('\n');
  }
  return h.digest('hex');
}

/**
 * Measures the labellers on the faults of `tasks` (tasks without faults are skipped). Each task's
 * result is cached under `<LOCKIN_HOME>/cache/labeller-calibration/` by calibrationKey.
 * Inputs: task ids; Spark settings and mode; the corpus root (default tasks/); onProgress, told
 * each fault as it starts. Returns the CalibrationFile.
 * @throws TaskLoadError for a task folder that does not load.
 */
export async function calibrateLabellers(opts: { tasks: string[]; settings: SparkSettings; sparkMode?: SparkMode; root?: string; cacheDir?: string; onProgress?: (what: string) => void }): Promise<CalibrationFile> {
  const root = opts.root ?? tasksRoot();
  const cacheDir = opts.cacheDir ?? path.join(lockinHome(), 'cache', 'labeller-calibration');
  const rows: CalibrationFile['tasks'] = [];
  const items: CalibrationItem[] = [];
  for (const taskId of opts.tasks) {
    const task = loadTask(taskId, root);
    const { faults, problems } = readFaults(task.dir, taskId, task.obligations.obligations);
    if (!faults.length && !problems.length) continue;
    const forms = readTaskForms(task.dir, taskId, task.obligations.obligations, task.obligationsFile);
    const obs = task.obligations.obligations.map((o) => ({ id: o.id, statement: o.statement, executable: forms.forms.find((f) => f.id === o.id)?.status === 'executable' }));
    const file = path.join(cacheDir, `${taskId}-${calibrationKey(task.dir, opts.settings, opts.sparkMode ?? 'default').slice(0, 24)}.json`);
    let mine: CalibrationItem[];
    let cached = false;
    if (fs.existsSync(file) && !problems.length) {
      mine = JSON.parse(fs.readFileSync(file, 'utf8')) as CalibrationItem[];
      cached = true;
    } else {
      mine = [];
      for (const fault of faults) {
        opts.onProgress?.(`${taskId}/${fault.name}: labelling the fault program`);
        const work = fs.mkdtempSync(path.join(os.tmpdir(), `lockin-calibration-${taskId}-`));
        try {
          for (const f of ['solution.py', 'test_solution.py']) fs.copyFileSync(path.join(fault.dir, f), path.join(work, f));
          const { labels } = await executableLabels({ taskId, conditionDir: work, settings: opts.settings, tasksDir: root, ...(opts.sparkMode ? { sparkMode: opts.sparkMode } : {}) });
          mine.push(...compareFault(fault, obs, labels, fs.readFileSync(fault.plan, 'utf8')));
        } finally {
          fs.rmSync(work, { recursive: true, force: true });
        }
      }
      if (!problems.length) {
        fs.mkdirSync(cacheDir, { recursive: true });
        fs.writeFileSync(`${file}.tmp`, JSON.stringify(mine));
        fs.renameSync(`${file}.tmp`, file);
      }
    }
    items.push(...mine);
    rows.push({ taskId, faults: faults.map((f) => f.name), notExecutable: obs.filter((o) => !o.executable).map((o) => o.id), cached, problems: problems.map((p) => `${p.file}${p.field ? ` (${p.field})` : ''}: ${p.message}`) });
  }
  return { schemaVersion: 1, tasks: rows, labellers: tallyCalibration(items), items };
}
