/**
 * The preflight sees through cheap encodings and finds reference rows written as text (issue
 * 21, hole 9). Each hostile input is written the way a candidate or a prompt would carry it:
 * a solution.py that base64-decodes its query, a hex string, zlib + base64, a word list joined at
 * run time, chr() codes; a test file with the expected rows as CSV, a DataFrame built from
 * tuples, a failure message quoting rows. The reference SQL comes from Spark's tests jar at run
 * time (never stored here); the reference output is a hand-built fixture of q900.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { ApplicationFailure } from '@temporalio/common';
import { callModel } from '../../activities/model/gateway';
import { findLeaks } from '../../activities/preflight/preflight';
import { referenceSql } from '../../activities/preflight/referenceSql';
import { sqlTokens } from '../../activities/preflight/sqlNgrams';
import { decodedTexts } from '../../activities/preflight/decode';
import { buildRowIndex, findRowLeak, normalizeNumber } from '../../activities/preflight/referenceRows';
import { writeFixture, type FixtureSpec } from '../support/arrowFixtures';
import { generateReply, messageBody, stageRequest, startStub, Stub, tempEnv } from '../model/support';

let stub: Stub;
let env: ReturnType<typeof tempEnv>;
let q7 = '';

/** The fixture task's reference output (shaped like q3's: year, brand id, brand, sum). */
const REFERENCE: FixtureSpec = {
  columns: [
    { name: 'd_year', type: 'int' },
    { name: 'brand_id', type: 'int' },
    { name: 'brand', type: 'string' },
    { name: 'sum_agg', type: 'decimal(17,2)' },
  ],
  rows: [
    [2000, 1001001, 'amalgamalg #1', '12345.67'],
    [2000, 2003002, 'exportiimporto #2', '9876.50'],
    [1999, 5004001, 'edu packscholar #1', '34567.12'],
    [1999, 3002001, 'importoexporti #1', '4321.09'],
  ],
};

beforeAll(async () => {
  stub = await startStub({ status: 200, body: messageBody(generateReply()) });
  env = tempEnv(stub.url);
  q7 = (await referenceSql()).texts['q7'];
});
afterAll(async () => {
  await stub.close();
  env.cleanup();
});
beforeEach(() => {
  stub.requests.length = 0;
  fs.rmSync(env.taskDir, { recursive: true, force: true });
  fs.rmSync(path.join(env.home, 'data'), { recursive: true, force: true });
});

/** Python source wrapping `encoded` in adjacent string literals of 60 characters, one per line. */
function pyLiterals(encoded: string): string {
  const parts = encoded.match(/.{1,60}/g) ?? [];
  return parts.map((p) => `    "${p}"`).join('\n');
}

/** The findings of a condition directory holding `files`, with `requestText` as the request. */
async function findingsOf(files: Record<string, string>, requestText = 'clean', taskId?: string) {
  const dir = env.dir('one-pass');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return { dir, findings: (await findLeaks({ conditionDir: dir, condition: 'one-pass', otherConditionDirs: [], requestText, taskId })).findings };
}

const q7Details = (findings: { kind: string; detail: string }[]) => findings.filter((f) => f.kind === 'reference-sql' && f.detail.startsWith('reference SQL of q7 ')).map((f) => f.detail.replace(/^reference SQL of q7 \(exact text, verbatim run of \d+ tokens, 100% of its 8-grams\)/, 'q7 exact'));

test('decoding, worked examples: base64 split over literals, hex, zlib, char codes, a word list, and text that is not encoded', () => {
  const sql = 'select count(*) from store_sales where ss_quantity > 10';
  const b64 = Buffer.from(sql).toString('base64');
  expect(decodedTexts(`Q = base64.b64decode(\n    "${b64.slice(0, 20)}"\n    "${b64.slice(20)}"\n)`)).toEqual([{ how: 'base64', text: sql }]);
  expect(decodedTexts(`bytes.fromhex("${Buffer.from(sql).toString('hex')}")`)).toEqual([{ how: 'hex', text: sql }]);
  expect(decodedTexts(`zlib.decompress(base64.b64decode("${zlib.deflateSync(Buffer.from(sql)).toString('base64')}"))`)).toEqual([{ how: 'base64 of zlib-compressed text', text: sql }]);
  expect(decodedTexts(`"".join(map(chr, [${[...sql].map((c) => c.charCodeAt(0)).join(', ')}]))`)).toEqual([{ how: 'char codes', text: sql }]);
  expect(decodedTexts(`W = [${sql.split(' ').map((w) => `"${w}"`).join(', ')}]`)).toEqual([{ how: 'word list', text: sql }]);
  expect(decodedTexts(`x = "${Buffer.from(Buffer.from(sql).toString('hex')).toString('base64')}"`)).toEqual([
    { how: 'base64', text: Buffer.from(sql).toString('hex') },
    { how: 'base64, then hex', text: sql },
  ]);
  // Long identifiers and paths are in the base64 alphabet but decode to no text.
  expect(decodedTexts('total_ext_sales_price_by_brand_and_year = ss_ext_sales_price_sum_over_all_the_years\n/work/runs/study-sf1/tasks/q3/one-pass/test_solution.py')).toEqual([]);
});

