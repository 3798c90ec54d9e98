/**
 * The main job behind `npm run study`: one command, real inputs, a report at the end.
 *   1. the embedded Temporal server and an in-process worker;
 *   2. prepareDatabase: the SF=S database and the 33 references, and the SF=0.01 database the
 *      mutation analysis's equivalence check runs on (skipped when already there);
 *   3. the evaluator controls (Table II) and the SQL re-execution (Table V), into the study folder;
 *   4. runStudy: the tasks × 3 conditions, then the report;
 *   5. test-suite validity and mutation analysis (mutation.json), and the report rewritten;
 *   6. the summary table, the report path and the Temporal UI address.
 * Running it again resumes an interrupted study and redoes nothing that finished.
 */
import { prepareDatabase } from '../workflows/prepare';
import { QUEUES } from '../protocol/queues';
import type { ControlCounts } from '../protocol/activities';
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_SPARK_SETTINGS } from '../protocol/settings';
import { referencesDir, scaleTag } from '../activities/common/paths';
import { studyDir } from '../activities/store/layout';
import { assertCorpusValid, buildStudyInput } from './studyInput';
import { printSummary, reportFailures, runStudyWith, studyUiUrl } from './studyRunner';
import { runOrAttach, withClientAndWorker } from './temporal';
import { runMutationWith } from './mutation';
import { evaluatorChecks } from '../workflows/checks';
import { checksWorkflowId } from '../protocol/layout';

export interface MainJobOptions {
  scale: number;
  model: string;
  tasks: string[];
  studyId?: string;
  /** Leave out step 5 (the mutation analysis). */
  skipMutation?: boolean;
}

/** The database scale of the mutation analysis's equivalence check (activities/mutation/study.ts). */
export const EQUIVALENCE_SCALE = 0.01;

/** Seconds per step of the last main job (steps 1–5 by number), for bench/study. */
const stepSeconds: Record<number, number> = {};
let currentStep = 0;

function step(n: number, text: string): number {
  currentStep = n;
  process.stderr.write(`[lockin] step ${n}/6: ${text}\n`);
  return Date.now();
}

