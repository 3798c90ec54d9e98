/**
 * activities/python/spark_worker_daemon.py: PySpark's worker daemon without the re-reading of
 * unchanged zip archives on every task (warm Spark slots). Expectations from Python's zipimport
 * contract: a changed archive is re-read (a module added to it becomes importable), an
 * unchanged one is not; and from build_session: every SparkContext it builds names the daemon,
 * whose forked workers carry the patch, with results as before.
 */
import execa from 'execa';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pythonDir, venvPython } from '../../activities/common/paths';

jest.setTimeout(180_000);

/** Runs `code` in the venv's Python with activities/python importable; returns its last stdout line as JSON. */
async function py(code: string, env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const res = await execa(venvPython(), ['-c', code], { env: { PYTHONPATH: pythonDir(), ...env }, reject: false });
  if (res.exitCode !== 0) throw new Error(`python failed (${res.exitCode}): ${res.stderr.slice(-2000)}`);
  const lines = res.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
}

test('an unchanged archive is not re-read on invalidate_caches; a changed one is, and its new module imports', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-daemon-'));
  const zipPath = path.join(dir, 'lib.zip');
  const out = await py(`
import importlib, json, sys, time, zipfile
zp = ${JSON.stringify(zipPath)}
with zipfile.ZipFile(zp, "w") as z:
    z.writestr("mod_a.py", "VALUE = 1\\n")
import spark_worker_daemon as d
reads = []
orig = d._reread
d._reread = lambda self: (reads.append(self.archive), orig(self))[1]
sys.path.insert(0, zp)
import mod_a
importlib.invalidate_caches()   # first call on this importer: read, as the original does
importlib.invalidate_caches()   # unchanged: not read
importlib.invalidate_caches()
unchanged = len(reads)
time.sleep(0.01)
with zipfile.ZipFile(zp, "w") as z:
    z.writestr("mod_a.py", "VALUE = 1\\n")
    z.writestr("mod_b.py", "VALUE = 2\\n")
importlib.invalidate_caches()   # changed: read again
import mod_b
print(json.dumps({"unchanged": unchanged, "after_change": len(reads), "a": mod_a.VALUE, "b": mod_b.VALUE,
                  "patched": __import__("zipimport").zipimporter.invalidate_caches.__name__}))
`);
  expect(out).toEqual({ unchanged: 1, after_change: 2, a: 1, b: 2, patched: 'invalidate_if_changed' });
});

test('build_session names the daemon, even when PYTHONPATH lacks activities/python; its workers carry the patch and results are as before', async () => {
  const out = await py(`
import json, os, sys
sys.path.insert(0, ${JSON.stringify(pythonDir())})
os.environ["PYTHONPATH"] = ""
from spark_session import build_session
s = {"master": "local[2]", "shufflePartitions": 8, "ansi": True, "sessionTimeZone": "UTC", "caseSensitive": False,
     "adaptive": True, "defaultParallelism": 2, "driverMemory": "1g"}
spark = build_session(s, "daemon-test")
conf = spark.sparkContext.getConf().get("spark.python.daemon.module")
def probe(_):
    import sys, zipimport
    return zipimport.zipimporter.invalidate_caches.__name__ + " from " + sys.modules["__main__"].__spec__.name
mods = sorted(set(spark.sparkContext.parallelize(range(4), 2).map(probe).collect()))
rows = spark.createDataFrame([(1, "a"), (2, None), (3, "c")], "k int, v string").where("k > 1").orderBy("k").collect()
print(json.dumps({"conf": conf, "workers": mods, "rows": [list(r) for r in rows]}))
spark.stop()
`, { PYTHONPATH: '' });
  expect(out).toEqual({ conf: 'spark_worker_daemon', workers: ['invalidate_if_changed from spark_worker_daemon'], rows: [[2, null], [3, 'c']] });
});
