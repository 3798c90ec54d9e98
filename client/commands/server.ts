/** `lockin server start|status|stop`: the embedded Temporal dev server. */
import { Command } from 'commander';
import { serverStatus, startServer, stopServer } from '../../infra/devServer';

/** Defines the options, arguments, sub-commands and actions of `lockin server` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const server = cmd;
  server
    .command('start')
    .description('start the server, or reuse the running one')
    .option('--port <n>', 'gRPC port (default 7233)', (v) => Number(v))
    .option('--ui-port <n>', 'UI port (default 8233)', (v) => Number(v))
    .action(async (o: { port?: number; uiPort?: number }) => {
      const before = await serverStatus();
      const info = await startServer({ port: o.port, uiPort: o.uiPort });
      process.stdout.write(`${before ? 'already running' : 'started'} (pid ${info.pid})\n  gRPC: ${info.address}\n  UI:   ${info.uiUrl}\n  data: ${info.dbFile}\n`);
    });
  server
    .command('status')
    .description('print whether the server runs (exit 1 when not)')
    .action(async () => {
      const info = await serverStatus();
      if (!info) {
        process.stdout.write('not running\n');
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`running (pid ${info.pid})\n  gRPC: ${info.address}\n  UI:   ${info.uiUrl}\n`);
    });
  server
    .command('stop')
    .description('stop the server started by lockin')
    .action(async () => {
      process.stdout.write((await stopServer()) ? 'stopped\n' : 'not running\n');
    });
}
