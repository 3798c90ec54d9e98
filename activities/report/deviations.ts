/**
 * The deviations from the paper, with their reasons: one list, rendered in every report's
 * "Deviations from the paper" section and kept in step with the section of the same name in
 * docs/paper.md (moved there from the README on 2026-12-06)
 * (test/report/deviations.test.ts checks that every title appears there).
 */
import type { StudyFailure } from '../../protocol/inputs';
import { failureDeviation } from './failures';
import { isLocalSpec, isReplaySpec, STANDIN_MODEL_PREFIX } from '../../protocol/model';
import { localTestModelCaveat } from './provenance';

/** One deviation: what the paper did, what lockin does, and why. */
export interface Deviation {
  /** A short name, bold in docs/paper.md and the report. */
  title: string;
  paper: string;
  lockin: string;
  reason: string;
}

/** Every deviation that holds for any lockin study. */
export const DEVIATIONS: readonly Deviation[] = [
  {
    title: 'Query texts',
    paper: "TPC-DS 4.0 reference queries from the KubedAI spark-sql-perf fork (branch support-tpcds-v4.0, commit 6063ccd).",
    lockin: "Apache Spark's own TPC-DS v1.4 query set (tpcds/ in org.apache.spark:spark-sql_2.13:4.1.2:tests), read at run time and never copied into the repository.",
    reason: 'No package registry carries the fork; the Spark tests jar is on Maven Central and also holds golden SF=1 answers. The texts differ, so references, eligibility and task prompts are not the paper\'s.',
  },
  {
    title: 'Data generator',
    paper: "The fork's dsdgen build, SCALE=1.",
    lockin: '`tpcgen-cli` 4.0.0 with `--compat c`, SF=1, loaded with decimals as decimals and dates as dates.',
    reason: 'The fork is not installable; tpcgen-cli is on a registry and checked byte-for-byte by its authors against DSGen 4.0.0 dsdgen at SF=1.',
  },
  {
    title: 'A call is one API request, or one Claude Code session',
    paper: 'A protocol-level call is a Claude Code (July 2026) session; the CLI build, the serving API and per-run invocation counts are unavailable; the controls on what a session saw and changed were procedural.',
    lockin: "With `anthropic:` a call is exactly one Messages API request, written as sent to calls/NN-<stage>.json (no agent loop, no tool use; lockin writes the artifacts from the reply). With `claude-code:` a call is one Claude Code session, the paper's harness (npm @anthropic-ai/claude-agent-sdk 0.3.328 and the Claude Code 2.1.328 it ships): a fresh folder with only what the stage may see, Claude Code's Read, Write and Edit and, in revisions that receive pytest failures, pytest through lockin's sandbox; each tool use checked by lockin before it runs (a write to a frozen file is refused and reported as a permission deviation; a path outside the folder or another tool is refused); limits on turns, tokens and time; the transcript, every API reply's usage and the cost recorded with the call. What still differs: the paper's CLI build, settings and prompts are unknown (lockin's sessions use Claude Code's own system prompt with lockin's appended, no Bash or web tools, no pytest in the generation calls); the sessions have run here only against a local stand-in of the API.",
    reason: 'A single request is reproducible, cacheable and auditable, and stays the default; a session is the paper\'s unit of work and lets the model run its own tests, as a Claude Code session may have done. Both are cached whole, so a resumed study pays for neither twice.',
  },
  {
    title: 'top_p recorded, not sent',
    paper: 'temperature 1.0 and top-p 1.0.',
    lockin: 'Both are recorded as the intended sampling; only temperature is sent (a Claude Code session sends neither: Claude Code sets no sampling parameter).',
    reason: 'Current Claude models reject requests that set both temperature and top_p; 1.0 is the API default of both, so the sampling is the same.',
  },
  {
    title: 'Task selection',
    paper: 'All 30 variants that passed the eligibility screen (73 excluded); the paper names 15 of them (q2 q4 q5 q11 q13 q14a q14b q17 q33 q35 q47 q69 q77 q78 q80) and the extra references q23b, q54, q85.',
    lockin: "The 15 named tasks plus 15 chosen by hand by the project (q1 q3 q7 q12 q18 q22 q27 q36 q38 q49 q51 q70 q87 q94 q98) with the stated aim of covering correlated subqueries, windows, ROLLUP/GROUPING, INTERSECT/EXCEPT, EXISTS and full outer joins; no further rule is recorded (18 unused variants have such constructs too). tasks/eligibility.yaml gives every variant its study status: 30 study tasks, 73 excluded (3 extra references by the paper, 70 by the project's choice).",
    reason: 'The paper does not list its other 15 tasks; on the v1.4 texts the screen does not single out 30 variants.',
  },
  {
    title: 'Eligibility screen',
    paper: '30 eligible, 73 excluded on the 4.0 texts (recursive CTE, multi-statement, pivot, unsupported extensions among them), assessed by one author.',
    lockin: 'The same three criteria and named exclusions applied to the 103 v1.4 texts, each criterion\'s result and evidence per variant in tasks/eligibility.yaml. They exclude none (screen_excluded_count: 0), so the stated criteria do not reproduce the paper\'s 73 exclusions (paper_excluded_count: 73).',
    reason: 'The texts differ (v1.4 splits the two-statement templates into a/b files and has no recursive CTE, pivot, lateral view, UDF or extension); the paper publishes no per-variant list.',
  },
  {
    title: 'Prompts, obligations and gold written by the project',
    paper: "One author translated each query into task.yaml, another checked prompt fidelity; 334 obligations derived from SQL, specification and output schemas (not published).",
    lockin: 'task.yaml, obligations.yaml (8–12 per task) and a gold solution per task written by the project from the v1.4 texts; `lockin tasks check` checks them mechanically, no second author checked fidelity.',
    reason: "The paper's materials are available only on request.",
  },
  {
    title: 'Automated labels',
    paper: 'Both authors labelled coverage and mechanisms independently under a frozen rubric, then adjudicated.',
    lockin: 'Code and test labels come from executing each obligation\'s acceptance tests and violation where the corpus has them, else from schema rules, a model judge (a judge call, after freeze) or a documented heuristic; plan labels from the judge or the heuristic. Human raters can label blinded exports (`lockin labels export`), every rater\'s file is kept, agreement is reported as Cohen\'s kappa and adjudicated labels are recorded with the disagreement they resolved.',
    reason: 'No human labellers run with the study; every label names the labeller that produced it, and the report measures the code labellers on gold and the obligation violations.',
  },
  {
    title: 'Replay replies',
    paper: 'Every reply was sampled from claude-sonnet-4-6.',
    lockin: 'Without ANTHROPIC_API_KEY the study replays `replay:lockin`: reply files authored by the project with the references known or generated from the obligations, none recorded from a model. Each states its provenance and the report gives the shares.',
    reason: 'So the instrument runs end to end without a key; such a study demonstrates the instrument and is no evidence about any model.',
  },
  {
    title: 'Environment',
    paper: 'Spark/PySpark 4.1.2, Python 3.11.15, local[*], eight shuffle partitions, one machine.',
    lockin: 'PySpark 4.1.2 from PyPI, Python 3.11 (3.11.7 here), Java 17, local[*] with eight shuffle partitions; the exact settings are in study.json.',
    reason: 'The versions the machine and PyPI provide; every setting is recorded.',
  },
  {
    title: 'Enforced isolation',
    paper: 'Leak controls were procedural; operating-system enforcement was not verified.',
    lockin: 'A preflight check fails any call whose folder or request holds reference material, and candidates run in an OS sandbox (bubblewrap where available).',
    reason: 'Enforcement in code can be tested; it is stricter than the paper, not looser.',
  },
  {
    title: 'Edits classified by syntax',
    paper: 'Post-hoc diffs classify plan, solution and test edits.',
    lockin: "Test edits are classified with Python's ast (imports/syntax, fixture data, fixture structure, assertions added/removed/changed); a fixture-data or assertion change that turns a failing test green is recorded as a permission deviation.",
    reason: "The paper's classification procedure is not published; its reported deviation (fixture edits that changed what the tests judge) is what this makes mechanical.",
  },
];

