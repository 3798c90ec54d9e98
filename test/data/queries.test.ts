/** The 103 query variants read at run time from Spark's tests jar; unknown ids are clear errors. */
import { listQueries, queryTexts } from '../../activities/data';
import { InputError } from '../../activities/common/errors';

beforeAll(() => {
  process.env.LOCKIN_DATA_QUIET = '1';
});

test('lists the 103 variants (q1..q99, a/b for 14, 23, 24, 39) from the Spark tests jar', async () => {
  const res = await listQueries();
  expect(res.source).toBe('spark-tests-jar');
  expect(res.count).toBe(103);
  const ids = res.variants.map((v) => v.id);
  expect(ids.slice(0, 3)).toEqual(['q1', 'q2', 'q3']);
  expect(ids).toContain('q14a');
  expect(ids).toContain('q39b');
  expect(ids).not.toContain('q14');
  expect(new Set(res.variants.map((v) => v.sha256)).size).toBe(103);
  for (const v of res.variants) expect(v.sha256).toMatch(/^[0-9a-f]{64}$/);
}, 120_000);

test("q14a keeps the v1.4 text's ROLLUP; texts come back keyed by id", async () => {
  const res = await queryTexts({ ids: ['q14a', 'q1'] });
  expect(Object.keys(res.texts).sort()).toEqual(['q1', 'q14a']);
  expect(res.texts.q14a.toLowerCase()).toContain('rollup');
}, 120_000);

test('an unknown variant is an InputError naming it', async () => {
  await expect(queryTexts({ ids: ['q100'] })).rejects.toThrow(InputError);
  await expect(queryTexts({ ids: ['q100'] })).rejects.toThrow(/unknown variant 'q100'/);
}, 120_000);
