import { taskDiscrimination, withVariantDatabases } from '../../activities/mutation/discrimination';
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
    const md = tableDiscrimination([taskDiscrimination('q5', ref, []), taskDiscrimination('q78', EMPTY, null), taskDiscrimination('q3', ref, null)]);
    expect(md.split('\n').slice(2)).toEqual([
      `| q5 | ${SALES.rows.length} | yes | 0 | 0 | 0 | yes |  |`,
      '| q78 | 0 | **no** | — | — | — | **no** | **empty reference: any candidate with the right schema and no rows agrees** |',
      // No mutant verdicts yet: "yes" says it rests on the empty-result check alone.
      `| q3 | ${SALES.rows.length} | yes | — | — | — | yes (empty-result check only; mutants not run) |  |`,
    ]);
  });

  test('variant databases: the empty check per database, one column each; q78 empty everywhere is flagged, a task empty on the study database but not on a variant is told where it discriminates', () => {
    const q78 = withVariantDatabases(taskDiscrimination('q78', EMPTY, null), { nulls: EMPTY, dupdims: EMPTY });
    expect(q78.databases).toEqual({ nulls: { referenceRows: 0, emptyDisagrees: false }, dupdims: { referenceRows: 0, emptyDisagrees: false } });
    expect(q78.discriminates).toBe(false);
    expect(q78.flags).toEqual(['empty reference: any candidate with the right schema and no rows agrees', 'empty on every variant database too: no database here tells an empty candidate apart']);
    const q54 = withVariantDatabases(taskDiscrimination('q54', EMPTY, null), { nulls: ref, dupdims: null });
    expect(q54.flags[1]).toBe('an empty result disagrees on variant(s) nulls');
    const q12 = withVariantDatabases(taskDiscrimination('q12', null, null), { nulls: { failed: '[DIVIDE_BY_ZERO] Division by zero.' }, dupdims: ref });
    expect(q12.databases).toEqual({ nulls: { referenceRows: null, emptyDisagrees: null, failed: '[DIVIDE_BY_ZERO] Division by zero.' }, dupdims: { referenceRows: SALES.rows.length, emptyDisagrees: true } });
    const md = tableDiscrimination([withVariantDatabases(taskDiscrimination('q5', ref, []), { nulls: ref, dupdims: ref }), q78, q12]);
    const lines = md.split('\n');
    expect(lines[0]).toBe('| Task | Reference rows | Empty result disagrees | Variant nulls: rows, empty disagrees | Variant dupdims: rows, empty disagrees | Gold mutants disagreeing | Agreeing (equivalent) | Undecided | Discriminates | Flag |');
    expect(lines.slice(2)).toEqual([
      `| q5 | ${SALES.rows.length} | yes | ${SALES.rows.length} rows, yes | ${SALES.rows.length} rows, yes | 0 | 0 | 0 | yes |  |`,
      '| q78 | 0 | **no** | 0 rows, **no** | 0 rows, **no** | — | — | — | **no** | **empty reference: any candidate with the right schema and no rows agrees; empty on every variant database too: no database here tells an empty candidate apart** |',
      `| q12 | — | — | SQL fails | ${SALES.rows.length} rows, yes | — | — | — | — | **no reference at this scale** |`,
    ]);
  });
});
