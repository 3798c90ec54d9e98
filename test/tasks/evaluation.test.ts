/**
 * tasks/<taskId>/evaluation.yaml: the keys of the key-aligned tolerance comparison (robustness (a),
 * docs/protocol.md §4). Each file validates, names reference columns, and on the SF=0.01
 * references the reference agrees with itself keyed (rows reversed) while a double moved by
 * 1e-3 relative does not.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkEvaluationKeys, EvaluationSpec, evaluationFile, loadEvaluationSpec } from '../../activities/tasks/evaluation';
import { formatProblem, listTaskIds } from '../../activities/tasks/load';
import { robustnessKeys } from '../../activities/scoring/evaluate';
import { compareKeyAligned, TOLERANCE_LADDER } from '../../activities/compare/tolerance';
import { loadOutput } from '../../activities/compare/load';
import { isFloatingType } from '../../activities/compare/table';
import { ensureTestDatabase, type TestDatabase } from '../support/database';

const withFile = listTaskIds().filter((q) => fs.existsSync(evaluationFile(q)));

describe('evaluation.yaml files', () => {
  test("the paper's five robustness tasks have keys, and every task with a double output column too", () => {
    expect(withFile).toEqual(expect.arrayContaining(['q2', 'q13', 'q17', 'q35', 'q78']));
    expect(withFile.filter((q) => loadEvaluationSpec(q)!.basis === 'paper').sort()).toEqual(['q13', 'q17', 'q2', 'q35', 'q78']);
    expect(robustnessKeys('q17')).toEqual(['i_item_id', 'i_item_desc', 's_state']);
    expect(robustnessKeys('q13')).toEqual([]);
    expect(robustnessKeys('q3')).toBeUndefined();
  });

  test('a bad file is an error naming the file and field', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-eval-'));
    fs.mkdirSync(path.join(root, 'q9'));
    fs.writeFileSync(path.join(root, 'q9', 'evaluation.yaml'), 'keys: d_year\nbasis: paper\nreason: x\n');
    expect(() => loadEvaluationSpec('q9', root)).toThrow(/q9\/evaluation\.yaml: keys: Invalid input: expected array/);
    fs.writeFileSync(path.join(root, 'q9', 'evaluation.yaml'), 'keys: [a]\nbasis: guess\nreason: x\nextra: 1\n');
    expect(() => loadEvaluationSpec('q9', root)).toThrow(/basis/);
    const spec: EvaluationSpec = { keys: ['D_YEAR', 'nope', 'd_year'], basis: 'doubles', reason: 'r' };
    expect(checkEvaluationKeys(spec, ['d_year', 'x'], 'tasks/q9/evaluation.yaml').map(formatProblem)).toEqual([
      'tasks/q9/evaluation.yaml: keys[1]: "nope" is not a reference column (d_year, x)',
      'tasks/q9/evaluation.yaml: keys[2]: "d_year" is given twice',
    ]);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('keys against the SF=0.01 references', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    process.env.LOCKIN_DATA_QUIET = '1';
    db = await ensureTestDatabase(0.01);
  }, 45 * 60_000);

  test.each(withFile)('%s: keys are reference columns; the reference agrees with itself keyed, a moved double does not', async (taskId) => {
    const spec = loadEvaluationSpec(taskId)!;
    const ref = await loadOutput(path.join(db.referencesDir, taskId));
    expect(checkEvaluationKeys(spec, ref.columns.map((c) => c.name), `tasks/${taskId}/evaluation.yaml`).map(formatProblem)).toEqual([]);
    const reversed = { ...ref, rows: [...ref.rows].reverse() };
    const self = compareKeyAligned(reversed, ref, spec.keys);
    expect([taskId, self.failure, self.tightest]).toEqual([taskId, null, TOLERANCE_LADDER[0]]);
    const d = ref.columns.findIndex((c) => isFloatingType(c.type));
    expect(d).toBeGreaterThanOrEqual(taskId === 'q2' ? -1 : 0); // q2's ratios are decimals: exact within its key groups
    const row = ref.rows.findIndex((r) => typeof r[d] === 'number' && Number.isFinite(r[d] as number) && r[d] !== 0);
    if (d < 0 || row < 0) return; // q2: no double; q78: 0 rows at SF=0.01 (and at SF=1)
    const moved = ref.rows.map((r, i) => (i === row ? r.map((v, j) => (j === d ? (v as number) * (1 + 1e-3) + 1e-3 : v)) : r));
    expect(compareKeyAligned({ ...ref, rows: moved }, ref, spec.keys).agree).toBe(false);
  });
});
