/**
 * What candidate code may and may not see: the staged copy of the frozen artifacts and the
 * list of study folders it must not read (references, labels, scores, other conditions).
 */
import * as fs from 'fs';
import * as path from 'path';
import { lockinHome, referencesDir, replayRoot, runsRoot, tasksRoot } from '../common/paths';
import { ownedTempDir } from './sandbox';

/**
 * Host path prefixes candidate code must never read: the state folder (references, labels,
 * scores, caches), the run outputs (every condition's artifacts and records), the task corpus
 * and the replay corpora. Under bubblewrap they are not mounted at all; the list feeds the
 * in-process check (exec_guard.py) in every mode.
 */
export function forbiddenPrefixes(scale?: number): string[] {
  const out = [lockinHome(), runsRoot(), tasksRoot(), replayRoot()];
  if (scale !== undefined) out.push(referencesDir(scale));
  return [...new Set(out.map((p) => path.resolve(p)))];
}

/**
 * Copies the named artifacts of `dir` (those that are regular files: a symlink among the
 * artifacts is not followed) into a fresh temporary folder, readable by the sandbox's
 * unprivileged user (0755 folder, 0644 files), so the sandbox mounts exactly these files and
 * nothing else of the condition folder. The folder records its owner process, so a killed
 * worker's leftovers are removed at the next start (sandbox.ts cleanStaleSandboxFolders).
 * Returns the folder; the caller removes it (fs.rmSync recursive).
 */
export function stageArtifacts(dir: string, names: string[]): string {
  const staged = ownedTempDir('lockin-stage-');
  fs.chmodSync(staged, 0o755);
  for (const n of names) {
    const src = path.join(dir, n);
    const st = fs.lstatSync(src, { throwIfNoEntry: false });
    if (st?.isFile()) {
      fs.copyFileSync(src, path.join(staged, n));
      fs.chmodSync(path.join(staged, n), 0o644);
    }
  }
  return staged;
}
