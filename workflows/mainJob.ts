/**
 * mainJob: the main job behind `npm run study` as ONE workflow whose steps the Temporal UI shows
 * (docs/protocol.md §7), each step a child workflow that records its own work:
 *   2. prepareDatabase at the study's scale (and at the equivalence scale of step 5);
 *   3. evaluatorChecks: the evaluator controls (Table II) and the SQL re-execution (Table V);
 *      then the tasks without a reference at this scale are left out (said in the result) and the
 *      corpus is checked by the `lockin tasks check` rules before the first model call;
 *   4. runStudy: the tasks × conditions and the report;
 *   5. mutationAnalysis: test-suite validity and mutation scores, the report rewritten.
 * Steps 1 (server and worker) and 6 (the summary) are the CLI's (client/mainJob.ts).
 * Killing the process that runs it loses nothing: the workflow waits on the server, and the
 * next `npm run study` attaches to it (the CLI starts it with USE_EXISTING); a step that had
 * finished is not run again, and each child skips the work it recorded on disk.
 * A failed mutation analysis does not fail the job: its cause is returned and the study's
 * records and report stay. A corpus problem fails it before any model call.
 */
import { ApplicationFailure, executeChild, proxyActivities, setHandler } from '@temporalio/workflow';
import type { ControlCounts, MainJobActivities } from '../protocol/activities';
import type { MainJobInput, MainJobProgress, MainJobResult, MainJobStep } from '../protocol/inputs';
import { mainJobProgressQuery } from '../protocol/queries';
import { checksWorkflowId, mutationWorkflowId, prepareWorkflowId, studyWorkflowId } from '../protocol/layout';
import { STATUS_KEY, STUDY_KEY } from '../protocol/searchAttributes';
import { LOCAL_STEP } from './options';
import { recordingStatus } from './status';
import { prepareDatabase } from './prepare';
import { evaluatorChecks } from './checks';
import { runStudy } from './study';
import { mutationAnalysis } from './mutation';

const local = proxyActivities<MainJobActivities>(LOCAL_STEP);

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

/** The cause's first line, for a step's report line. */
function firstLine(err: unknown): string {
  let e = err as Error & { cause?: unknown };
  while (e?.cause) e = e.cause as Error & { cause?: unknown };
  return (e?.message ?? String(err)).split('\n')[0];
}

export async function mainJob(input: MainJobInput): Promise<MainJobResult> {
  return recordingStatus(async () => {
    const { study } = input;
    const studyId = study.studyId;
    const progress: MainJobProgress = { studyId, steps: [] };
    setHandler(mainJobProgressQuery, () => progress);
    const attrs = [{ key: STUDY_KEY, value: studyId }, { key: STATUS_KEY, value: 'running' }];
    // Each step: its entry in the progress, timed in workflow time.
    const begin = (n: number, title: string, workflowId: string): MainJobStep => {
      const s: MainJobStep = { n, title, workflowId, lines: [] };
      progress.steps.push(s);
      return s;
    };
    const end = (s: MainJobStep, t0: number) => {
      s.seconds = (Date.now() - t0) / 1000;
    };

    // 2. The database and references; the equivalence check's small database.
    let t0 = Date.now();
    const s2 = begin(2, `TPC-DS database and references at scale ${study.scale}`, prepareWorkflowId(study.scale));
    const prep = await executeChild(prepareDatabase, { workflowId: prepareWorkflowId(study.scale), args: [{ scale: study.scale, settings: study.settings, analyze: true }] });
    const refs = prep.references;
    s2.lines.push(`SF=${study.scale}: ${referencesLine(refs, study.tasks, study.scale)}`);
    if (!input.skipMutation && study.scale !== input.equivalenceScale) {
      const small = await executeChild(prepareDatabase, { workflowId: prepareWorkflowId(input.equivalenceScale), args: [{ scale: input.equivalenceScale, settings: study.settings, analyze: false }] });
      s2.lines.push(`SF=${input.equivalenceScale}: the database of the mutation analysis's equivalence check is ready${smallReferencesNote(small.references, input.equivalenceScale, study.scale)}`);
    }
    end(s2, t0);

    // 3. Evaluator controls and SQL re-execution.
    t0 = Date.now();
    const s3 = begin(3, 'evaluator controls (Table II) and SQL re-execution (Table V)', checksWorkflowId(studyId));
    const checks = await executeChild(evaluatorChecks, { workflowId: checksWorkflowId(studyId), args: [{ scale: study.scale, settings: study.settings, outDir: input.outDir }], typedSearchAttributes: attrs });
    s3.lines.push(`controls: ${controlsLine(checks.controls.counts, checks.controls.allAsExpected)}`);
    s3.lines.push(`SQL re-execution: ${checks.reexecution.reproduced}/${checks.reexecution.total} reproduced${checks.reexecution.recordedEarlier ? ' (recorded earlier)' : ''}${checks.reexecution.resumed ? ` (${checks.reexecution.resumed} of them kept from an attempt cut short)` : ''}`);
    end(s3, t0);

    // A task without a reference at this scale cannot be evaluated: left out, and said.
    const { kept, missing } = await local.tasksWithReferences({ scale: study.scale, tasks: study.tasks });
    const { problems } = await local.checkStudyCorpus({ scale: study.scale, tasks: kept });
    if (problems.length) {
      throw ApplicationFailure.nonRetryable(`the task corpus has ${problems.length} problem(s) (\`lockin tasks check\` rules); no model call was made:\n${problems.map((p) => `  ${p}`).join('\n')}`, 'CorpusInvalid');
    }

    // 4. The study.
    t0 = Date.now();
    const s4 = begin(4, `the study: ${kept.length} task${kept.length === 1 ? '' : 's'} × ${study.conditions.length} condition${study.conditions.length === 1 ? '' : 's'} (${studyId})`, studyWorkflowId(studyId));
    if (missing.length) s4.lines.push(`no reference at scale ${study.scale} for ${missing.join(', ')}: left out of this study`);
    const out = await executeChild(runStudy, {
      workflowId: studyWorkflowId(studyId),
      args: [{ ...study, tasks: kept }],
      memo: { model: study.model, scale: study.scale, settings: study.settings, params: study.params },
      typedSearchAttributes: attrs,
    });
    end(s4, t0);

    // 5. Test-suite validity and mutation analysis.
    let mutation: string | null = null;
    let mutationError: string | undefined;
    if (!input.skipMutation) {
      t0 = Date.now();
      const s5 = begin(5, 'test-suite validity and mutation analysis (every frozen suite against gold and its mutants)', mutationWorkflowId(studyId));
      try {
        mutation = await executeChild(mutationAnalysis, { workflowId: mutationWorkflowId(studyId), args: [{ studyId, equivalenceScale: input.equivalenceScale, confirmScale: study.scale }], typedSearchAttributes: attrs });
        // Its summary is the step's result: shown before the step's "done in".
        s5.lines.push(...mutation.split('\n').filter((line) => line.trim() !== ''));
      } catch (err) {
        mutationError = firstLine(err);
        s5.lines.push(`mutation analysis FAILED: ${mutationError}`);
      }
      end(s5, t0);
    }
    return { studyId, steps: progress.steps, missingReferences: missing, reportDir: out.reportDir, failed: out.failed, mutation, ...(mutationError ? { mutationError } : {}) };
  });
}

