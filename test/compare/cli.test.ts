import * as fs from 'fs';
import * as path from 'path';
import { Command } from 'commander';
import { define } from '../../client/commands/compare';
import { fixtureDir, SALES, writeFixture } from '../support/arrowFixtures';

const dir = fixtureDir('lockin-cli-');
const ref = writeFixture(dir, 'ref', SALES, 'reference.arrow');

/** Runs `lockin compare ...args` in-process; returns the exit code and what was printed. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const so = jest.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  const se = jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
  const ex = jest.spyOn(process, 'exit').mockImplementation(((c?: number) => {
    throw Object.assign(new Error('exit'), { exitCode: c });
  }) as never);
  process.exitCode = undefined;
  let code: number;
  try {
    const program = new Command().exitOverride();
    define(program.command('compare'));
    await program.parseAsync(['node', 'lockin', 'compare', ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    code = (e as { exitCode?: number }).exitCode ?? -1;
  } finally {
    so.mockRestore();
    se.mockRestore();
    ex.mockRestore();
    process.exitCode = undefined;
  }
  return { code, out, err };
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('lockin compare (exit 0 agree, 1 disagree, 2 bad input)', () => {
  test('a permutation agrees: exit 0', async () => {
    const cand = writeFixture(dir, 'perm', { ...SALES, rows: [...SALES.rows].reverse() });
    const r = await cli(cand, ref);
    expect(r.code).toBe(0);
    expect(r.out).toContain('reference agreement: agree');
    expect(r.out).toContain("normalization ladder (a robustness analysis, not the verdict; levels 0-2 keep the rows' order, level 3 sorts them, while the reference agreement above ignores row order): first agrees at level 3 (row sorting)");
  });

  test('a precision difference disagrees: exit 1, JSON names the category', async () => {
    const cand = writeFixture(dir, 'prec', { ...SALES, columns: SALES.columns.map((c) => (c.name === 'sales' ? { ...c, type: 'decimal(27,2)' } : c)) });
    const r = await cli(path.join(cand, 'output.arrow'), ref, '--json');
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.verdict).toBe('disagree');
    expect(j.outcome.categories).toEqual(['precision']);
    expect(j.outcome.ladderLevel).toBe(2);
  });

  test('--keys with tolerances: agreement within 1e-6 decides the verdict', async () => {
    const rows = SALES.rows.map((r) => [...r]);
    rows[0][5] = 0.5000001;
    const cand = writeFixture(dir, 'tol', { ...SALES, rows });
    expect((await cli(cand, ref)).code).toBe(1);
    expect((await cli(cand, ref, '--keys', 'item_sk')).code).toBe(0);
    expect((await cli(cand, ref, '--keys', 'item_sk', '--atol', '1e-8', '--rtol', '1e-8')).code).toBe(1);
    const ok = await cli(cand, ref, '--keys', 'item_sk', '--atol', '1e-6', '--rtol', '1e-6');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('key-aligned on item_sk: agrees at atol=0.000001 rtol=0.000001');
    // The verdict line names the comparison that decided it, and the strict one beside it.
    expect(ok.out).toContain("verdict: agree (the key-aligned tolerance comparison, as --keys asks: a robustness check, paper §IV-D; the study's primary outcome is the exact reference agreement above: disagree)");
    expect((await cli(cand, ref)).out).toContain("verdict: disagree (exact reference agreement, the study's primary outcome)");
  });

  test('a CSV file is refused with the reason and the way to convert it (exit 2)', async () => {
    const csv = path.join(dir, 'a.csv');
    fs.writeFileSync(csv, 'k,v\n1,2\n');
    const r = await cli(csv, ref);
    expect(r.code).toBe(2);
    expect(r.err).toContain('a CSV file has no column types, and reference agreement compares Spark types');
  });

  test('T = {k: [1, 1], x: [1.0, 2.0]} against itself with --keys k --atol 1e-6 --rtol 1e-6: agree, exit 0', async () => {
    const T = { columns: [{ name: 'k', type: 'int' }, { name: 'x', type: 'double' }], rows: [[1, 1.0], [1, 2.0]] };
    const t = writeFixture(dir, 'dupkeys', T);
    const r = await cli(t, t, '--keys', 'k', '--atol', '1e-6', '--rtol', '1e-6');
    expect(r.code).toBe(0);
    expect(r.out).toContain('key-aligned on k: agrees at atol=0.000001 rtol=0.000001');
    const other = writeFixture(dir, 'dupkeys-other', { ...T, rows: [[1, 1.0], [1, 2.1]] });
    const d = await cli(other, t, '--keys', 'k', '--atol', '1e-6', '--rtol', '1e-6');
    expect(d.code).toBe(1);
    expect(d.out).toContain('disagree (rows without an equal partner within the tolerance: 1 reference, 1 candidate)');
  });

  test('bad input exits 2 with a clear message', async () => {
    const missing = await cli(path.join(dir, 'nope.arrow'), ref);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nope.arrow: no such file or folder');
    const bad = path.join(dir, 'bad.arrow');
    fs.writeFileSync(bad, 'garbage');
    const unreadable = await cli(bad, ref);
    expect(unreadable.code).toBe(2);
    expect(unreadable.err).toMatch(/bad\.arrow: not a readable Arrow IPC file/);
    expect((await cli(ref, ref, '--keys', 'nokey')).code).toBe(2);
    expect((await cli(ref, ref, '--atol', '1e-6')).err).toContain('give --keys too');
    expect((await cli(ref)).code).toBe(2);
  });
});
