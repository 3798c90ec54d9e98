/**
 * `lockin report ID`: writes runs/<ID>/report/ (report.md, Figure 1, summary.json, exports)
 * through the studyReport workflow (modelsReport for a model matrix), then prints Table III's
 * numbers from its summary.json.
 */
import { Command } from 'commander';
import * as path from 'path';
import * as fs from 'fs';
import { studyDir } from '../../activities/common/layout';
import { readReportSummary } from '../../activities/results';
import { modelsReport, studyReport } from '../../workflows/commands';
import { runCommandWorkflow } from '../commandWorkflow';
import { CONDITIONS } from '../../protocol/conditions';
import { paperShapedSubsets } from '../../protocol/sensitivity';

/** Defines the options, arguments, sub-commands and actions of `lockin report` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  cmd
    .argument('<id>', 'study id (a folder under runs/)')
    .option('--runs <dir>', 'folder holding the study folders (default: LOCKIN_RUNS or <repo>/runs)')
    .option('--exclude <tasks>', "comma-separated tasks for the paper's three sensitivity subsets instead of the study's setting (study.json sensitivity; default: the paper's, excluding q11)")
    .action(async (id: string, opts: { runs?: string; exclude?: string }) => {
      // A model matrix (`--models`): the combined report over its sub-studies (each has its own).
      const matrix = path.join(opts.runs ? path.resolve(opts.runs, id) : studyDir(id), 'models.json');
      if (!opts.runs && fs.existsSync(matrix)) {
        const { studies } = JSON.parse(fs.readFileSync(matrix, 'utf8')) as { studies: { model: string; studyId: string }[] };
        const m = await runCommandWorkflow(modelsReport, [{ studyId: id, studies }], { name: `report-${id}` });
        console.log(`combined report of ${studies.length} models written to ${m.reportDir} (${m.records} records); per model: ${studies.map((s) => `lockin report ${s.studyId}`).join(', ')}`);
        return;
      }
      const exclude = opts.exclude?.split(',').map((s) => s.trim()).filter(Boolean);
      const sensitivity = exclude ? paperShapedSubsets(exclude, 'lockin report --exclude') : undefined;
      const res = await runCommandWorkflow(studyReport, [{ studyId: id, ...(opts.runs ? { runsDir: path.resolve(opts.runs) } : {}), ...(sensitivity ? { sensitivity } : {}) }], { name: `report-${id}` });
      const summary = readReportSummary(res.reportDir);
      const pct = (x: number | null) => (x === null || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(2)}%`);
      // Only the study's conditions have a summary (a two-condition study has two).
      for (const c of CONDITIONS) {
        const s = summary[c];
        if (!s) continue;
        console.log(
          `${c.padEnd(12)} tests passed ${s.testPassed}/${s.tasks}  executed ${s.executed}/${s.tasks}  reference agreement ${s.referenceAgreement}/${s.tasks}  false passes ${s.falsePasses} (rate ${pct(s.falsePassRate)}, conditional ${pct(s.conditionalFalsePassProportion)})  plan ${pct(s.planScoreMean)} code ${pct(s.codeScoreMean)} test ${pct(s.testScoreMean)}`,
        );
      }
      console.log(`report written to ${res.reportDir} (${res.files} files)`);
    });
}
