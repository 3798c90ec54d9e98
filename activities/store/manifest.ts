/**
 * The study manifest (runs/<study>/study.json): the hashes of every input that decides a
 * result (task.yaml, obligations.yaml, prompt templates, references, the database manifest)
 * plus the model and Spark settings. Resuming a study whose inputs changed is refused with a
 * message naming what changed (README "Inspecting and resuming").
 */
import * as fs from 'fs';
import { listVariants } from '../data/variants';
import * as path from 'path';
import { execSync } from 'child_process';
import { databaseDir, referencesDir, replayCorpusDir, REPO_ROOT, tasksRoot, referencePaths } from '../common/paths';
import { z } from 'zod';
import { PINNED, SparkJitSchema, SparkModeSchema, SparkSettingsSchema, type SparkJit, type SparkMode, type SparkSettings } from '../../protocol/settings';
import { InputError } from '../common/errors';
import type { StudyInput } from '../../protocol/inputs';
import { canonicalJson, legacyCanonicalJson, sha256, sha256File } from '../common/hash';
import { PAPER_SENSITIVITY, type SensitivitySubset } from '../../protocol/sensitivity';
import { studyDir } from '../common/layout';
import { isReplaySpec, tryParseModelSpec } from '../../protocol/model';
import { modelFileSha256, resolveLocalModel } from '../common/localModels';
import { referenceRelPaths } from '../../protocol/layout';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

export interface StudyManifest {
  studyId: string;
  createdAt: string;
  gitRevision: string | null;
  model: string;
  replayed: boolean;
  params: StudyInput['params'];
  scale: number;
  settings: StudyInput['settings'];
  tasks: string[];
  conditions: string[];
  replicate: StudyInput['replicate'] | null;
  /** Samples per task; absent = 1 (so the manifest hash of a one-sample study is unchanged). */
  samples?: number;
  versions: Record<string, string>;
  /** input file (repo- or home-relative label) -> sha256 ("missing" when absent). */
  inputs: Record<string, string>;
  /** Table V's sensitivity subsets (protocol/sensitivity.ts): a report setting, not part of the hash. */
  sensitivity?: SensitivitySubset[];
  /** How Spark jobs got their JVM (protocol/settings.ts SPARK_MODES): recorded, not part of the hash (verdicts do not depend on it). */
  sparkMode?: 'cold' | 'warm';
  /** The JIT of the job JVMs where the study started (protocol/settings.ts SPARK_JITS): recorded, not part of the hash (verdicts do not depend on it); each job's `spark.jit` says its own. */
  sparkJit?: SparkJit;
  /**
   * The variant databases (with references) at the study's scale when it started: every run is
   * executed on exactly these (activities/data/differential.ts variantsForRun), so variants built
   * while the study runs change nothing in it. Recorded outside the hash, like sensitivity.
   */
  variantDatabases?: { name: string; manifestHash: string }[];
  manifestHash: string;
}

