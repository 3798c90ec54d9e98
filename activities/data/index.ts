/** Activities of the data group (exported to the worker): the TPC-DS database, query variants, references. */
export { generateTables, loadTables, verifyDatabase } from './database';
export type { GenerateTablesInput, LoadTablesInput } from './database';
export { listQueries, queryTexts, analyzeQueries } from './queries';
export { buildReferences, reproduceReferences, reproduceReferencesOnce, reexecuteReferences, compareGolden } from './references';
export type { ReferencesInput } from './references';
export type { GenerateResult, LoadResult, VerifyResult, QueryList, QueryTexts, AnalyzeResult, BuildResult, ReproduceResult, GoldenResult } from '../../protocol/data';
export { buildVariantDatabases, buildVariantReferences, buildVariants } from './variants';
export type { VariantDatabasesInput } from './variants';
export type { BuildVariantsResult } from '../../protocol/data';
