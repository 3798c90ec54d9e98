/**
 * Reading the inputs of scoring from disk: obligations.yaml and a run's frozen artifacts.
 * Every bad input raises an InputError naming the file and field.
 */
import * as fs from 'fs';
import * as path from 'path';
import YAML from 'yaml';
import { ObligationsFile, type Obligation } from '../../protocol/corpus';
import { tasksRoot } from '../common/paths';
import { InputError } from '../common/errors';
import { parseSparkSchema, type OutputField } from '../obligations/schemaRules';

/**
 * Loads and validates `<tasksRoot>/<taskId>/obligations.yaml`.
 * @throws InputError when the file is missing, does not parse, or fails ObligationsFile.
 */
export function loadObligations(taskId: string, root = tasksRoot()): Obligation[] {
  const file = path.join(root, taskId, 'obligations.yaml');
  if (!fs.existsSync(file)) throw new InputError('obligations file not found', file);
  let doc: unknown;
  try {
    doc = YAML.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`YAML does not parse: ${(e as Error).message}`, file);
  }
  const out = ObligationsFile.safeParse(doc);
  if (!out.success) {
    const issue = out.error.issues[0];
    throw new InputError(issue.message, file, issue.path.join('.'));
  }
  if (out.data.task !== taskId) throw new InputError(`task is ${out.data.task}, expected ${taskId}`, file, 'task');
  return out.data.obligations;
}

/** Reads a text file, or '' when it does not exist. */
export function readTextOrEmpty(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/**
 * The frozen artifacts of a condition directory ('' for a missing file): plan.md, solution.py
 * and, as `tests`, the run's scored suite, `suite` (default test_solution.py; contract_test.py for
 * Contract-First, protocol/conditions.ts scoredSuite: its obligation coverage is labelled like any
 * test suite's, docs/protocol.md §2 "Contract-First").
 */
export function readArtifacts(conditionDir: string, suite = 'test_solution.py'): { plan: string; solution: string; tests: string } {
  return {
    plan: readTextOrEmpty(path.join(conditionDir, 'plan.md')),
    solution: readTextOrEmpty(path.join(conditionDir, 'solution.py')),
    tests: readTextOrEmpty(path.join(conditionDir, suite)),
  };
}

/** Reads a candidate's schema.json (Spark StructType JSON), or null when the path is unset or missing. */
export function readOutputSchema(schemaFile: string | undefined): OutputField[] | null {
  if (!schemaFile || !fs.existsSync(schemaFile)) return null;
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
  } catch (e) {
    throw new InputError(`not JSON: ${(e as Error).message}`, schemaFile);
  }
  return parseSparkSchema(json, schemaFile);
}
