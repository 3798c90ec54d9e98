/**
 * The differential gold check's rules and table (differential execution; client/commands/gold.ts goldReport,
 * activities/data/gold.ts goldPasses / failedReference): a verdict passes when it agrees or when
 * the task's reference SQL fails on that database (recorded in references.json failedVariants);
 * any other verdict on any database fails the check. Fixture verdicts, no Spark.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkGold, failedReference, goldCell, goldPasses, type GoldVerdict } from '../../activities/data/gold';
import { goldReport } from '../../client/commands/gold';

const v = (taskId: string, verdict: GoldVerdict['verdict']): GoldVerdict => ({ taskId, verdict, summary: '' });

test('a verdict passes when it agrees or its reference SQL fails on that database', () => {
  expect(goldPasses(v('q1', 'agree'))).toBe(true);
  expect(goldPasses(v('q12', 'reference-failed'))).toBe(true);
  for (const bad of ['disagree', 'execution-failed', 'no-reference', 'no-gold'] as const) expect(goldPasses(v('q1', bad))).toBe(false);
  expect(goldCell(v('q12', 'reference-failed'))).toBe('ref SQL fails');
  expect(goldCell(undefined)).toBe('-');
});

test('the per-task x database table and its summary lines; one disagreement on a variant fails the check', () => {
  const rows = [
    { taskId: 'q1', verdicts: { study: v('q1', 'agree'), nulls: v('q1', 'agree'), dupdims: v('q1', 'agree') } },
    { taskId: 'q12', verdicts: { study: v('q12', 'reference-failed'), nulls: v('q12', 'reference-failed'), dupdims: v('q12', 'agree') } },
    { taskId: 'q78', verdicts: { study: v('q78', 'agree'), nulls: v('q78', 'agree'), dupdims: v('q78', 'disagree') } },
  ];
  const dbs = ['study', 'nulls', 'dupdims'];
  const r = goldReport(rows, dbs);
  expect(r.passed).toBe(false);
  expect(r.summary).toEqual([
    'study: 2/3 agree; reference SQL fails: q12',
    'nulls: 2/3 agree; reference SQL fails: q12',
    'dupdims: 2/3 agree; NOT agreeing: q78',
  ]);
  const lines = r.table.split('\n').map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''));
  expect(lines.find((l) => l.includes('q12'))).toMatch(/q12\s*│\s*ref SQL fails\s*│\s*ref SQL fails\s*│\s*agree/);
  expect(lines.find((l) => l.includes('q78'))).toMatch(/q78\s*│\s*agree\s*│\s*agree\s*│\s*DISAGREE/);
  expect(goldReport(rows.slice(0, 2), dbs).passed).toBe(true);
});

test('a reference recorded as failed in references.json is reported as reference-failed, not as missing', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-goldref-'));
  try {
    fs.writeFileSync(path.join(dir, 'references.json'), JSON.stringify({ failedVariants: { q12: { error: '[DIVIDE_BY_ZERO] Division by zero.', textSha256: 'x' } }, variants: {} }));
    expect(failedReference(dir, 'q12')).toBe('[DIVIDE_BY_ZERO] Division by zero.');
    expect(failedReference(dir, 'q1')).toBeNull();
    expect(failedReference(path.join(dir, 'absent'), 'q12')).toBeNull();
    const database = { dbDir: dir, refsDir: dir, outDir: path.join(dir, 'out') };
    const verdict = await checkGold({ taskId: 'q12', scale: 0.01, database });
    expect(verdict).toEqual({ taskId: 'q12', verdict: 'reference-failed', summary: 'the reference SQL fails on this database: [DIVIDE_BY_ZERO] Division by zero.' });
    expect((await checkGold({ taskId: 'q1', scale: 0.01, database })).verdict).toBe('no-reference');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
