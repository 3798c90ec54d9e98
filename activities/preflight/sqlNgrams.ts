/**
 * Reference-SQL detection by token n-grams (docs/protocol.md §3, leak control). Pure functions:
 * no I/O, so the rule can be unit-tested on worked examples.
 *
 * Tokenization: lower-cased; SQL `--` line comments and `/* *\/` block comments dropped; string
 * literals kept as one token with their quotes normalized to single quotes ('x' and "x" agree);
 * identifiers, numbers and operators are tokens; whitespace and layout are ignored. So a pasted
 * query still matches after re-indentation, re-casing or quote changes.
 *
 * Rule (DEFAULT_SQL_THRESHOLDS): a text leaks reference query q when
 *   (a) the whole token sequence of q occurs contiguously in the text (exact text), or
 *   (b) the text shares a contiguous run of >= minRunTokens (40) tokens with q, i.e. at least
 *       minRunTokens - n + 1 consecutive shared 8-grams (a pasted fragment of ~3-4 SQL lines), or
 *   (c) the text contains >= minRatio (50%) of q's distinct 8-grams (a re-ordered paste).
 * Why 40 tokens: the longest runs that a model can write independently from a task prompt are
 * column lists of a GROUP BY / ORDER BY (q98's two lists together are ~26 tokens); 40 tokens
 * leaves a margin above those while still catching any pasted CTE or WHERE block.
 */

/** The n of the n-grams and the two thresholds of the rule above. */
export interface SqlLeakThresholds {
  n: number;
  minRunTokens: number;
  minRatio: number;
}

export const DEFAULT_SQL_THRESHOLDS: SqlLeakThresholds = { n: 8, minRunTokens: 40, minRatio: 0.5 };

/** Splits text into normalized SQL-ish tokens (see module doc). */
export function sqlTokens(text: string): string[] {
  const s = text.toLowerCase().replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');
  const re = /'(?:[^'\n]|'')*'|"[^"\n]*"|[a-z_][a-z0-9_$]*|\d+(?:\.\d+)?|<=|>=|<>|!=|\|\||[^\s\w]/g;
  const out: string[] = [];
  for (const m of s.matchAll(re)) {
    const t = m[0];
    out.push(t.startsWith('"') && t.length >= 2 ? `'${t.slice(1, -1)}'` : t);
  }
  return out;
}

/** One reference query prepared for matching. */
export interface IndexedQuery {
  id: string;
  tokenCount: number;
  /** Distinct n-grams of the query (joined with a space). */
  gramCount: number;
}

/** All reference queries' n-grams, indexed for a single pass over a text. */
export interface SqlIndex {
  n: number;
  queries: Map<string, IndexedQuery>;
  /** n-gram -> ids of the queries that contain it. */
  gramToIds: Map<string, string[]>;
}

function grams(tokens: string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= tokens.length; i++) out.push(tokens.slice(i, i + n).join(' '));
  return out;
}

/**
 * Builds the index over reference query texts.
 * @param texts {id: SQL text}, e.g. the 103 TPC-DS variants.
 * @param n n-gram length in tokens (default 8).
 */
export function buildSqlIndex(texts: Record<string, string>, n = DEFAULT_SQL_THRESHOLDS.n): SqlIndex {
  const queries = new Map<string, IndexedQuery>();
  const gramToIds = new Map<string, string[]>();
  for (const [id, text] of Object.entries(texts)) {
    const toks = sqlTokens(text);
    const distinct = new Set(grams(toks, n));
    queries.set(id, { id, tokenCount: toks.length, gramCount: distinct.size });
    for (const g of distinct) {
      const ids = gramToIds.get(g);
      if (ids) ids.push(id);
      else gramToIds.set(g, [id]);
    }
  }
  return { n, queries, gramToIds };
}

/** How much of one reference query a text contains. */
export interface SqlOverlap {
  id: string;
  /** Distinct n-grams of the query found in the text. */
  sharedGrams: number;
  /** sharedGrams / the query's distinct n-grams (0..1). */
  ratio: number;
  /** Longest contiguous run of text tokens covered by consecutive shared n-grams. */
  longestRunTokens: number;
  /** The whole query occurs contiguously (token-normalized exact text). */
  exact: boolean;
}

/**
 * Overlap of `text` with every indexed query that shares at least one n-gram, sorted by
 * longest run (desc). Pure; O(tokens of text).
 */
export function sqlOverlaps(text: string, index: SqlIndex): SqlOverlap[] {
  const { n } = index;
  const toks = sqlTokens(text);
  const shared = new Map<string, Set<string>>();
  const longest = new Map<string, number>();
  let runs = new Map<string, number>();
  for (let i = 0; i + n <= toks.length; i++) {
    const g = toks.slice(i, i + n).join(' ');
    const ids = index.gramToIds.get(g);
    const next = new Map<string, number>();
    if (ids) {
      for (const id of ids) {
        const run = (runs.get(id) ?? 0) + 1;
        next.set(id, run);
        if (run > (longest.get(id) ?? 0)) longest.set(id, run);
        let s = shared.get(id);
        if (!s) shared.set(id, (s = new Set()));
        s.add(g);
      }
    }
    runs = next;
  }
  const out: SqlOverlap[] = [];
  for (const [id, s] of shared) {
    const q = index.queries.get(id)!;
    const runGrams = longest.get(id) ?? 0;
    const longestRunTokens = runGrams + n - 1;
    out.push({
      id,
      sharedGrams: s.size,
      ratio: q.gramCount ? s.size / q.gramCount : 0,
      longestRunTokens,
      exact: q.tokenCount >= n && s.size === q.gramCount && longestRunTokens >= q.tokenCount,
    });
  }
  return out.sort((a, b) => b.longestRunTokens - a.longestRunTokens || b.ratio - a.ratio);
}

/**
 * The reference queries that `text` leaks under the rule of the module doc.
 * @returns overlaps over threshold (empty when the text is clean).
 */
export function findSqlLeaks(text: string, index: SqlIndex, thresholds: SqlLeakThresholds = DEFAULT_SQL_THRESHOLDS): SqlOverlap[] {
  if (thresholds.n !== index.n) throw new Error(`findSqlLeaks: index built with n=${index.n}, thresholds ask n=${thresholds.n}`);
  return sqlOverlaps(text, index).filter((o) => o.exact || o.longestRunTokens >= thresholds.minRunTokens || o.ratio >= thresholds.minRatio);
}

/** A one-line account of an overlap for error messages. */
export function describeOverlap(o: SqlOverlap): string {
  return `${o.id} (${o.exact ? 'exact text, ' : ''}verbatim run of ${o.longestRunTokens} tokens, ${(o.ratio * 100).toFixed(0)}% of its 8-grams)`;
}
