/**
 * The replay-corpus builder (`lockin tasks build-replay`).
 *
 * (a) `replay/gold/<taskId>/` for every task with a gold folder: generate.md carries the gold
 *     plan, solution and tests; the PlanAudit replies extract the prompt-inferable obligations
 *     (C-1), assess them all as stated (C-2), need no grounding (C-2.5), find every one covered
 *     (C-3) and recommend nothing (C-4: not actionable, so C-5 is skipped). The gold suite passes,
 *     so Test-Guided stops without a revision; the gold tests are also the Contract-First C-0
 *     contract (contract_test.py), which gold passes, so Contract-First stops without a revision.
 * (c) `replay/faults/<taskId>/generate.md` for every task with a realistic fault (tasks/<taskId>/faults/;
 *     the first by name): its plan, solution and suite, so `--model replay:faults --conditions
 *     one-pass` puts the fault through the study path.
 * (b) `replay/lockin/<taskId>/plan-audit/`: C-1/C-2/C-2.5 derived honestly from obligations.yaml
 *     (prompt-inferable -> stated; schema-grounded -> inferable, with a grounding; hidden-reference
 *     obligations are not extracted, because the prompt does not state them), and C-3/C-4
 *     defaults (all covered; not actionable).
 *
 * Every file this builder writes opens with a provenance front matter (protocol/provenance.ts):
 * `generated-from-gold` or `generated-from-obligations` with its source. A file whose front matter
 * says anything else (`authored`, `recorded`) is never overwritten; neither is a file without a
 * valid front matter (the replay backend refuses it, naming the file). Replies follow
 * protocol/stages.ts (one ```json block).
 */
import * as fs from 'fs';
import * as path from 'path';
import { replayRoot, tasksRoot } from '../common/paths';
import { renderArtifacts } from './prompts';
import { parseReplayText, renderFrontMatter } from './backends/replay';
import { isBuilderKind, type Provenance } from '../../protocol/provenance';
import type { C1Reply, C25Reply, C2Reply, C3Reply, C4Reply } from '../../protocol/stages';
import type { z } from 'zod';
import { listTaskIds, loadTaskFolder, type LoadedTask } from '../tasks/load';
import type { Obligation } from '../../protocol/corpus';

/** The comment in the front matter of every file the builder writes. */
export const BUILDER_COMMENT = 'written by `lockin tasks build-replay`: edit the sources (tasks/<taskId>/), or set provenance: authored to keep a hand-edited copy';

/** The front matter of a file generated from tasks/<taskId>/obligations.yaml. */
export function fromObligations(taskId: string): Provenance {
  return { provenance: 'generated-from-obligations', source: `tasks/${taskId}/obligations.yaml` };
}

/** The front matter of a file generated from the gold folder tasks/<taskId>/gold. */
export function fromGold(taskId: string): Provenance {
  return { provenance: 'generated-from-gold', source: `tasks/${taskId}/gold` };
}

type C1 = z.infer<typeof C1Reply>;
type C2 = z.infer<typeof C2Reply>;
type C25 = z.infer<typeof C25Reply>;
type C3 = z.infer<typeof C3Reply>;
type C4 = z.infer<typeof C4Reply>;

/** Renders an audit reply: the provenance front matter, one sentence, one ```json block. */
export function jsonReply(provenance: Provenance, note: string, value: unknown): string {
  return `${renderFrontMatter(provenance, BUILDER_COMMENT)}${note}\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n`;
}

/** The obligations a C-1 extraction from the prompt can find: every one but the hidden-reference ones. */
export function extractable(obligations: readonly Obligation[]): Obligation[] {
  return obligations.filter((o) => o.class !== 'hidden-reference');
}

/** C-1 of the gold corpus: the prompt-inferable obligations. */
export function goldC1(obligations: readonly Obligation[]): C1 {
  return { obligations: obligations.filter((o) => o.class === 'prompt-inferable').map((o) => ({ id: o.id, statement: o.statement, kind: o.kind })) };
}

/** C-1 of the lockin corpus: prompt-inferable and schema-grounded obligations (hidden ones are not stated by the prompt). */
export function lockinC1(obligations: readonly Obligation[]): C1 {
  return { obligations: extractable(obligations).map((o) => ({ id: o.id, statement: o.statement, kind: o.kind })) };
}