test('encoded reference SQL in a solution.py is found, each encoding named; an unrelated base64 string is not', async () => {
  const b64 = Buffer.from(q7).toString('base64');
  const hex = Buffer.from(q7).toString('hex');
  const zb64 = zlib.deflateSync(Buffer.from(q7)).toString('base64');
  const words = sqlTokens(q7).map((t) => JSON.stringify(t)).join(', ');
  const codes = [...q7].map((c) => c.charCodeAt(0)).join(', ');
  const { dir, findings } = await findingsOf({
    'solution.py': `import base64\n\nQUERY = base64.b64decode(\n${pyLiterals(b64)}\n).decode()\n\n\ndef solve(spark, tables):\n    return spark.sql(QUERY)\n`,
    'helpers.py': `SQL = bytes.fromhex("${hex}").decode()\n`,
    'packed.py': `import base64, zlib\nSQL = zlib.decompress(base64.b64decode("${zb64}")).decode()\n`,
    'words.py': `WORDS = [${words}]\nSQL = " ".join(WORDS)\n`,
    'codes.py': `SQL = "".join(map(chr, [${codes}]))\n`,
    'logo.py': `LOGO = "${Buffer.from('a small logo, nothing but an innocent picture of a cat, honestly').toString('base64')}"\n`,
  });
  const byFile = (f: string) => q7Details(findings.filter((x) => x.where === path.join(dir, f)));
  expect(byFile('solution.py')).toEqual(['q7 exact (base64-encoded)']);
  expect(byFile('helpers.py')).toEqual(['q7 exact (hex-encoded)']);
  expect(byFile('packed.py')).toEqual(['q7 exact (base64 of zlib-compressed text-encoded)']);
  expect(byFile('words.py')).toEqual(['q7 exact (word list-encoded)']);
  expect(byFile('codes.py')).toEqual(['q7 exact (char codes-encoded)']);
  expect(findings.filter((x) => x.where === path.join(dir, 'logo.py'))).toEqual([]);
});

