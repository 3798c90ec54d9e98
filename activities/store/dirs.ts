/** Condition directories: fresh copies of the shared initial generation, frozen after the protocol ends. */
import * as fs from 'fs';
import * as path from 'path';
import { ARTIFACTS } from '../../protocol/corpus';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';
import { sha256File } from '../common/hash';
import { taskDir } from '../common/layout';
import { evaluationDir } from '../../protocol/layout';

/**
 * Activity: creates a fresh directory for the shared initial generation or for one condition
 * (runs/<study>/tasks/<taskId>[/sample-<k>]/<condition>/, layout.ts), removing what an earlier, unfinished attempt left;
 * with `fromDir`, copies the snapshot's artifacts (plan.md, solution.py, test_solution.py) into it,
 * writable again. The snapshot's calls/ are not copied: each condition has its own context.
 * @returns the directory's absolute path.
 */
export async function prepareConditionDir(req: ActivityInput<'prepareConditionDir'>): Promise<ActivityOutput<'prepareConditionDir'>> {
  const dir = path.join(taskDir(req.studyId, req.taskId, req.replicate, req.sample), req.condition);
  fs.rmSync(dir, { recursive: true, force: true });
  if (req.condition !== 'snapshot') fs.rmSync(evaluationDir(dir, req.condition), { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  if (req.fromDir) {
    for (const name of ARTIFACTS) {
      const src = path.join(req.fromDir, name);
      if (!fs.existsSync(src)) continue;
      fs.copyFileSync(src, path.join(dir, name));
      fs.chmodSync(path.join(dir, name), 0o644);
    }
  }
  return dir;
}

/**
 * Activity: freezes a directory's artifacts (read-only, mode 0444) and returns their hashes.
 * @returns { "plan.md": sha256, … } for the artifacts present; a missing artifact maps to "missing".
 */
export async function freezeArtifacts(req: ActivityInput<'freezeArtifacts'>): Promise<ActivityOutput<'freezeArtifacts'>> {
  const out: Record<string, string> = {};
  for (const name of ARTIFACTS) {
    const file = path.join(req.dir, name);
    if (!fs.existsSync(file)) {
      out[name] = 'missing';
      continue;
    }
    fs.chmodSync(file, 0o444);
    out[name] = sha256File(file);
  }
  return out;
}
