/**
 * Pure Python helpers of the data scripts, on fixtures with known answers (no Spark):
 * the docs/tpcds-types.md type rule, the order-independent content hash, the golden-file parser
 * and the golden row comparison.
 */
import execa from 'execa';
import { pythonDir, venvPython } from '../../activities/common/paths';
import { isSparkNoise, sparkLogFilter } from '../../activities/data/run';

async function py(code: string): Promise<any> {
  const res = await execa(venvPython(), ['-c', code], { env: { PYTHONPATH: pythonDir() } });
  return JSON.parse(res.stdout.trim().split('\n').pop() as string);
}

test('expected_type follows docs/tpcds-types.md', async () => {
  const out = await py(`
import json
from tpcds_data import expected_type as t
print(json.dumps([t('ss_ticket_number','int'), t('cr_order_number','bigint'), t('ss_item_sk','bigint'),
  t('c_last_review_date_sk','int'), t('d_year','bigint'), t('p_cost','decimal(15,2)'), t('ca_gmt_offset','decimal(5,2)'),
  t('s_tax_precentage','decimal(5,2)'), t('web_tax_percentage','decimal(5,2)'), t('i_current_price','decimal(7,2)'),
  t('d_date','date'), t('i_item_id','string')]))`);
  expect(out).toEqual(['bigint', 'bigint', 'int', 'int', 'int', 'decimal(15,2)', 'decimal(5,2)', 'decimal(5,2)', 'decimal(5,2)', 'decimal(7,2)', 'date', 'string']);
});

test('content_hash ignores row order, keeps column names, decimals exact, doubles to 12 digits', async () => {
  const out = await py(`
import json, decimal, pyarrow as pa
from outputs import content_hash as h
D = decimal.Decimal
a = pa.table({'k': [1, 2, None], 'v': pa.array([D('1.10'), D('2.00'), None], pa.decimal128(7, 2))})
b = pa.table({'k': [None, 2, 1], 'v': pa.array([None, D('2.00'), D('1.10')], pa.decimal128(7, 2))})
c = pa.table({'k': [1, 2, None], 'x': pa.array([D('1.10'), D('2.00'), None], pa.decimal128(7, 2))})
d = pa.table({'k': [1, 2, None], 'v': pa.array([D('1.11'), D('2.00'), None], pa.decimal128(7, 2))})
f1 = pa.table({'f': [0.1 + 0.2, 1.0]})
f2 = pa.table({'f': [1.0, 0.3]})
f3 = pa.table({'f': [1.0, 0.3001]})
dup = pa.table({'k': [1, 1]}); one = pa.table({'k': [1]})
print(json.dumps([h(a) == h(b), h(a) == h(c), h(a) == h(d), h(f1) == h(f2), h(f1) == h(f3), h(dup) == h(one)]))`);
  expect(out).toEqual([true, false, false, true, false, false]);
});

test('parse_golden and compare_golden_rows: right-trimmed strings, multiset, first difference', async () => {
  const out = await py(`
import json
from references import parse_golden, compare_golden_rows as cmp
text = "-- Automatically generated\\n\\n-- !query schema\\nstruct<a:string,b:int>\\n-- !query output\\nx  \\t1\\ny\\t2\\n"
schema, rows = parse_golden(text)
print(json.dumps([schema, rows, cmp(rows, ['y\\t2', 'x\\t1']), cmp(rows, ['x\\t1', 'y\\t3']), cmp(rows, ['x\\t1']),
  cmp(['1.0000000001'], ['1.0'])]))`);
  expect(out).toEqual([
    'struct<a:string,b:int>',
    ['x  \t1', 'y\t2'],
    null,
    "sorted row 1: ours ['y', '3'], golden ['y', '2']",
    "row count 1, golden 2; first golden-only row ['y', '2']",
    null,
  ]);
});

test('the Spark start-up banner is not forwarded as progress; lockin and Spark errors are', () => {
  expect(['WARNING: Using incubator modules: jdk.incubator.vector', 'Setting default log level to "WARN".', 'To adjust logging level use sc.setLogLevel(newLevel). For SparkR, use setLogLevel(newLevel).'].map(isSparkNoise)).toEqual([true, true, true]);
  expect(['[17:46:25 +75.5s] references: [7/33] q14b: running', 'WARNING: could not fetch', '26/11/30 00:31:02 ERROR Executor: Exception in task 0.0'].map(isSparkNoise)).toEqual([false, false, false]);
  // Java stack frames of a logged exception are dropped; its message line stays.
  expect(['\tat org.apache.spark.sql.errors.QueryExecutionErrors$.divideByZeroError(QueryExecutionErrors.scala:203)', '\t... 27 more', 'org.apache.spark.SparkArithmeticException: [DIVIDE_BY_ZERO] Division by zero.'].map(isSparkNoise)).toEqual([true, true, false]);
});

test('a block of Spark log records (q12 dividing by zero while its reference is built) is shown as one line; progress lines pass', () => {
  const block = [
    '[17:44:46 +285.9s] references: [19/33] q12: running',
    '23:44:50 ERROR Executor: Exception in task 0.0 in stage 326.0 (TID 268)',
    'org.apache.spark.SparkArithmeticException: [DIVIDE_BY_ZERO] Division by zero. SQLSTATE: 22012',
    '== SQL (line 7, position 3) ==',
    '  sum(x) * 100 / sum(sum(x))',
    '  ^^^^^^^^^^^^^^^^^^^^^^^^^^',
    '23:44:50 ERROR TaskSetManager: Task 0 in stage 326.0 failed 1 times; aborting job',
    '[17:44:50 +289.5s] references: [19/33] q12: FAILED [DIVIDE_BY_ZERO] Division by zero.',
    'a line of a script that is not Spark log',
    '26/11/30 00:31:02 WARN SparkSession: Using an existing Spark session; only runtime SQL configurations will take effect, and more words past the limit of one hundred and twenty characters',
    'its continuation',
  ];
  const f = sparkLogFilter();
  expect(block.map(f)).toEqual([
    '[17:44:46 +285.9s] references: [19/33] q12: running',
    '(Spark logged ERROR Executor: Exception in task 0.0 in stage 326.0 (TID 268); the step goes on and its summary says what failed)',
    null,
    null,
    null,
    null,
    null,
    '[17:44:50 +289.5s] references: [19/33] q12: FAILED [DIVIDE_BY_ZERO] Division by zero.',
    'a line of a script that is not Spark log',
    '(Spark logged WARN SparkSession: Using an existing Spark session; only runtime SQL configurations will take effect, and more words past the limit of o...; the step goes on and its summary says what failed)',
    null,
  ]);
});
