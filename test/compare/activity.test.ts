import * as fs from 'fs';
import * as path from 'path';
import { compareWithReference } from '../../activities/compare/activity';
import { fixtureDir, SALES, writeFixture } from '../support/arrowFixtures';

const dir = fixtureDir('lockin-activity-');
const refDir = writeFixture(dir, 'ref', SALES, 'reference.arrow');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('compareWithReference activity', () => {
  test('writes comparison.json and returns a small outcome with ladder and tolerance results', async () => {
    const rows = SALES.rows.map((r) => [...r]);
    rows[2][5] = 1.2500001; // within 1e-6 relative, not within 1e-8
    const cand = writeFixture(dir, 'cand', { ...SALES, rows: [...rows].reverse() });
    const out = await compareWithReference({ candidateDir: cand, referenceDir: refDir, keys: ['item_sk'], outDir: path.join(dir, 'out') });
    expect(out).toMatchObject({ agree: false, categories: ['values'], primaryCategory: 'values', ladderLevel: null, toleranceAgreement: 1e-6 });
    const details = JSON.parse(fs.readFileSync(out.detailsFile as string, 'utf8'));
    expect(details.primary.rows.missing).toEqual([{ row: ['catalog', 3, '3', '0.00', null, 1.25], count: 1 }]);
    expect(details.tolerance.byTolerance.map((b: { agree: boolean }) => b.agree)).toEqual([false, true, true, true]);
    expect(JSON.stringify(out).length).toBeLessThan(2000);
  });

  test('keys [] (one key group, as for a global aggregate): the key-aligned ladder runs and agrees on a permutation', async () => {
    const cand = writeFixture(dir, 'perm', { ...SALES, rows: [...SALES.rows].reverse() });
    const out = await compareWithReference({ candidateDir: cand, referenceDir: refDir, keys: [], outDir: path.join(dir, 'out-nokeys') });
    expect(out).toMatchObject({ agree: true, toleranceAgreement: 1e-8 });
    const details = JSON.parse(fs.readFileSync(out.detailsFile as string, 'utf8'));
    expect(details.tolerance).toMatchObject({ keys: [], failure: null, agree: true });
  });

  test('outputFile + schemaFile form; an agreeing candidate', async () => {
    const cand = writeFixture(dir, 'same', SALES);
    const out = await compareWithReference({ outputFile: path.join(cand, 'output.arrow'), schemaFile: path.join(cand, 'schema.json'), referenceDir: refDir, outDir: path.join(dir, 'out2') });
    expect(out).toMatchObject({ agree: true, categories: [], ladderLevel: 0 });
    expect(out.toleranceAgreement).toBeUndefined();
  });

  test('a failed execution is a runtime failure, without reading a candidate', async () => {
    const out = await compareWithReference({ candidateDir: path.join(dir, 'absent'), referenceDir: refDir, outDir: path.join(dir, 'out3'), execution: { status: 'timeout', reason: 'wall-clock limit 600 s' } });
    expect(out).toMatchObject({ agree: false, categories: ['runtime'], primaryCategory: 'runtime', ladderLevel: null });
    expect(out.summary).toBe('disagree [runtime]: candidate execution timeout: wall-clock limit 600 s');
  });

  test('a missing candidate is a non-retryable failure naming the file', async () => {
    await expect(compareWithReference({ candidateDir: path.join(dir, 'absent'), referenceDir: refDir, outDir: path.join(dir, 'out4') }))
      .rejects.toMatchObject({ nonRetryable: true, type: 'InputError', message: expect.stringContaining('absent: no such file or folder') });
  });
});
