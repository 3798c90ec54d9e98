/**
 * activities/mutation/sharedState.ts: which program texts keep their suite's variants one at a
 * time. Worked examples, each written from what the sessions of one JVM share.
 */
import { sharedStateUse } from '../../activities/mutation/sharedState';

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
