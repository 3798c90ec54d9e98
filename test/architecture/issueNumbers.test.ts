/**
 * No source file names a feature by an issue number: the issues are not in the repository, so
 * "since issue 47" tells a reader nothing. A comment names the idea (the blind variants, the
 * reach check) or the document that holds it (docs/verdicts.md). Checked over the code layers,
 * the tests and the benchmarks (.ts, .js, .py); docs/ may date a page by the issue it came from.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const DIRS = ['protocol', 'workflows', 'activities', 'worker', 'client', 'infra', 'bench', 'test', 'bin'];
const ISSUE = /\b[Ii]ssues? #?\d{1,3}\b/;

function files(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === '__pycache__' || rel === 'test/fixtures' ? [] : files(rel);
    return /\.(ts|js|py)$/.test(e.name) ? [rel] : [];
  });
}

test('no source line names an issue number', () => {
  const hits = DIRS.flatMap(files).filter((f) => f !== 'test/architecture/issueNumbers.test.ts').flatMap((f) =>
    fs.readFileSync(path.join(ROOT, f), 'utf8').split('\n').flatMap((l, i) => (ISSUE.test(l) ? [`${f}:${i + 1}: ${l.trim()}`] : [])),
  );
  expect(hits).toEqual([]);
});

test('the pattern finds what it is for', () => {
  expect(['// since issue 47 each', '(issues 21 and 47)', 'Issue 47: x'].map((l) => ISSUE.test(l))).toEqual([true, true, true]);
  expect(['// the reach check', 'tissue 4', 'issuer 12'].map((l) => ISSUE.test(l))).toEqual([false, false, false]);
});