function hashIfExists(file: string): string {
  return fs.existsSync(file) ? sha256File(file) : 'missing';
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Hashes of every input of the study (pure in its file reads; no writes). */
export function collectInputs(input: StudyInput): Record<string, string> {
  const inputs: Record<string, string> = {};
  const allTasks = [...new Set([...input.tasks, ...(input.replicate?.tasks ?? [])])].sort();
  for (const t of allTasks) {
    for (const f of ['task.yaml', 'obligations.yaml']) inputs[`tasks/${t}/${f}`] = hashIfExists(path.join(tasksRoot(), t, f));
    // evaluation.yaml (robustness keys) decides results too; hashed only where present, so the
    // manifests of tasks without one are unchanged.
    const evaluation = path.join(tasksRoot(), t, 'evaluation.yaml');
    if (fs.existsSync(evaluation)) inputs[`tasks/${t}/evaluation.yaml`] = sha256File(evaluation);
    inputs[`references/${referenceRelPaths(t).data}`] = hashIfExists(referencePaths(referencesDir(input.scale), t).data);
  }
  for (const f of listFiles(path.join(REPO_ROOT, 'activities', 'model', 'prompts')).sort()) inputs[path.relative(REPO_ROOT, f)] = sha256File(f);
  inputs['database/manifest.json'] = hashIfExists(path.join(databaseDir(input.scale), 'manifest.json'));
  const spec = tryParseModelSpec(input.model);
  if (spec?.provider === 'replay') {
    const root = replayCorpusDir(spec.model);
    for (const t of allTasks) for (const f of listFiles(path.join(root, t)).sort()) inputs[`replay/${path.relative(root, f)}`] = sha256File(f);
    // How the corpus answers samples ≥ 2 matters only to a study with samples (older manifests keep their hash).
    if ((input.samples ?? 1) > 1) inputs['replay/corpus.json'] = hashIfExists(path.join(root, 'corpus.json'));
  }
  // A local model's replies depend on its file: the manifest records the file's sha256 (a
  // resumed study whose model file changed names it among the changed inputs).
  if (spec?.provider === 'local') {
    const file = resolveLocalModel(spec.model);
    inputs[`model/${path.basename(file.path)}`] = modelFileSha256(file.path);
  }
  return inputs;
}

function gitRevision(): string | null {
  try {
    return execSync('git rev-parse HEAD', { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return null;
  }
}

/** The fields that decide results; their hash is the manifest hash. */
function decisive(m: Omit<StudyManifest, 'manifestHash' | 'createdAt' | 'gitRevision'>): unknown {
  return { ...m };
}

/**
 * Activity: writes runs/<id>/study.json, or verifies it on resume.
 * @returns the study dir, manifest hash and whether the model is replayed.
 * @throws InputError (non-retryable) naming each changed input when resuming a study whose inputs changed.
 */
export async function initStudy(input: ActivityInput<'initStudy'>): Promise<ActivityOutput<'initStudy'>> {
  const dir = studyDir(input.studyId);
  fs.mkdirSync(dir, { recursive: true });
  const body = {
    studyId: input.studyId,
    model: input.model,
    replayed: isReplaySpec(input.model),
    params: input.params,
    scale: input.scale,
    settings: input.settings,
    tasks: input.tasks,
    conditions: input.conditions,
    replicate: input.replicate ?? null,
    ...(input.samples && input.samples > 1 ? { samples: input.samples } : {}),
    versions: { node: process.versions.node, pyspark: PINNED.sparkVersion, tpcgenCli: PINNED.tpcgenCli, temporalCli: PINNED.temporalBin },
    inputs: collectInputs(input),
  };
  const manifestHash = sha256(canonicalJson(decisive(body)));
  const file = path.join(dir, 'study.json');
  if (fs.existsSync(file)) {
    const old = JSON.parse(fs.readFileSync(file, 'utf8')) as StudyManifest;
    // A study.json written before the canonical forms were unified carries the legacy hash.
    if (old.manifestHash !== manifestHash && old.manifestHash !== sha256(legacyCanonicalJson(decisive(body)))) {
      const changed: string[] = [];
      const keys = new Set([...Object.keys(old.inputs ?? {}), ...Object.keys(body.inputs)]);
      for (const k of keys) if (old.inputs?.[k] !== body.inputs[k]) changed.push(k);
      for (const k of ['model', 'params', 'scale', 'settings', 'tasks', 'conditions', 'replicate', 'samples', 'versions'] as const)
        if (canonicalJson((old as unknown as Record<string, unknown>)[k]) !== canonicalJson((body as Record<string, unknown>)[k])) changed.push(k);
      throw new InputError(`study ${input.studyId} was started with other inputs; refusing to resume. Changed: ${changed.slice(0, 20).join(', ')}${changed.length > 20 ? ` (+${changed.length - 20} more)` : ''}. Start a new study id instead.`, file, 'manifestHash');
    }
    return { studyDir: dir, manifestHash: old.manifestHash, replayed: body.replayed };
  }
  // The sensitivity subsets decide no run: recorded for the report, outside the hash.
  const variantDatabases = listVariants(input.scale).filter((v) => v.references !== null).map((v) => ({ name: v.name, manifestHash: v.manifestHash }));
  const manifest: StudyManifest = { ...body, sensitivity: input.sensitivity ?? [...PAPER_SENSITIVITY], sparkMode: input.sparkMode ?? 'cold', sparkJit: input.sparkJit ?? 'tiered', variantDatabases, createdAt: new Date().toISOString(), gitRevision: gitRevision(), manifestHash };
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
  return { studyDir: dir, manifestHash, replayed: body.replayed };
}

/** The part of study.json the step-5 activities read (the mutation analysis and the labeller check). */
const StudyBasicsSchema = z.looseObject({ tasks: z.array(z.string()), scale: z.number().positive(), settings: SparkSettingsSchema, sparkMode: SparkModeSchema.optional(), sparkJit: SparkJitSchema.optional() });

/** A study's folder and the frozen inputs step 5 reads from its study.json. */
export interface StudyBasics {
  /** runs/<study>. */
  sdir: string;
  tasks: string[];
  scale: number;
  settings: SparkSettings;
  /** The study's recorded Spark mode (absent in a study.json from before warm Spark slots: cold). */
  sparkMode: SparkMode;
  /** The study's recorded JIT of job JVMs (absent in a study.json from before LOCKIN_SPARK_JIT: tiered, the JVM's default). */
  sparkJit: SparkJit;
}

/**
 * Reads `runs/<studyId>/study.json`'s tasks, scale, Spark settings, Spark mode and JIT.
 * @throws InputError naming the file when it is missing or not JSON, and the file and field when
 * a field is missing or malformed (the caller decides whether that is retryable).
 */
export function readStudyBasics(studyId: string): StudyBasics {
  const sdir = studyDir(studyId);
  const file = path.join(sdir, 'study.json');
  if (!fs.existsSync(file)) throw new InputError('no such study (study.json missing)', file);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InputError(`not JSON: ${(err as Error).message}`, file);
  }
  const r = StudyBasicsSchema.safeParse(raw);
  if (!r.success) throw new InputError(r.error.issues[0].message, file, r.error.issues[0].path.join('.'));
  return { sdir, tasks: r.data.tasks, scale: r.data.scale, settings: r.data.settings, sparkMode: r.data.sparkMode ?? 'cold', sparkJit: r.data.sparkJit ?? 'tiered' };
}