/** C-2: prompt-inferable -> stated (with its passage); schema-grounded -> inferable. */
export function assess(extracted: readonly Obligation[]): C2 {
  return {
    assessments: extracted.map((o) =>
      o.class === 'prompt-inferable'
        ? { id: o.id, support: 'stated' as const, note: `task.yaml: "${o.passage}"` }
        : { id: o.id, support: 'inferable' as const, note: 'follows from the input schema and Spark typing rules' },
    ),
  };
}

/** Columns a schema-grounded obligation concerns (from its rule), if any. */
function ruleColumns(o: Obligation): string[] | undefined {
  if (!o.rule) return undefined;
  if (o.rule.kind === 'columns') return o.rule.names;
  return [o.rule.name];
}

/** C-2.5: one grounding per schema-grounded obligation (its statement, resolved from schema metadata). */
export function ground(extracted: readonly Obligation[]): C25 {
  return {
    groundings: extracted
      .filter((o) => o.class === 'schema-grounded')
      .map((o) => {
        const cols = ruleColumns(o);
        return { id: o.id, resolution: o.statement, ...(cols ? { columns: cols } : {}) };
      }),
  };
}

/** C-3 default: every extracted obligation covered by plan, code and tests. */
export function allCovered(extracted: readonly { id: string }[]): C3 {
  return { audit: extracted.map((o) => ({ id: o.id, plan: 'covered' as const, code: 'covered' as const, tests: 'covered' as const })) };
}

/** C-4 default: nothing actionable (C-5 is skipped). */
export function notActionable(): C4 {
  return { actionable: false, repairs: [] };
}

/** The front matter of a file copied from a realistic fault, tasks/<taskId>/faults/<name>. */
export function fromFault(taskId: string, name: string): Provenance {
  return { provenance: 'generated-from-faults', source: `tasks/${taskId}/faults/${name}` };
}

/**
 * The artifact reply of the faults corpus (`replay:faults`): a realistic fault's plan, solution
 * and suite as fenced blocks, so a one-pass study runs the fault through the whole study path
 * (its false pass, labels and Table VI mechanism as a study reports them).
 */
export function faultGenerateReply(taskId: string, name: string, faultDir: string): string {
  const read = (n: string) => fs.readFileSync(path.join(faultDir, n), 'utf8');
  return `${renderFrontMatter(fromFault(taskId, name), BUILDER_COMMENT)}${renderArtifacts([
    { name: 'plan.md', content: read('plan.md') },
    { name: 'solution.py', content: read('solution.py') },
    { name: 'test_solution.py', content: read('test_solution.py') },
  ])}\n`;
}

/** The artifact reply of the gold corpus: the gold plan, solution and tests as fenced blocks. */
export function goldGenerateReply(taskId: string, goldDir: string): string {
  const read = (n: string) => fs.readFileSync(path.join(goldDir, n), 'utf8');
  return `${renderFrontMatter(fromGold(taskId), BUILDER_COMMENT)}${renderArtifacts([
    { name: 'plan.md', content: read('plan.md') },
    { name: 'solution.py', content: read('solution.py') },
    { name: 'test_solution.py', content: read('test_solution.py') },
  ])}\n`;
}

/**
 * The Contract-First C-0 reply of the gold corpus: the gold test suite as the frozen contract
 * (`contract_test.py`), so that replay:gold runs all four conditions (docs/protocol.md §2).
 */
export function goldContractReply(taskId: string, goldDir: string): string {
  return `${renderFrontMatter(fromGold(taskId), BUILDER_COMMENT)}${renderArtifacts([{ name: 'contract_test.py', content: fs.readFileSync(path.join(goldDir, 'test_solution.py'), 'utf8') }])}\n`;
}

/** True when the file does not exist or its front matter says this builder wrote it (it may be replaced). */
export function replaceable(file: string): boolean {
  if (!fs.existsSync(file)) return true;
  try {
    return isBuilderKind(parseReplayText(fs.readFileSync(file, 'utf8'), file).provenance.provenance);
  } catch {
    return false;
  }
}

export interface BuildReplayReport {
  lines: string[];
  goldTasks: number;
  goldFiles: number;
  lockinWritten: number;
  lockinKept: number;
  problems: string[];
}

/**
 * Builds the replay files for the given tasks (default: every task folder).
 * Inputs: ids; the corpus and replay roots (defaults tasksRoot(), replayRoot()).
 * Returns: a report (lines per task, counts, problems such as an invalid task folder).
 * Never overwrites a file whose front matter is not one of the builder's kinds.
 */
