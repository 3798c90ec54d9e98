/**
 * The labellers measured on known truth, for a study's report ("The labeller measured
 * on known truth"; docs/protocol.md §5): for every task of the study with executable obligation
 * forms, `lockin obligations check` (check.ts) runs the acceptance tests on gold and on every
 * violation, and each code labeller (executable, schema-rule, heuristic) is tallied against the
 * truth (gold satisfied on every obligation; a violation violated on its own obligation and
 * satisfied on the others). The study writes the result to `runs/<id>/labeller-accuracy.json`
 * (protocol/sideFiles.ts LabellerAccuracyFileSchema) and the report shows the confusion matrices.
 *
 * Each task's check is cached under `<LOCKIN_HOME>/cache/obligations-check/`, keyed by the
 * sha256 of every file of its forms (task.yaml, obligations.yaml, gold/solution.py, the
 * acceptance tests, every violation.diff), the scale and the Spark settings: a second study, or a
 * resumed one, reruns nothing for a task whose forms did not change.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { lockinHome, tasksRoot } from '../common/paths';
import { canonicalJson } from '../common/hash';
import type { SparkSettings } from '../../protocol/settings';
import type { LabellerAccuracyFile } from '../../protocol/sideFiles';
import { checkTaskObligations, type TaskObligationsCheck } from './check';
import { mergeAccuracy } from './accuracy';
import { inLanes } from '../../protocol/pool';

/** Bump when the check's meaning changes, so that cached checks are not reused (2: column-type rules judge a renamed column at its position). */
const CACHE_VERSION = 2;

/**
 * The folder of the cached checks: LOCKIN_OBLIGATIONS_CACHE when set (bench/study.ts gives each
 * run of its equivalence run a fresh one, so the warm run does not reuse the cold run's checks),
 * else `<LOCKIN_HOME>/cache/obligations-check/`.
 */
export function obligationsCheckCacheDir(): string {
  return process.env.LOCKIN_OBLIGATIONS_CACHE ? path.resolve(process.env.LOCKIN_OBLIGATIONS_CACHE) : path.join(lockinHome(), 'cache', 'obligations-check');
}

/** The files a task's executable forms are made of, relative to its folder, sorted. */
export function formFiles(taskDir: string): string[] {
  const out = ['task.yaml', 'obligations.yaml', 'gold/solution.py', 'acceptance/test_acceptance.py'].filter((f) => fs.existsSync(path.join(taskDir, f)));
  const obDir = path.join(taskDir, 'obligations');
  if (fs.existsSync(obDir))
    for (const id of fs.readdirSync(obDir).sort()) {
      const f = path.join('obligations', id, 'violation.diff');
      if (fs.existsSync(path.join(taskDir, f))) out.push(f);
    }
  return out;
}

/** Whether a task folder has any executable form (an acceptance file or a violation). */
export function hasForms(taskDir: string): boolean {
  return formFiles(taskDir).some((f) => f.startsWith('acceptance/') || f.startsWith('obligations/'));
}

/** The cache key of a task's check: sha256 over its form files' names and bytes, the scale and the settings. */
export function checkCacheKey(taskDir: string, scale: number, settings: SparkSettings): string {
  const h = crypto.createHash('sha256');
  h.update(`lockin obligations check v${CACHE_VERSION}\nscale ${scale}\nsettings ${canonicalJson(settings)}\n`);
  for (const f of formFiles(taskDir)) {
    h.update(`${f}\n`);
    h.update(fs.readFileSync(path.join(taskDir, f)));
    h.update('\n');
  }
  return h.digest('hex');
}

/**
 * Checks the executable forms of `tasks` at `scale` (cached per task) and returns the side file.
 * Inputs: task ids; scale (database and references, normally the mutation analysis's
 * equivalence scale, SF=0.01); the Spark settings; the corpus root (default tasks/); the cache
 * folder (default obligationsCheckCacheDir(), one `<taskId>-<key>.json` per task,
 * holding its TaskObligationsCheck); `concurrency`, tasks checked at once (default 1; each check
 * runs one Spark process at a time); `onTask` is told each task as it finishes, `onProgress` each
 * phase and executed program of a task being checked (checkTaskObligations' onProgress).
 * Output: LabellerAccuracyFile: per task, the obligations and how many have an executable
 * form, whether the check passed, and each labeller's accuracy; the labellers summed over tasks.
 * A task without any form is listed with `checked: false` and counts in no labeller.
 * @throws what checkTaskObligations throws (a task folder that does not load).
 */
export async function studyLabellerAccuracy(opts: { tasks: string[]; scale: number; settings: SparkSettings; root?: string; cacheDir?: string; concurrency?: number; onTask?: (taskId: string, cached: boolean) => void; onProgress?: (taskId: string, what: string) => void }): Promise<LabellerAccuracyFile> {
  const root = opts.root ?? tasksRoot();
  const cacheDir = opts.cacheDir ?? obligationsCheckCacheDir();
  // One row and one check per task, in the order of opts.tasks whatever order the checks end in.
  const rows: LabellerAccuracyFile['tasks'] = [];
  const checks: (TaskObligationsCheck | undefined)[] = [];
  const one = async (i: number, taskId: string): Promise<void> => {
    const dir = path.join(root, taskId);
    if (!hasForms(dir)) {
      rows[i] = { taskId, checked: false, ok: null, obligations: null, executable: 0, notExecutable: 0, cached: false };
      return;
    }
    const file = path.join(cacheDir, `${taskId}-${checkCacheKey(dir, opts.scale, opts.settings).slice(0, 24)}.json`);
    let check: TaskObligationsCheck;
    let cached = false;
    if (fs.existsSync(file)) {
      check = JSON.parse(fs.readFileSync(file, 'utf8')) as TaskObligationsCheck;
      cached = true;
    } else {
      const onProgress = opts.onProgress;
      check = await checkTaskObligations({ taskId, scale: opts.scale, settings: opts.settings, root, ...(onProgress ? { onProgress: (what: string) => onProgress(taskId, what) } : {}) });
      fs.mkdirSync(cacheDir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(check));
      fs.renameSync(tmp, file);
    }
    checks[i] = check;
    rows[i] = {
      taskId,
      checked: true,
      ok: check.ok,
      obligations: check.obligations.length,
      executable: check.obligations.filter((o) => o.form === 'executable').length,
      notExecutable: check.obligations.filter((o) => o.form === 'not-executable').length,
      cached,
      labellers: check.labellers,
      equivalentViolations: check.obligations.filter((o) => o.reference === 'equivalent').map((o) => o.id),
    };
    opts.onTask?.(taskId, cached);
  };
  await inLanes(opts.tasks, opts.concurrency ?? 1, (taskId, i) => one(i, taskId));
  return { schemaVersion: 1, scale: opts.scale, tasks: rows, labellers: mergeAccuracy(checks.filter((c): c is TaskObligationsCheck => !!c).map((c) => c.labellers)) };
}