test('base64 reference SQL in a prompt stops the call before anything is sent', async () => {
  const dir = env.dir('test-guided');
  const feedback = path.join(env.taskDir, 'failures.txt');
  fs.writeFileSync(feedback, `E   AssertionError: the expected query was\nE   ${Buffer.from(q7).toString('base64')}\n`);
  const err = await callModel(stageRequest({ workDir: dir, condition: 'test-guided', stage: 'revise-1', callIndex: 2, inputs: { feedbackFile: feedback } })).catch((e) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect(err.type).toBe('LeakError');
  expect(err.message.split('\n')[0]).toMatch(/nothing was sent: reference-sql: reference SQL of q7 \(exact text, verbatim run of \d+ tokens, 100% of its 8-grams\) \(base64-encoded\) in request/);
  expect(stub.requests).toHaveLength(0);
});

test('reference rows: CSV and tuples in candidate files, base64 CSV, a two-column CSV; a line with a year and a brand is not a leak', async () => {
  const refs = path.join(env.home, 'data', 'references', 'sf0.01');
  writeFixture(refs, 'q900', REFERENCE, 'reference.arrow');
  const ref = path.join(refs, 'q900', 'reference.arrow');
  const csv = 'd_year,brand_id,brand,sum_agg\n2000,1001001,amalgamalg #1,12345.67\n2000,2003002,exportiimporto #2,9876.5\n';
  const { dir, findings } = await findingsOf(
    {
      'test_solution.py': `import io\n\nEXPECTED = """${csv}"""\n\n\ndef test_matches(spark):\n    assert len(EXPECTED.splitlines()) == 3\n`,
      'solution.py': 'def solve(spark, tables):\n    return spark.createDataFrame(\n        [(1999, 5004001, "edu packscholar #1", 34567.12), (1999, 3002001, "importoexporti #1", 4321.09)],\n        ["d_year", "brand_id", "brand", "sum_agg"],\n    )\n',
      'notes.md': `The answer, for later: ${Buffer.from(csv).toString('base64')}\n`,
      'pairs.txt': 'brand,sum_agg\namalgamalg #1,12345.67\nexportiimporto #2,9876.50\nedu packscholar #1,34567.12\n',
      'plan.md': '# Plan\nGroup by d_year and brand_id (e.g. 2000 and brand amalgamalg #1), sum ss_ext_sales_price into sum_agg.\n',
    },
    'clean',
    'q900',
  );
  const rows = (f: string) => findings.filter((x) => x.where === path.join(dir, f)).map((x) => x.detail);
  expect(rows('test_solution.py')).toEqual([`rows of the reference ${ref} written as text: 2 row(s), e.g. line "2000,1001001,amalgamalg #1,12345.67"`]);
  expect(rows('solution.py')).toEqual([`rows of the reference ${ref} written as text: 2 row(s), e.g. line "[(1999, 5004001, "edu packscholar #1", 34567.12), (1999, 3002001, "importoexporti #1", 4321.09)],"`]);
  expect(rows('notes.md')).toEqual([`rows of the reference ${ref} written as text (base64-encoded): 2 row(s), e.g. line "2000,1001001,amalgamalg #1,12345.67"`]);
  expect(rows('pairs.txt')).toEqual([`rows of the reference ${ref} written as text: 3 row(s), e.g. line "amalgamalg #1,12345.67"`]);
  expect(rows('plan.md')).toEqual([]);
  expect(findings.every((f) => f.kind === 'reference-output')).toBe(true);
});

test('reference rows quoted in a failure message stop the call; without the task id nothing is compared', async () => {
  writeFixture(path.join(env.home, 'data', 'references', 'sf0.01'), 'q900', REFERENCE, 'reference.arrow');
  const dir = env.dir('test-guided');
  const feedback = path.join(env.taskDir, 'failures.txt');
  const quoted = "E   AssertionError: expected Row(d_year=2000, brand_id=1001001, brand='amalgamalg #1', sum_agg=Decimal('12345.67'))\n";
  fs.writeFileSync(feedback, quoted);
  const err = await callModel(stageRequest({ workDir: dir, condition: 'test-guided', stage: 'revise-1', callIndex: 2, inputs: { feedbackFile: feedback } })).catch((e) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect(err.message.split('\n')[0]).toContain("nothing was sent: reference-output: rows of the reference");
  expect(err.message.split('\n')[0]).toContain(`written as text: 1 row(s), e.g. line "E   AssertionError: expected Row(d_year=2000, brand_id=1001001, brand='amalgamalg #1', sum_agg=Decimal('12345.67'))" in request`);
  expect(stub.requests).toHaveLength(0);
  expect((await findLeaks({ conditionDir: dir, condition: 'test-guided', otherConditionDirs: [], requestText: quoted })).findings).toEqual([]);
});

test('the row rule, worked: distinctive values only, numbers as written or rounded', () => {
  const index = buildRowIndex([
    [2000, 1001001, 'amalgamalg #1', '12345.67', 12.3456789, 0.123456789, 'Books', '2000-01-02', null, true],
  ]);
  // Rounded forms need 5 significant digits too: 12.35, 0.1235 and 0.12 have fewer; so does 2000.
  expect([...index.numbers.keys()].sort()).toEqual(['0.123456789', '1001001', '12.3456789', '12.3457', '12345.67']);
  expect([...index.texts.keys()]).toEqual(['amalgamalg #1']); // 'Books' is short, a date is not distinctive
  expect(findRowLeak('1001001; 12345.670; ratio 12.3457', index)).toEqual({ rows: [0], example: '1001001; 12345.670; ratio 12.3457' });
  expect(findRowLeak('1001001 and 12345.67 only', index)).toBeNull(); // two values on one line, one set
  expect(findRowLeak('Books 2000 2000-01-02 true', index)).toBeNull();
  // Texts many rows share are categories (q69: education statuses and credit ratings in 31 rows):
  // a contract fixture pairing them on three lines is not a leak; a unique text still counts.
  const statuses = ['Primary', 'Secondary', 'College', '2 yr Degree', '4 yr Degree', 'Advanced Degree', 'Unknown'];
  const ratings = ['Low Risk', 'High Risk', 'Good', 'Unknown'];
  const demo: (string | number)[][] = Array.from({ length: 31 }, (_, i) => [['F', 'M'][i % 2], statuses[i % 7], (i + 1) * 500, ratings[i % 4], i % 5]);
  demo[30][1] = 'Doctorate of Lore';
  const cats = buildRowIndex(demo);
  expect([...cats.texts.keys()]).toEqual(['Doctorate of Lore']); // held by ≤ max(1, ⌊31/10⌋) = 3 rows
  const fixtures = ['    ("F", "College", 500, "Good"),', '    ("M", "Primary", 1000, "High Risk"),', '    ("F", "College", 1500, "Low Risk"),', '    ("M", "Secondary", 2000, "High Risk"),'].join('\n');
  expect(findRowLeak(fixtures, cats)).toBeNull();
  expect([normalizeNumber('12.50'), normalizeNumber('7.0'), normalizeNumber('-0.00'), normalizeNumber('120')]).toEqual(['12.5', '7', '0', '120']);
});
