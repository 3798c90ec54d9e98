/**
 * `lockin view <study>`: opens a study's runs in Inspect AI's log viewer (`inspect view` from the
 * project's venv, on the study's Inspect logs, runs/<id>/report/logs/, written with its report).
 * Per run: the prompt, every call's reply, the artifacts, pytest's output, the comparison with the
 * reference, the obligation labels with their labeller, and the scores.
 * `lockin view <study> --bundle DIR` writes a static site of the same (`inspect view bundle`),
 * which any web server (or a GitHub page) can serve.
 */
import { Command } from 'commander';
import execa from 'execa';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { venvPython } from '../../activities/common/paths';
import { studyDir } from '../../activities/common/layout';
import { inspectLogDir } from '../../activities/common/layout';

/** The first port the viewer tries when LOCKIN_VIEW_PORT is not set (Inspect's own default; Temporal's are 7233 and 8233). */
export const DEFAULT_VIEW_PORT = 7575;

/**
 * The folder of Inspect logs to show for `target`: a study id (runs/<id>/report/logs), a study
 * folder, or a folder of .eval files. For a model matrix (`--models`, runs/<id>/models.json) the
 * sub-studies' logs, linked into runs/<id>/report/logs/ under "<sub-study>--<file>" names.
 * @throws Error saying how to write the logs when there are none.
 */
export function viewLogDir(target: string): string {
  const dir = fs.existsSync(target) && fs.statSync(target).isDirectory() ? path.resolve(target) : studyDir(target);
  if (fs.readdirSync(dir, { withFileTypes: true }).some((e) => e.isFile() && e.name.endsWith('.eval'))) return dir;
  const logs = inspectLogDir(path.join(dir, 'report'));
  const models = path.join(dir, 'models.json');
  if (fs.existsSync(models)) {
    const { studies } = JSON.parse(fs.readFileSync(models, 'utf8')) as { studies: { studyId: string }[] };
    fs.mkdirSync(logs, { recursive: true });
    for (const s of studies) {
      const sub = inspectLogDir(path.join(path.dirname(dir), s.studyId, 'report'));
      if (!fs.existsSync(sub)) continue;
      for (const f of fs.readdirSync(sub).filter((x) => x.endsWith('.eval'))) {
        const link = path.join(logs, `${s.studyId}--${f}`);
        fs.rmSync(link, { force: true });
        fs.symlinkSync(path.join(sub, f), link);
      }
    }
  }
  const has = fs.existsSync(logs) && fs.readdirSync(logs).some((f) => f.endsWith('.eval'));
  if (!has) throw new Error(`no Inspect logs in ${logs}: a study writes them with its report (at the end of step 4 of \`lockin study main\`, at the end of \`study run\`): a study still running has none yet; for a study reported before the logs existed, run \`npx lockin report ${path.basename(dir)}\` first`);
  return logs;
}

/** True when nothing listens on `port` of `host` (a listen attempt succeeds). */
function portFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/**
 * The viewer's port: `asked` (--port or LOCKIN_VIEW_PORT) as given, else the first free one of
 * DEFAULT_VIEW_PORT … DEFAULT_VIEW_PORT + 49 on `host`, so a second viewer (or another user's)
 * does not collide. @throws Error when none of those is free.
 */
export async function viewPort(asked: number | undefined, host: string): Promise<number> {
  if (asked !== undefined) return asked;
  for (let p = DEFAULT_VIEW_PORT; p < DEFAULT_VIEW_PORT + 50; p++) if (await portFree(p, host)) return p;
  throw new Error(`no free port in ${DEFAULT_VIEW_PORT}–${DEFAULT_VIEW_PORT + 49}: pass --port or LOCKIN_VIEW_PORT`);
}

/** The venv's `inspect` command (installed by `npm run setup` from infra/requirements.txt). */
function inspectBin(): string {
  const bin = path.join(path.dirname(venvPython()), 'inspect');
  if (!fs.existsSync(bin)) throw new Error(`${bin} not found: run \`npm run setup\` (it installs inspect-ai into .venv)`);
  return bin;
}

/** Defines the options, arguments and action of `lockin view` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  cmd
    .argument('<study>', 'study id (a folder under runs/), a study folder, or a folder of .eval files')
    .option('--port <n>', `the viewer's port (default: LOCKIN_VIEW_PORT, else the first free one from ${DEFAULT_VIEW_PORT})`)
    .option('--host <host>', 'the address the viewer listens on (loopback unless you mean to share it)', '127.0.0.1')
    .option('--bundle <dir>', 'write a static site of the view into DIR instead of serving it (inspect view bundle)')
    .action(async (study: string, o: { port?: string; host: string; bundle?: string }) => {
      const logs = viewLogDir(study);
      const bin = inspectBin();
      if (o.bundle) {
        const out = path.resolve(o.bundle);
        await execa(bin, ['view', 'bundle', '--log-dir', logs, '--output-dir', out, '--overwrite'], { stdio: 'inherit' });
        console.log(`static view of ${logs} written to ${out} (open it through any web server, e.g. \`python3 -m http.server -d ${out}\`)`);
        return;
      }
      const askedText = o.port ?? (process.env.LOCKIN_VIEW_PORT || undefined);
      const asked = askedText !== undefined ? Number(askedText) : undefined;
      if (asked !== undefined && !(Number.isInteger(asked) && asked > 0 && asked < 65536)) throw new Error(`--port / LOCKIN_VIEW_PORT must be a port number, got "${askedText}"`);
      const port = await viewPort(asked, o.host);
      console.log(`[lockin] the runs of ${study} in Inspect's viewer: http://${o.host === '0.0.0.0' ? 'localhost' : o.host}:${port}  (logs: ${logs}; Ctrl-C stops it)`);
      console.log('[lockin] a sample is one task run: its transcript has every call, the frozen artifacts, pytest, the comparison with the reference and the labels; its scores say why');
      await execa(bin, ['view', '--log-dir', logs, '--host', o.host, '--port', String(port)], { stdio: 'inherit', reject: false });
    });
}
