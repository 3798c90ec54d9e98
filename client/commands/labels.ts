/**
 * `lockin labels …`: human labels (docs/protocol.md §5; activities/scoring/raters.ts).
 *   export <study> --rater NAME     a blinded CSV and the runs' artifacts for one rater
 *   import FILE --rater NAME --study ID   a rater's filled CSV, kept unchanged
 *   import FILE                     final (adjudicated) labels into runs/<study>/labels/final.csv
 *   agreement <study>               Cohen's kappa between raters and against each automated labeller
 *   adjudicate <study> [--decided FILE]   the raters' disagreements to decide; the decisions recorded
 */
import { Command } from 'commander';
import * as fs from 'fs';
import * as path from 'path';
import { runsRoot } from '../../activities/common/paths';
import { InputError } from '../../activities/common/errors';
import { parseFinalLabels, importFinalLabels, FINAL_COLUMNS } from '../../activities/scoring/finalLabels';
import { loadObligations } from '../../activities/scoring/corpusFiles';
import { loadStudy } from '../../activities/scoring/study';
import { agreementRows, disagreementColumns, disagreements, exportForRater, importRaterLabels, readRaters, recordAdjudication } from '../../activities/scoring/raters';
import { toCsv } from '../../activities/scoring/csv';
import { formatAgreement } from '../../activities/report/tables';

/** The study folder of `study` under --runs or the default runs root. @throws InputError when it does not exist. */
function studyFolder(study: string, runs?: string): string {
  const dir = path.join(runs ? path.resolve(runs) : runsRoot(), study);
  if (!fs.existsSync(path.join(dir, 'study.json'))) throw new InputError('study not found (no study.json)', dir);
  return dir;
}

/** Defines the options, arguments, sub-commands and actions of `lockin labels` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const labels = cmd;
  labels
    .command('export')
    .description('write a blinded labelling file for one rater: runs/<study>/labels/raters/<rater>/to-label.csv (runs by opaque id, no condition, no automated labels) and each run\'s artifacts')
    .argument('<study>', 'study id')
    .requiredOption('--rater <name>', 'the rater (a word: letters, digits, - or _)')
    .option('--runs <dir>', 'folder holding the study folders (default: LOCKIN_RUNS or <repo>/runs)')
    .action(async (study: string, opts: { rater: string; runs?: string }) => {
      const res = exportForRater(await loadStudy(studyFolder(study, opts.runs)), opts.rater);
      console.log(`${study}: ${res.rows} obligations of ${res.runs} runs to label in ${res.file} (artifacts under ${path.join(res.dir, 'runs')}); fill plan, code and test, then: lockin labels import <file> --rater ${opts.rater} --study ${study}`);
    });
  labels
    .command('agreement')
    .description("Cohen's kappa per dimension between the raters, and between each rater and each automated labeller (writes labels/agreement.json)")
    .argument('<study>', 'study id')
    .option('--runs <dir>', 'folder holding the study folders (default: LOCKIN_RUNS or <repo>/runs)')
    .action(async (study: string, opts: { runs?: string }) => {
      const dir = studyFolder(study, opts.runs);
      const raters = readRaters(dir);
      if (raters.size === 0) throw new InputError('no rater has labels yet (lockin labels export, then lockin labels import --rater)', path.join(dir, 'labels', 'raters'));
      const rows = agreementRows(await loadStudy(dir), raters);
      fs.writeFileSync(path.join(dir, 'labels', 'agreement.json'), JSON.stringify(rows, null, 1) + '\n');
      console.log(formatAgreement(rows));
    });
  labels
    .command('adjudicate')
    .description('write the items where raters disagree to labels/disagreements.csv; with --decided, record the decided final labels (labels/final.csv and labels/adjudication.csv)')
    .argument('<study>', 'study id')
    .option('--decided <file>', 'the disagreements file with plan, code and test filled in')
    .option('--runs <dir>', 'folder holding the study folders (default: LOCKIN_RUNS or <repo>/runs)')
    .action(async (study: string, opts: { decided?: string; runs?: string }) => {
      const dir = studyFolder(study, opts.runs);
      if (opts.decided) {
        if (!fs.existsSync(opts.decided)) throw new InputError('file not found', opts.decided);
        const res = recordAdjudication(dir, study, opts.decided);
        console.log(`${study}: ${res.rows} decided labels recorded in ${res.finalFile} and ${res.adjudicationFile}`);
        return;
      }
      const raters = readRaters(dir);
      if (raters.size < 2) throw new InputError(`adjudication needs two raters' labels (${raters.size} imported)`, path.join(dir, 'labels', 'raters'));
      const rows = disagreements(study, raters);
      const file = path.join(dir, 'labels', 'disagreements.csv');
      fs.writeFileSync(file, toCsv(disagreementColumns([...raters.keys()]), rows));
      console.log(`${study}: ${rows.length} items where the raters disagree, in ${file}; fill the empty plan/code/test cells, then: lockin labels adjudicate ${study} --decided <file>`);
    });
  labels
    .command('import')
    .description(`import an adjudication CSV (columns: ${FINAL_COLUMNS.join(',')}) into runs/<study>/labels/final.csv; with --rater, a rater's filled export instead (kept unchanged)`)
    .argument('<file>', 'CSV file')
    .option('--rater <name>', "the file is this rater's filled export (needs --study)")
    .option('--study <id>', 'the study a rater file belongs to')
    .option('--runs <dir>', 'folder holding the study folders (default: LOCKIN_RUNS or <repo>/runs)')
    .action((file: string, opts: { runs?: string; rater?: string; study?: string }) => {
      if (!fs.existsSync(file)) throw new InputError('file not found', file);
      if (opts.rater) {
        if (!opts.study) throw new InputError('--rater needs --study <id>', undefined, '--study');
        const res = importRaterLabels(studyFolder(opts.study, opts.runs), opts.rater, file);
        console.log(`${opts.study}: rater ${opts.rater}: ${res.labelled} of ${res.rows} rows labelled${res.again ? ' (the same file was imported before: nothing changed)' : ''}; kept as ${res.file}`);
        return;
      }
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
