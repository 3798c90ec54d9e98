/**
 * report.md's differential reference agreement (differential execution; activities/report/tables.ts
 * tableDifferential): per condition, agreement and false passes on the study database and
 * differentially, and the runs where the two differ. Fixture records, exact rows.
 */
import { tableDifferential, type DifferentialRunLite } from '../../activities/report/tables';

const dbs = (...v: Array<[string, 'agree' | 'disagree' | 'execution-failed' | 'reference-failed']>) => ({ databases: v.map(([database, verdict]) => ({ database, manifestHash: 'h', verdict, summary: verdict === 'disagree' ? 'disagree [values]; 1 reference row(s) missing' : verdict })) });

test('one column pair per outcome beside the single-database figure; the runs that differ are listed with the databases that disagree', () => {
  const runs: DifferentialRunLite[] = [
    { taskId: 'q3', condition: 'one-pass', record: { testPassed: true, referenceAgreement: true, referenceAgreementDifferential: false, differential: dbs(['nulls', 'agree'], ['dupdims', 'disagree']) } },
    { taskId: 'q7', condition: 'one-pass', record: { testPassed: true, referenceAgreement: true, referenceAgreementDifferential: true, differential: dbs(['nulls', 'reference-failed'], ['dupdims', 'agree']) } },
    { taskId: 'q3', condition: 'test-guided', record: { testPassed: false, referenceAgreement: false, referenceAgreementDifferential: false, differential: dbs(['nulls', 'execution-failed'], ['dupdims', 'agree']) } },
    { taskId: 'q7', condition: 'test-guided', record: null },
  ];
  const t = tableDifferential(runs)!;
  expect(t.table.split('\n').slice(2)).toEqual([
    '| Frozen One-Pass | 2 | 2/2 | 1/2 | 0/2 | 1/2 |',
    '| Test-Guided Revision | 1 | 0/1 | 0/1 | 0/1 | 0/1 |',
  ]);
  expect(t.differing).toEqual(['q3 / Frozen One-Pass: agrees on the study database, not on dupdims (disagree [values]; 1 reference row(s) missing)']);
});

test('older studies (no differential result): no table', () => {
  expect(tableDifferential([{ taskId: 'q3', condition: 'one-pass', record: { testPassed: true, referenceAgreement: true } }])).toBeNull();
});
