/**
 * Lenient readers for the optional files other parts of lockin write into a study folder:
 * controls.json (evaluator controls, Table II), reproduce.json (SQL re-execution, Table V) and
 * mutation.json (mutation scores of frozen suites). Each accepts the shapes documented on its
 * function and raises an InputError naming the file and field otherwise. Pure.
 */
import { InputError } from '../common/errors';

/** One evaluator control: category, query, expected and observed outcome. */
export interface ControlRow {
  category: string;
  query: string;
  expected: 'accept' | 'reject';
  outcome: string;
  asExpected: boolean;
  verified: boolean | null;
}

/** Normalizes accept/reject words: accept, accepted, agree, agrees, pass, match → accept; reject, rejected, disagree, fail, mismatch → reject. */
export function acceptReject(v: unknown): 'accept' | 'reject' | null {
  if (typeof v === 'boolean') return v ? 'accept' : 'reject';
  const s = String(v ?? '').trim().toLowerCase();
  if (['accept', 'accepted', 'agree', 'agrees', 'agreed', 'pass', 'passed', 'match', 'matched', 'true'].includes(s)) return 'accept';
  if (['reject', 'rejected', 'disagree', 'disagrees', 'fail', 'failed', 'mismatch', 'false'].includes(s)) return 'reject';
  return null;
}

function asList(json: unknown, keys: string[], file: string): Record<string, unknown>[] {
  const list = Array.isArray(json) ? json : keys.map((k) => (json as Record<string, unknown>)?.[k]).find(Array.isArray);
  if (!Array.isArray(list)) throw new InputError(`expected a list (or an object with ${keys.join('/')})`, file);
  return list.map((x, i) => {
    if (!x || typeof x !== 'object') throw new InputError('expected an object', file, `[${i}]`);
    return x as Record<string, unknown>;
  });
}

/**
 * controls.json: a list (or {controls: [...]}, as activities/compare writes it) of
 * {category|kind, query|qid, expected, outcome|observed, verified?}. expected/outcome are
 * accept/reject words (acceptReject); an outcome that is neither (e.g. "error", "skipped")
 * counts as not as expected.
 */
export function parseControls(json: unknown, file = 'controls.json'): ControlRow[] {
  return asList(json, ['controls', 'results'], file).map((c, i) => {
    const expected = acceptReject(c.expected);
    if (!expected) throw new InputError(`expected must be accept or reject, got ${JSON.stringify(c.expected)}`, file, `[${i}].expected`);
    const outcomeRaw = c.outcome ?? c.observed ?? c.actual;
    const outcome = acceptReject(outcomeRaw) ?? String(outcomeRaw ?? 'missing');
    return {
      category: String(c.category ?? c.kind ?? 'unknown'),
      query: String(c.query ?? c.qid ?? c.variant ?? c.task ?? ''),
      expected,
      outcome,
      asExpected: outcome === expected,
      verified: typeof c.verified === 'boolean' ? c.verified : null,
    };
  });
}

/** One reference's SQL re-execution verdict. */
export interface ReproduceRow {
  query: string;
  reproduced: boolean;
  detail: string;
}

/**
 * reproduce.json: a list (or {results|references|queries: [...]}) of {query|variant|task|id,
 * reproduced: boolean | status: "reproduced"/"match"/"ok"/... | match: boolean, detail?|reason?},
 * or an object mapping query id → boolean or such an object.
 */
export function parseReproduce(json: unknown, file = 'reproduce.json'): ReproduceRow[] {
  let items: Record<string, unknown>[];
  if (json && typeof json === 'object' && !Array.isArray(json) && !['results', 'references', 'queries'].some((k) => Array.isArray((json as Record<string, unknown>)[k]))) {
    items = Object.entries(json as Record<string, unknown>).map(([k, v]) => (typeof v === 'object' && v !== null ? { query: k, ...(v as object) } : { query: k, reproduced: v }));
  } else items = asList(json, ['results', 'references', 'queries'], file);
  return items.map((r, i) => {
    const query = r.query ?? r.variant ?? r.task ?? r.id ?? r.qid;
    if (typeof query !== 'string') throw new InputError('missing query id', file, `[${i}].query`);
    let reproduced: boolean | null = null;
    for (const k of ['reproduced', 'match', 'matched', 'agree']) if (typeof r[k] === 'boolean') reproduced = r[k] as boolean;
    if (reproduced === null && typeof r.status === 'string') reproduced = ['reproduced', 'match', 'matched', 'ok', 'agree', 'agrees'].includes(r.status.toLowerCase());
    if (reproduced === null) throw new InputError('no reproduced/match/status field', file, `[${i}]`);
    const detail = String(r.detail ?? r.reason ?? r.summary ?? r.status ?? '');
    return { query, reproduced, detail };
  });
}

/** One mutation-score row. */
export interface MutationRow {
  task: string;
  condition: string;
  killed: number;
  total: number;
  validOnGold: boolean | null;
  /** Mutants dropped as equivalent (agree with the reference); null when not recorded. */
  equivalent: number | null;
  /** Surviving non-equivalent mutants per operator (valid suites); {} when not recorded. */
  survivorsByOperator: Record<string, number>;
}

/**
 * mutation.json: a list (or {suites|results: [...]}, as activities/mutation/study.ts writes it)
 * of {task, condition, killed, total | mutants (a number), validOnGold?|valid?, equivalent?,
 * survivorsByOperator?}. Returns rows; unknown shapes raise InputError.
 */
export function parseMutation(json: unknown, file = 'mutation.json'): MutationRow[] {
  return asList(json, ['suites', 'results'], file).map((r, i) => {
    const killed = Number(r.killed);
    const total = Number(r.total ?? (Array.isArray(r.mutants) ? r.mutants.length : r.mutants));
    if (!Number.isFinite(killed) || !Number.isFinite(total)) throw new InputError('killed and total must be numbers', file, `[${i}]`);
    const valid = r.validOnGold ?? r.valid;
    const surv = r.survivorsByOperator && typeof r.survivorsByOperator === 'object' ? (r.survivorsByOperator as Record<string, unknown>) : {};
    return {
      task: String(r.task ?? ''),
      condition: String(r.condition ?? ''),
      killed,
      total,
      validOnGold: typeof valid === 'boolean' ? valid : null,
      equivalent: typeof r.equivalent === 'number' ? r.equivalent : null,
      survivorsByOperator: Object.fromEntries(Object.entries(surv).map(([k, v]) => [k, Number(v)])),
    };
  });
}
