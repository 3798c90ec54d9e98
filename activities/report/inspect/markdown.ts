/**
 * The Markdown a run's Inspect sample shows: the comparison with the reference (which
 * columns, types and rows differ, with a sample of the differing rows), the obligation labels
 * with the labeller that produced each, pytest's outcome and output, and the frozen artifacts.
 * Pure functions over parsed values; the Inspect viewer renders these strings as Markdown in a
 * sample's transcript and in a score's explanation.
 */
import { z } from 'zod';
import type { PairedLabel } from '../../scoring/study';
import type { PytestOutcome } from '../../../protocol/records';

/** A table cell as the comparator writes it (activities/compare/table.ts Cell). */
const CellSchema = z.union([z.null(), z.boolean(), z.number(), z.string()]);
const ColumnSchema = z.object({ name: z.string(), type: z.string() });
const RowDiffSchema = z.object({ row: z.array(CellSchema), count: z.number() });

/**
 * The fields of `evaluation/<condition>/comparison.json` this module shows (written by
 * activities/compare/activity.ts from compare.ts ComparisonResult; unknown keys are kept).
 */
export const ComparisonDetailsSchema = z.looseObject({
  primary: z.looseObject({
    agree: z.boolean(),
    categories: z.array(z.string()),
    primaryCategory: z.string().optional(),
    schema: z.object({
      equal: z.boolean(),
      candidate: z.array(ColumnSchema),
      reference: z.array(ColumnSchema),
      differences: z.array(z.looseObject({ position: z.number(), kind: z.string(), candidate: ColumnSchema.optional(), reference: ColumnSchema.optional() })),
    }),
    rowCount: z.object({ candidate: z.number(), reference: z.number() }),
    rows: z.looseObject({
      alignment: z.string(),
      multisetEqual: z.boolean().nullable(),
      missing: z.array(RowDiffSchema),
      extra: z.array(RowDiffSchema),
      missingTotal: z.number(),
      extraTotal: z.number(),
      missingDistinct: z.number(),
      extraDistinct: z.number(),
    }),
    summary: z.string(),
  }),
  ladder: z.looseObject({ level: z.number().nullable(), steps: z.array(z.looseObject({ level: z.number(), name: z.string(), agree: z.boolean(), summary: z.string() })) }).nullable().optional(),
});
export type ComparisonDetails = z.infer<typeof ComparisonDetailsSchema>;

