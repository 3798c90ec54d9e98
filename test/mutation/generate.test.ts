/**
 * Mutants of the gold solutions (activities/python/mutants.py through activities/mutation/generate.ts):
 * exact mutants of fixture golds whose answers are worked out by hand, every operator at least
 * once; every mutant of the 30 corpus golds compiles; and one equivalence check on the SF=0.01
 * database (q3: two join-type mutants that the filters make equivalent, the rest killable).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { venvPython } from '../../activities/common/paths';
import {
  checkEquivalence,
  corpusTableColumns,
  generateMutants,
  generateMutantsFromFile,
  mutantOutputs,
  MUTATION_OPERATORS,
  type MutantInfo,
} from '../../activities/mutation/generate';
import { listTaskIds } from '../../activities/tasks/load';
import { confirmEquivalents } from '../../activities/mutation/confirm';
import { compareOutputs } from '../../activities/compare/activity';
import { executeCandidate } from '../../activities/execution/execute';
import { liveSlots, stopAllSlots } from '../../activities/execution/slots';
import { ensureTestDatabase, TEST_SPARK_SETTINGS } from '../support/database';

/** Every operator has a site; line numbers are the ones in the comments. */
const FIXTURE = `"""Fixture gold: every mutation operator has a site."""
import datetime

from pyspark.sql import functions as F
from pyspark.sql.types import DecimalType


def solve(spark, tables):
    ss = tables["store_sales"]
    d = tables["date_dim"]
    start = datetime.date(2000, 1, 31)
    j = ss.join(d, ss["ss_sold_date_sk"] == d["d_date_sk"])
    j = j.join(tables["item"], ss["ss_item_sk"] == F.col("i_item_sk"), "left_semi")
    j = j.where(F.col("d_year") > 1999).filter(F.col("d_date") >= F.lit(start))
    g = j.rollup("d_year").agg(
        F.sum("ss_ext_sales_price").alias("total"),
        F.max(ss.ss_net_paid).alias("top"),
        F.countDistinct("ss_item_sk").alias("items"),
    )
    return g.select("d_year", "total", F.col("top").cast(DecimalType(7, 2)).alias("top"), "items").distinct()
`;

/** Other spellings: module imported as G, how=, cube, no DecimalType (so decimal-cast inserts a cast). */
const FIXTURE2 = `import pyspark.sql.functions as G


def solve(spark, tables):
    s = tables["store_sales"]
    x = s.join(tables["store"], "s_store_sk", how="left").cube("ss_store_sk")
    return x.agg(G.avg("ss_quantity").alias("q")).where(G.col("q") < 5)
`;

/** Semi and anti joins (every join site is taken) and a computed (f-string) output name. */
const FIXTURE3 = `from pyspark.sql import functions as F


def solve(spark, tables):
    c = tables["customer"]
    ss = tables["store_sales"].select(F.col("ss_customer_sk").alias("buyer"))
    ws = tables["web_sales"].select(F.col("ws_bill_customer_sk").alias("buyer"))
    cs = tables["catalog_sales"].select(F.col("cs_bill_customer_sk").alias("buyer"))
    c = c.join(ss, c.c_customer_sk == ss.buyer, "left_semi")
    c = c.join(ws, c.c_customer_sk == ws.buyer, how="leftanti")
    c = c.join(cs, c.c_customer_sk == cs.buyer, "left_anti")
    a = tables["customer_address"]
    j = c.join(a, c.c_current_addr_sk == a.ca_address_sk)
    names = ["c_birth_year", "c_birth_month"]
    aggs = [F.count(F.col(n)).alias(f"cnt_{n}") for n in names]
    return j.groupBy("ca_state").agg(*aggs)
`;

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-mutants-test-'));
});
afterAll(() => {
  if (!process.env.LOCKIN_TEST_KEEP) fs.rmSync(work, { recursive: true, force: true });
});

