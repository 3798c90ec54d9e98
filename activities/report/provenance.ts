/**
 * What share of a study's model replies had each provenance (protocol/provenance.ts), read from
 * the call files (`runs/<id>/tasks/<taskId>/…/calls/NN-<stage>.json`, which copy the provenance of
 * the reply), and the sentences the report opens with and Table III's caption repeats.
 *
 * Counted: every protocol-level call that returned a reply (status ok or protocol-error) in the
 * shared initial generation, the conditions and the targeted replications. Not counted: judge calls (they
 * label runs after freeze, they write no artifact), and calls that failed before a reply. Each
 * call is counted once: a condition directory never copies the snapshot's calls/
 * (activities/store/dirs.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { InputError } from '../common/errors';
import { LOCAL_TEST_MODEL, STANDIN_MODEL_PREFIX, tryParseModelSpec } from '../../protocol/model';
import { PROVENANCE_KINDS, PROVENANCE_WORDS, Provenance, isModelEvidence, type ProvenanceKind } from '../../protocol/provenance';

/** The call-file fields this module reads. */
const CallFileShape = z.object({ stage: z.string(), status: z.string(), provenance: Provenance.optional() }).passthrough();

/** Reply counts per provenance; `unstated` counts call files written before calls carried one. */
export interface ReplyProvenance {
  total: number;
  byKind: Record<ProvenanceKind, number>;
  unstated: number;
  /** Distinct model ids of generated and recorded replies; a local model's with its file's hash: "gemma3-270m (model file sha256 a5fd…)". */
  models: string[];
  /**
   * Of byKind.authored: replies whose front matter note says they were written without the
   * references, from the task prompt (and the suite's failure output) alone (isPromptOnlyNote).
   * Absent in a summary.json written before this count existed.
   */
  authoredPromptOnly?: number;
  /** Replies left out because no run with a record lies behind them (a failed task's or condition's calls). */
  withoutRecord?: number;
}

/**
 * True when an authored reply's front matter note says it was written from the task prompt
 * alone, never from the SQL or the reference (the Contract-First contracts and revisions of
 * replay/lockin, README "Replay corpora and provenance": "written by hand … from the task prompt alone …, never from the SQL or
 * the reference"; "… from the contract suite's failure output and the task prompt only …"), and
 * that does not say it was also run against the gold solution. Pure.
 */
export function isPromptOnlyNote(note: string | undefined): boolean {
  // A reply also run against the gold solution before it was kept (q3's and q4's contracts) is not
  // "prompt alone": gold was written with the references known (new-user 3 finding 19).
  return !!note && /never from the (SQL|reference)|from the task prompt alone|task prompt only/i.test(note) && !/\bgold\b/i.test(note);
}

/** True when `file` lies in one of `runDirs`, or in the `snapshot` folder beside one (the shared initial generation). */
function behindRun(file: string, runDirs: readonly string[]): boolean {
  const f = path.resolve(file);
  return runDirs.some((d) => {
    const dir = path.resolve(d);
    const snapshot = path.join(path.dirname(dir), 'snapshot');
    return f.startsWith(dir + path.sep) || f.startsWith(snapshot + path.sep);
  });
}

/** Every call file under `dir` (files of any `calls/` folder at any depth), sorted. */
export function callFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(e.name === 'calls' ? fs.readdirSync(p).filter((f) => f.endsWith('.json')).map((f) => path.join(p, f)) : callFiles(p)));
  }
  return out.sort();
}

/**
 * Counts the replies of a study by provenance, and the authored ones written from the prompt
 * alone (isPromptOnlyNote).
 * Input: the study folder (runs/<id>); `runDirs`, the folders of the runs that have a record
 * (when given, only replies in those folders or the snapshot beside them count, the rest are
 * `withoutRecord`: findings #18). Output: counts (zero when the study has no call files).
 * @throws InputError naming the call file and field when one is not JSON or its provenance is invalid.
 */
