/**
 * The combined report of a model matrix (`--models a,b,c`; workflows/models.ts): every model's
 * sub-study keeps its own full report (Tables I–VII, runs/<sub>/report/); this one, at
 * runs/<id>/report/report.md, puts the models side by side: a table of the models and their
 * sub-studies, the "Samples and intervals" section with one subsection per model, and the
 * between-model comparisons on the tasks and samples they share (intervals.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { studyDir } from '../common/layout';
import { readRunRecords } from '../store/records';
import { intervalAnalysis, renderIntervals, type IntervalAnalysis } from './intervals';
import { readCorpusFile } from '../model/backends/replay';
import { isReplaySpec, tryParseModelSpec } from '../../protocol/model';
import { replayCorpusDir } from '../common/paths';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/**
 * Per model with more than one sample: a warning when its samples cannot vary (a replay corpus
 * whose corpus.json declares samples "repeat"). Reads the corpus files; unknown specs are skipped.
 */
export function sampleNotes(analysis: IntervalAnalysis): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const m of analysis.models) {
    const spec = tryParseModelSpec(m.model);
    if (m.samples < 2 || spec?.provider !== 'replay') continue;
    try {
      if (readCorpusFile(replayCorpusDir(spec.model)).samples === 'repeat') notes[m.model] = 'Its samples replay one reply per stage (corpus.json: samples "repeat"): they do not vary, so these intervals show no sampling variation.';
    } catch {
      /* an unreadable corpus is reported where it is used */
    }
  }
  return notes;
}
import { mdTable } from './tables';
import { renderDeviations } from './deviations';

/**
 * Activity: writes runs/<id>/models.json ({ studyId, studies }) and, unless `report` is false,
 * runs/<id>/report/report.md and intervals.json from the sub-studies' run records.
 * @returns the report directory (null when not written) and the number of records read.
 */
export async function finishModels(req: ActivityInput<'finishModels'>): Promise<ActivityOutput<'finishModels'>> {
  const dir = studyDir(req.studyId);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'models.json'), JSON.stringify({ studyId: req.studyId, studies: req.studies }, null, 2) + '\n');
  const perStudy = req.studies.map((s) => ({ ...s, records: readRunRecords(s.studyId) }));
  const records = perStudy.flatMap((s) => s.records);
  if (req.report === false || records.length === 0) return { reportDir: null, records: records.length };
  const reportDir = path.join(dir, 'report');
  fs.mkdirSync(reportDir, { recursive: true });
  const analysis = intervalAnalysis(records);
  fs.writeFileSync(path.join(reportDir, 'intervals.json'), JSON.stringify(analysis, null, 2) + '\n');
  fs.writeFileSync(path.join(reportDir, 'report.md'), renderModelsReport(req.studyId, perStudy, analysis));
  return { reportDir, records: records.length };
}

/** report.md of a model matrix. Pure. */
export function renderModelsReport(studyId: string, studies: { model: string; studyId: string; records: { replayed: boolean; replicate?: string }[] }[], analysis: ReturnType<typeof intervalAnalysis>): string {
  const replayed = studies.filter((s) => s.records.some((r) => r.replayed)).map((s) => s.model);
  const out = [`# lockin report: ${studyId} (${studies.length} models)`, ''];
  if (replayed.length) out.push(`> **REPLAYED**: the replies of ${replayed.map((m) => `\`${m}\``).join(', ')} were replayed from the project's replay corpora, not sampled from a live model; each model's full report says what share of its replies were authored, generated or recorded. Results describe the replay corpora, not any model.`, '');
  out.push(
    '## Models',
    '',
    mdTable(
      ['Model', 'Sub-study', 'Runs', 'Full report (Tables I–VII)'],
      studies.map((s) => [s.model, s.studyId, s.records.filter((r) => !r.replicate).length, `[report](../../${s.studyId}/report/report.md)`]),
    ),
    '',
  );
  out.push('## Samples and intervals', '', renderIntervals(analysis, sampleNotes(analysis)), '');
  const own = studies.filter((s) => isReplaySpec(s.model)).map((s) => `The replies of \`${s.model}\` were replayed, not sampled from claude-sonnet-4-6.`);
  out.push('## Deviations from the paper', '', renderDeviations(own), '');
  return out.join('\n');
}