async function fixtureMutants(name: string, source: string, outputColumns: string[], maxPerOperator = 2): Promise<{ dir: string; mutants: MutantInfo[] }> {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'gold.py'), source);
  const mutants = await generateMutantsFromFile({ goldFile: path.join(dir, 'gold.py'), outputColumns, tableColumns: corpusTableColumns(), outDir: path.join(dir, 'mutants'), maxPerOperator });
  return { dir: path.join(dir, 'mutants'), mutants };
}

const src = (dir: string, id: string) => fs.readFileSync(path.join(dir, id, 'solution.py'), 'utf8');

/** A writer of variant folders under `root`: write(name, body) makes `<root>/<name>/solution.py` and returns the folder. */
const variantWriter = (root: string) => (name: string, body: string): string => {
  fs.mkdirSync(path.join(root, name), { recursive: true });
  fs.writeFileSync(path.join(root, name, 'solution.py'), body);
  return path.join(root, name);
};

/** A variant whose one Spark task sleeps ten minutes (a hang inside Spark: its job group's cancel stops it). */
const SPARK_HANG = [
  'import time',
  'from pyspark.sql import functions as F, types as T',
  'def solve(spark, tables):',
  '    slow = F.udf(lambda x: (time.sleep(600), x)[1], T.LongType())',
  '    return spark.range(1).select(slow("id").alias("id"))',
  '',
].join('\n');

