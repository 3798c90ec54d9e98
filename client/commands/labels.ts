/**
 * `lockin labels …`: human labels (docs/protocol.md §5; activities/scoring/raters.ts).
 *   export <study> --rater NAME     a blinded CSV and the runs' artifacts for one rater
 *   import FILE --rater NAME --study ID [--replace]   a rater's filled CSV, kept unchanged
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
import { agreementRows, disagreementColumns, disagreements, exportForRater, formatAgreementCli, importRaterLabels, LABEL_MEANINGS, RATER_LABELS, raterCoverage, readRaters, recordAdjudication, DIMENSIONS } from '../../activities/scoring/raters';
import { describeOrigins } from '../../activities/scoring/finalLabels';
import { toCsv } from '../../activities/common/csv';

/**
 * The study folder of `study` under --runs or the default runs root.
 * @throws InputError when it has no study.json, saying why: no such folder; a study of several
 * models (label one of its per-model studies, named); or a study that has not reached step 4
 * (study.json is written when its runs start).
 */
export function studyFolder(study: string, runs?: string): string {
  const root = runs ? path.resolve(runs) : runsRoot();
  const dir = path.join(root, study);
  if (fs.existsSync(path.join(dir, 'study.json'))) return dir;
  const perModel = fs.existsSync(root) ? fs.readdirSync(root).filter((n) => n.startsWith(`${study}--`) && fs.existsSync(path.join(root, n, 'study.json'))).sort() : [];
  if (perModel.length) throw new InputError(`study ${study} ran several models and has no runs of its own: label one of its per-model studies (${perModel.join(', ')})`, dir);
  if (fs.existsSync(dir)) throw new InputError(`study ${study} has no runs to label yet (study.json is written when its runs start, step 4 of the main job); try again after step 4`, dir);
  throw new InputError('study not found (no such folder)', dir);
}

/** Prints the study's final labels by origin (docs/protocol.md §5 "Final labels"): what the report will use. */
async function printFinal(dir: string, study: string): Promise<void> {
  const loaded = await loadStudy(dir);
  console.log(`final labels of ${study} (what the report uses; per item: report/labels.parquet final_* and final_origin after lockin report): ${describeOrigins(loaded.runs.flatMap((r) => r.labels.map((l) => l.final)))}`);
}

/** Defines the options, arguments, sub-commands and actions of `lockin labels` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const labels = cmd;
  labels
    .command('export')
    .description("write a blinded labelling folder for one rater: runs/<study>/labels/raters/<rater>/ with to-label.csv (runs by opaque id, no condition, no automated labels), README.md (the allowed values) and each run's plan.md, solution.py and scored suite as tests.py")
    .argument('<study>', 'study id')
    .requiredOption('--rater <name>', 'the rater (a word: letters, digits, - or _)')
    .option('--runs <dir>', 'folder holding the study folders (default: LOCKIN_RUNS or <repo>/runs)')
    .addHelpText('after', `\nAllowed values (an empty cell = not labelled):\n${DIMENSIONS.map((d) => `  ${d}:\n${RATER_LABELS[d].map((v) => `    ${v.padEnd(18)} ${LABEL_MEANINGS[d][v]}`).join('\n')}`).join('\n')}\ntests.py is the suite the run is scored on (Contract-First: its frozen contract_test.py; otherwise test_solution.py).\nGive a rater only labels/raters/<rater>/, never labels/blind-key.json (it names each run's condition).`)
    .action(async (study: string, opts: { rater: string; runs?: string }) => {
      const res = exportForRater(await loadStudy(studyFolder(study, opts.runs)), opts.rater);
      console.log(`${study}: ${res.rows} obligations of ${res.runs} runs to label in ${res.file}; allowed values and instructions in ${res.readme}; artifacts under ${path.join(res.dir, 'runs')}`);
      console.log(`give the rater only ${res.dir} (not labels/blind-key.json); fill plan, code and test, then: lockin labels import <file> --rater ${opts.rater} --study ${study}`);
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
      console.log(formatAgreementCli(rows));
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
        await printFinal(dir, study);
        return;
      }
      const raters = readRaters(dir);
      if (raters.size < 2) throw new InputError(`adjudication needs two raters' labels (${raters.size} imported)`, path.join(dir, 'labels', 'raters'));
      const rows = disagreements(study, raters);
      const file = path.join(dir, 'labels', 'disagreements.csv');
      fs.writeFileSync(file, toCsv(disagreementColumns([...raters.keys()]), rows));
      const cov = raterCoverage(raters);
      console.log(`${study}: ${rows.length} items where the raters disagree, in ${file}; fill the empty plan/code/test cells, then: lockin labels adjudicate ${study} --decided <file>`);
      console.log(`raters' labels per dimension: ${DIMENSIONS.map((d) => `${d} ${cov[d].agreed} agreed, ${cov[d].disagreed} disagreed, ${cov[d].single} by one rater only`).join('; ')} (agreed labels are final; one rater's label is not agreement and stays automated unless decided)`);
      await printFinal(dir, study);
    });
  labels
    .command('import')
    .description(`import an adjudication CSV (columns: ${FINAL_COLUMNS.join(',')}) into runs/<study>/labels/final.csv; with --rater, a rater's filled export instead (kept unchanged)`)
    .argument('<file>', 'CSV file')
    .option('--rater <name>', "the file is this rater's filled export (needs --study)")
    .option('--study <id>', 'the study a rater file belongs to')
    .option('--replace', "with --rater: supersede the rater's imported labels (the old labels.csv is kept as labels.<n>.csv and the replacement recorded in replaced.csv)")
    .option('--runs <dir>', 'folder holding the study folders (default: LOCKIN_RUNS or <repo>/runs)')
    .action((file: string, opts: { runs?: string; rater?: string; study?: string; replace?: boolean }) => {
      if (!fs.existsSync(file)) throw new InputError('file not found', file);
      if (opts.replace && !opts.rater) throw new InputError('--replace supersedes a rater\'s labels: it needs --rater NAME --study ID (final labels are merged, a later row replacing the same item)', undefined, '--replace');
      if (opts.rater) {
        if (!opts.study) throw new InputError('--rater needs --study <id>', undefined, '--study');
        const res = importRaterLabels(studyFolder(opts.study, opts.runs), opts.rater, file, { replace: opts.replace });
        console.log(`${opts.study}: rater ${opts.rater}: ${res.labelled} of ${res.rows} rows labelled${res.again ? ' (the same file was imported before: nothing changed)' : ''}; kept as ${res.file}${res.keptAs ? ` (the labels it replaces are kept as ${res.keptAs})` : ''}`);
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
