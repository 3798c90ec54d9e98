// ESLint (flat config): the layering rules of the README's architecture section (the layers and
// the floors of activities/) and the Temporal rules for deterministic code. `npm run lint` runs tsc and this.
const tseslint = require('typescript-eslint');
const { builtinModules } = require('module');

/** Node built-ins in both spellings ("fs", "node:fs"). */
const NODE_BUILTINS = builtinModules.flatMap((m) => [m, `node:${m}`]);

/** Imports that would run upward or sideways from a layer (every import runs downward). */
const upward = (...dirs) => dirs.map((d) => ({ regex: `^(\\.\\./)+${d}(/|$)`, message: `imports run downward: this layer may not import ${d}/` }));

/** The floors of activities/, lowest first (activities/floors.json). */
const { floors: FLOORS } = require('./activities/floors.json');

/**
 * One config per activities/ folder: besides the layers above activities/, it may not import a
 * folder on its own floor or above (`../<folder>`, `../../<folder>` from a subfolder).
 */
const floorConfigs = FLOORS.flatMap((floor, level) =>
  floor.map((folder) => {
    const barred = FLOORS.slice(level).flat().filter((other) => other !== folder);
    const patterns = barred.map((other) => ({
      regex: `^(\\.\\./)+(activities/)?${other}(/|$)`,
      message: `floors (activities/floors.json): activities/${folder}/ is on floor ${level}; activities/${other}/ is on floor ${FLOORS.findIndex((f) => f.includes(other))}: import only from lower floors`,
    }));
    return { files: [`activities/${folder}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns: [...upward('workflows', 'worker', 'client'), ...patterns] }] } };
  }),
);

/**
 * client/ starts workflows and reads results: from activities/ it imports common/ (paths, errors,
 * the environment readers, small helpers) and results/ (the read-only results API), nothing that
 * runs a step (docs/architecture.md "The CLI's line"). The files below are the exceptions, each
 * with its reason: authoring tools that no workflow runs. They work on the corpus or on files the
 * user names, for the person editing them, or record what a person decided (the raters' labels);
 * what they print is the command's whole purpose, so a workflow would only add a history nobody
 * reads. A step that a workflow runs is never among them, and no file is added here without its
 * reason.
 */
const CLIENT_TOOL_EXCEPTIONS = {
  'client/commands/compare.ts': '`lockin compare A B`: the comparator on two output files the user names (no Spark, no study)',
  'client/commands/gold.ts': '`lockin gold check`: the corpus author\'s check that every gold solution agrees with its reference, on each database',
  'client/commands/labels.ts': '`lockin labels`: the human raters\' files (a blinded export, their labels imported as given, agreement, the adjudicator\'s decisions): a person\'s input, recorded, not a step',
  'client/commands/obligations.ts': '`lockin obligations diff|apply`: a violation written from an edited copy of gold, and applied again (`check` and `calibrate` start workflows)',
  'client/commands/tasks.ts': '`lockin tasks check|show|scaffold|build-replay`: the corpus author\'s tools (validation, the prompt as the model sees it, a task.yaml skeleton, the replay corpora from gold)',
};
const CLIENT_STEP_EXCEPTIONS = Object.keys(CLIENT_TOOL_EXCEPTIONS);

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.venv/**', '.lockin/**', 'runs/**', 'test/fixtures/**', '**/*.js'] },
  {
    files: ['protocol/**/*.ts', 'workflows/**/*.ts', 'activities/**/*.ts', 'worker/**/*.ts', 'client/**/*.ts', 'infra/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its error (and in a workflow, its ordering).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-require-imports': 'error',
    },
  },
  {
    // Tests are outside tsconfig.json: parsed without type information.
    files: ['test/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
  },
  {
    // Workflows are replayed: no Node built-ins, no activity code, no worker code.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: NODE_BUILTINS.map((name) => ({ name, message: 'workflows are deterministic: no Node built-ins (use an activity)' })), patterns: upward('activities', 'worker', 'client', 'infra') }],
    },
  },
  {
    // protocol/ is pure vocabulary: no Node built-ins and nothing from the layers above it.
    files: ['protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: NODE_BUILTINS.map((name) => ({ name, message: 'protocol/ is pure: no Node built-ins' })), patterns: upward('activities', 'workflows', 'worker', 'client', 'infra') }],
    },
  },
  {
    files: ['activities/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: upward('workflows', 'worker', 'client') }] },
  },
  // Inside activities/, every import runs down a floor (activities/floors.json).
  ...floorConfigs,
  {
    files: ['worker/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: upward('client') }] },
  },
  {
    // The CLI starts workflows and reads results (README "Architecture").
    files: ['client/**/*.ts'],
    ignores: CLIENT_STEP_EXCEPTIONS,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+activities/(?!common/|results(/|$))', message: 'the CLI starts workflows and reads results: import activities/results (read-only) or activities/common, or start a workflow' }] }],
    },
  },
);
