/**
 * Human raters on the fixture study fx1 (test/fixtures/study: 4 tasks × 3 conditions × 8
 * obligations, every primary run labelled): a blinded export, two raters' files imported and
 * kept unchanged, Cohen's kappa between them worked out by hand, their disagreements listed and
 * adjudicated, and the final labels they make (activities/scoring/raters.ts, finalLabels.ts); blinded
 * folders, the rater legend and the agreement notes on hand-built studies.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadStudy } from '../../activities/scoring/study';
import { parseCsv, toCsv } from '../../activities/common/csv';
import { agreementRows, blindRunId, disagreements, exportForRater, formatAgreementCli, importRaterLabels, raterCoverage, ratersAgreed, readRaters, recordAdjudication, RATER_COLUMNS, type RaterLabel } from '../../activities/scoring/raters';
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
  expect(md).toContain('| Final labels | plan: 0 raters-agreed, 3 adjudicated, 93 automated; code: 22 raters-agreed, 3 adjudicated, 71 automated; test: 0 raters-agreed, 3 adjudicated, 93 automated (docs/protocol.md §5 "Final labels": 3 decided rows of labels/final.csv used; else the label all raters who labelled it agree on (raters: ana, bo); else automated); 1 decided rows match no labelled run and were ignored: q3 one-pass O12 |');
}, 120_000);

/** A labelled run of a hand-built study: automated labels per obligation (plan, code, test, each with its source). */
type Auto = { plan: string; code: string; test: string; source: { plan: string; code: string; test: string } };
function fakeStudy(studyDir: string, runs: { taskId: string; condition: string; conditionDir: string | null; autos: Auto[] }[]): LoadedStudy {
  return {
    studyDir,
    manifest: { studyId: 'fk' },
    runs: runs.map((r) => ({ ...r, labels: r.autos.map((a, i) => ({ obligation: { id: `O${i + 1}`, statement: `statement ${i + 1}` }, automated: a, final: a })) })),
  } as unknown as LoadedStudy;
}
const rater = (entries: [string, Partial<RaterLabel>][]) => new Map(entries.map(([k, l]) => [k, { task: 'q3', condition: 'one-pass', obligation: 'O1', plan: '', code: '', test: '', ...l }]));

test('blinded run folders: the same file names whatever the condition; tests.py is the scored suite; README legend', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-blind-'));
  const mk = (cond: string, files: Record<string, string>) => {
    const d = path.join(root, 'runs-src', cond);
    fs.mkdirSync(d, { recursive: true });
    for (const [f, t] of Object.entries(files)) fs.writeFileSync(path.join(d, f), t);
    return d;
  };
  const auto: Auto = { plan: 'present', code: 'satisfied', test: 'covered', source: { plan: 'judge', code: 'judge', test: 'judge' } };
  const study = fakeStudy(path.join(root, 'fk'), [
    { taskId: 'q3', condition: 'one-pass', conditionDir: mk('one-pass', { 'plan.md': 'P1', 'solution.py': 'S1', 'test_solution.py': 'T1', 'labels.json': '{}' }), autos: [auto] },
    { taskId: 'q3', condition: 'contract-first', conditionDir: mk('contract-first', { 'plan.md': 'P2', 'solution.py': 'S2', 'test_solution.py': 'T2', 'contract_test.py': 'C2', 'executable-labels.json': '{}' }), autos: [auto] },
  ]);
  const ex = exportForRater(study, 'ana');
  const op = path.join(ex.dir, 'runs', blindRunId('fk', 'q3', 'one-pass'));
  const cf = path.join(ex.dir, 'runs', blindRunId('fk', 'q3', 'contract-first'));
  expect(fs.readdirSync(op).sort()).toEqual(['plan.md', 'solution.py', 'tests.py']);
  expect(fs.readdirSync(cf).sort()).toEqual(['plan.md', 'solution.py', 'tests.py']);
  expect(fs.readFileSync(path.join(op, 'tests.py'), 'utf8')).toBe('T1');
  expect(fs.readFileSync(path.join(cf, 'tests.py'), 'utf8')).toBe('C2'); // Contract-First: its frozen contract suite
  // Nothing in the rater's folder names a condition or a condition-specific file.
  const all = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(path.join(d, e.name)) : [path.join(d, e.name)]));
  const texts = all(ex.dir).map((f) => f + '\n' + fs.readFileSync(f, 'utf8')).join('\n');
  for (const word of ['one-pass', 'contract-first', 'contract_test', 'test_solution', 'Contract-First']) expect(texts).not.toContain(word);
  // The legend: allowed values with their meanings, the suite, and the blind key warning.
  expect(ex.readme).toBe(path.join(ex.dir, 'README.md'));
  const readme = fs.readFileSync(ex.readme, 'utf8');
  expect(readme).toContain('  - `partially-covered`: tests.py checks part of it (weight 0.5)');
  expect(readme).toContain('  - `execution-failed`: solution.py did not run, so the obligation cannot hold (weight 0)');
  expect(readme).toContain('  - `ambiguous`: ');
  expect(readme).toContain('it must not be given to raters. Give a rater only `labels/raters/ana/`.');
  expect(readme).not.toContain('invalid-on-gold');
  expect(fs.existsSync(path.join(root, 'fk', 'labels', 'blind-key.json'))).toBe(true);
});

