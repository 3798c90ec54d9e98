/**
 * The variant set of a study is fixed when it starts (new-user 3 finding 17): initStudy records
 * the variant databases with references in study.json (outside the manifest hash), and each run is
 * executed on exactly those (activities/data/differential.ts variantsForRun): a variant built later
 * is left out, one rebuilt or removed since is kept as not-run with the reason. Hand-built homes.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { initStudy } from '../../activities/store/manifest';
import { buildStudyInput } from '../../client/studyInput';
import { listVariants } from '../../activities/data/variants';
import { studyVariantSet, variantsForRun } from '../../activities/data/differential';

const saved = { home: process.env.LOCKIN_HOME, runs: process.env.LOCKIN_RUNS };
afterAll(() => {
  for (const [k, v] of [['LOCKIN_HOME', saved.home], ['LOCKIN_RUNS', saved.runs]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** A variant at SF=0.01 under home: its manifest, and (refs) a references.json of the same build. */
function variant(home: string, name: string, hash: string, refs: boolean): void {
  const db = path.join(home, 'data', 'variants', 'sf0.01', name);
  fs.mkdirSync(db, { recursive: true });
  fs.writeFileSync(path.join(db, 'manifest.json'), JSON.stringify({ manifestHash: hash, seed: 1 }));
  if (refs) {
    const r = path.join(home, 'data', 'variant-references', 'sf0.01', name);
    fs.mkdirSync(r, { recursive: true });
    fs.writeFileSync(path.join(r, 'references.json'), JSON.stringify({ manifestHash: hash, variants: { q3: {} }, failedVariants: {} }));
  }
}

test('study.json records the variants with references at the start; runs use exactly those', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-variantset-'));
  process.env.LOCKIN_HOME = home;
  process.env.LOCKIN_RUNS = path.join(home, 'runs');
  variant(home, 'nulls', 'a'.repeat(64), true);
  variant(home, 'dupdims', 'b'.repeat(64), false); // no references yet: not part of the set
  const input = buildStudyInput({ studyId: 'vs', tasks: ['q3'], model: 'replay:gold', scale: 0.01 });
  const first = await initStudy(input);
  expect(studyVariantSet('vs')).toEqual([{ name: 'nulls', manifestHash: 'a'.repeat(64) }]);

  // While the study runs: dupdims gets references, crosschannel is built, nulls is rebuilt.
  variant(home, 'dupdims', 'b'.repeat(64), true);
  variant(home, 'crosschannel', 'c'.repeat(64), true);
  expect(variantsForRun(listVariants(0.01), studyVariantSet('vs')).map((x) => [x.variant.name, x.info?.name ?? null, x.why ?? null])).toEqual([['nulls', 'nulls', null]]);
  variant(home, 'nulls', 'd'.repeat(64), true);
  expect(variantsForRun(listVariants(0.01), studyVariantSet('vs')).map((x) => [x.variant.name, x.info?.name ?? null, x.why ?? null])).toEqual([
    ['nulls', null, `variant nulls was rebuilt since the study started (manifest ${'a'.repeat(12)}, now ${'d'.repeat(12)})`],
  ]);
  // A resume keeps the recorded set and the manifest hash (the set is outside the hash).
  const resumed = await initStudy(input);
  expect(resumed.manifestHash).toBe(first.manifestHash);
  expect(studyVariantSet('vs')).toEqual([{ name: 'nulls', manifestHash: 'a'.repeat(64) }]);
  // An older study (no variantDatabases): every variant with references now, in VARIANT_NAMES order.
  expect(variantsForRun(listVariants(0.01), null).map((x) => x.variant.name)).toEqual(['nulls', 'dupdims', 'crosschannel']);
  expect(studyVariantSet('no-such-study')).toBeNull();
});
