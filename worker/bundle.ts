/**
 * The workflow bundle, built once per version of the workflow code and kept on disk.
 *
 * Bundling the workflows (webpack, through the SDK's bundleWorkflowCode) takes about 10 s on a
 * 2-core machine, and every process that starts workers did it again: each `lockin` command that
 * runs a study, each test file with workers, each worker a crash test starts. The bundle is a pure
 * function of its inputs (code, not study state), so it is cached next to the code, under
 * `<repo>/.lockin/cache/workflow-bundle/<key>.js` with its source map (whatever LOCKIN_HOME says:
 * tests that point LOCKIN_HOME at temporary folders share it), where the key is the sha256 of
 *   - every file of the workflows/ and protocol/ folders next to this module (the only code the
 *     workflows import: ESLint forbids anything else, eslint.config.js), path and content;
 *   - package-lock.json (the SDK and zod versions, bundled too);
 *   - BUNDLE_FORMAT (bump it when the bundler options below change).
 * A changed workflow file therefore gives a new key and a new bundle; nothing is ever reused
 * across versions. Writes are atomic (temp file + rename), so concurrent processes are safe; the
 * KEEP newest bundles are kept, older ones removed when a new one is stored.
 * LOCKIN_WORKFLOW_BUNDLE_CACHE=0 turns the cache off (every process bundles, as before).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { REPO_ROOT } from '../activities/common/paths';
import { LockinLogger } from './log';

/** Bundles kept in the cache (about 4.5 MB each). */
const KEEP = 4;

/** Part of the cache key: the bundler options of buildBundle. */
const BUNDLE_FORMAT = 'workflows+interceptors-v1';

/** The workflows/ and protocol/ folders of this build (sources under ts-jest, dist/ when compiled). */
function codeRoot(): string {
  return path.join(__dirname, '..');
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return listFiles(p);
    return /\.(ts|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/**
 * The cache key of the bundle built from `root` (a folder holding workflows/ and protocol/).
 * Returns: 64 hex characters; any change of a workflow or protocol file, of package-lock.json
 * or of BUNDLE_FORMAT changes it.
 */
export function bundleKey(root: string = codeRoot()): string {
  const h = crypto.createHash('sha256').update(`${BUNDLE_FORMAT}\n`);
  for (const file of ['workflows', 'protocol'].flatMap((d) => listFiles(path.join(root, d))).sort()) {
    h.update(`${path.relative(root, file)}\n`).update(fs.readFileSync(file)).update('\n');
  }
  const lock = path.join(REPO_ROOT, 'package-lock.json');
  if (fs.existsSync(lock)) h.update(fs.readFileSync(lock));
  return h.digest('hex');
}

function buildBundle(root: string): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: require.resolve(path.join(root, 'workflows')),
    workflowInterceptorModules: [require.resolve(path.join(root, 'workflows', 'interceptors'))],
    logger: new LockinLogger('WARN'),
  });
}

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/**
 * The workflow bundle for this build: read from the cache when a bundle with the same key is
 * there, else built and stored.
 * Returns: the bundle's code and source map (Worker.create's `workflowBundle`).
 * Errors: a bundling error of the SDK; a cache that cannot be written is not an error (the bundle
 * is returned uncached).
 */
export async function cachedWorkflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  const root = codeRoot();
  if (process.env.LOCKIN_WORKFLOW_BUNDLE_CACHE === '0') return buildBundle(root);
  const dir = path.join(REPO_ROOT, '.lockin', 'cache', 'workflow-bundle');
  const key = bundleKey(root);
  const code = path.join(dir, `${key}.js`);
  const map = path.join(dir, `${key}.js.map`);
  if (fs.existsSync(code) && fs.existsSync(map)) return { code: fs.readFileSync(code, 'utf8'), sourceMap: fs.readFileSync(map, 'utf8') };
  const bundle = await buildBundle(root);
  try {
    fs.mkdirSync(dir, { recursive: true });
    writeAtomic(map, bundle.sourceMap);
    writeAtomic(code, bundle.code);
    const old = fs.readdirSync(dir).filter((f) => /^[0-9a-f]{64}\.js$/.test(f)).map((f) => ({ f, t: fs.statSync(path.join(dir, f)).mtimeMs })).sort((a, b) => b.t - a.t).slice(KEEP);
    for (const { f } of old) for (const x of [f, `${f}.map`]) fs.rmSync(path.join(dir, x), { force: true });
  } catch {
    /* a read-only checkout: use the bundle without keeping it */
  }
  return bundle;
}