export function readReplyProvenance(studyDir: string, opts: { runDirs?: readonly string[] } = {}): ReplyProvenance {
  const out: ReplyProvenance = { total: 0, byKind: Object.fromEntries(PROVENANCE_KINDS.map((k) => [k, 0])) as Record<ProvenanceKind, number>, unstated: 0, models: [], authoredPromptOnly: 0, withoutRecord: 0 };
  const models = new Set<string>();
  for (const file of callFiles(path.join(studyDir, 'tasks'))) {
    let j: unknown;
    try {
      j = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new InputError(`not JSON: ${(e as Error).message}`, file);
    }
    const c = CallFileShape.safeParse(j);
    if (!c.success) throw new InputError(c.error.issues[0].message, file, c.error.issues[0].path.join('.'));
    if (c.data.stage === 'judge' || (c.data.status !== 'ok' && c.data.status !== 'protocol-error')) continue;
    if (opts.runDirs && !behindRun(file, opts.runDirs)) {
      out.withoutRecord!++;
      continue;
    }
    out.total++;
    const p = c.data.provenance;
    if (!p) out.unstated++;
    else {
      out.byKind[p.provenance]++;
      if (p.provenance === 'authored' && isPromptOnlyNote(p.note)) out.authoredPromptOnly!++;
      if (p.provenance === 'generated' || p.provenance === 'recorded') models.add(p.provenance === 'generated' && p.modelSha256 ? `${p.model} (model file sha256 ${p.modelSha256})` : p.model);
    }
  }
  out.models = [...models].sort();
  return out;
}

/**
 * The provenance kinds of one run's replies, for the runs export: the distinct kinds of the call
 * files its record lists (`stages[].callFile`, the shared initial generation's included), in
 * PROVENANCE_KINDS order, `unstated` for a call file written before calls carried one.
 * Input: the study folder (a relative callFile is read from there) and the record's stages.
 * Output: e.g. ["authored", "generated-from-obligations"]; [] when no call file is listed or found.
 * @throws InputError naming the call file and field when one is not JSON or its provenance is invalid.
 */
export function runReplyProvenance(studyDir: string, stages: { callFile: string }[]): string[] {
  const kinds = new Set<string>();
  for (const s of stages) {
    const file = path.isAbsolute(s.callFile) ? s.callFile : path.join(studyDir, s.callFile);
    if (!fs.existsSync(file)) continue;
    let j: unknown;
    try {
      j = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new InputError(`not JSON: ${(e as Error).message}`, file);
    }
    const c = CallFileShape.safeParse(j);
    if (!c.success) throw new InputError(c.error.issues[0].message, file, c.error.issues[0].path.join('.'));
    kinds.add(c.data.provenance?.provenance ?? 'unstated');
  }
  return [...PROVENANCE_KINDS, 'unstated'].filter((k) => kinds.has(k));
}

function pct(n: number, d: number): string {
  return `${((100 * n) / d).toFixed(1)}%`;
}

/**
 * The report's opening paragraph: in words, what share of the replies behind the recorded runs
 * had each provenance and what that means; authored replies are split into those written with
 * the references known and those written from the task prompt alone (their front matter says
 * so), and replies of runs without a record are said to be left out. Pure.
 */
export function provenanceParagraph(p: ReplyProvenance, model: string): string {
  const left = p.withoutRecord ? ` (${p.withoutRecord} further repl${p.withoutRecord === 1 ? 'y' : 'ies'} of runs that have no record are not counted)` : '';
  if (p.total === 0) return `No call file with a model reply was found for this study (model \`${model}\`)${left}, so the provenance of its replies is not known.`;
  const promptOnly = p.authoredPromptOnly ?? 0;
  const authoredSplit = (n: number) => (promptOnly > 0 ? ` (${n - promptOnly} with the task references known, ${promptOnly} from the task prompt alone, as ${promptOnly === 1 ? 'its' : 'their'} front matter says)` : '');
  const parts = PROVENANCE_KINDS.filter((k) => p.byKind[k] > 0).map((k) => `${p.byKind[k]} (${pct(p.byKind[k], p.total)}) ${PROVENANCE_WORDS[k]}${k === 'authored' ? authoredSplit(p.byKind[k]) : ''}`);
  if (p.unstated) parts.push(`${p.unstated} (${pct(p.unstated, p.total)}) with no provenance in their call file`);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  const evidence = PROVENANCE_KINDS.filter(isModelEvidence).reduce((n, k) => n + p.byKind[k], 0);
  const notEvidence = p.total - evidence - p.unstated;
  const scope = p.withoutRecord === undefined ? 'in this study' : 'behind the recorded runs of this study';
  const out = [`Of the ${p.total} model replies ${scope} (model \`${model}\`)${left}, ${list}.`];
  if (notEvidence > 0) {
    const known = promptOnly > 0
      ? `Replies authored with the references known, and replies generated from the obligations or the gold solutions, were written with the task references known; ${promptOnly === 1 ? 'the one reply' : `the ${promptOnly} replies`} authored from the task prompt alone ${promptOnly === 1 ? 'was' : 'were'} not, but ${promptOnly === 1 ? 'it' : 'they'} too ${promptOnly === 1 ? 'was' : 'were'} written by the project, not sampled from a model. None of these is evidence about any model: they demonstrate the instrument. `
      : 'Authored replies, and replies generated from the obligations or the gold solutions, were written with the task references known: they demonstrate the instrument and are no evidence about any model. ';
    out.push(
      `${evidence === 0 ? 'None' : `Only ${evidence} (${pct(evidence, p.total)})`} came from a model${evidence ? ` (${p.models.join(', ')})` : ''}. ` +
        known +
        (evidence === 0 ? 'The rates below describe this replay corpus, not a model.' : 'Rates over all replies mix the two; only a study whose replies all came from a model measures one.'),
    );
  } else if (evidence > 0) out.push(`Every reply came from ${p.models.length === 1 ? 'the model' : 'the models'} ${p.models.join(', ')}.`);
  const caveat = localTestModelCaveat(model);
  if (caveat) out.push(caveat);
  const standin = standinCaveat(p.models);
  if (standin) out.push(standin);
  return out.join(' ');
}