/** A Markdown table cell: `|` escaped, newlines as spaces, null as NULL. */
function cell(v: unknown): string {
  const s = v === null ? 'NULL' : v === undefined ? '' : String(v);
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function table(head: string[], rows: unknown[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/**
 * The comparison with the reference as Markdown: the verdict and its failure categories, every
 * column side by side with what differs at its position, the row counts and multiset outcome, up
 * to `maxRows` reference rows the candidate lacks and candidate rows the reference lacks (each
 * with how many more times one side holds it), and the robustness ladder's levels.
 * Input: comparison.json parsed with ComparisonDetailsSchema. Output: Markdown text.
 */
export function comparisonMarkdown(d: ComparisonDetails, maxRows = 5): string {
  const p = d.primary;
  const out: string[] = [];
  out.push(p.agree ? '**Agrees with the reference.**' : `**Disagrees with the reference**: ${p.categories.join(', ')}${p.primaryCategory ? ` (primary: ${p.primaryCategory})` : ''}.`, '', p.summary, '');
  const diffAt = new Map(p.schema.differences.map((x) => [x.position, x.kind]));
  const n = Math.max(p.schema.candidate.length, p.schema.reference.length);
  const cols = Array.from({ length: n }, (_, i) => {
    const c = p.schema.candidate[i];
    const r = p.schema.reference[i];
    return [i + 1, c ? `${c.name} ${c.type}` : '(none)', r ? `${r.name} ${r.type}` : '(none)', diffAt.get(i) ?? 'same'];
  });
  out.push(`**Columns** (${p.schema.equal ? 'names and types equal' : `${p.schema.differences.length} difference(s)`}):`, '', table(['#', 'candidate', 'reference', 'difference'], cols), '');
  const rowsLine = `**Rows**: candidate ${p.rowCount.candidate}, reference ${p.rowCount.reference}`;
  const multiset = p.rows.multisetEqual === null ? 'values not compared (no column alignment)' : p.rows.multisetEqual ? `same multiset of rows (columns aligned ${p.rows.alignment})` : `rows differ (columns aligned ${p.rows.alignment})`;
  out.push(`${rowsLine}; ${multiset}.`, '');
  const refCols = p.schema.reference.map((c) => c.name);
  const rowTable = (title: string, rows: z.infer<typeof RowDiffSchema>[], total: number, distinct: number) => {
    if (total === 0) return;
    out.push(`**${title}**: ${total} (${distinct} distinct)${rows.length > maxRows || distinct > Math.min(rows.length, maxRows) ? `, the first ${Math.min(rows.length, maxRows)}` : ''}:`, '');
    out.push(table(['×', ...refCols], rows.slice(0, maxRows).map((r) => [r.count, ...r.row])), '');
  };
  rowTable('Reference rows the candidate lacks', p.rows.missing, p.rows.missingTotal, p.rows.missingDistinct);
  rowTable('Candidate rows the reference lacks', p.rows.extra, p.rows.extraTotal, p.rows.extraDistinct);
  if (d.ladder?.steps.length) {
    out.push('**Robustness ladder** (post hoc, the paper\'s levels 0–3; the first level that agrees says what the difference was):', '');
    out.push(table(['level', 'normalization', 'verdict'], d.ladder.steps.map((s) => [s.level, s.name, s.summary])), '');
  }
  return out.join('\n').trimEnd();
}

/**
 * The obligation labels of a run as a Markdown table: per obligation its statement and kind, the
 * final plan, code and test labels each with the labeller that produced the automated label
 * (executable, schema-rule, judge, heuristic, …) and the final label's origin when a person
 * decided it, then the labeller's evidence. Input: LoadedRun.labels. Output: Markdown text.
 */
export function labelsMarkdown(labels: PairedLabel[]): string {
  if (!labels.length) return 'No obligation labels for this run.';
  const dim = (l: PairedLabel, d: 'plan' | 'code' | 'test') => {
    const origin = l.final.origins[d];
    return `${l.final[d]} (${origin === 'automated' ? l.automated.source[d] : `${origin}; automated: ${l.automated[d]} by ${l.automated.source[d]}`})`;
  };
  return table(
    ['obligation', 'kind', 'statement', 'plan', 'code', 'test', 'evidence'],
    labels.map((l) => [l.obligation.id, l.obligation.kind, l.obligation.statement, dim(l, 'plan'), dim(l, 'code'), dim(l, 'test'), l.automated.evidence ?? '']),
  );
}

/**
 * pytest's outcome as Markdown: the verdict with its counts and why a run pytest might call a pass
 * is not one, the failure summary lockin wrote (failures-<label>.md, the text a revision prompt
 * receives) and the tail of pytest's own output (`maxLogLines` lines) in a code block.
 * Inputs: the record's pytest outcome (null: no run) and the two texts (null: file missing).
 */
export function pytestMarkdown(p: PytestOutcome | null, failures: string | null, log: string | null, maxLogLines = 80): string {
  if (!p) return 'pytest did not run for this condition.';
  const c = p.counts;
  const out = [
    `**${p.passed ? 'Passed' : 'Did not pass'}**: ${c.passed} passed, ${c.failed} failed, ${c.errored} errors, ${c.collectionFailed} collection errors, ${c.skipped} skipped (of ${c.total}); exit code ${p.exitCode ?? 'none'}, status ${p.status}, ${(p.durationMs / 1000).toFixed(1)} s.`,
  ];
  if (p.notPassedBecause) out.push('', `Not a pass because: ${p.notPassedBecause}`);
  if (failures) out.push('', failures.trim());
  if (log) {
    const lines = log.trimEnd().split('\n');
    const shown = lines.slice(-maxLogLines);
    out.push('', `pytest output${lines.length > shown.length ? ` (the last ${shown.length} of ${lines.length} lines)` : ''}:`, '', '```text', ...shown, '```');
  }
  return out.join('\n');
}

/** The code-fence language of an artifact by its name. */
function fenceOf(name: string): string {
  return name.endsWith('.py') ? 'python' : name.endsWith('.md') ? 'markdown' : 'text';
}

/**
 * The frozen artifacts as Markdown: each file under its name in a fenced block (a fence longer
 * than any backtick run inside, so a plan with code blocks stays whole), "(missing)" when absent.
 * Input: [name, text | null] in the order to show.
 */
export function artifactsMarkdown(files: [string, string | null][]): string {
  return files
    .map(([name, text]) => {
      if (text === null) return `**${name}**: (missing)`;
      const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
      const fence = '`'.repeat(longest + 1);
      return `**${name}**\n\n${fence}${fenceOf(name)}\n${text.trimEnd()}\n${fence}`;
    })
    .join('\n\n');
}

/** What a call file records of an agent session (activities/model/backends/types.ts AgentSession), as far as the view shows it. */
export const SessionRecordSchema = z.looseObject({
  stop: z.string(),
  turns: z.number(),
  toolUses: z.number(),
  toolCounts: z.record(z.string(), z.number()),
  refused: z.array(z.looseObject({ turn: z.number(), tool: z.string(), target: z.string(), kind: z.string(), reason: z.string() })),
  pytestRuns: z.array(z.looseObject({ turn: z.number(), passed: z.boolean(), summary: z.string() })),
  usageByTurn: z.array(z.looseObject({ inputTokens: z.number(), outputTokens: z.number(), cacheReadTokens: z.number(), cacheWriteTokens: z.number() })),
  harnessCostUsd: z.number().nullable(),
  limits: z.looseObject({ maxTurns: z.number(), sessionTokens: z.number(), timeoutMs: z.number() }),
  durationMs: z.number(),
  transcriptFile: z.looseObject({ path: z.string(), sha256: z.string(), entries: z.number() }).optional(),
});
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length - n} more characters)` : s);

/**
 * One agent session of a call in Markdown (claude-code backend): how it ended against its limits,
 * its tools and tokens, every refused tool use, every pytest run, then the transcript step by
 * step: each tool use with what it named, lockin's decision, and the tool's result (clipped to
 * `maxResult` characters), and the assistant's text. `transcript`: the lines of
 * calls/NN-<stage>.transcript.jsonl (null when the file is gone). Pure.
 */
export function sessionMarkdown(stage: string, s: SessionRecord, transcript: unknown[] | null, maxResult = 1200): string {
  const tokens = s.usageByTurn.reduce((a, u) => a + u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens, 0);
  const out = [
    `### ${stage}: ${s.turns} turn(s), stopped by ${s.stop}`,
    `Limits: ${s.limits.maxTurns} turns, ${s.limits.sessionTokens} tokens, ${Math.round(s.limits.timeoutMs / 1000)} s. Used: ${s.turns} turns, ${tokens} tokens, ${(s.durationMs / 1000).toFixed(1)} s; ${s.toolUses} tool use(s) (${Object.entries(s.toolCounts).map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}); Claude Code's own cost figure ${s.harnessCostUsd === null ? 'none' : `$${s.harnessCostUsd.toFixed(4)}`}.`,
  ];
  out.push('', s.refused.length ? `**Refused (${s.refused.length})**\n\n| turn | tool | target | kind | reason |\n|---|---|---|---|---|\n${s.refused.map((r) => `| ${r.turn} | ${r.tool} | \`${r.target.replace(/\|/g, '\\|')}\` | ${r.kind} | ${r.reason.replace(/\|/g, '\\|')} |`).join('\n')}` : 'Nothing refused.');
  if (s.pytestRuns.length) out.push('', `**pytest in the session (lockin's sandbox)**: ${s.pytestRuns.map((p) => `turn ${p.turn}: ${p.summary}`).join('; ')}`);
  if (!transcript) {
    out.push('', `(transcript file ${s.transcriptFile?.path ?? 'not recorded'} is gone)`);
    return out.join('\n');
  }
  out.push('', `**Transcript** (${transcript.length} entries, ${s.transcriptFile?.path ?? ''})`, '');
  let turn = 0;
  let lastId = '';
  for (const raw of transcript) {
    const m = raw as { type?: string; message?: { id?: string; content?: unknown }; allow?: boolean; tool?: string; refusal?: { reason?: string }; result?: string; subtype?: string; summary?: string };
    if (m.type === 'assistant') {
      if (m.message?.id && m.message.id !== lastId) {
        lastId = m.message.id;
        turn += 1;
        out.push(`- turn ${turn}:`);
      }
      for (const b of (m.message?.content ?? []) as { type: string; text?: string; name?: string; input?: Record<string, unknown> }[]) {
        if (b.type === 'text' && b.text) out.push(`  - says: ${clip(b.text.replace(/\s+/g, ' '), 300)}`);
        if (b.type === 'tool_use') {
          const i = b.input ?? {};
          const what = typeof i.file_path === 'string' ? i.file_path : typeof i.command === 'string' ? i.command : JSON.stringify(i).slice(0, 120);
          out.push(`  - ${b.name} \`${what}\``);
        }
      }
    } else if (m.type === 'lockin_decision') {
      out.push(`    - lockin: ${m.allow ? 'allowed' : `**refused**: ${m.refusal?.reason ?? ''}`}`);
    } else if (m.type === 'user') {
      for (const b of (m.message?.content ?? []) as { type: string; content?: unknown; is_error?: boolean }[]) {
        if (b.type !== 'tool_result') continue;
        const text = typeof b.content === 'string' ? b.content : Array.isArray(b.content) ? (b.content as { text?: string }[]).map((x) => x.text ?? '').join('\n') : '';
        out.push(`    - ${b.is_error ? 'error' : 'result'}: ${clip(text.replace(/\s+/g, ' '), maxResult)}`);
      }
    } else if (m.type === 'result') {
      out.push(`- end: ${m.subtype ?? ''}${m.result ? `: ${clip(m.result.replace(/\s+/g, ' '), 300)}` : ''}`);
    }
  }
  return out.join('\n');
}
