/**
 * Whether a suite's variants may run two at a time on one JVM (issue 22 "Speed";
 * activities/python/suite_mutants.py --processes; docs/protocol.md §7 "How a suite meets its variants").
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
  const lines = text.split('\n');
  for (const [i, l] of lines.entries()) {
    if (/^\s*#/.test(l)) continue;
    for (const p of SHARED_STATE_PATTERNS) if (p.re.test(l)) return { what: p.what, line: i + 1, text: l.trim().slice(0, 120) };
  }
  return null;
}
