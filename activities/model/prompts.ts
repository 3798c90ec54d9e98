/**
 * Versioned prompt templates (activities/model/prompts/*.md) and their rendering.
 *
 * A template is Markdown whose first line is `<!-- lockin-prompt: <name> v<N> -->` (the version,
 * not sent), with `{{var}}` placeholders and `{{> _partial}}` includes. The identity of a rendered
 * prompt is {name, version, sha256 of the expanded template source}, recorded in every call file
 * and in the study manifest. Placeholders are filled in one pass (values are never re-expanded);
 * a placeholder without a value is an error, so a template cannot silently lose an input.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../common/paths';
import type { TaskSpec } from '../../protocol/corpus';

/** The folder of the templates (sources, also when running from dist/). */
export function promptsDir(): string {
  return path.join(REPO_ROOT, 'activities', 'model', 'prompts');
}

/** Identity of a template as rendered: recorded in each call file. */
export interface TemplateInfo {
  name: string;
  version: string;
  /** sha256 of the expanded template source (the template plus its partials). */
  sha256: string;
}

interface LoadedTemplate extends TemplateInfo {
  body: string;
}

const HEADER = /^<!--\s*lockin-prompt:\s*([\w.-]+)\s+(v\d+)\s*-->\s*\n/;

function readTemplateFile(name: string): { version: string; body: string; file: string } {
  const file = path.join(promptsDir(), `${name}.md`);
  if (!fs.existsSync(file)) throw new Error(`prompt template ${file} not found`);
  const src = fs.readFileSync(file, 'utf8');
  const m = HEADER.exec(src);
  if (!m || m[1] !== name) throw new Error(`${file}: first line must be <!-- lockin-prompt: ${name} v<N> -->`);
  return { version: m[2], body: src.slice(m[0].length), file };
}

/**
 * Loads a template with its partials expanded; `partials` replaces a partial by another (a
 * backend's ModelBackend.promptPartials), which the identity then names.
 * @throws Error naming the file when the template or a partial is missing or has no header.
 */
export function loadTemplate(name: string, partials: Readonly<Record<string, string>> = {}): LoadedTemplate {
  const { version, body } = readTemplateFile(name);
  const parts: string[] = [`${name} ${version}`];
  const expanded = body.replace(/\{\{>\s*([\w.-]+)\s*\}\}/g, (_all, wanted: string) => {
    const partial = partials[wanted] ?? wanted;
    const p = readTemplateFile(partial);
    parts.push(`${partial} ${p.version}`);
    return p.body.trimEnd();
  });
  const sha256 = crypto.createHash('sha256').update(parts.join('\n')).update('\n').update(expanded).digest('hex');
  return { name, version, sha256, body: expanded };
}

/**
 * Fills `{{var}}` placeholders in one pass.
 * @throws Error naming the template and the placeholder when a value is missing.
 */
export function fillTemplate(templateName: string, body: string, vars: Record<string, string>): string {
  return body.replace(/\{\{\s*([A-Za-z_]\w*)\s*\}\}/g, (_all, key: string) => {
    const v = vars[key];
    if (v === undefined) throw new Error(`prompt template ${templateName}: no value for {{${key}}}`);
    return v;
  });
}

/** Renders a template by name (with `partials` replaced, see loadTemplate): the text to send plus the template's identity. */
export function renderTemplate(name: string, vars: Record<string, string>, partials?: Readonly<Record<string, string>>): { text: string; template: TemplateInfo } {
  const t = loadTemplate(name, partials);
  const text = fillTemplate(name, t.body, vars).replace(/\n{3,}/g, '\n\n').trim() + '\n';
  return { text, template: { name: t.name, version: t.version, sha256: t.sha256 } };
}

const bullets = (items: string[], none = '- (none)') => (items.length ? items.map((s) => `- ${s}`).join('\n') : none);

/**
 * The task prompt proper (docs/protocol.md §1 task.yaml): question, input table names, joins,
 * filters, aggregations, output columns, ordering, limit, notes. Column types and nullability are
 * NOT here (they are the input schemas, see renderInputSchemas). Never contains SQL text.
 */
export function renderTaskDescription(task: TaskSpec): string {
  const cols = task.output.columns
    .map((c, i) => `${i + 1}. ${c.name ? `\`${c.name}\`` : '(name not given)'}${c.type ? `, ${c.type}` : ''}: ${c.description}`)
    .join('\n');
  const parts = [
    `## Question\n${task.question.trim()}`,
    `## Input tables\n${task.tables.map((t) => `\`${t.name}\``).join(', ')}`,
    `## Joins\n${bullets(task.joins)}`,
    `## Filters\n${bullets(task.filters)}`,
    `## Aggregations\n${bullets(task.aggregations)}`,
    `## Output columns (in this order)\n${cols}`,
    `## Ordering\n${bullets(task.ordering, '- (no ordering requested)')}`,
    `## Limit\n${task.limit === null ? 'No row limit.' : `At most ${task.limit} rows.`}`,
  ];
  if (task.notes && task.notes.length) parts.push(`## Notes\n${bullets(task.notes)}`);
  parts.push(`## Requested artifacts\n${task.artifacts.map((a) => `\`${a}\``).join(', ')}`);
  return parts.join('\n\n');
}

/** Input schemas: names, Spark types and nullability of every input table; no rows. */
export function renderInputSchemas(task: TaskSpec): string {
  return task.tables
    .map((t) => {
      const rows = t.columns.map((c) => `| ${c.name} | ${c.type} | ${c.nullable ? 'yes' : 'no'} |`).join('\n');
      return `### ${t.name}\n| column | type | nullable |\n|---|---|---|\n${rows}`;
    })
    .join('\n\n');
}

/** The common variables of every stage template for a task. */
export function taskVars(task: TaskSpec): Record<string, string> {
  return { taskId: task.id, title: task.title, taskPrompt: renderTaskDescription(task), inputSchemas: renderInputSchemas(task) };
}

/**
 * The complete generation prompt of a task as the model receives it (user message of the
 * `generate` stage): the task prompt, input schemas, the `spark` fixture and the reply protocol.
 * Used by `lockin tasks show`.
 */
export function renderTaskPrompt(task: TaskSpec): string {
  return renderTemplate('generate', taskVars(task)).text;
}

/** Renders artifact files as fenced blocks in the same protocol the model replies in. */
export function renderArtifacts(files: { name: string; content: string | null }[]): string {
  return files
    .map(({ name, content }) => {
      if (content === null) return `(\`${name}\` does not exist)`;
      const lang = name.endsWith('.py') ? 'python' : 'markdown';
      const fence = content.includes('```') ? '````' : '```';
      return `${fence}${lang} ${name}\n${content.replace(/\n$/, '')}\n${fence}`;
    })
    .join('\n\n');
}
