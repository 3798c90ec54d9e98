/**
 * The verdicts of a finished study, gathered for the equivalence run of bench/study.ts
 * (`--compare-cold`, warm Spark slots): every verdict lockin derives from a Spark job, as plain strings,
 * so that a cold and a warm run of the same replay study can be compared key by key.
 *
 * Per run record (task, condition, replicate, sample): the test, reference and false-pass
 * outcomes; every pytest run's status, counts and veto; every test id's outcome in every pytest
 * run (the JUnit files); the candidate execution's status, output schema and row multiset
 * (exact: sorted row keys); reference agreement with its failure categories; the executable
 * labels. Per study: each mutant's kill by each frozen suite (mutation.json), the evaluator
 * controls (controls.json) and the SQL re-execution (reproduce.json).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { loadOutput } from '../activities/compare/load';
import { rowKey } from '../activities/compare/compare';
import { parseJunit } from '../activities/execution/junit';
import { recordsDir, studyDir } from '../activities/common/layout';
import type { RunRecord } from '../protocol/types';

/** A study's verdicts: verdict name → value (both plain strings). */
export type StudyVerdicts = Record<string, string>;

/** Files below `dir` whose name matches `re`, sorted (none when `dir` is missing). */
function filesBelow(dir: string, re: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => re.test(path.basename(f))).sort();
}

/** The record's key: `<task>[@replicate][~s<k>]/<condition>`. */
function recordKey(r: RunRecord): string {
  return `${r.taskId}${r.replicate ? `@${r.replicate}` : ''}${(r.sample ?? 1) > 1 ? `~s${r.sample}` : ''}/${r.condition}`;
}

/** An output folder's schema and row multiset, as one exact digest with its row count. */
async function outputDigest(dir: string): Promise<string> {
  const t = await loadOutput(dir);
  const types = t.columns.map((c) => c.type);
  const rows = t.rows.map((r) => rowKey(types, r)).sort();
  const h = crypto.createHash('sha256').update(JSON.stringify(t.columns)).update('\n').update(rows.join('\n')).digest('hex').slice(0, 16);
  return `${t.columns.map((c) => `${c.name}:${c.type}`).join(',')} | ${t.rows.length} rows | ${h}`;
}

/**
 * Reads the verdicts of study `studyId` from runs/<id>/ (records, their condition folders,
 * mutation.json, controls.json, reproduce.json). Keys name the run and the verdict; a study
 * folder without a file simply has no such keys. Throws when the study has no records.
 */
export async function collectVerdicts(studyId: string): Promise<StudyVerdicts> {
  const out: StudyVerdicts = {};
  const rdir = recordsDir(studyId);
  if (!fs.existsSync(rdir)) throw new Error(`${rdir}: the study has no run records`);
  for (const f of fs.readdirSync(rdir).filter((x) => x.endsWith('.json')).sort()) {
    const r = JSON.parse(fs.readFileSync(path.join(rdir, f), 'utf8')) as RunRecord;
    const k = recordKey(r);
    out[`${k} outcome`] = `test ${r.testPassed} reference ${r.referenceMatched} false-pass ${r.falsePass}`;
    const p = r.pytest;
    if (p) out[`${k} pytest`] = `${p.status} passed ${p.passed} exit ${p.exitCode} ${JSON.stringify(p.counts)}${p.notPassedBecause ? ` veto: ${p.notPassedBecause}` : ''}`;
    if (r.smoke) out[`${k} smoke`] = `ok ${r.smoke.ok}`;
    const pytestDir = path.join(r.conditionDir, 'pytest');
    for (const j of filesBelow(pytestDir, /^junit-.*\.xml$/)) {
      for (const c of parseJunit(fs.readFileSync(path.join(pytestDir, j), 'utf8'), j)) out[`${k} test ${j} ${c.id}`] = c.outcomes.join('+') || 'passed';
    }
    const e = r.execution;
    if (e) {
      out[`${k} execution`] = e.status === 'ok' ? `ok ${e.rows} rows` : e.status;
      if (e.status === 'ok' && e.outputFile) out[`${k} output`] = await outputDigest(path.dirname(e.outputFile));
    }
    if (r.comparison) out[`${k} agreement`] = `${r.comparison.agree} ${r.comparison.categories.join(',')}`;
    const labels = path.join(r.conditionDir, 'executable-labels.json');
    if (fs.existsSync(labels)) {
      const l = JSON.parse(fs.readFileSync(labels, 'utf8')) as { code: Record<string, { label: string }>; test: Record<string, { label: string }>; suiteOnGold: { passed: boolean } };
      out[`${k} executable labels`] = JSON.stringify({ code: Object.fromEntries(Object.entries(l.code).map(([o, v]) => [o, v.label])), test: Object.fromEntries(Object.entries(l.test).map(([o, v]) => [o, v.label])), gold: l.suiteOnGold.passed });
    }
  }
  const sdir = studyDir(studyId);
  const mutation = path.join(sdir, 'mutation.json');
  if (fs.existsSync(mutation)) {
    const m = JSON.parse(fs.readFileSync(mutation, 'utf8')) as { suites: { task: string; condition: string; validOnGold: boolean; mutants: { id: string; detected: boolean; killed: boolean; status: string }[] }[]; mutants: Record<string, { mutants: { id: string; verdict: string }[] }> };
    for (const s of m.suites) {
      out[`mutation ${s.task}/${s.condition} valid on gold`] = String(s.validOnGold);
      for (const x of s.mutants) out[`mutation ${s.task}/${s.condition} ${x.id}`] = `detected ${x.detected} killed ${x.killed} ${x.status}`;
    }
    for (const [q, e] of Object.entries(m.mutants)) for (const x of e.mutants) out[`mutant ${q} ${x.id} equivalence`] = x.verdict;
  }
  const controls = path.join(sdir, 'controls.json');
  if (fs.existsSync(controls)) {
    const c = JSON.parse(fs.readFileSync(controls, 'utf8')) as { controls?: { id: string; observed: string }[] };
    for (const x of c.controls ?? []) out[`control ${x.id}`] = x.observed;
  }
  const reproduce = path.join(sdir, 'reproduce.json');
  if (fs.existsSync(reproduce)) {
    const rx = JSON.parse(fs.readFileSync(reproduce, 'utf8')) as { results?: { id: string; reproduced: boolean }[] };
    for (const x of rx.results ?? []) out[`re-execution ${x.id}`] = String(x.reproduced);
  }
  return out;
}

/**
 * The verdicts that differ between two runs of one study, one line each
 * ("<key>: cold <a> | warm <b>", a missing one shown as "(none)"), in key order; empty when
 * every verdict is identical. Pure.
 */
export function verdictDifferences(cold: StudyVerdicts, warm: StudyVerdicts): string[] {
  const keys = [...new Set([...Object.keys(cold), ...Object.keys(warm)])].sort();
  return keys.filter((k) => cold[k] !== warm[k]).map((k) => `${k}: cold ${cold[k] ?? '(none)'} | warm ${warm[k] ?? '(none)'}`);
}