export function buildReplay(opts: { ids?: string[]; root?: string; replay?: string }): BuildReplayReport {
  const root = opts.root ?? tasksRoot();
  const replay = opts.replay ?? replayRoot();
  const ids = opts.ids && opts.ids.length > 0 ? opts.ids : listTaskIds(root);
  const rep: BuildReplayReport = { lines: [], goldTasks: 0, goldFiles: 0, lockinWritten: 0, lockinKept: 0, problems: [] };
  const write = (file: string, text: string): 'written' | 'kept' => {
    if (!replaceable(file)) return 'kept';
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return 'written';
  };
  for (const taskId of ids) {
    let t: LoadedTask;
    try {
      t = loadTaskFolder(path.join(root, taskId));
    } catch (e) {
      rep.problems.push(`${taskId}: ${(e as Error).message.split('\n')[0]}`);
      continue;
    }
    const obls = t.obligations.obligations;
    const parts: string[] = [];
    // (a) the gold corpus
    const goldDir = path.join(root, taskId, 'gold');
    const goldFiles = ['plan.md', 'solution.py', 'test_solution.py'];
    if (goldFiles.every((f) => fs.existsSync(path.join(goldDir, f)))) {
      const dir = path.join(replay, 'gold', taskId);
      const c1 = goldC1(obls);
      const ids1 = obls.filter((o) => o.class === 'prompt-inferable');
      const fo = fromObligations(taskId);
      const files: [string, string][] = [
        ['generate.md', goldGenerateReply(taskId, goldDir)],
        ['contract-first/c0-contract.md', goldContractReply(taskId, goldDir)],
        ['plan-audit/c1-extract.md', jsonReply(fo, 'Obligations the task prompt states.', c1)],
        ['plan-audit/c2-assess.md', jsonReply(fo, 'Each obligation is stated by the prompt.', { assessments: ids1.map((o) => ({ id: o.id, support: 'stated', note: `task.yaml: "${o.passage}"` })) })],
        ['plan-audit/c2_5-ground.md', jsonReply(fo, 'No ambiguity needs schema grounding.', { groundings: [] })],
        ['plan-audit/c3-audit.md', jsonReply(fo, 'The plan, code and tests cover every obligation.', allCovered(ids1))],
        ['plan-audit/c4-recommend.md', jsonReply(fo, 'No actionable gap remains.', notActionable())],
      ];
      let n = 0;
      for (const [name, text] of files) if (write(path.join(dir, name), text) === 'written') n++;
      rep.goldTasks++;
      rep.goldFiles += n;
      parts.push(`gold ${n}/${files.length} files`);
    } else parts.push('gold: no gold folder');
    // (b) the lockin corpus's plan-audit defaults
    const ex = extractable(obls);
    const pa = path.join(replay, 'lockin', taskId, 'plan-audit');
    const fo = fromObligations(taskId);
    const lockinFiles: [string, string][] = [
      ['c1-extract.md', jsonReply(fo, 'Obligations the task prompt states or the input schema implies.', lockinC1(obls))],
      ['c2-assess.md', jsonReply(fo, 'Support for each obligation in the prompt.', assess(ex))],
      ['c2_5-ground.md', jsonReply(fo, 'Schema metadata resolves the schema-implied obligations.', ground(ex))],
      ['c3-audit.md', jsonReply(fo, 'The plan, code and tests cover the extracted obligations.', allCovered(ex))],
      ['c4-recommend.md', jsonReply(fo, 'No actionable gap remains.', notActionable())],
    ];
    let w = 0;
    let k = 0;
    for (const [name, text] of lockinFiles) {
      if (write(path.join(pa, name), text) === 'written') w++;
      else k++;
    }
    rep.lockinWritten += w;
    rep.lockinKept += k;
    parts.push(`lockin plan-audit ${w} written, ${k} authored kept`);
    // (c) the faults corpus: the task's first realistic fault (by name) as its generation.
    const faultsDir = path.join(root, taskId, 'faults');
    const first = fs.existsSync(faultsDir) ? fs.readdirSync(faultsDir).sort().find((n) => ['plan.md', 'solution.py', 'test_solution.py'].every((f) => fs.existsSync(path.join(faultsDir, n, f)))) : undefined;
    if (first) {
      write(path.join(replay, 'faults', taskId, 'generate.md'), faultGenerateReply(taskId, first, path.join(faultsDir, first)));
      parts.push(`faults: ${first}`);
    }
    rep.lines.push(`${taskId}: ${parts.join('; ')}`);
  }
  return rep;
}
