/** The workflow bundle's cache key (worker/bundle.ts): one key per version of the workflow code. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { bundleKey } from '../../worker/bundle';

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-bundlekey-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const base = { 'workflows/index.ts': "export { a } from './a';\n", 'workflows/a.ts': 'export async function a() {}\n', 'protocol/q.ts': 'export const Q = 1;\n' };

test('the same workflow and protocol files give the same key; a changed, added or renamed file a new one', () => {
  const k = bundleKey(tree(base));
  expect(k).toMatch(/^[0-9a-f]{64}$/);
  expect(bundleKey(tree(base))).toBe(k);
  expect(bundleKey(tree({ ...base, 'workflows/a.ts': 'export async function a() { return 1; }\n' }))).not.toBe(k);
  expect(bundleKey(tree({ ...base, 'protocol/q.ts': 'export const Q = 2;\n' }))).not.toBe(k);
  expect(bundleKey(tree({ ...base, 'protocol/sub/r.ts': 'export const R = 1;\n' }))).not.toBe(k);
  const { 'protocol/q.ts': q, ...rest } = base;
  expect(bundleKey(tree({ ...rest, 'protocol/q2.ts': q }))).not.toBe(k);
});

test('files outside workflows/ and protocol/, declaration files and other extensions do not change it', () => {
  const k = bundleKey(tree(base));
  expect(bundleKey(tree({ ...base, 'activities/x.ts': 'export const X = 1;\n', 'workflows/a.d.ts': 'export {};\n', 'workflows/notes.md': '# notes\n' }))).toBe(k);
});
