/** The n-gram rule on worked examples (synthetic SQL: no TPC-DS text in the repository). */
import { buildSqlIndex, describeOverlap, findSqlLeaks, sqlOverlaps, sqlTokens } from '../../activities/preflight/sqlNgrams';

// 89 tokens of synthetic SQL (x1..x40 columns), and a short query sharing its first 12 tokens.
const cols = Array.from({ length: 40 }, (_, i) => `x${i + 1}`);
const qa = `SELECT ${cols.join(', ')} FROM t_a WHERE x1 = 'A' -- comment\nORDER BY x2`;
const qb = `SELECT x1, x2, x3, x4, x5, x6 FROM t_b GROUP BY x1`;
const index = buildSqlIndex({ qa, qb });

test('tokens: lower-cased, comments dropped, quotes normalized, operators split', () => {
  expect(sqlTokens(`SELECT "Abc", 'x''y' -- gone\n/* gone */ a<=b`)).toEqual(['select', "'abc'", ',', "'x''y'", 'a', '<=', 'b']);
});

test('exact text, even re-cased and re-indented', () => {
  const [o] = findSqlLeaks(`prefix\n${qa.toLowerCase().replace(/, /g, ',\n    ')}\nsuffix`, index);
  expect(o).toMatchObject({ id: 'qa', exact: true, ratio: 1 });
  expect(describeOverlap(o)).toMatch(/^qa \(exact text, verbatim run of \d+ tokens, 100% of its 8-grams\)$/);
});

test('a fragment of 40 tokens leaks; 30 tokens (28% of the 8-grams) do not', () => {
  const toks = sqlTokens(qa);
  expect(toks.length).toBe(89);
  const frag40 = toks.slice(20, 60).join(' ');
  const frag30 = toks.slice(20, 50).join(' ');
  expect(findSqlLeaks(frag40, index).map((o) => [o.id, o.longestRunTokens])).toEqual([['qa', 40]]);
  expect(sqlOverlaps(frag30, index)[0]).toMatchObject({ id: 'qa', longestRunTokens: 30, exact: false });
  expect(findSqlLeaks(frag30, index)).toEqual([]);
});

test('half of a short query leaks by ratio', () => {
  const toks = sqlTokens(qb); // 17 tokens, 10 distinct 8-grams
  expect(toks.length).toBe(17);
  const [o] = findSqlLeaks(toks.slice(0, 12).join(' '), index);
  expect(o).toMatchObject({ id: 'qb', sharedGrams: 5, ratio: 0.5, longestRunTokens: 12 });
});

test('PySpark code for the same query is clean', () => {
  const py = `df.select(${cols.map((c) => `F.col("${c}")`).join(', ')}).where(F.col("x1") == "A").orderBy("x2")`;
  expect(sqlOverlaps(py, index)).toEqual([]);
});
