/**
 * `lockin controls run [--scale S] [--out DIR] [--references DIR]`: the evaluator controls of
 * Table II (docs/protocol.md §4) through the production comparator with row order ignored.
 * Reads the references from referencesDir(S) (`<taskId>/reference.arrow` + `schema.json`), writes
 * controls.json and controls.md (the evaluatorControls workflow), prints the Table II summary
 * from controls.json. Exit 0 when all 57 controls
 * return the expected outcome with every perturbation verified, 1 otherwise, 2 for bad input.
 */
import { Command } from 'commander';
import * as path from 'path';
import { InputError } from '../../activities/common/errors';
import { lockinHome, scaleTag } from '../../activities/common/paths';
import { CONTROL_KINDS, readControlsReport } from '../../activities/results';
import { evaluatorControls } from '../../workflows/commands';
import { inputErrorMessage, runCommandWorkflow } from '../commandWorkflow';

interface ControlsOpts {
  scale: string;
  out?: string;
  references?: string;
}

/** Defines the options, arguments, sub-commands and actions of `lockin controls` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const controls = cmd;
  controls
    .command('run')
    .description('Run the 57 evaluator controls on the stored references; exit non-zero on any unexpected outcome')
    .option('--scale <s>', 'scale factor of the references', '1')
    .option('--out <dir>', 'output folder (default: <lockin home>/controls/sf<S>)')
    .option('--references <dir>', 'references folder (default: referencesDir(S))')
    .action(async (opts: ControlsOpts) => {
      const scale = Number(opts.scale);
      try {
        if (!Number.isFinite(scale) || scale <= 0) throw new InputError(`"${opts.scale}" is not a positive number`, undefined, '--scale');
        const outDir = path.resolve(opts.out ?? path.join(lockinHome(), 'controls', scaleTag(scale)));
        const { controlsFile, markdownFile } = await runCommandWorkflow(evaluatorControls, [{ scale, outDir, ...(opts.references ? { referencesDir: path.resolve(opts.references) } : {}) }], { name: `controls-${scaleTag(scale)}` });
        const report = readControlsReport(controlsFile);
        const { referencesDir } = report;
        const k = report.counts;
        const lines = [`references: ${referencesDir}`];
        for (const kind of CONTROL_KINDS) {
          const cs = report.controls.filter((c) => c.kind === kind);
          lines.push(`  ${kind.padEnd(22)} ${String(cs.filter((c) => c.asExpected).length).padStart(2)}/${String(cs.length).padEnd(2)} as expected (${cs[0]?.expected ?? '-'})${kind === 'unchanged' ? '' : `  verified ${cs.filter((c) => c.verified).length}/${cs.length}  [${cs.map((c) => c.taskId).join(' ')}]`}`);
        }
        for (const c of report.controls.filter((x) => !x.asExpected || x.verified === false)) lines.push(`  UNEXPECTED ${c.id}: expected ${c.expected}, observed ${c.observed}${c.verified === false ? ', perturbation not verified' : ''}: ${c.summary}`);
        lines.push(`${k.asExpected}/${k.controls} controls as expected: ${k.accepted} acceptances, ${k.rejected} rejections, ${k.skipped} skipped; ${k.verifiedPerturbations}/${k.perturbations} perturbations verified`);
        lines.push(`wrote ${controlsFile}`, `wrote ${markdownFile}`);
        process.stdout.write(`${lines.join('\n')}\n`);
        process.exitCode = report.allAsExpected ? 0 : 1;
      } catch (e) {
        const bad = e instanceof InputError ? e.message : inputErrorMessage(e);
        if (bad === null) throw e;
        process.stderr.write(`lockin controls: bad input: ${bad}\n`);
        process.exitCode = 2;
      }
    });
}