/**
 * The study-specific deviations of one study (its model, its task list, its scale, and its task
 * runs that failed without a record: `failed`, from runs/<id>/failures.json). Pure.
 */
export function studyDeviations(opts: { model: string; tasks: readonly string[]; studyTaskCount: number; scale?: number; failed?: readonly StudyFailure[]; replyModels?: readonly string[] }): string[] {
  const out: string[] = [];
  const standin = (opts.replyModels ?? []).filter((m) => m.startsWith(STANDIN_MODEL_PREFIX));
  if (standin.length) out.push(`This study's replies came from lockin's Messages API stand-in (${standin.map((m) => `\`${m}\``).join(', ')}), which scripts the calls from the replay corpus: it checks lockin's path, not any model.`);
  if (isReplaySpec(opts.model)) out.push(`This study's replies were replayed from \`${opts.model}\`, not sampled from claude-sonnet-4-6 (see the first paragraph for their provenance).`);
  else if (isLocalSpec(opts.model)) out.push(`This study's model is \`${opts.model}\`, a local GGUF model run on the worker's machine (node-llama-cpp), not the paper's claude-sonnet-4-6.${localTestModelCaveat(opts.model) ? ' It is the 270M base test model: the study checks the path, not lock-in.' : ''}`);
  else if (!/claude-sonnet-4-6/.test(opts.model)) out.push(`This study's model is \`${opts.model}\`, not the paper's claude-sonnet-4-6.`);
  if (opts.tasks.length !== opts.studyTaskCount) out.push(`This study assigned ${opts.tasks.length} of the ${opts.studyTaskCount} study tasks (${opts.tasks.join(' ')}).`);
  if (opts.scale !== undefined && opts.scale !== 1) out.push(`This study ran on the SF=${opts.scale} database, not the paper's SF=1.`);
  const failed = failureDeviation(opts.failed ?? []);
  if (failed) out.push(failed);
  return out;
}

/** The report section "Deviations from the paper" (Markdown). Pure. */
export function renderDeviations(study: string[]): string {
  const rows = DEVIATIONS.map((d) => `- **${d.title}.** Paper: ${d.paper} lockin: ${d.lockin} Why: ${d.reason}`);
  return [...(study.length ? ['This study:', '', ...study.map((s) => `- ${s}`), '', 'Every lockin study:', ''] : []), ...rows].join('\n');
}
