/**
 * Pure functions over pytest's JUnit XML (`--junitxml`): per-case outcomes, the counts of
 * docs/protocol.md §4 "Test outcome", and the readable failure summary used as revision
 * feedback.
 */
import { XMLParser } from 'fast-xml-parser';
import type { PytestCounts } from '../../protocol/types';

export type CaseOutcome = 'passed' | 'failed' | 'errored' | 'collection-failed' | 'skipped';

/** One `<testcase>` of the report. A case can both fail and error (a failing test whose
 *  teardown also errors): `outcomes` lists every outcome it has, like pytest's own summary. */
export interface JunitCase {
  /** "classname::name" as pytest reports it (e.g. "test_solution::test_totals"). */
  id: string;
  outcomes: CaseOutcome[];
  /** The message attribute and body of each failure/error/skip element, in document order. */
  details: { kind: CaseOutcome; message: string; text: string }[];
}

/** pytest writes this message on the `<error>` of a module it could not collect. */
const COLLECTION_MESSAGE = /collection failure/i;

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  htmlEntities: true,
  isArray: (name) => ['testsuite', 'testcase', 'failure', 'error', 'skipped'].includes(name),
});

function str(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && '#text' in (v as XmlNode)) return String((v as XmlNode)['#text']);
  return typeof v === 'object' ? '' : String(v);
}

/**
 * Parses a pytest JUnit XML document into its test cases.
 * Input: the XML text (root `<testsuites>` or `<testsuite>`).
 * Returns: one JunitCase per `<testcase>`, in document order.
 * Throws: Error naming `source` when the text is not a JUnit report.
 */
export function parseJunit(xml: string, source = 'junit.xml'): JunitCase[] {
  let doc: XmlNode;
  try {
    doc = parser.parse(xml) as XmlNode;
  } catch (err) {
    throw new Error(`${source}: not valid XML: ${(err as Error).message}`);
  }
  const root = (doc.testsuites ?? doc) as XmlNode;
  const suites = root.testsuite as XmlNode[] | undefined;
  if (!Array.isArray(suites)) throw new Error(`${source}: no <testsuite> element (not a pytest JUnit report)`);
  const cases: JunitCase[] = [];
  for (const suite of suites) {
    for (const tc of (suite.testcase as XmlNode[] | undefined) ?? []) {
      const classname = str(tc['@classname']);
      const name = str(tc['@name']);
      const details: JunitCase['details'] = [];
      const add = (kind: CaseOutcome, el: unknown) => {
        const node = (typeof el === 'object' && el !== null ? el : { '#text': el }) as XmlNode;
        details.push({ kind, message: str(node['@message']), text: str(node['#text']) });
      };
      for (const el of (tc.failure as unknown[] | undefined) ?? []) add('failed', el);
      for (const el of (tc.error as unknown[] | undefined) ?? []) {
        const message = str((el as XmlNode)?.['@message']);
        add(COLLECTION_MESSAGE.test(message) ? 'collection-failed' : 'errored', el);
      }
      for (const el of (tc.skipped as unknown[] | undefined) ?? []) add('skipped', el);
      const outcomes = [...new Set(details.map((d) => d.kind))];
      cases.push({ id: classname ? `${classname}::${name}` : name, outcomes: outcomes.length ? outcomes : ['passed'], details });
    }
  }
  return cases;
}

/**
 * Counts cases by outcome. A skipped case that also failed or errored counts only as the latter.
 * total = number of `<testcase>` elements (collection failures included).
 */
export function countCases(cases: JunitCase[]): PytestCounts {
  const has = (c: JunitCase, o: CaseOutcome) => c.outcomes.includes(o);
  const bad = (c: JunitCase) => has(c, 'failed') || has(c, 'errored') || has(c, 'collection-failed');
  return {
    passed: cases.filter((c) => has(c, 'passed')).length,
    failed: cases.filter((c) => has(c, 'failed')).length,
    errored: cases.filter((c) => has(c, 'errored')).length,
    collectionFailed: cases.filter((c) => has(c, 'collection-failed')).length,
    skipped: cases.filter((c) => has(c, 'skipped') && !bad(c)).length,
    total: cases.length,
  };
}

/** The suite passes only when pytest exits 0 with no failed, errored or collection-failed case (§4). */
export function suitePassed(exitCode: number | null, counts: PytestCounts): boolean {
  return exitCode === 0 && counts.failed === 0 && counts.errored === 0 && counts.collectionFailed === 0;
}

const PER_CASE_CHARS = 3000;
const TOTAL_CHARS = 20000;

function clip(text: string, limit: number): string {
  const t = text.trim();
  return t.length <= limit ? t : `${t.slice(0, limit)}\n… [${t.length - limit} more characters cut]`;
}

/**
 * The readable failure summary given to the model in revision prompts: a one-line verdict,
 * then, per failing/erroring/uncollectable case, its id, message and pytest's traceback text
 * (each clipped to 3,000 characters, the whole to 20,000). Built only from the pytest run of
 * the candidate's own tests inside the sandbox, so it cannot contain reference data.
 */
export function formatFailures(header: string, cases: JunitCase[]): string {
  const lines = [`# pytest failure summary`, '', header, '', ''];
  let body = '';
  for (const c of cases) {
    for (const d of c.details) {
      if (d.kind === 'skipped') continue;
      const label = d.kind === 'failed' ? 'FAILED' : d.kind === 'errored' ? 'ERROR' : 'COLLECTION ERROR';
      // A collection error's traceback is pytest's import machinery; its "E" lines say what broke.
      const eLines = d.text.split('\n').filter((l) => l.startsWith('E '));
      const text = d.kind === 'collection-failed' && eLines.length ? eLines.join('\n') : d.text;
      body += `## ${label} ${c.id}\n${d.message ? `${clip(d.message, 500)}\n` : ''}\n\`\`\`\n${clip(text, PER_CASE_CHARS)}\n\`\`\`\n\n`;
    }
  }
  if (!body) body = 'No failing case was reported.\n';
  return `${lines.join('\n')}${clip(body, TOTAL_CHARS)}\n`;
}
