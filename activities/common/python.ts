/**
 * Runs one of lockin's Python scripts (activities/python/*.py) in the project venv.
 *
 * Protocol: the script prints progress to stderr and exactly one JSON object as the
 * LAST line of stdout; that line is validated with the given zod schema.
 */
import execa from 'execa';
import * as path from 'path';
import { z } from 'zod';
import { pythonDir, venvPython, REPO_ROOT } from './paths';
import { SubprocessError } from './errors';

export interface PythonRunOptions {
  /** Working directory (default: repo root). */
  cwd?: string;
  /** Wall-clock limit in milliseconds (default: none). */
  timeoutMs?: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Called with each stderr line (progress). */
  onStderrLine?: (line: string) => void;
}

/**
 * Runs `python <activities/python/script> ...args` and returns its last stdout line parsed
 * and validated by `schema`.
 * @throws SubprocessError when the process exits non-zero or is killed; Error when the last
 *   line is not JSON or fails validation (message names the script).
 */
export async function runPythonJson<T extends z.ZodTypeAny>(
  script: string,
  args: string[],
  schema: T,
  opts: PythonRunOptions = {},
): Promise<z.infer<T>> {
  const scriptPath = path.isAbsolute(script) ? script : path.join(pythonDir(), script);
  const child = execa(venvPython(), [scriptPath, ...args], {
    cwd: opts.cwd ?? REPO_ROOT,
    timeout: opts.timeoutMs,
    killSignal: 'SIGKILL',
    reject: false,
    all: false,
    env: { PYTHONUNBUFFERED: '1', PYTHONPATH: pythonDir(), ...opts.env },
  });
  let stderrTail = '';
  let partial = '';
  child.stderr?.on('data', (buf: Buffer) => {
    const text = buf.toString();
    stderrTail = (stderrTail + text).slice(-4000);
    if (!opts.onStderrLine) return;
    // Chunks do not end at line ends: hand over whole lines only.
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) opts.onStderrLine(line);
  });
  const res = await child;
  if (opts.onStderrLine && partial.trim()) opts.onStderrLine(partial);
  if (res.exitCode !== 0 || res.signal) {
    throw new SubprocessError(path.basename(scriptPath), args, res.exitCode ?? null, res.signal ?? null, stderrTail.slice(-1500));
  }
  const lines = (res.stdout ?? '').trim().split('\n');
  const last = lines[lines.length - 1] ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(last);
  } catch {
    throw new Error(`${path.basename(scriptPath)}: last stdout line is not JSON: ${last.slice(0, 300)}`);
  }
  const out = schema.safeParse(parsed);
  if (!out.success) throw new Error(`${path.basename(scriptPath)}: unexpected result: ${out.error.message}`);
  return out.data;
}
