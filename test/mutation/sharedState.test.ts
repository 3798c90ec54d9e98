/**
 * activities/mutation/sharedState.ts: which program texts keep their suite's variants one at a
 * time. Worked examples, each written from what the sessions of one JVM share.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { sessionStateUse, sharedStateUse } from '../../activities/mutation/sharedState';
import { generateMutants } from '../../activities/mutation/generate';
import { listTaskIds, loadTask } from '../../activities/tasks/load';
import { readTaskForms } from '../../activities/tasks/executable';
import { applyViolation } from '../../activities/tasks/violation';
import { tasksRoot } from '../../activities/common/paths';

test('what all sessions of a JVM share is found, with its line', () => {
  const cases: [string, string][] = [
    ['    s.stop()', 'stops the SparkContext or session'],
    ['df.write.mode("overwrite").saveAsTable("out")', 'writes a table of the catalog'],
    ['spark.sql("CREATE TABLE t (a INT)")', 'creates or drops a catalog object'],
    ['spark.sql("drop view if exists v")', 'creates or drops a catalog object'],
    ['spark.sql("CREATE OR REPLACE GLOBAL TEMP VIEW g AS SELECT 1")', 'creates or drops a catalog object'],
    ['df.createOrReplaceGlobalTempView("g")', 'uses a global temp view'],
    ['spark.catalog.clearCache()', 'caches or uncaches through the catalog'],
    ['spark.sql("CACHE LAZY TABLE t")', 'caches or uncaches through the catalog'],
    ['spark.sparkContext.addPyFile("x.py")', 'adds files or jars to the SparkContext'],
    ['spark.sparkContext.cancelAllJobs()', 'cancels jobs'],
    ['spark._jvm.java.lang.System.setProperty("a", "b")', 'reaches the JVM directly'],
    ['df.write.parquet(str(tmp_path))', 'writes files'],
    ['with open(p, "w") as f:', 'writes files'],
    ['path = "/tmp/out.csv"', 'names a path under /tmp'],
  ];
  for (const [text, what] of cases) expect([text, sharedStateUse(`import pytest\n\n${text}\n`)]).toEqual([text, { what, line: 3, text: text.trim() }]);
});

test('what each session has of its own, reads, and comments are not', () => {
  const clean = `from pyspark.sql import functions as F
# spark.stop() is never called here
def test_x(spark):
    df = spark.createDataFrame([(1, 2)], "k int, v int")
    df.createOrReplaceTempView("t")
    spark.sql("CREATE OR REPLACE TEMP VIEW u AS SELECT * FROM t")
    spark.conf.set("spark.sql.shuffle.partitions", "1")
    df.cache()
    assert spark.read.table("t").count() == 1
    assert [tuple(r) for r in df.collect()] == [(1, 2)]
`;
  expect(sharedStateUse(clean)).toBeNull();
});

test('in one session: what the session has of its own is found too; reading tables and building DataFrames is not', () => {
  const cases: [string, string][] = [
    ['    df.createOrReplaceTempView("v")', 'uses a temp view'],
    ['    return spark.table("v")', 'uses a temp view'],
    ['    return spark.sql("SELECT 1")', 'runs SQL text in the session'],
    ['    spark.conf.set("spark.sql.shuffle.partitions", "1")', 'reads or sets the SQL conf'],
    ['    names = spark.catalog.listTables()', 'uses the catalog'],
    ['    df = df.cache()', 'caches or persists a DataFrame'],
    ['    spark.sparkContext.setJobGroup("g", "d")', 'sets a job group or local property'],
    ['    sc = spark.sparkContext', 'reaches the SparkContext or builds a session'],
    ['    s = SparkSession.builder.getOrCreate()', 'reaches the SparkContext or builds a session'],
    ['    s.stop()', 'stops the SparkContext or session'],
  ];
  for (const [line, what] of cases) expect([line, sessionStateUse(`def solve(spark, tables):\n${line}\n`)]).toEqual([line, { what, line: 2, text: line.trim() }]);
  const reads = 'from pyspark.sql import functions as F\ndef solve(spark, tables):\n    # spark.conf.set is not used\n    return tables["item"].filter(F.col("i_category") == "Books").groupBy("i_brand").count()\n';
  expect(sessionStateUse(reads)).toBeNull();
});

test("every gold, gold mutant and obligation violation of the corpus runs beside another (so step 5's executions run two at a time)", async () => {
  const root = tasksRoot();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-session-state-'));
  const hits: string[] = [];
  let texts = 0;
  try {
    for (const id of listTaskIds(root)) {
      const task = loadTask(id, root);
      const gold = fs.readFileSync(path.join(task.dir, 'gold', 'solution.py'), 'utf8');
      const all = [gold];
      for (const m of await generateMutants({ taskId: id, outDir: path.join(work, id), maxPerOperator: 2 })) all.push(fs.readFileSync(path.join(work, id, m.id, 'solution.py'), 'utf8'));
      const forms = readTaskForms(task.dir, task.taskId, task.obligations.obligations, task.obligationsFile);
      for (const f of forms.forms.filter((x) => x.violation)) all.push(applyViolation(gold, fs.readFileSync(f.violation!, 'utf8'), f.violation!, f.id));
      for (const t of all) {
        texts += 1;
        const u = sessionStateUse(t);
        if (u) hits.push(`${id}: ${u.what}: ${u.text}`);
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  expect(texts).toBeGreaterThan(300);
  expect(hits).toEqual([]);
}, 300_000);
