/**
 * The `lockin` command tree (commander). Each command group lives in its own module under
 * client/commands/ and exports `define(cmd)`, which adds the group's options, arguments,
 * sub-commands and actions to the command it is given.
 *
 * Lazy loading: the names and one-line descriptions are listed here, and a group's module (with
 * everything it imports: Temporal's worker, Spark helpers, zod schemas) is loaded only when that
 * group is run or its own help is asked for. `lockin --help` loads no command module at all.
 * `node dist/bench/cli.js` measures the start-up times.
 */
import { Command } from 'commander';
import { QUEUES } from '../protocol/queues';

/** One command group: its name, its line in `lockin --help`, and how to load its module. */
export interface CommandEntry {
  name: string;
  description: string;
  load: () => Promise<{ define: (cmd: Command) => void }>;
}

/** Every command group, in the order `lockin --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'doctor', description: "print the versions of node, python, java, pyspark, the temporal CLI and tpcgen-cli, the Spark settings in force, and the machine's limits (cores, Spark slots, sandbox, Temporal ports)", load: () => import('./commands/doctor') },
  { name: 'server', description: 'the embedded Temporal dev server (SQLite under .lockin/temporal; ports 7233 and UI 8233, or LOCKIN_TEMPORAL_PORT / LOCKIN_TEMPORAL_UI_PORT)', load: () => import('./commands/server') },
  { name: 'worker', description: 'run workers for every task queue, or those --queues names (Ctrl-C to stop)', load: () => import('./commands/worker') },
  { name: 'data', description: 'the TPC-DS database, the 103 query variants and the 33 references', load: () => import('./commands/data') },
  { name: 'compare', description: 'Compare a candidate output with a reference (exit 0 agree, 1 disagree, 2 bad input)', load: () => import('./commands/compare') },
  { name: 'controls', description: 'Evaluator controls (Table II)', load: () => import('./commands/controls') },
  { name: 'tasks', description: 'the task corpus: check, show, scaffold, build-replay', load: () => import('./commands/tasks') },
  { name: 'gold', description: 'gold (reference-positive) solutions', load: () => import('./commands/gold') },
  { name: 'study', description: 'run, watch, resume and inspect studies', load: () => import('./commands/study') },
  { name: 'report', description: 'write runs/<ID>/report/: report.md (Tables I–VII), Figure 1 and, when the mutation analysis ran, Figure 2 (SVG, PNG), summary.json, CSV/Parquet exports (mutation.csv/.parquet too)', load: () => import('./commands/report') },
  { name: 'view', description: "open a study's runs in Inspect AI's log viewer (per run: prompt, replies, artifacts, pytest, comparison, labels, scores); --bundle DIR writes a static site", load: () => import('./commands/view') },
  { name: 'labels', description: 'obligation labels by human raters: export a blinded file, import, agreement (kappa), adjudicate', load: () => import('./commands/labels') },
  { name: 'obligations', description: 'executable obligations: violations and acceptance tests (check, diff, apply)', load: () => import('./commands/obligations') },
];

/**
 * The group an argument list asks for: its first argument that is not an option, or the one
 * after `help` (`lockin help compare`). @returns the entry, or undefined (top-level help, unknown name)
 */
export function requestedCommand(args: string[]): CommandEntry | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((c) => c.name === name);
}

/**
 * Builds the command tree: every group named and described; the groups in `load` fully defined
 * (their modules loaded). @param load the groups to define (default: none)
 */
export async function buildProgram(load: readonly CommandEntry[] = []): Promise<Command> {
  const program = new Command();
  program
    .name('lockin')
    .description('A durable study runner: is LLM-written PySpark code right, or does it merely pass its own tests?')
    .showHelpAfterError();
  for (const entry of COMMANDS) {
    const cmd = program.command(entry.name).description(entry.description);
    if (load.includes(entry)) (await entry.load()).define(cmd);
  }
  return program;
}

/** The exit-code-1 error for a command name that is not one of `known` (listed under `what`; `help` is the command whose --help lists them). */
function unknownCommand(name: string, what: string, known: string[], help: string): Error {
  return Object.assign(new Error(`unknown command '${name}' (${what}: ${known.join(', ')}; \`${help} --help\` lists them)`), { exitCode: 1 });
}

/** Parses argv and runs the chosen command, loading only its module. */
export async function main(argv: string[]): Promise<void> {
  const entry = requestedCommand(argv.slice(2));
  // `lockin nosuch --help` would print the top-level help and exit 0: an unknown name is an error first.
  const word = argv.slice(2).find((a) => !a.startsWith('-'));
  if (!entry && word !== undefined && word !== 'help') {
    throw unknownCommand(word, 'commands', COMMANDS.map((c) => c.name), 'lockin');
  }
  const program = await buildProgram(entry ? [entry] : []);
  // `lockin study nosuch --help` would print the group's help and exit 0: the same rule one level down.
  const group = entry && program.commands.find((c) => c.name() === entry.name);
  if (group && group.commands.length > 0) {
    const words = argv.slice(2).filter((a) => !a.startsWith('-'));
    const sub = words[words[0] === 'help' ? 2 : 1];
    const names = group.commands.flatMap((c) => [c.name(), ...c.aliases()]);
    if (sub !== undefined && sub !== 'help' && !names.includes(sub)) {
      throw unknownCommand(`${entry.name} ${sub}`, `commands of ${entry.name}`, group.commands.map((c) => c.name()), `lockin ${entry.name}`);
    }
  }
  await program.parseAsync(argv);
}