describe('mutants.py on fixture golds', () => {
  test('every operator: exact ids, lines and changes', async () => {
    const { dir, mutants } = await fixtureMutants('fixture', FIXTURE, ['d_year', 'total', 'top', 'items']);
    expect(mutants.map((m) => [m.id, m.line])).toEqual([
      ['join-type-1', 12],
      ['join-type-2', 13],
      ['semi-join-1', 13],
      ['price-column-1', 16],
      ['price-column-2', 17],
      ['aggregate-function-1', 16],
      ['aggregate-function-2', 17],
      ['filter-bound-1', 11],
      ['filter-bound-2', 14],
      ['distinct-1', 18],
      ['distinct-2', 20],
      ['alias-rename-1', 16],
      ['alias-rename-2', 18],
      ['decimal-cast-1', 20],
      ['rollup-1', 15],
    ]);
    // Every operator but anti-join (FIXTURE3 has those).
    expect(new Set(mutants.map((m) => m.operator))).toEqual(new Set(MUTATION_OPERATORS.filter((o) => o !== 'anti-join')));
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'mutants.json'), 'utf8'))).toEqual(mutants);
    expect(src(dir, 'semi-join-1')).toContain(`F.col('i_item_sk'), 'inner')`);

    expect(src(dir, 'join-type-1')).toContain(`j = ss.join(d, ss['ss_sold_date_sk'] == d['d_date_sk'], how='left')`);
    expect(src(dir, 'join-type-2')).toContain(`F.col('i_item_sk'), 'left_anti')`);
    expect(src(dir, 'price-column-1')).toContain(`F.sum('ss_ext_list_price').alias('total')`);
    expect(src(dir, 'price-column-2')).toContain('F.max(ss.ss_net_paid_inc_tax)');
    expect(src(dir, 'aggregate-function-1')).toContain(`F.avg('ss_ext_sales_price')`);
    expect(src(dir, 'aggregate-function-2')).toContain('F.min(ss.ss_net_paid)');
    // 2000-01-31: the year can move, the month (Feb 31) and the day (Jan 32) cannot.
    expect(src(dir, 'filter-bound-1')).toContain('datetime.date(2001, 1, 31)');
    expect(src(dir, 'filter-bound-2')).toContain(`F.col('d_year') > 2000`);
    expect(src(dir, 'distinct-1')).toContain(`F.count('ss_item_sk').alias('items')`);
    expect(src(dir, 'distinct-2')).not.toContain('.distinct()');
    expect(src(dir, 'alias-rename-1').match(/'total_x'/g)).toHaveLength(2);
    expect(src(dir, 'alias-rename-2').match(/'items_x'/g)).toHaveLength(2);
    expect(src(dir, 'decimal-cast-1')).toContain('DecimalType(8, 3)');
    expect(src(dir, 'rollup-1')).toContain(`j.groupBy('d_year')`);
    // Each mutant changes one site: the rest of the file is the unparsed gold.
    expect(src(dir, 'rollup-1')).toContain(`.distinct()`);
    expect(src(dir, 'rollup-1')).toContain(`F.sum('ss_ext_sales_price')`);

    const fb = mutants.find((m) => m.id === 'filter-bound-2')!;
    expect(fb.description).toBe('1999 -> 2000 in .where(...)');
  });

  test('all sites of an operator with a larger limit, in source order', async () => {
    const { mutants } = await fixtureMutants('fixture-all', FIXTURE, ['d_year', 'total', 'top', 'items'], 10);
    expect(mutants.filter((m) => m.operator === 'filter-bound').map((m) => [m.id, m.line, m.description])).toEqual([
      ['filter-bound-1', 11, 'datetime.date year 2000 -> 2001 in datetime.date(2000, 1, 31)'],
      ['filter-bound-2', 14, `> -> >= in F.col('d_year') > 1999`],
      ['filter-bound-3', 14, '1999 -> 2000 in .where(...)'],
    ]);
    expect(mutants.filter((m) => m.operator === 'alias-rename').map((m) => m.description)).toEqual([
      'output column "total" -> "total_x" (2 strings)',
      'output column "top" -> "top_x" (3 strings)',
      'output column "items" -> "items_x" (2 strings)',
    ]);
  });

  test('semi and anti joins: every join site is taken (limit 2 notwithstanding); a computed output name is renamed', async () => {
    const { dir, mutants } = await fixtureMutants('fixture3', FIXTURE3, ['ca_state', 'cnt_c_birth_year', 'cnt_c_birth_month']);
    expect(mutants.map((m) => `${m.id}@${m.line}: ${m.description}`)).toEqual([
      'join-type-1@9: join how "left_semi" -> "left_anti"',
      'join-type-2@10: join how "leftanti" -> "left_semi"',
      'join-type-3@11: join how "left_anti" -> "left_semi"',
      'join-type-4@13: join how (default "inner") -> "left"',
      'semi-join-1@9: join how "left_semi" -> "inner" (EXISTS/IN subquery as an inner join: matches duplicate rows)',
      'anti-join-1@10: join how "leftanti" -> "left" (NOT EXISTS/NOT IN as a left outer join: matched rows kept)',
      'anti-join-2@11: join how "left_anti" -> "left" (NOT EXISTS/NOT IN as a left outer join: matched rows kept)',
      `alias-rename-1@15: computed output name f'cnt_{n}' -> + "_x"`,
    ]);
    expect(src(dir, 'semi-join-1')).toContain(`c = c.join(ss, c.c_customer_sk == ss.buyer, 'inner')`);
    expect(src(dir, 'anti-join-1')).toContain(`c = c.join(ws, c.c_customer_sk == ws.buyer, how='left')`);
    expect(src(dir, 'anti-join-2')).toContain(`c = c.join(cs, c.c_customer_sk == cs.buyer, 'left')`);
    expect(src(dir, 'anti-join-2')).toContain(`how='leftanti'`); // one site per mutant
    expect(src(dir, 'alias-rename-1')).toContain(`.alias(f'cnt_{n}_x')`);
  });

  test('a computed name that other code refers to (an f-string sharing its text) is not renamed', async () => {
    const refers = FIXTURE3.replace('return j.groupBy("ca_state").agg(*aggs)', 'return j.groupBy("ca_state").agg(*aggs).orderBy(F.col(f"cnt_{names[0]}"))');
    const { mutants } = await fixtureMutants('fixture3b', refers, ['ca_state']);
    expect(mutants.filter((m) => m.operator === 'alias-rename')).toEqual([]);
  });

  test('module alias G, how= keyword, cube, and a cast inserted before an alias', async () => {
    const { dir, mutants } = await fixtureMutants('fixture2', FIXTURE2, ['ss_store_sk', 'q']);
    expect(mutants.map((m) => `${m.id}@${m.line}: ${m.description}`)).toEqual([
      'join-type-1@6: join how "left" -> "inner"',
      'aggregate-function-1@7: F.avg -> F.sum',
      `filter-bound-1@7: < -> <= in G.col('q') < 5`,
      'filter-bound-2@7: 5 -> 6 in .where(...)',
      `alias-rename-1@7: output column "q" -> "q_x" (2 strings)`,
      `decimal-cast-1@7: F.avg(...) -> F.avg(...).cast("double") before .alias('q')`,
      'rollup-1@6: .cube(...) -> .groupBy(...)',
    ]);
    expect(src(dir, 'join-type-1')).toContain(`how='inner'`);
    expect(src(dir, 'aggregate-function-1')).toContain(`G.sum('ss_quantity')`);
    expect(src(dir, 'decimal-cast-1')).toContain(`G.avg('ss_quantity').cast('double').alias('q')`);
    expect(src(dir, 'rollup-1')).toContain(`.groupBy('ss_store_sk')`);
  });
});

