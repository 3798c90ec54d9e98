/**
 * Confirming equivalent mutants on a larger database. The equivalence check runs on a small
 * database (SF=0.01) for speed; a mutant that agrees with the reference there may still differ
 * on the study's database (a price-column swap that no SF=0.01 row exposes). Only those
 * mutants run again at the confirmation scale: one that disagrees (or raises) there becomes
 * killable; one that agrees again stays equivalent. Disagreement on any database proves a
 * mutant non-equivalent, so this only ever moves mutants from "equivalent" to "killable".
 */
import * as fs from 'fs';
import * as path from 'path';
import { referencesDir, scaleTag, referencePaths } from '../common/paths';
import type { SparkSettings } from '../../protocol/settings';
import { compareOutputs } from '../compare/activity';
import { mutantOutputs, type EquivalenceResult, type MutantVerdict } from './generate';

interface ConfirmFile {
  scale: number;
  ids: string[];
  verdicts: Record<string, { verdict: 'killable' | 'equivalent' | 'error'; summary: string }>;
}

/**
 * Re-runs the mutants `eq` marks equivalent on databaseDir(scale) and compares them with
 * referencesDir(scale)/<taskId>. Returns `eq` with those mutants' verdicts updated (summary
 * prefixed with where each verdict was decided). Cached in `<eq.dir>/confirm-<scaleTag>.json`
 * (same mutant ids → no Spark run). A task without a reference at `scale`, or with nothing
 * equivalent, is returned unchanged.
 */
export async function confirmEquivalents(eq: EquivalenceResult, scale: number, settings: SparkSettings, timeoutMs?: number): Promise<EquivalenceResult> {
  const ids = eq.mutants.filter((m) => m.verdict === 'equivalent').map((m) => m.id);
  const reference = referencePaths(referencesDir(scale), eq.taskId);
  const refDir = reference.dir;
  if (ids.length === 0 || scale === eq.scale || !fs.existsSync(reference.schema)) return eq;
  const tag = scaleTag(scale);
  const file = path.join(eq.dir, `confirm-${tag}.json`);
  let saved: ConfirmFile | null = null;
  if (fs.existsSync(file)) {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as ConfirmFile;
    if (v.scale === scale && JSON.stringify(v.ids) === JSON.stringify(ids)) saved = v;
  }
  if (!saved) {
    const dirs = ids.map((id) => {
      const d = path.join(eq.dir, `confirm-${tag}`, id);
      fs.mkdirSync(d, { recursive: true });
      fs.copyFileSync(path.join(eq.dir, id, 'solution.py'), path.join(d, 'solution.py'));
      return d;
    });
    const results = await mutantOutputs({ dirs, scale, settings, timeoutMs });
    const verdicts: ConfirmFile['verdicts'] = {};
    for (const [i, id] of ids.entries()) {
      const r = results[i];
      if (r.status === 'not-run') verdicts[id] = { verdict: 'error', summary: `not run at SF=${scale}: ${(r.reason ?? '').split('\n')[0].slice(0, 300)}` };
      else if (r.status === 'exception') verdicts[id] = { verdict: 'killable', summary: `solve raised at SF=${scale}: ${(r.reason ?? '').split('\n')[0].slice(0, 300)}` };
      else {
        const cmp = await compareOutputs({ candidateDir: path.join(dirs[i], 'out'), referenceDir: refDir, outDir: dirs[i], execution: { status: 'ok' } });
        verdicts[id] = { verdict: cmp.outcome.agree ? 'equivalent' : 'killable', summary: `SF=${scale}: ${cmp.outcome.summary.split('\n')[0].slice(0, 400)}` };
      }
    }
    saved = { scale, ids, verdicts };
    // A run cut short is not kept: the next analysis tries again.
    if (!Object.values(verdicts).some((v) => v.verdict === 'error')) fs.writeFileSync(file, `${JSON.stringify(saved, null, 2)}\n`);
  }
  const mutants: MutantVerdict[] = eq.mutants.map((m) => {
    const c = saved!.verdicts[m.id];
    if (!c) return m;
    // Undecided at the larger scale: keep the small scale's verdict (equivalent, conservative).
    if (c.verdict === 'error') return { ...m, summary: `SF=${eq.scale}: ${m.summary}; ${c.summary}` };
    return { ...m, verdict: c.verdict, summary: `agrees at SF=${eq.scale}; ${c.summary}` };
  });
  return { ...eq, mutants };
}
