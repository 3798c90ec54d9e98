/** `lockin report ID`: writes runs/<ID>/report/ (report.md, Figure 1, summary.json, exports). */
import { Command } from 'commander';
import * as path from 'path';
import { writeReport } from '../../activities/report/writeReport';
import { CONDITIONS } from '../../protocol/conditions';

export function register(program: Command): void {
  program
    .command('report')
    .description('write runs/<ID>/report/: report.md (Tables I–VII), Figure 1 and, when the mutation analysis ran, Figure 2 (SVG, PNG), summary.json, CSV/Parquet exports (mutation.csv/.parquet too)')
    .argument('<id>', 'study id (a folder under runs/)')
    .option('--runs <dir>', 'folder holding the study folders (default: LOCKIN_RUNS or <repo>/runs)')
    .option('--exclude <tasks>', 'comma-separated tasks excluded in the sensitivity analysis', 'q11')
    .action(async (id: string, opts: { runs?: string; exclude: string }) => {
      const res = await writeReport({
        studyId: id,
        runsDir: opts.runs ? path.resolve(opts.runs) : undefined,
        exclude: opts.exclude.split(',').map((s) => s.trim()).filter(Boolean),
      });
      const pct = (x: number | null) => (x === null || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(2)}%`);
      for (const c of CONDITIONS) {
        const s = res.summary[c];
        console.log(
          `${c.padEnd(12)} tests passed ${s.testPassed}/${s.tasks}  executed ${s.executed}/${s.tasks}  reference matched ${s.referenceMatched}/${s.tasks}  false passes ${s.falsePasses} (rate ${pct(s.falsePassRate)}, conditional ${pct(s.conditionalFalsePassProportion)})  plan ${pct(s.planScoreMean)} code ${pct(s.codeScoreMean)} test ${pct(s.testScoreMean)}`,
        );
      }
      console.log(`report written to ${res.reportDir} (${res.files.length} files)`);
    });
}