describe('mutants of the 30 corpus golds', () => {
  test('every mutant compiles; join-type, aggregate-function, filter-bound and rollup occur', async () => {
    const ids = listTaskIds().filter((q) => fs.existsSync(path.join('tasks', q, 'gold', 'solution.py')));
    expect(ids).toHaveLength(30);
    const counts: Record<string, number> = Object.fromEntries(MUTATION_OPERATORS.map((o) => [o, 0]));
    const files: string[] = [];
    for (const taskId of ids) {
      const outDir = path.join(work, 'corpus', taskId);
      const mutants = await generateMutants({ taskId, outDir });
      for (const m of mutants) {
        counts[m.operator] += 1;
        files.push(path.join(outDir, m.id, 'solution.py'));
      }
    }
    // An independent compile of every file, in one Python process.
    const listFile = path.join(work, 'corpus-files.json');
    fs.writeFileSync(listFile, JSON.stringify(files));
    const check = spawnSync(venvPython(), ['-c', 'import json,sys\nfor f in json.load(open(sys.argv[1])): compile(open(f).read(), f, "exec")\nprint(len(json.load(open(sys.argv[1]))))', listFile], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(Number(check.stdout.trim())).toBe(files.length);
    console.log(`mutants over the 30 golds (every join site; max 2 per other operator): ${JSON.stringify(counts)}, total ${files.length}`);
    for (const op of ['join-type', 'semi-join', 'anti-join', 'aggregate-function', 'filter-bound', 'rollup']) expect(counts[op]).toBeGreaterThan(0);
    expect(counts.rollup).toBe(9); // the 9 golds that use .rollup, one site each
    // Where lock-in happens: the EXISTS joins of q35 and q69 (semi, and q69's NOT EXISTS anti),
    // q33's IN subquery (a semi join on item manufacturers), q2's computed ratio names.
    const listed = (taskId: string) => JSON.parse(fs.readFileSync(path.join(work, 'corpus', taskId, 'mutants.json'), 'utf8')) as MutantInfo[];
    expect(listed('q35').filter((m) => m.operator === 'semi-join').map((m) => m.line)).toEqual([20, 21]);
    expect(listed('q69').filter((m) => m.operator !== 'join-type' && m.operator.endsWith('-join')).map((m) => `${m.operator}@${m.line}`)).toEqual(['semi-join@21', 'anti-join@22', 'anti-join@23']);
    expect(listed('q33').filter((m) => m.operator === 'semi-join').map((m) => m.line)).toEqual([15]);
    expect(listed('q2').filter((m) => m.operator === 'alias-rename').map((m) => m.description)).toEqual([`computed output name f'round(({p}_sales1 / {p}_sales2), 2)' -> + "_x"`]);
    // Every join of a gold is a join-type site: q35 has 5 DataFrame joins.
    expect(listed('q35').filter((m) => m.operator === 'join-type')).toHaveLength(5);
  });
});

describe('checkEquivalence at SF=0.01', () => {
  // The first test of a fresh clone that needs the SF=0.01 database builds it (minutes on a busy machine).
  beforeAll(() => ensureTestDatabase(0.01), 900_000);

  test('q3: the join-type mutants are equivalent (the filters drop unmatched rows), the rest killable; cached', async () => {
    const db = await ensureTestDatabase(0.01);
    const saved = process.env.LOCKIN_HOME;
    process.env.LOCKIN_HOME = db.home;
    try {
      // The default cache under the test home: the e2e mutation test reuses these verdicts.
      const t0 = Date.now();
      const eq = await checkEquivalence({ taskId: 'q3', scale: 0.01, settings: TEST_SPARK_SETTINGS });
      const ms = Date.now() - t0;
      expect(eq.gold).toMatchObject({ status: 'ok', agree: true });
      const byId = Object.fromEntries(eq.mutants.map((m) => [m.id, m]));
      console.log(`q3 equivalence in ${ms} ms: ${eq.mutants.map((m) => `${m.id}=${m.verdict}`).join(', ')}`);
      // store_sales LEFT JOIN date_dim / item: the rows without a match have NULL d_moy /
      // i_manufact_id and the filter drops them, so the output is the gold's.
      expect(byId['join-type-1'].verdict).toBe('equivalent');
      expect(byId['join-type-2'].verdict).toBe('equivalent');
      // Manufacturer 129 instead of 128: other brands.
      expect(byId['filter-bound-1']).toMatchObject({ verdict: 'killable', status: 'ok' });
      // avg instead of sum: other totals.
      expect(byId['aggregate-function-1']).toMatchObject({ verdict: 'killable', status: 'ok' });
      expect(eq.dir).toBe(path.join(db.home, 'mutants', 'sf0.01', 'q3', eq.goldSha.slice(0, 12)));
      const onDisk = JSON.parse(fs.readFileSync(path.join(eq.dir, 'equivalence.json'), 'utf8'));
      expect(onDisk.mutants).toEqual(eq.mutants);
      expect(fs.existsSync(path.join(eq.dir, 'gold', 'solution.py'))).toBe(true);

      // Second call: from the cache (no Spark run: no mutant output is rewritten).
      const stamp = (f: string) => fs.statSync(path.join(eq.dir, f)).mtimeMs;
      const before = [stamp('equivalence.json'), stamp('join-type-1/out/output.arrow')];
      const again = await checkEquivalence({ taskId: 'q3', scale: 0.01, settings: TEST_SPARK_SETTINGS });
      expect(again.mutants).toEqual(eq.mutants);
      expect([stamp('equivalence.json'), stamp('join-type-1/out/output.arrow')]).toEqual(before);

      // An attempt cut short (no equivalence.json; filter-bound-1 never finished): only that one runs again.
      fs.rmSync(path.join(eq.dir, 'equivalence.json'));
      fs.rmSync(path.join(eq.dir, 'filter-bound-1', 'result.json'));
      const keptStamp = stamp('aggregate-function-1/out/output.arrow');
      const resumed = await checkEquivalence({ taskId: 'q3', scale: 0.01, settings: TEST_SPARK_SETTINGS });
      expect(resumed.mutants).toEqual(eq.mutants);
      expect([stamp('join-type-1/out/output.arrow'), stamp('aggregate-function-1/out/output.arrow')]).toEqual([before[1], keptStamp]);
      expect(stamp('filter-bound-1/result.json')).toBeGreaterThan(before[0]);
      expect(fs.existsSync(path.join(eq.dir, '.resume'))).toBe(false);

      // Confirmation on another database: a home whose "SF=0.02" is the SF=0.01 data, but whose
      // q3 reference is another query's output. Both equivalent mutants disagree there, so they
      // become killable; the five killable ones are not run again.
      const fake = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-confirm-'));
      fs.mkdirSync(path.join(fake, 'data', 'tpcds'), { recursive: true });
      fs.symlinkSync(db.dbDir, path.join(fake, 'data', 'tpcds', 'sf0.02'));
      fs.mkdirSync(path.join(fake, 'data', 'references', 'sf0.02'), { recursive: true });
      fs.cpSync(path.join(db.referencesDir, 'q98'), path.join(fake, 'data', 'references', 'sf0.02', 'q3'), { recursive: true });
      process.env.LOCKIN_HOME = fake;
      const confirmed = await confirmEquivalents(eq, 0.02, TEST_SPARK_SETTINGS);
      expect(confirmed.mutants.map((x) => `${x.id}:${x.verdict}`)).toEqual([
        'join-type-1:killable', 'join-type-2:killable', 'price-column-1:killable', 'aggregate-function-1:killable',
        'filter-bound-1:killable', 'filter-bound-2:killable', 'decimal-cast-1:killable',
      ]);
      expect(confirmed.mutants[0].summary).toMatch(/^agrees at SF=0.01; SF=0.02: /);
      expect(JSON.parse(fs.readFileSync(path.join(eq.dir, 'confirm-sf0.02.json'), 'utf8')).ids).toEqual(['join-type-1', 'join-type-2']);
      fs.rmSync(path.join(eq.dir, 'confirm-sf0.02.json'));
      fs.rmSync(path.join(eq.dir, 'confirm-sf0.02'), { recursive: true, force: true });
      fs.rmSync(fake, { recursive: true, force: true });
    } finally {
      if (saved === undefined) delete process.env.LOCKIN_HOME;
      else process.env.LOCKIN_HOME = saved;
    }
  }, 900_000);

  test('mutantOutputs warm: the known results (gold agrees with the reference), kept per variant, in a slot of its own profile (never a candidate execution\'s JVM)', async () => {
    const db = await ensureTestDatabase(0.01);
    const saved = process.env.LOCKIN_HOME;
    process.env.LOCKIN_HOME = db.home;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-variants-'));
    const write = variantWriter(root);
    const gold = write('gold', fs.readFileSync(path.join('tasks', 'q3', 'gold', 'solution.py'), 'utf8'));
    const raises = write('raises', 'def solve(spark, tables):\n    return tables["no_such_table"]\n');
    const small = write('my variant,2', 'def solve(spark, tables):\n    return spark.range(3)\n');
    const dirs = [gold, raises, small];
    const shape = (rs: { dir: string; status: string; rows?: number; reason?: string }[]) => rs.map((r) => [path.basename(r.dir), r.status, r.rows ?? null, (r.reason ?? '').split(':')[0]]);
    try {
      await stopAllSlots();
      // The cold path is the q3 test's above (tests run cold unless they name a mode).
      // q3 at SF=0.01 has 20 rows (its reference); a missing table is the variant's KeyError.
      const expected = [['gold', 'ok', 20, ''], ['raises', 'exception', null, 'KeyError'], ['my variant,2', 'ok', 3, '']];
      const lines: string[] = [];
      const warm = await mutantOutputs({ dirs, scale: 0.01, settings: TEST_SPARK_SETTINGS, sparkMode: 'warm', onVariant: (l) => lines.push(l) });
      expect(shape(warm)).toEqual(expected);
      const cmp = await compareOutputs({ candidateDir: path.join(gold, 'out'), referenceDir: path.join(db.referencesDir, 'q3'), outDir: gold });
      expect(cmp.outcome.agree).toBe(true);
      // Each result is kept beside its variant (an attempt cut short resumes from them); no output for the one that raised.
      expect(dirs.map((d) => JSON.parse(fs.readFileSync(path.join(d, 'result.json'), 'utf8')).status)).toEqual(['ok', 'exception', 'ok']);
      expect(fs.existsSync(path.join(raises, 'out', 'output.arrow'))).toBe(false);
      expect(lines.map((l) => l.replace(/ in \d+ ms$/, '').replace(/: KeyError.*/, ': KeyError'))).toEqual([
        '[1/3] gold: ok (20 rows)', '[2/3] raises: exception: KeyError', '[3/3] my variant,2: ok (3 rows)',
      ]);
      expect(liveSlots()).toHaveLength(1);
      // A candidate's execution on the same database and settings gets a slot of its own.
      const cand = write('candidate', 'def solve(spark, tables):\n    return spark.range(2)\n');
      const exec = await executeCandidate({ dir: cand, scale: 0.01, settings: TEST_SPARK_SETTINGS, outDir: path.join(cand, 'out'), timeoutMs: 300_000, memoryMb: 1024, sparkMode: 'warm' });
      expect(exec).toMatchObject({ status: 'ok', rows: 2 });
      expect(exec.spark).toMatchObject({ mode: 'warm', jvmStarted: true });
      expect(new Set(liveSlots().map((s) => s.key)).size).toBe(2);
    } finally {
      await stopAllSlots();
      if (saved === undefined) delete process.env.LOCKIN_HOME;
      else process.env.LOCKIN_HOME = saved;
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 900_000);

  test('mutantOutputs two at once (warm): two variants run side by side on the one session, a time-out cancels only its own; a variant reaching the session\'s state makes the job one at a time', async () => {
    const db = await ensureTestDatabase(0.01);
    const saved = process.env.LOCKIN_HOME;
    process.env.LOCKIN_HOME = db.home;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-at-once-'));
    const write = variantWriter(root);
    // Each probe waits up to 8 s at a barrier for two parties: it passes (1 row) only when the
    // other probe runs at the same time in the same process; alone it times out and so does the
    // other after it (the barrier is broken): 0 rows each.
    const probe = [
      'import builtins, threading',
      'def solve(spark, tables):',
      '    barrier = builtins.__dict__.setdefault("lockin_test_barrier", threading.Barrier(2))',
      '    try:',
      '        barrier.wait(timeout=8)',
      '        met = 1',
      '    except threading.BrokenBarrierError:',
      '        met = 0',
      '    return spark.range(met)',
      '',
    ].join('\n');
    const a = write('probe-a', probe);
    const b = write('probe-b', probe);
    const sparkHang = write('spark-hang', SPARK_HANG);
    const fine = write('fine', 'def solve(spark, tables):\n    return spark.range(3)\n');
    const view = write('temp-view', 'def solve(spark, tables):\n    spark.range(2).createOrReplaceTempView("lockin_v")\n    return spark.table("lockin_v")\n');
    const shape = (rs: { dir: string; status: string; rows?: number }[]) => rs.map((r) => [path.basename(r.dir), r.status, r.rows ?? null]);
    try {
      const side = await mutantOutputs({ dirs: [a, b, sparkHang, fine], scale: 0.01, settings: TEST_SPARK_SETTINGS, sparkMode: 'warm', atOnce: 2, perVariantS: 15, cancelGraceS: 5 });
      expect(shape(side)).toEqual([['probe-a', 'ok', 1], ['probe-b', 'ok', 1], ['spark-hang', 'timeout', null], ['fine', 'ok', 3]]);
      const alone = await mutantOutputs({ dirs: [a, b, view], scale: 0.01, settings: TEST_SPARK_SETTINGS, sparkMode: 'warm', atOnce: 2 });
      expect(shape(alone)).toEqual([['probe-a', 'ok', 0], ['probe-b', 'ok', 0], ['temp-view', 'ok', 2]]);
    } finally {
      await stopAllSlots();
      if (saved === undefined) delete process.env.LOCKIN_HOME;
      else process.env.LOCKIN_HOME = saved;
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 600_000);

  // 39 s of Spark on four queries (the generator's semantics, not its wiring): in the full suite only (`npm run test:full`).
  (process.env.LOCKIN_TEST_FULL === '1' ? test : test.skip)('mutants where lock-in happens disagree with their references at SF=0.01 (q35, q69 EXISTS joins; q33 IN subquery; q2 computed names)', async () => {
    const db = await ensureTestDatabase(0.01);
    const saved = process.env.LOCKIN_HOME;
    process.env.LOCKIN_HOME = db.home;
    // Observed on this database (all 11 with LOCKIN_DATA_FULL=1, golds included): q35 semi-join-1/2
    // values; q69 semi-join-1 values, anti-join-1/2 row-count; q33 semi-join-1 values; q2
    // alias-rename-1 alias-mismatch; the four golds agree. By default the four the issue names.
    const full = process.env.LOCKIN_DATA_FULL === '1';
    const picks: Record<string, string[]> = full
      ? { q35: ['gold', 'semi-join-1', 'semi-join-2'], q69: ['gold', 'semi-join-1', 'anti-join-1', 'anti-join-2'], q33: ['gold', 'semi-join-1'], q2: ['gold', 'alias-rename-1'] }
      : { q35: ['semi-join-1'], q69: ['semi-join-1', 'anti-join-1'], q33: ['semi-join-1'] };
    try {
      const variants: { taskId: string; id: string; dir: string }[] = [];
      for (const [taskId, ids] of Object.entries(picks)) {
        const outDir = path.join(work, 'lockin-mutants', taskId);
        await generateMutants({ taskId, outDir });
        fs.mkdirSync(path.join(outDir, 'gold'), { recursive: true });
        fs.copyFileSync(path.join('tasks', taskId, 'gold', 'solution.py'), path.join(outDir, 'gold', 'solution.py'));
        for (const id of ids) variants.push({ taskId, id, dir: path.join(outDir, id) });
      }
      const results = await mutantOutputs({ dirs: variants.map((v) => v.dir), scale: 0.01, settings: TEST_SPARK_SETTINGS });
      const verdicts: string[] = [];
      for (const [i, v] of variants.entries()) {
        const r = results[i];
        if (r.status !== 'ok') {
          verdicts.push(`${v.taskId}/${v.id}:${r.status}`);
          continue;
        }
        const cmp = await compareOutputs({ candidateDir: path.join(v.dir, 'out'), referenceDir: path.join(db.referencesDir, v.taskId), outDir: v.dir });
        verdicts.push(`${v.taskId}/${v.id}:${cmp.outcome.agree ? 'agree' : cmp.outcome.primaryCategory}`);
      }
      console.log(`lock-in mutants at SF=0.01: ${verdicts.join(', ')}`);
      if (full) expect(verdicts.filter((x) => x.includes('/gold:'))).toEqual(['q35/gold:agree', 'q69/gold:agree', 'q33/gold:agree', 'q2/gold:agree']);
      // Every mutant ran and disagrees (none is equivalent at this scale).
      for (const x of verdicts.filter((y) => !y.includes('/gold:'))) expect(x).not.toMatch(/:(agree|exception|timeout|not-run)$/);
      expect(verdicts).toEqual(expect.arrayContaining(['q35/semi-join-1:values', 'q69/semi-join-1:values', 'q69/anti-join-1:row-count', 'q33/semi-join-1:values']));
    } finally {
      if (saved === undefined) delete process.env.LOCKIN_HOME;
      else process.env.LOCKIN_HOME = saved;
    }
  }, 900_000);

  // 33 s of waiting on time limits: in the full suite only (`npm run test:full`).
  (process.env.LOCKIN_TEST_FULL === '1' ? test : test.skip)('a variant past its time limit is stopped and the next one runs; one that will not stop ends the process', async () => {
    const db = await ensureTestDatabase(0.01);
    const saved = process.env.LOCKIN_HOME;
    process.env.LOCKIN_HOME = db.home;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-limit-'));
    const write = variantWriter(root);
    const sparkHang = write('spark-hang', SPARK_HANG);
    const fine = write('fine', 'def solve(spark, tables):\n    return spark.range(3)\n');
    const pythonHang = write('python-hang', 'import time\ndef solve(spark, tables):\n    time.sleep(600)\n');
    const after = write('after', 'def solve(spark, tables):\n    return spark.range(2)\n');
    try {
      const res = await mutantOutputs({ dirs: [sparkHang, fine, pythonHang, after], scale: 0.01, settings: TEST_SPARK_SETTINGS, perVariantS: 10, cancelGraceS: 3, atOnce: 1 });
      expect(res.map((r) => [path.basename(r.dir), r.status, r.rows ?? null])).toEqual([
        ['spark-hang', 'timeout', null],
        ['fine', 'ok', 3],
        ['python-hang', 'timeout', null],
        ['after', 'not-run', null],
      ]);
      expect(res[0].reason).toBe('stopped after the per-variant time limit of 10 s');
    } finally {
      if (saved === undefined) delete process.env.LOCKIN_HOME;
      else process.env.LOCKIN_HOME = saved;
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 600_000);
});