test('agreement leaves out labels a rater cannot give and notes single-category kappa', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-agree-'));
  // Six obligations of one run: plan by the judge (all present), code and test by the executable labeller.
  const tests = ['covered', 'not-covered', 'invalid-on-gold', 'invalid-on-gold', 'covered', 'not-covered'];
  const autos: Auto[] = tests.map((t) => ({ plan: 'present', code: 'satisfied', test: t, source: { plan: 'judge', code: 'executable', test: 'executable' } }));
  const study = fakeStudy(path.join(root, 'fk'), [{ taskId: 'q3', condition: 'one-pass', conditionDir: null, autos }]);
  const key = (i: number) => labelKey('q3', 'one-pass', `O${i + 1}`);
  const ana = ['covered', 'covered', 'not-covered', 'not-covered', 'covered', 'not-covered'];
  const raters = new Map([
    ['ana', rater(ana.map((t, i) => [key(i), { test: t, plan: i === 5 ? 'absent' : 'present' }]))],
    ['bo', rater(ana.map((t, i) => [key(i), { test: t, plan: 'present' }]))],
  ]);
  const rows = agreementRows(study, raters);
  const pick = (d: string, a: string, b: string) => rows.find((r) => r.dimension === d && r.a === a && r.b === b)!;
  // test, ana × executable: 2 invalid-on-gold items left out; on the other 4, p_o = 3/4,
  // p_e = (3/4)(2/4) + (1/4)(2/4) = 1/2, kappa = 1/2.
  const t = pick('test', 'ana', 'executable');
  expect([t.kappa.n, t.leftOut, t.singleCategory]).toEqual([4, 2, []]);
  expect(t.kappa.observed).toBeCloseTo(0.75, 12);
  expect(t.kappa.kappa).toBeCloseTo(0.5, 12);
  // Between raters nothing is left out: the six items, all equal.
  expect([pick('test', 'ana', 'bo').kappa.n, pick('test', 'ana', 'bo').leftOut, pick('test', 'ana', 'bo').kappa.kappa]).toEqual([6, 0, 1]);
  // plan: the judge (and bo) say present throughout: p_o = 5/6 = p_e, kappa 0: the prevalence note.
  const pj = pick('plan', 'ana', 'judge');
  expect([pj.kappa.n, pj.kappa.kappa, pj.singleCategory]).toEqual([6, 0, ['judge']]);
  expect(pick('plan', 'ana', 'bo').singleCategory).toEqual(['bo']);
  expect(pick('plan', 'bo', 'judge').singleCategory).toEqual(['bo', 'judge']);
  // code: no rater labelled it: no items, no note.
  expect([pick('code', 'ana', 'executable').kappa.n, pick('code', 'ana', 'executable').singleCategory]).toEqual([0, []]);
  const text = formatAgreementCli(rows).split('\n');
  expect(text).toContain('| plan | ana | bo | 6 | 0.833 | 0.000 | bo used a single category: kappa uninformative (prevalence) |');
  expect(text).toContain('| plan | bo | judge | 6 | 1.000 | — | bo and judge used a single category: kappa uninformative (prevalence) |');
  expect(text).toContain("| test | ana | executable | 4 | 0.750 | 0.500 | 2 left out: executable's label is one a rater cannot give |");
  expect(text).toContain('| code | ana | bo | 0 | — | — |  |');
  expect(text[text.length - 1]).toBe("4 rater labels left out of rater × labeller pairs because the labeller's value is one a rater cannot give (e.g. test invalid-on-gold: the suite fails on gold): test ana×executable 2, test bo×executable 2");
});

test('final label per dimension: decided, else agreed by two or more raters, else automated', () => {
  const auto = { plan: 'absent', code: 'violated', test: 'not-covered' } as const;
  const k = labelKey('q3', 'one-pass', 'O1');
  // ana and bo agree on code; on plan they differ; test only ana labelled (one rater is not agreement);
  // cy labelled nothing of this item.
  const raters = new Map([
    ['ana', rater([[k, { plan: 'present', code: 'satisfied', test: 'covered' }]])],
    ['bo', rater([[k, { plan: 'partial', code: 'satisfied', test: '' }]])],
    ['cy', rater([])],
  ]);
  const agreed = ratersAgreed(raters, k);
  expect(agreed).toEqual({ code: 'satisfied' });
  expect(mergeFinalLabel(auto, undefined, agreed)).toStrictEqual({
    plan: 'absent', code: 'satisfied', test: 'not-covered',
    origins: { plan: 'automated', code: 'raters-agreed', test: 'automated' },
    origin: 'plan=automated;code=raters-agreed;test=automated',
  });
  const decided = { study: 'fk', task: 'q3', condition: 'one-pass', obligation: 'O1', plan: 'partial', code: 'satisfied', test: 'covered' } as const;
  expect(mergeFinalLabel(auto, decided, agreed)).toStrictEqual({ plan: 'partial', code: 'satisfied', test: 'covered', origins: { plan: 'adjudicated', code: 'adjudicated', test: 'adjudicated' }, origin: 'adjudicated' });
  expect(mergeFinalLabel(auto, undefined, {}).origin).toBe('automated');
  expect(raterCoverage(raters)).toEqual({ plan: { agreed: 0, disagreed: 1, single: 0 }, code: { agreed: 1, disagreed: 0, single: 0 }, test: { agreed: 0, disagreed: 0, single: 1 } });
});
