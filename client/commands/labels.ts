/** `lockin labels import FILE`: final (adjudicated) obligation labels into runs/<study>/labels/final.csv. */
import { Command } from 'commander';
import * as fs from 'fs';
import * as path from 'path';
import { runsRoot } from '../../activities/common/paths';
import { InputError } from '../../activities/common/errors';
import { parseFinalLabels, importFinalLabels, FINAL_COLUMNS } from '../../activities/scoring/finalLabels';
import { loadObligations } from '../../activities/scoring/corpusFiles';

/** Defines the options, arguments, sub-commands and actions of `lockin labels` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const labels = cmd;
  labels
    .command('import')
    .description(`import an adjudication CSV (columns: ${FINAL_COLUMNS.join(',')}) into runs/<study>/labels/final.csv`)
    .argument('<file>', 'CSV file')
    .option('--runs <dir>', 'folder holding the study folders (default: LOCKIN_RUNS or <repo>/runs)')
    .action((file: string, opts: { runs?: string }) => {
      if (!fs.existsSync(file)) throw new InputError('file not found', file);
      const rows = parseFinalLabels(fs.readFileSync(file, 'utf8'), file);
      // Every row must name an obligation of its task (tasks/<taskId>/obligations.yaml).
      const known = new Map<string, Set<string>>();
      rows.forEach((r, i) => {
        if (!known.has(r.task)) known.set(r.task, new Set(loadObligations(r.task).map((o) => o.id)));
        if (!known.get(r.task)!.has(r.obligation)) throw new InputError(`task ${r.task} has no obligation ${r.obligation}`, file, `line ${i + 2}: obligation`);
      });
      const root = opts.runs ? path.resolve(opts.runs) : runsRoot();
      for (const study of [...new Set(rows.map((r) => r.study))]) {
        const dir = path.join(root, study);
        if (!fs.existsSync(dir)) throw new InputError(`study folder ${dir} not found`, file, 'study');
        const res = importFinalLabels(dir, study, rows.filter((r) => r.study === study), file);
        console.log(`${study}: imported ${res.imported} final labels (${res.total} in ${res.file})`);
      }
    });
}