/**
 * What a study of the local test model (`local:gemma3-270m`, protocol/model.ts LOCAL_TEST_MODEL)
 * must say plainly: its replies came from a 270M base model, so the study checks lockin's path
 * with a real model, not lock-in. Null for any other model. Pure.
 */
export function localTestModelCaveat(model: string): string | null {
  const spec = tryParseModelSpec(model);
  if (spec?.provider !== 'local' || path.basename(spec.model).replace(/\.gguf$/i, '') !== LOCAL_TEST_MODEL) return null;
  return `These replies came from ${LOCAL_TEST_MODEL}, Gemma 3 270M: a 270-million-parameter base model (not instruction tuned, no chat template) run on this machine, which rarely if ever writes the three files a reply must hold. This study is a check of lockin's path with a real model (generation, cache, ledger, budgets, evaluation, report), not a measurement of lock-in: its rates say nothing about the paper's question.`;
}

/**
 * What a report must say when replies came from lockin's Messages API stand-in (their model name
 * starts with STANDIN_MODEL_PREFIX, protocol/model.ts; docs/models.md "A stand-in"): they were
 * scripted, not sampled, so the study checks lockin's path and is no evidence about any model.
 * Input: the reply models of ReplyProvenance.models. Null when none is a stand-in's. Pure.
 */
export function standinCaveat(models: readonly string[]): string | null {
  const s = models.filter((m) => m.startsWith(STANDIN_MODEL_PREFIX));
  if (!s.length) return null;
  const names = s.map((m) => `\`${m}\``).join(', ');
  return `${names} ${s.length === 1 ? 'is the name' : 'are the names'} lockin's Messages API stand-in (infra/messagesStandin.ts) gives the replies it scripts from the project's replay corpus: ${s.length === models.length ? 'every one of these replies was' : 'those replies were'} written by the stand-in, not sampled from any model. A stand-in study checks lockin's path (sessions, permissions, budgets, transcripts, report); it is no evidence about any model.`;
}

/** The short form for Table III's caption. Pure. */
export function provenanceCaption(p: ReplyProvenance): string {
  if (p.total === 0) return 'Provenance of the replies: unknown (no call files).';
  const promptOnly = p.authoredPromptOnly ?? 0;
  const parts = PROVENANCE_KINDS.filter((k) => p.byKind[k] > 0).map((k) => `${pct(p.byKind[k], p.total)} ${PROVENANCE_WORDS[k]}${k === 'authored' && promptOnly ? ` (${promptOnly} of them from the task prompt alone)` : ''}`);
  if (p.unstated) parts.push(`${pct(p.unstated, p.total)} of unstated provenance`);
  const evidence = PROVENANCE_KINDS.filter(isModelEvidence).reduce((n, k) => n + p.byKind[k], 0);
  const tail = evidence === p.total ? '' : evidence === 0 ? ' These outcomes describe the replay corpus and are no evidence about any model.' : ' Only the generated and recorded replies are evidence about a model.';
  const standin = p.models.some((m) => m.startsWith(STANDIN_MODEL_PREFIX)) ? ` Replies named \`${STANDIN_MODEL_PREFIX}…\` were scripted by lockin's Messages API stand-in: no evidence about any model.` : '';
  return `Replies behind these outcomes (${p.total}): ${parts.join('; ')}.${tail}${standin}`;
}
