/**
 * Rule-decided code labels: obligations with a `rule` (protocol/corpus.ts) are checked
 * on the candidate output's Spark schema (`schema.json` written next to output.arrow, Spark's
 * StructType JSON). Pure functions.
 */
import { InputError } from '../common/errors';
import type { ObligationRule } from '../../protocol/corpus';
import type { CodeLabel } from '../../protocol/labels';

/** One output column: lower-cased name and the Spark SQL type name (int, bigint, decimal(7,2), ...). */
export interface OutputField {
  name: string;
  type: string;
}

/** Spark's JSON type names that differ from the SQL type names used in task.yaml. */
const JSON_TO_SQL: Record<string, string> = { integer: 'int', long: 'bigint', short: 'smallint', byte: 'tinyint' };

/**
 * Parses Spark StructType JSON (`df.schema.json()`) into ordered output fields.
 * Inputs: the parsed JSON value; `file` names the source for errors.
 * Output: [{name (lower-cased), type (Spark SQL type name, e.g. "decimal(17,2)")}] in declared order.
 * Nested types are rendered as their JSON `type` value (e.g. "struct", "array").
 * @throws InputError when `fields` is missing or a field has no name.
 */
export function parseSparkSchema(json: unknown, file = 'schema.json'): OutputField[] {
  const fields = (json as { fields?: unknown })?.fields;
  if (!Array.isArray(fields)) throw new InputError('expected a Spark StructType JSON with a fields array', file, 'fields');
  return fields.map((f: unknown, i: number) => {
    const field = f as { name?: unknown; type?: unknown };
    if (typeof field.name !== 'string') throw new InputError('field without a name', file, `fields[${i}].name`);
    const raw = typeof field.type === 'string' ? field.type : String((field.type as { type?: unknown })?.type ?? 'unknown');
    const type = JSON_TO_SQL[raw] ?? raw.replace(/\s+/g, '');
    return { name: field.name.toLowerCase(), type };
  });
}

/**
 * Checks one schema rule against the candidate's output fields (docs/protocol.md §5, automated
 * labels by rule). Names compare lower-cased; positions are 0-based.
 * - column-name: the column at `position` is named `name`;
 * - column-type: the column named `name` has Spark type `type`. When no output column has that
 *   name and the rule gives `position` (the reference's position of the column), the column at
 *   that position is judged instead: a renamed column is an alias error, decided by the alias
 *   obligation, and must not also make the type obligation violated (executable labels: "one alias error
 *   marks every obligation of that kind violated"). With neither, the rule says violated;
 * - columns: every listed name is an output column (a subset check; order and extra columns
 *   are not evaluated by this rule); with `exact: true`, the output's columns are exactly the
 *   listed names in the listed order, no other (obligations stated as "exactly the columns …,
 *   in that order"; tasks/README.md "Rules").
 * Output: {label: 'satisfied' | 'violated', evidence}.
 */
export function checkRule(rule: ObligationRule, fields: OutputField[]): { label: CodeLabel; evidence: string } {
  switch (rule.kind) {
    case 'column-name': {
      const got = fields[rule.position]?.name;
      const ok = got === rule.name.toLowerCase();
      return { label: ok ? 'satisfied' : 'violated', evidence: `rule column-name: position ${rule.position} is ${got ?? '(none)'}, expected ${rule.name.toLowerCase()}` };
    }
    case 'column-type': {
      const want = rule.type.replace(/\s+/g, '');
      const f = fields.find((x) => x.name === rule.name.toLowerCase());
      if (f) return { label: f.type === want ? 'satisfied' : 'violated', evidence: `rule column-type: ${f.name} is ${f.type}, expected ${rule.type}` };
      const at = rule.position === undefined ? undefined : fields[rule.position];
      if (at) return { label: at.type === want ? 'satisfied' : 'violated', evidence: `rule column-type: no column ${rule.name.toLowerCase()}; the column at its position ${rule.position} (${at.name}) is ${at.type}, expected ${rule.type}` };
      return { label: 'violated', evidence: `rule column-type: ${rule.name.toLowerCase()} is (missing)${rule.position === undefined ? '' : `, and there is no column at position ${rule.position}`}, expected ${rule.type}` };
    }
    case 'columns': {
      if (rule.exact) {
        const want = rule.names.map((n) => n.toLowerCase());
        const got = fields.map((x) => x.name);
        const ok = want.length === got.length && want.every((n, i) => got[i] === n);
        return { label: ok ? 'satisfied' : 'violated', evidence: ok ? `rule columns (exact): the ${want.length} columns in order` : `rule columns (exact): output columns [${got.join(', ')}], expected [${want.join(', ')}]` };
      }
      const have = new Set(fields.map((x) => x.name));
      const missing = rule.names.map((n) => n.toLowerCase()).filter((n) => !have.has(n));
      return { label: missing.length === 0 ? 'satisfied' : 'violated', evidence: missing.length === 0 ? `rule columns: all ${rule.names.length} present` : `rule columns: missing ${missing.join(', ')}` };
    }
  }
}