/**
 * What the equivalence check's small database lacks, for step 2's line (pure): its references
 * that failed (their tasks' mutants are checked at the study's scale instead, docs/protocol.md
 * §7) and those that are empty there. Inputs: prepareDatabase's references summary; the two scale
 * factors. Returns "" when nothing failed and nothing is empty, else "; …" to append.
 */
export function smallReferencesNote(refs: { count: number; failed: { id: string; error: string }[]; empty?: string[] }, small: number, studyScale: number): string {
  const failed = refs.failed.length ? `; ${refs.failed.map((f) => `${f.id} has no reference here (${f.error.split(/[.\n]/)[0]}): its mutants are checked at SF=${studyScale}`).join('; ')}` : '';
  const empty = refs.empty?.length ? `; empty at SF=${small}: ${refs.empty.join(', ')} (an empty mutant output agrees with them there)` : '';
  return failed + empty;
}

/**
 * Step 2's line on the references: how many are stored, the failed ones with the first sentence of
 * their error (left out of the study at this scale), and the empty ones, marking the study's tasks
 * among them: an empty output agrees with an empty reference (docs/protocol.md §7, "Discrimination
 * per task"; new-user finding). Input: prepareDatabase's `references` and the study's tasks. Pure.
 */
export function referencesLine(refs: { count: number; failed: { id: string; error: string }[]; empty?: string[] }, studyTasks: readonly string[], scale?: number): string {
  // Expected at a small scale (worded as expected, not as an error): see expectedReferenceFailure.
  const expected = scale === undefined ? [] : refs.failed.filter((f) => expectedReferenceFailure(f.error, scale) !== null);
  const unexpected = refs.failed.filter((f) => !expected.includes(f));
  const failed = unexpected.length ? `, ${unexpected.length} FAILED (${unexpected.map((f) => `${f.id}: ${f.error.split(/[.\n]/)[0]}`).join('; ')}; left out of the study at this scale)` : '';
  const known = expected.map((f) => `; ${f.id} has no reference at SF=${scale} (${expectedReferenceFailure(f.error, scale!)}): expected, left out of the study at this scale`).join('');
  const empty = refs.empty?.length
    ? `${known ? ';' : ','} ${refs.empty.length} empty at this scale (${refs.empty.map((id) => (studyTasks.includes(id) ? `${id} (study task)` : id)).join(', ')}: an empty output agrees with them; the report's discrimination table flags them)`
    : '';
  return `${refs.count} references stored${failed}${known}${empty}`;
}

/**
 * Why a reference query's failure is expected, or null when it is not: below SF=1 a query that
 * divides by a sum over rows the small database does not hold fails under ANSI with
 * DIVIDE_BY_ZERO (q12 at SF=0.01, docs/running-a-study.md); at SF=1, the study's scale, every
 * failure is unexpected. Inputs: the error text, the scale factor. Pure.
 */
export function expectedReferenceFailure(error: string, scale: number): string | null {
  return scale < 1 && /DIVIDE_BY_ZERO/.test(error) ? 'division by zero under ANSI' : null;
}
