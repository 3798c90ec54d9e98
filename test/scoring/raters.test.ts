/**
 * Human raters on the fixture study fx1 (test/fixtures/study: 4 tasks × 3 conditions × 8
 * obligations, every primary run labelled): a blinded export, two raters' files imported and
 * kept unchanged, Cohen's kappa between them worked out by hand, their disagreements listed and
 * adjudicated (activities/scoring/raters.ts).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadStudy } from '../../activities/scoring/study';
import { parseCsv, toCsv } from '../../activities/scoring/csv';
import { agreementRows, disagreements, exportForRater, formatAgreementCli, importRaterLabels, raterCoverage, ratersAgreed, readRaters, recordAdjudication, RATER_COLUMNS, type RaterLabel } from '../../activities/scoring/raters';
import { labelKey, mergeFinalLabel } from '../../activities/scoring/finalLabels';
import type { LoadedStudy } from '../../activities/scoring/study';
import { writeReport } from '../../activities/report/writeReport';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'study');
const tasksDir = path.join(FIXTURE, 'tasks');

function fresh(): string {
  const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-raters-'));
  fs.cpSync(path.join(FIXTURE, 'runs'), runs, { recursive: true });
  return runs;
}

test('export, two raters, kappa, disagreements and adjudication', async () => {
  const runs = fresh();
  const dir = path.join(runs, 'fx1');
  const study = await loadStudy(dir, { tasksDir });
  const ex = exportForRater(study, 'ana');
  expect([ex.runs, ex.rows]).toEqual([12, 96]);
  const text = fs.readFileSync(ex.file, 'utf8');
  const rows = parseCsv(text);
  expect(rows[0]).toEqual([...RATER_COLUMNS]);
  // Blinded: no condition name, no automated label anywhere in the file.
  for (const word of ['one-pass', 'test-guided', 'plan-audit', 'satisfied', 'violated', 'covered', 'present']) expect(text).not.toContain(word);
  expect(rows.slice(1).every((r) => r[4] === '' && r[5] === '' && r[6] === '')).toBe(true);
  // The artifacts of one run are there under its opaque id.
  expect(fs.readdirSync(path.join(ex.dir, 'runs'))).toHaveLength(12);
  expect(exportForRater(study, 'bo').rows).toBe(96);
  expect(() => exportForRater(study, '../x')).toThrow('rater name "../x" must be a word');

  // The 24 rows of task q3, in file order: ana says satisfied for the first 12 and violated for the
  // rest; bo says satisfied for the first 10 only. Code: 22 of 24 agree; p_e = (12·10 + 12·14)/24² = 0.5;
  // kappa = (22/24 − 0.5) / 0.5 = 5/6.
  const q3 = rows.slice(1).filter((r) => r[1] === 'q3');
  expect(q3).toHaveLength(24);
  const fill = (satisfiedFirst: number) =>
    toCsv([...RATER_COLUMNS], q3.map((r, i) => ({ run: r[0], task: r[1], obligation: r[2], statement: r[3], plan: '', code: i < satisfiedFirst ? 'satisfied' : 'violated', test: '' })));
  const anaFile = path.join(runs, 'ana.csv');
  const boFile = path.join(runs, 'bo.csv');
  fs.writeFileSync(anaFile, fill(12));
  fs.writeFileSync(boFile, fill(10));
  expect(importRaterLabels(dir, 'ana', anaFile)).toMatchObject({ rows: 24, labelled: 24, again: false });
  expect(importRaterLabels(dir, 'bo', boFile)).toMatchObject({ rows: 24, labelled: 24, again: false });
  // Kept byte for byte; the same file again changes nothing; another file for ana is refused.
  expect(fs.readFileSync(path.join(dir, 'labels', 'raters', 'ana', 'labels.csv'), 'utf8')).toBe(fill(12));
  expect(importRaterLabels(dir, 'ana', anaFile).again).toBe(true);
  fs.writeFileSync(path.join(runs, 'ana2.csv'), fill(11));
  expect(() => importRaterLabels(dir, 'ana', path.join(runs, 'ana2.csv'))).toThrow('import again with --replace');
  expect(fs.readFileSync(path.join(dir, 'labels', 'raters', 'ana', 'labels.csv'), 'utf8')).toBe(fill(12));
  // A bad file names its line and field.
  fs.writeFileSync(path.join(runs, 'bad.csv'), `${RATER_COLUMNS.join(',')}\n${q3[0][0]},q3,O1,s,present,fine,\n`);
  expect(() => importRaterLabels(dir, 'cy', path.join(runs, 'bad.csv'))).toThrow(/invalid code label "fine"/);

  const raters = readRaters(dir);
  const kappa = agreementRows(study, raters);
  const between = kappa.filter((k) => k.a === 'ana' && k.b === 'bo');
  expect(between.map((k) => [k.dimension, k.kappa.n])).toEqual([['plan', 0], ['code', 24], ['test', 0]]);
  const code = between[1].kappa;
  expect(code.observed).toBeCloseTo(22 / 24, 12);
  expect(code.expected).toBeCloseTo(0.5, 12);
  expect(code.kappa).toBeCloseTo(5 / 6, 12);
  expect(between[0].kappa.kappa).toBeNull();
  // Each rater against each automated labeller of the code dimension, on that labeller's items.
  expect(kappa.filter((k) => k.dimension === 'code' && k.a === 'ana').map((k) => k.b).length).toBeGreaterThan(0);

  // Disagreements: the 11th and 12th rows of q3 (ana satisfied, bo violated); code left to decide.
  const dis = disagreements('fx1', raters);
  expect(dis).toHaveLength(2);
  for (const d of dis) expect([d.plan, d.code, d.test, d.ana_code, d.bo_code]).toEqual(['', '', '', 'satisfied', 'violated']);
  const decided = path.join(runs, 'decided.csv');
  fs.writeFileSync(decided, toCsv(Object.keys(dis[0]), dis.map((d) => ({ ...d, plan: 'present', code: 'violated', test: 'covered' }))));
  const adj = recordAdjudication(dir, 'fx1', decided);
  expect(adj.rows).toBe(2);
  const final = parseCsv(fs.readFileSync(adj.finalFile, 'utf8'));
  expect(final.length - 1).toBe(4); // the fixture's 2 final labels and the 2 decided
  const record = parseCsv(fs.readFileSync(adj.adjudicationFile, 'utf8'));
  expect(record.slice(1).map((r) => r.slice(4, 8))).toEqual([
    ['present', 'violated', 'covered', 'ana: -/satisfied/-; bo: -/violated/-'],
    ['present', 'violated', 'covered', 'ana: -/satisfied/-; bo: -/violated/-'],
  ]);
  // The raters' files are untouched by the adjudication.
  expect(fs.readFileSync(path.join(dir, 'labels', 'raters', 'bo', 'labels.csv'), 'utf8')).toBe(fill(10));

  // Final labels (docs/protocol.md §5 "Final labels"): the 22 q3 code labels both raters agree on
  // are final (raters-agreed); the 2 decided rows and the fixture's q1 one-pass O7 are adjudicated
  // in every dimension (its q3 O12 matches no obligation of q3); everything else stays automated.
  const after = await loadStudy(dir, { tasksDir });
  const labels = after.runs.flatMap((r) => r.labels.map((l) => ({ key: labelKey(r.taskId, r.condition, l.obligation.id), l })));
  expect(labels).toHaveLength(96);
  const count = (d: 'plan' | 'code' | 'test') => {
    const c: Record<string, number> = {};
    for (const { l } of labels) c[l.final.origins[d]] = (c[l.final.origins[d]] ?? 0) + 1;
    return c;
  };
  expect(count('code')).toEqual({ 'raters-agreed': 22, adjudicated: 3, automated: 71 });
  expect(count('plan')).toEqual({ adjudicated: 3, automated: 93 });
  expect(count('test')).toEqual({ adjudicated: 3, automated: 93 });
  // Row 13 of q3 (both raters: violated) takes the raters' label whatever the automated one.
  const blindKey = JSON.parse(fs.readFileSync(path.join(dir, 'labels', 'blind-key.json'), 'utf8'));
  const k13 = labels.find((x) => x.key === labelKey('q3', blindKey[q3[13][0]].condition, q3[13][2]))!;
  expect([k13.l.final.code, k13.l.final.origin]).toEqual(['violated', 'plan=automated;code=raters-agreed;test=automated']);
  expect([k13.l.final.plan, k13.l.final.test]).toEqual([k13.l.automated.plan, k13.l.automated.test]);
  const decidedKeys = dis.map((d) => labelKey(d.task, d.condition, d.obligation));
  for (const k of decidedKeys) expect(labels.find((x) => x.key === k)!.l.final).toMatchObject({ plan: 'present', code: 'violated', test: 'covered', origin: 'adjudicated' });
  expect(after.raterNames).toEqual(['ana', 'bo']);

  // --replace supersedes ana's labels (row 11 now violated: 11 satisfied), keeping the old file.
  fs.writeFileSync(path.join(runs, 'ana3.csv'), fill(11));
  const rep = importRaterLabels(dir, 'ana', path.join(runs, 'ana3.csv'), { replace: true, now: new Date('2026-12-03T03:00:00Z') });
  const anaDir = path.join(dir, 'labels', 'raters', 'ana');
  expect([rep.again, rep.keptAs]).toEqual([false, path.join(anaDir, 'labels.1.csv')]);
  expect(fs.readFileSync(path.join(anaDir, 'labels.1.csv'), 'utf8')).toBe(fill(12));
  expect(fs.readFileSync(path.join(anaDir, 'labels.csv'), 'utf8')).toBe(fill(11));
  const log = parseCsv(fs.readFileSync(path.join(anaDir, 'replaced.csv'), 'utf8'));
  expect(log.map((r) => r.slice(0, 2))).toEqual([['replaced_at', 'kept_as'], ['2026-12-03T03:00:00.000Z', 'labels.1.csv']]);
  expect(log[1][4]).toBe(path.resolve(path.join(runs, 'ana3.csv')));
  expect(disagreements('fx1', readRaters(dir))).toHaveLength(1);

  // The report has the agreement section.
  await writeReport({ studyId: 'fx1', runsDir: runs, tasksDir });
  const md = fs.readFileSync(path.join(dir, 'report', 'report.md'), 'utf8');
  expect(md).toContain('## Agreement between labellers');
  expect(md).toContain('| code | ana | bo | 24 | 0.958 | 0.915 |');
  expect(md).toContain('| Final labels | plan: 0 raters-agreed, 3 adjudicated, 93 automated; code: 22 raters-agreed, 3 adjudicated, 71 automated; test: 0 raters-agreed, 3 adjudicated, 93 automated (docs/protocol.md §5: decided rows of labels/final.csv, 3 used; else the label all raters agree on, 2 raters: ana, bo; else automated); 1 decided rows match no labelled run and were ignored: q3 one-pass O12 |');
}, 120_000);
