import { taskDiscrimination } from '../../activities/mutation/discrimination';
import { tableDiscrimination } from '../../activities/report/tables';
import { plain, SALES } from '../support/arrowFixtures';

const ref = plain(SALES, 'reference');
const EMPTY = plain({ ...SALES, rows: [] }, 'reference'); // like q78's reference at SF=1
const v = (id: string, verdict: string) => ({ id, operator: id.replace(/-\d+$/, ''), verdict });

describe('discrimination per task', () => {
  test('an empty reference (q78 at SF=1) is flagged: an empty result with its schema agrees', () => {
    const d = taskDiscrimination('q78', EMPTY, [v('join-type-1', 'killable')]);
    expect(d).toMatchObject({ referenceRows: 0, emptyDisagrees: false, discriminates: false });
    expect(d.flags).toEqual(['empty reference: any candidate with the right schema and no rows agrees']);
  });

  test('a non-empty reference whose mutants all disagree discriminates', () => {
    const d = taskDiscrimination('q5', ref, [v('join-type-1', 'killable'), v('semi-join-1', 'killable'), v('rollup-1', 'error')]);
    expect(d).toEqual({ task: 'q5', referenceRows: SALES.rows.length, emptyDisagrees: true, mutants: { disagree: 2, agree: [], undecided: 1 }, discriminates: true, flags: [] });
  });

  test('a mutant that agrees (equivalent) makes it not discriminate, naming the mutant; no verdicts: the empty check alone', () => {
    const d = taskDiscrimination('q3', ref, [v('join-type-1', 'equivalent'), v('filter-bound-1', 'killable')]);
    expect(d).toMatchObject({ discriminates: false, flags: ['1 gold mutant(s) agree with the reference: join-type-1'] });
    expect(taskDiscrimination('q3', ref, null)).toMatchObject({ discriminates: true, mutants: null });
    expect(taskDiscrimination('q12', null, null)).toMatchObject({ discriminates: null, flags: ['no reference at this scale'] });
  });

  test('the report table flags in bold', () => {
    const md = tableDiscrimination([taskDiscrimination('q5', ref, []), taskDiscrimination('q78', EMPTY, null)]);
    expect(md.split('\n').slice(2)).toEqual([
      `| q5 | ${SALES.rows.length} | yes | 0 | 0 | 0 | yes |  |`,
      '| q78 | 0 | **no** | — | — | — | **no** | **empty reference: any candidate with the right schema and no rows agrees** |',
    ]);
  });
});
