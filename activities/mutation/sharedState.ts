/**
 * What a program's text reaches of the state the sessions of one JVM share. Until the blind variants this
 * decided whether a suite's variants could run two at a time on one JVM (the earlier
 * suite_mutants.py --processes); since then a suite job runs its variants one at a time, each in
 * a child process of its own, with the JVM reset and checked between them (docs/verdicts.md
 * "Blindness"), and two variants side by side are in two jobs with two JVMs, so suites no longer
 * consult it. SESSION_STATE_PATTERNS below still decide which of lockin's own programs may share a
 * session (activities/python/mutant_outputs.py --at-once).
 *
 * The original rationale, for the record:
 *
 * Two variants at once each run in a SparkSession of their own (temp views, UDFs, SQL conf and
 * current database apart), but the sessions of one JVM share its SparkContext, its catalog's
 * tables and databases, global temp views, cached data, the files added to the context and the
 * sandbox's /tmp. A suite that reaches one of those could make the variant beside it fail (one
 * stopping the SparkContext; two writing the same table or path), so such a suite runs its
 * variants one at a time, as every suite did before. This is a reading of the text, not a
 * guarantee against code written to hide it: what it protects is the suite's own verdicts on
 * its own variants, which hostile suite code could already forge in its own process.
 */

/** What, when a program's text mentions it, keeps its suite's variants one at a time. */
export const SHARED_STATE_PATTERNS: ReadonlyArray<{ what: string; re: RegExp }> = [
  { what: 'stops the SparkContext or session', re: /\.stop\s*\(/ },
  { what: 'writes a table of the catalog', re: /\b(saveAsTable|insertInto|writeTo)\s*\(/ },
  { what: 'creates or drops a catalog object', re: /\b(CREATE|DROP|ALTER)\s+(OR\s+REPLACE\s+)?(GLOBAL\s+TEMP(ORARY)?\s+)?(TABLE|DATABASE|SCHEMA|NAMESPACE|VIEW|FUNCTION)\b/i },
  { what: 'uses a global temp view', re: /GlobalTempView|global_temp/ },
  { what: 'caches or uncaches through the catalog', re: /\b(clearCache|cacheTable|uncacheTable|refreshTable|refreshByPath)\b|\b(UNCACHE|CACHE)\s+(LAZY\s+)?TABLE\b/i },
  { what: 'adds files or jars to the SparkContext', re: /\b(addPyFile|addFile|addArchive|addJar|setCheckpointDir)\s*\(|\bADD\s+(JARS?|FILES?|ARCHIVES?)\b/i },
  { what: 'cancels jobs', re: /\b(cancelAllJobs|cancelJobGroup|cancelJobsWithTag|interruptAll|interruptTag|interruptOperation)\b/ },
  { what: 'reaches the JVM directly', re: /\b(_jvm|_jsc|_jsparkSession|_gateway|py4j)\b/ },
  { what: 'writes files', re: /\.write\b|\.writeStream\b|\.save\s*\(|saveAs\w*File\s*\(|\bopen\s*\([^)]*['"][wax+]/ },
  { what: 'names a path under /tmp', re: /['"]\/tmp\b/ },
];

/**
 * The first mention, in `text`, of something all sessions of a JVM share.
 * Inputs: a program's text (a test suite or a solution). Output: null when there is none, else
 * what it does (SHARED_STATE_PATTERNS' `what`), the 1-based line and that line (at most 120
 * characters). Pure.
 */
export function sharedStateUse(text: string): { what: string; line: number; text: string } | null {
  return firstUse(text, SHARED_STATE_PATTERNS);
}

/** The first line of `text` (comment lines aside) that one of `patterns` matches, as sharedStateUse returns it. Pure. */
function firstUse(text: string, patterns: ReadonlyArray<{ what: string; re: RegExp }>): { what: string; line: number; text: string } | null {
  const lines = text.split('\n');
  for (const [i, l] of lines.entries()) {
    if (/^\s*#/.test(l)) continue;
    for (const p of patterns) if (p.re.test(l)) return { what: p.what, line: i + 1, text: l.trim().slice(0, 120) };
  }
  return null;
}

/**
 * What, besides SHARED_STATE_PATTERNS, a program may not reach to run beside another in the SAME
 * session (a job of executions of gold, its mutants and the obligation violations:
 * activities/python/mutant_outputs.py --at-once; docs/protocol.md §7 "How an execution job meets
 * its variants"): the session's temp views, SQL conf, catalog, caching, job groups and context.
 */
export const SESSION_STATE_PATTERNS: ReadonlyArray<{ what: string; re: RegExp }> = [
  { what: 'uses a temp view', re: /TempView|\bspark\.table\s*\(/ },
  { what: 'runs SQL text in the session', re: /\.sql\s*\(/ },
  { what: 'reads or sets the SQL conf', re: /\.conf\b/ },
  { what: 'uses the catalog', re: /\.catalog\b/ },
  { what: 'caches or persists a DataFrame', re: /\.(cache|persist|unpersist|checkpoint|localCheckpoint)\s*\(/ },
  { what: 'sets a job group or local property', re: /\b(setJobGroup|setLocalProperty|setJobDescription|addTag)\b/ },
  { what: 'reaches the SparkContext or builds a session', re: /\b(sparkContext|newSession|SparkSession|SparkContext)\b/ },
];

/**
 * The first mention, in `text`, of something a program running beside another in the same
 * session could disturb or be disturbed by: SHARED_STATE_PATTERNS' and SESSION_STATE_PATTERNS'.
 * Inputs: a solution's text. Output as sharedStateUse's (null when there is none). Pure.
 */
export function sessionStateUse(text: string): { what: string; line: number; text: string } | null {
  return firstUse(text, [...SHARED_STATE_PATTERNS, ...SESSION_STATE_PATTERNS]);
}
