/**
 * The reply protocol (stages.ts), as pure parsers over the raw reply text.
 *
 * Artifact stages: fenced blocks (``` or ~~~, three or more) whose info string's last word is
 * one of plan.md / solution.py / test_solution.py (an optional `title=` prefix and quotes are
 * allowed). Blocks without a file name are prose and ignored; a block naming any other file, a
 * file given twice, a missing required file or an unclosed block is a protocol error.
 * JSON stages: exactly one block whose info string is `json`, parsed and validated by the
 * stage's zod schema.
 */
import type { z } from 'zod';
import { ARTIFACTS, ArtifactName } from '../../protocol/corpus';
import { JSON_STAGE_SCHEMAS, JsonStage, Stage } from '../../protocol/stages';
import { CONTRACT_SUITE } from '../../protocol/conditions';

/**
 * The stop reasons that mean a reply was cut at a token limit rather than finished: Anthropic's
 * `max_tokens` and `model_context_window_exceeded`, OpenAI-compatible servers' and the local
 * backend's `length` (max tokens reached, or the end of the context).
 */
export const CUT_STOP_REASONS: readonly string[] = ['max_tokens', 'length', 'model_context_window_exceeded'];

/** Whether a reply with this stop reason was cut at a token limit (CUT_STOP_REASONS). Pure. */
export function isCutReply(stopReason: string | null | undefined): boolean {
  return stopReason != null && CUT_STOP_REASONS.includes(stopReason);
}

/** A file a reply may carry: an artifact, or Contract-First's contract suite. */
export type ReplyFile = ArtifactName | typeof CONTRACT_SUITE;

export interface FencedBlock {
  info: string;
  body: string;
  /** 1-based line of the opening fence. */
  line?: number;
}

/** Outcome of parsing: the files or JSON on success, else a one-line protocol error. */
export type ParsedReply =
  | { ok: true; files?: Partial<Record<ReplyFile, string>>; json?: unknown }
  | { ok: false; protocolError: string };

/**
 * Splits Markdown into fenced blocks (CommonMark fences: a closing fence uses the same character,
 * is at least as long, and carries no info string).
 * @throws Error('unclosed code block ...') when a fence is never closed.
 */
