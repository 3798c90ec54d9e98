import * as fs from 'fs';
import * as path from 'path';
import { runControls, bumpNumeric, ControlReference } from '../../activities/compare/controls';
import { runControlsOnDisk } from '../../activities/compare/activity';
import { REFERENCE_INVENTORY } from '../../protocol/corpus';
import { FixtureSpec, fixtureDir, plain, SALES, writeFixture } from '../support/arrowFixtures';

/** Synthetic references in inventory order; the first ones are deliberately unsuitable for some perturbations. */
function syntheticSpecs(): Record<string, FixtureSpec> {
  const specs: Record<string, FixtureSpec> = {};
  REFERENCE_INVENTORY.forEach((taskId, i) => {
    if (i === 0) specs[taskId] = { ...SALES, rows: [SALES.rows[0]] }; // 1 row: only the unchanged load
    else if (i === 1) specs[taskId] = { columns: [{ name: 'n', type: 'string' }], rows: [['x'], ['y']] }; // no numeric, 1 column
    else if (i === 2) specs[taskId] = { columns: [{ name: 'cnt', type: 'int' }, { name: 'name', type: 'string' }], rows: [[1, 'a'], [2, null]] }; // int, no decimal
    else if (i === 3) specs[taskId] = { columns: [{ name: 'v', type: 'string' }, { name: 'w', type: 'string' }], rows: [['a', 'b'], ['a', 'b']] }; // identical rows: no permutation
    else specs[taskId] = { ...SALES, rows: SALES.rows.map((r) => [r[0], (r[1] as number) + i, ...r.slice(2)]) };
  });
  return specs;
}

const dir = fixtureDir('lockin-controls-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('evaluator controls (Table II)', () => {
  test('on 33 synthetic references: 57 controls, 36 acceptances, 21 rejections, 24 verified perturbations', async () => {
    const refsDir = path.join(dir, 'refs');
    for (const [taskId, spec] of Object.entries(syntheticSpecs())) writeFixture(refsDir, taskId, spec, 'reference.arrow');
    const { report, controlsFile, markdownFile } = await runControlsOnDisk({ referencesDir: refsDir, outDir: path.join(dir, 'out') });
    expect(report.counts).toEqual({
      controls: 57, expectedAccept: 36, expectedReject: 21, accepted: 36, rejected: 21, skipped: 0, asExpected: 57, unexpected: 0, perturbations: 24, verifiedPerturbations: 24,
    });
    expect(report.allAsExpected).toBe(true);
    const chosen = (kind: string) => report.controls.filter((c) => c.kind === kind).map((c) => c.taskId);
    const inv = REFERENCE_INVENTORY;
    expect(chosen('row-permutation')).toEqual([inv[1], inv[2], inv[4]]);
    expect(chosen('column-rename')).toEqual([inv[1], inv[2], inv[3]]);
    expect(chosen('column-reorder')).toEqual([inv[2], inv[3], inv[4]]);
    expect(chosen('type-change')).toEqual([inv[2], inv[4], inv[5]]);
    expect(chosen('numeric-value-change')).toEqual([inv[2], inv[4], inv[5]]);
    expect(chosen('null-injection')).toEqual([inv[1], inv[2], inv[3]]);
    const byId = Object.fromEntries(report.controls.map((c) => [c.id, c]));
    expect(byId[`type-change:${inv[2]}`].perturbation).toBe('column "cnt" declared bigint instead of int');
    expect(byId[`type-change:${inv[4]}`].perturbation).toBe('column "sales" declared decimal(27,2) instead of decimal(17,2)');
    expect(byId[`numeric-value-change:${inv[4]}`].perturbation).toBe('row 1 "item_sk" 5 -> 6');
    // every rejection lands in its expected surface category
    for (const c of report.controls.filter((x) => x.expected === 'reject')) expect(c.primaryCategory).toBe(c.expectedCategory);
    const json = JSON.parse(fs.readFileSync(controlsFile, 'utf8'));
    expect(json.counts.controls).toBe(57);
    expect(fs.readFileSync(markdownFile, 'utf8')).toContain('| **total** | 57 controls | 36 accept, 21 reject | 57/57 | 24/24 |');
  });

  test('a missing reference is a skipped control and makes the run fail', () => {
    const specs = syntheticSpecs();
    const refs: ControlReference[] = REFERENCE_INVENTORY.slice(1).map((taskId) => ({ taskId, table: plain(specs[taskId]) }));
    const report = runControls(refs, [REFERENCE_INVENTORY[0]]);
    expect(report.counts.controls).toBe(57);
    expect(report.counts.skipped).toBe(1);
    expect(report.allAsExpected).toBe(false);
  });

  test('too few suitable references leave skipped, unverified perturbation controls', () => {
    const one = [{ taskId: 'q1', table: plain(SALES) }];
    const report = runControls(one);
    expect(report.counts.controls).toBe(1 + 24);
    expect(report.counts.skipped).toBe(16);
    expect(report.counts.verifiedPerturbations).toBe(8);
    expect(report.allAsExpected).toBe(false);
  });

  test('numeric bumps change the last declared place exactly', () => {
    expect(bumpNumeric('decimal(7,2)', '-0.01')).toBe('0.00');
    expect(bumpNumeric('decimal(7,2)', '9.99')).toBe('10.00');
    expect(bumpNumeric('decimal(5,0)', '-3')).toBe('-2');
    expect(bumpNumeric('bigint', '9007199254740993')).toBe('9007199254740994');
    expect(bumpNumeric('int', 7)).toBe(8);
  });
});
