/** The main job behind `npm run study` (filled in as the data, controls and report steps land). */
import { buildStudyInput } from './studyInput';
import { printSummary, runStudyWorkflow } from './studyRunner';

export interface MainJobOptions {
  scale: number;
  model: string;
  tasks: string[];
  studyId?: string;
}

export async function runMainJob(o: MainJobOptions): Promise<void> {
  const replayed = o.model.startsWith('replay:');
  process.stderr.write(`[lockin] model: ${o.model}${replayed ? ' — no ANTHROPIC_API_KEY, so replies are REPLAYED from the corpus, not a live model' : ''}\n`);
  const studyId = o.studyId ?? `main-sf${o.scale}-${o.model.replace(/[^A-Za-z0-9._-]+/g, '-')}`;
  const input = buildStudyInput({ studyId, tasks: o.tasks, model: o.model, scale: o.scale });
  const res = await runStudyWorkflow(input);
  printSummary(studyId, replayed);
  if (res.reportDir) process.stdout.write(`report: ${res.reportDir}/report.md\n`);
}