function done(t0: number): void {
  stepSeconds[currentStep] = (Date.now() - t0) / 1000;
  process.stderr.write(`[lockin]   done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

/** The counts of the evaluator controls' report (Table II). */
export type { ControlCounts };

/**
 * One line on the evaluator controls (Table II) for the main job's output. A control skipped for
 * lack of a reference (q12 at SF=0.01) is not a comparator failure, and the line says so.
 * Input: the counts (undefined: an older report) and the report's allAsExpected. Pure.
 */
export function controlsLine(c: ControlCounts | undefined, allAsExpected: boolean): string {
  if (!c) return allAsExpected ? 'all as expected' : 'SOME UNEXPECTED (see controls.md)';
  const perturbed = c.perturbations ? `; perturbations verified ${c.verifiedPerturbations ?? 0}/${c.perturbations}` : '';
  if (allAsExpected) return `${c.asExpected}/${c.controls} as expected (${c.expectedAccept} to accept, ${c.expectedReject} to reject${perturbed})`;
  if (c.unexpected === c.skipped) return `${c.asExpected}/${c.controls} as expected, ${c.skipped} skipped (no reference at this scale), none wrong`;
  return `SOME UNEXPECTED: ${c.unexpected - c.skipped} of ${c.controls} wrong (accepted ${c.accepted}, expected ${c.expectedAccept}; rejected ${c.rejected}, expected ${c.expectedReject}); see controls.md`;
}


/**
 * Runs the main job (steps above) for `o`. Returns the seconds each step took (by step number).
 * Errors of the Temporal connection or the database preparation propagate; failed tasks and a
 * failed mutation analysis are reported and set a non-zero exit code instead.
 */
export async function runMainJob(o: MainJobOptions): Promise<Record<number, number>> {
  const replayed = o.model.startsWith('replay:');
  process.stderr.write(`[lockin] model: ${o.model}${replayed ? ' — no ANTHROPIC_API_KEY, so replies are REPLAYED from the corpus, not sampled from a live model; each reply file states its provenance (replay:lockin: authored by the project or generated from the obligations, none recorded from a model), and the report says what share was which: such replies demonstrate the instrument and are no evidence about any model' : ''}\n`);
  const studyId = o.studyId ?? `main-sf${o.scale}-${o.model.replace(/[^A-Za-z0-9._-]+/g, '-')}`;
  const settings = DEFAULT_SPARK_SETTINGS;
  const input = buildStudyInput({ studyId, tasks: o.tasks, model: o.model, scale: o.scale, settings });
  const sdir = studyDir(studyId);
  fs.mkdirSync(sdir, { recursive: true });

  let t: number = step(1, 'Temporal server and worker');
  const res = await withClientAndWorker(async (client, target) => {
    done(t);
    if (target.uiUrl) process.stderr.write(`[lockin]   Temporal UI: ${target.uiUrl}\n`);

    t = step(2, `TPC-DS database and references at scale ${o.scale} (prepareDatabase; skipped parts are already there)`);
    const prep = await client.workflow.execute(prepareDatabase, {
      args: [{ scale: o.scale, settings, analyze: true }],
      workflowId: `lockin-prepare-${scaleTag(o.scale)}`,
      taskQueue: QUEUES.default,
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    const refs = (prep as { references: { count: number; failed: { id: string; error: string }[] } }).references;
    const failedRefs = refs.failed.map((f) => `${f.id}: ${f.error.split(/[.\n]/)[0]}`).join('; ');
    process.stderr.write(`[lockin]   ${refs.count} references stored${refs.failed.length ? `, ${refs.failed.length} FAILED (${failedRefs}; left out of the study at this scale)` : ''}\n`);
    if (o.scale !== EQUIVALENCE_SCALE) {
      process.stderr.write(`[lockin]   the SF=${EQUIVALENCE_SCALE} database for the mutation analysis's equivalence check:\n`);
      await client.workflow.execute(prepareDatabase, {
        args: [{ scale: EQUIVALENCE_SCALE, settings, analyze: false }],
        workflowId: `lockin-prepare-${scaleTag(EQUIVALENCE_SCALE)}`,
        taskQueue: QUEUES.default,
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    }
    done(t);

    t = step(3, 'evaluator controls (Table II) and SQL re-execution (Table V)');
    const checks = await runOrAttach(client, evaluatorChecks, { workflowId: checksWorkflowId(studyId), studyId, args: [{ scale: o.scale, settings, outDir: sdir }] });
    process.stderr.write(`[lockin]   controls: ${controlsLine(checks.controls.counts, checks.controls.allAsExpected)}\n`);
    const rx = checks.reexecution;
    process.stderr.write(`[lockin]   SQL re-execution: ${rx.reproduced}/${rx.total} reproduced${rx.recordedEarlier ? ' (recorded earlier)' : ''}\n`);
    done(t);

    // A task whose reference could not be built at this scale (e.g. q12 divides by zero under ANSI
    // at SF=0.01) cannot be evaluated: leave it out, and say so.
    const missing = input.tasks.filter((q) => !fs.existsSync(path.join(referencesDir(o.scale), q, 'reference.arrow')));
    if (missing.length) {
      process.stderr.write(`[lockin]   no reference at scale ${o.scale} for ${missing.join(', ')}: left out of this study\n`);
      input.tasks = input.tasks.filter((q) => !missing.includes(q));
    }

    await assertCorpusValid(o.scale, input.tasks);
    t = step(4, `the study: ${input.tasks.length} tasks × ${input.conditions.length} conditions (${studyId})`);
    const out = await runStudyWith(client, target, input);
    done(t);

    if (!o.skipMutation) {
      t = step(5, 'test-suite validity and mutation analysis (every frozen suite against gold and its mutants)');
      try {
        process.stdout.write(`${await runMutationWith(client, studyId, { equivalenceScale: EQUIVALENCE_SCALE, confirmScale: o.scale })}\n`);
        done(t);
      } catch (err) {
        // The study's records and report stay as they are; the analysis can be rerun alone.
        let cause = err as Error & { cause?: Error };
        while (cause?.cause) cause = cause.cause as Error & { cause?: Error };
        process.stderr.write(`[lockin]   mutation analysis FAILED: ${(cause?.message ?? String(err)).split('\n')[0]}\n[lockin]   rerun it with: lockin study mutation ${studyId}\n`);
        process.exitCode = 1;
      }
    }
    return { ...out, ui: studyUiUrl(target, studyId) };
  });
  step(6, 'summary');
  printSummary(studyId, replayed);
  if (res.reportDir) process.stdout.write(`report: ${path.join(res.reportDir, 'report.md')}\n`);
  if (res.ui) process.stdout.write(`Temporal UI: ${res.ui}\n`);
  reportFailures(res, studyId);
  return { ...stepSeconds };
}