export function fencedBlocks(text: string): FencedBlock[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: FencedBlock[] = [];
  let open: { fence: string; info: string; body: string[]; line: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!open) {
      const m = /^ {0,3}(`{3,}|~{3,})\s*(.*?)\s*$/.exec(line);
      if (m && !(m[1][0] === '`' && m[2].includes('`'))) open = { fence: m[1], info: m[2], body: [], line: i + 1 };
    } else {
      const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (m && m[1][0] === open.fence[0] && m[1].length >= open.fence.length) {
        out.push({ info: open.info, body: open.body.join('\n'), line: open.line });
        open = null;
      } else open.body.push(line);
    }
  }
  if (open) throw new Error(`unclosed code block opened at line ${open.line} (\`${open.fence}${open.info}\`)`);
  return out;
}

/** The file name an info string names, or null for a prose block ("python", "", "json"). */
export function infoFileName(info: string): string | null {
  const words = info.trim().split(/\s+/);
  let last = words[words.length - 1] ?? '';
  last = last.replace(/^(title|file|filename)=/, '').replace(/^["']|["']$/g, '');
  if (!/^[\w./-]+\.[A-Za-z0-9]+$/.test(last)) return null;
  return last;
}

/** Which files a stage's reply must carry (the others are optional). */
export function requiredArtifacts(stage: Stage): ReplyFile[] {
  if (stage === 'generate' || stage === 'c5-revise-1' || stage === 'c5-revise-2') return [...ARTIFACTS];
  if (stage === 'revise-1' || stage === 'revise-2' || stage === 'cf-revise-1' || stage === 'cf-revise-2') return ['solution.py'];
  if (stage === 'c0-contract') return [CONTRACT_SUITE];
  return [];
}

/**
 * Which files a stage's reply may carry. C-0 writes only the contract suite; a Contract-First
 * revision may name the contract suite so that the harness sees the attempt and rejects it
 * (docs/protocol.md §2 "Contract-First"); every other stage names artifacts only.
 */
export function allowedFiles(stage: Stage): ReplyFile[] {
  if (stage === 'c0-contract') return [CONTRACT_SUITE];
  if (stage === 'cf-revise-1' || stage === 'cf-revise-2') return [...ARTIFACTS, CONTRACT_SUITE];
  return [...ARTIFACTS];
}

/** Parses an artifact-stage reply. Pure. */
export function parseArtifactReply(text: string, stage: Stage): ParsedReply {
  let blocks: FencedBlock[];
  try {
    blocks = fencedBlocks(text);
  } catch (e) {
    return { ok: false, protocolError: (e as Error).message };
  }
  const files: Partial<Record<ReplyFile, string>> = {};
  const allowed = allowedFiles(stage);
  for (const b of blocks) {
    const name = infoFileName(b.info);
    if (!name) continue;
    const base = name.split('/').pop()!;
    if (!(allowed as readonly string[]).includes(base)) return { ok: false, protocolError: `unexpected file ${name} (allowed: ${allowed.join(', ')})` };
    const art = base as ReplyFile;
    if (files[art] !== undefined) return { ok: false, protocolError: `duplicated file ${art}` };
    files[art] = b.body.endsWith('\n') ? b.body : `${b.body}\n`;
  }
  const missing = requiredArtifacts(stage).filter((a) => files[a] === undefined);
  const swallowed = missing.length ? unclosedBefore(blocks, missing) : null;
  if (swallowed) return { ok: false, protocolError: swallowed };
  if (missing.length) return { ok: false, protocolError: `missing file${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (a fenced block whose info string ends with the file name, e.g. \`\`\`python solution.py)` };
  return { ok: true, files };
}

/**
 * When a missing file's opening fence sits inside another block (that block was not closed
 * before the next file began, so the first closing fence ended both), the message that says so:
 * "unclosed code block: solution.py (opened at line 1) is not closed before ```python
 * test_solution.py at line 5; close each file's fence before the next". Else null. Pure.
 */
function unclosedBefore(blocks: FencedBlock[], missing: ReplyFile[]): string | null {
  for (const b of blocks) {
    const lines = b.body.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^ {0,3}(`{3,}|~{3,})\s*(.+?)\s*$/.exec(lines[i]);
      const name = m ? infoFileName(m[2])?.split('/').pop() : undefined;
      if (name && (missing as string[]).includes(name)) {
        const outer = infoFileName(b.info) ?? (b.info || 'a block');
        return `unclosed code block: ${outer} (opened at line ${b.line ?? '?'}) is not closed before ${m![1]}${m![2]} at line ${(b.line ?? 0) + i + 1}; close each file's fence before the next`;
      }
    }
  }
  return null;
}

/**
 * Checks the files an agent session left in its folder (activities/model/backends/claudeCode.ts)
 * by the rules of a fenced reply: only files the stage may name, every required file present.
 * Input: file name → content (the session's writable files that exist at its end). Pure.
 */
export function parseFiles(given: Readonly<Record<string, string>>, stage: Stage): ParsedReply {
  const allowed = allowedFiles(stage) as readonly string[];
  const files: Partial<Record<ReplyFile, string>> = {};
  for (const [name, content] of Object.entries(given)) {
    if (!allowed.includes(name)) return { ok: false, protocolError: `unexpected file ${name} (allowed: ${allowed.join(', ')})` };
    files[name as ReplyFile] = content.endsWith('\n') || content === '' ? content : `${content}\n`;
  }
  const missing = requiredArtifacts(stage).filter((a) => files[a] === undefined);
  if (missing.length) return { ok: false, protocolError: `missing file${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (the session did not leave ${missing.length > 1 ? 'them' : 'it'} in its folder)` };
  return { ok: true, files };
}

/** Parses a JSON-stage reply: exactly one ```json block, validated by the stage's schema. Pure. */
export function parseJsonReply(text: string, stage: JsonStage): ParsedReply {
  let blocks: FencedBlock[];
  try {
    blocks = fencedBlocks(text);
  } catch (e) {
    return { ok: false, protocolError: (e as Error).message };
  }
  const json = blocks.filter((b) => b.info.trim().toLowerCase() === 'json');
  if (json.length !== 1) return { ok: false, protocolError: `expected exactly one \`\`\`json block, found ${json.length}` };
  let value: unknown;
  try {
    value = JSON.parse(json[0].body);
  } catch (e) {
    return { ok: false, protocolError: `invalid JSON: ${(e as Error).message}` };
  }
  const schema = JSON_STAGE_SCHEMAS[stage] as z.ZodTypeAny;
  const out = schema.safeParse(value);
  if (!out.success) {
    const issues = out.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    return { ok: false, protocolError: `JSON does not match the ${stage} schema: ${issues.join('; ')}` };
  }
  return { ok: true, json: out.data };
}

/** Parses a reply by stage kind. */
export function parseReply(text: string, stage: Stage): ParsedReply {
  return stage in JSON_STAGE_SCHEMAS ? parseJsonReply(text, stage as JsonStage) : parseArtifactReply(text, stage);
}
