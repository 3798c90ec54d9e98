/**
 * activities/python/local_rows.py: `createDataFrame` with local rows reaches the JVM without
 * PySpark's identity pass through a Python worker (warm Spark slots). Expectations from the module's
 * guarantee, checked against PySpark's own path in the same session: the same rows in the same
 * partitions in the same order (including after a shuffle), for every column type the TPC-DS
 * fixtures use and then some, at sizes on both sides of PySpark's batch size (1,024); the
 * PythonRDD of the identity pass is gone from the lineage; an RDD made by `map` keeps PySpark's
 * path.
 */
import execa from 'execa';
import { pythonDir, venvPython } from '../../activities/common/paths';

jest.setTimeout(180_000);

const SCRIPT = `
import datetime, decimal, json, sys
from spark_session import build_session
s = {"master": "local[2]", "shufflePartitions": 8, "ansi": True, "sessionTimeZone": "UTC", "caseSensitive": False,
     "adaptive": True, "defaultParallelism": 2, "driverMemory": "1g"}
spark = build_session(s, "local-rows-test")
from pyspark.core.rdd import RDD
from pyspark.sql import functions as F
patched = RDD._to_java_object_rdd
original = patched._lockin_original
SCHEMA = ("k int, b bigint, d decimal(7,2), s string, dt date, ts timestamp, f boolean, x double, "
          "a array<int>, m map<string,int>, st struct<p:int,q:string>, bin binary")
def row(i):
    return (i, 10**12 + i, decimal.Decimal(f"{i % 1000}.{i % 100:02d}"), None if i % 3 == 0 else f"s{i}",
            datetime.date(2000, 1, 1) + datetime.timedelta(days=i), datetime.datetime(2001, 2, 3, 4, 5, 6, i),
            i % 2 == 0, i / 7, [i, None], {"k": i}, (i, "q"), bytearray([i % 256]))
def seen(df):
    lineage = df._jdf.queryExecution().toRdd().toDebugString()
    rows = [[r[0]] + [str(v) for v in r[1:]] for r in df.select(F.spark_partition_id().alias("pid"), "*").collect()]
    shuffled = [list(map(str, r)) for r in df.groupBy((F.col("k") % 7).alias("g")).agg(F.collect_list("s").alias("l")).collect()]
    return rows, shuffled, "PythonRDD[" in lineage
out = {}
for n in (0, 1, 5, 3000):
    data = [row(i) for i in range(n)]
    RDD._to_java_object_rdd = original
    a = seen(spark.createDataFrame(data, SCHEMA))
    RDD._to_java_object_rdd = patched
    b = seen(spark.createDataFrame(data, SCHEMA))
    out[str(n)] = {"sameRows": a[0] == b[0], "sameShuffled": a[1] == b[1], "rows": len(b[0]),
                   "partitionsWithRows": sorted({r[0] for r in b[0]}), "pythonPassBefore": a[2], "pythonPassAfter": b[2]}
out["mapThenToDF"] = seen(spark.sparkContext.parallelize([(1, "a"), (2, "b")], 2).map(lambda t: t).toDF("k int, s string"))[2]
out["patchName"] = RDD._to_java_object_rdd.__name__
print(json.dumps(out))
spark.stop()
`;

test('local rows: the same rows in the same partitions and order as through PySpark\'s identity pass, without its PythonRDD', async () => {
  const res = await execa(venvPython(), ['-c', SCRIPT], { env: { PYTHONPATH: pythonDir() }, reject: false });
  if (res.exitCode !== 0) throw new Error(`python failed (${res.exitCode}): ${res.stderr.slice(-2000)}`);
  const lines = res.stdout.trim().split('\n');
  const out = JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
  const same = (rows: number, partitionsWithRows: number[]) =>
    ({ sameRows: true, sameShuffled: true, rows, partitionsWithRows, pythonPassBefore: true, pythonPassAfter: false });
  expect(out).toEqual({
    // parallelize cuts into defaultParallelism = 2 slices: one row lands in the second, more in both
    '0': same(0, []), '1': same(1, [1]), '5': same(5, [0, 1]), '3000': same(3000, [0, 1]),
    mapThenToDF: true,
    patchName: '_to_java_object_rdd',
  });
});
