/**
 * Screenshots of a study's run view, taken by a headless Chromium: `lockin view` serves
 * the study's Inspect logs, and the browser opens the list of logs, one condition's sample grid,
 * a sample's transcript and its scoring, checking on each page that the text a reader needs is
 * there (the calls, the frozen artifacts, pytest, the comparison with the reference). A check a
 * person can look at: the PNGs are written to docs/img/ and shown in the README.
 *
 *   node dist/bench/viewScreenshots.js [--study ID] [--condition plan-audit] [--task q3] [--out docs/img] [--sessions]
 * (--sessions: a claude-code study; also view-agent-sessions.png, the run's "agent sessions" section)
 *
 * Needs Debian's `chromium` (/usr/bin/chromium, `apt-get install chromium`; no browser is ever
 * downloaded) and npm's playwright-core (a dev dependency). Default study: the README's quick try
 * (main-sf0.01-replay-lockin-q3-q98). Exits 1 naming the page and the missing text when a check fails.
 * Too slow and too machine-bound for `npm test` (a browser start and a server); run it by hand.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium, type Page } from 'playwright-core';
import { REPO_ROOT } from '../activities/common/paths';

/** Chromium's flags for a headless run that reaches nothing but the local viewer. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** Waits until `url` answers (the viewer started), up to `ms`. */
async function waitFor(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Opens `url`, waits for `expect` (each text) to be on the page, and writes a screenshot to `file`. */
async function shoot(page: Page, url: string, file: string, expect: string[]): Promise<void> {
  await page.goto(url, { waitUntil: 'networkidle' });
  for (const text of expect) {
    try {
      await page.getByText(text, { exact: false }).first().waitFor({ timeout: 20_000 });
    } catch {
      throw new Error(`${url}: "${text}" not found on the page`);
    }
  }
  await page.waitForTimeout(500);
  await page.screenshot({ path: file });
  console.log(`${file}: ${(fs.statSync(file).size / 1024).toFixed(0)} KB (${expect.join(', ')} found)`);
}

async function main(): Promise<void> {
  const study = arg('study', 'main-sf0.01-replay-lockin-q3-q98');
  const condition = arg('condition', 'plan-audit');
  const task = arg('task', 'q3');
  const out = path.resolve(arg('out', path.join(REPO_ROOT, 'docs', 'img')));
  const port = arg('port', '7599');
  fs.mkdirSync(out, { recursive: true });
  const viewer = spawn(process.execPath, [path.join(REPO_ROOT, 'dist', 'client', 'index.js'), 'view', study, '--port', port], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-chromium-'));
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/`, 60_000);
    const ctx = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1280, height: 800 } });
    try {
      const page = await ctx.newPage();
      const log = `${condition}--${fs.readdirSync(path.join(REPO_ROOT, 'runs', study, 'report', 'logs')).find((f) => f.startsWith(`${condition}--`))!.slice(condition.length + 2)}`;
      await shoot(page, `${base}/#/tasks/`, path.join(out, 'view-logs.png'), ['one-pass', condition]);
      await shoot(page, `${base}/#/tasks/${log}/samples`, path.join(out, 'view-samples.png'), [task, 'reference_agreement']);
      const sample = `${base}/#/tasks/${log}/samples/sample/${task}/1`;
      await shoot(page, `${sample}/transcript`, path.join(out, 'view-transcript.png'), ['call 1: generate', 'frozen artifacts', 'pytest', 'comparison with the reference', 'obligation labels']);
      await shoot(page, `${sample}/scoring`, path.join(out, 'view-scoring.png'), ['reference_agreement', 'Disagrees with the reference', 'Columns']);
      // The frozen artifacts: the transcript scrolled to that section by its outline entry.
      await page.goto(`${sample}/transcript`, { waitUntil: 'networkidle' });
      await page.getByText('frozen artifacts', { exact: true }).first().click();
      await page.getByText('def solve', { exact: false }).first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(1000);
      await page.screenshot({ path: path.join(out, 'view-artifacts.png') });
      console.log(`${path.join(out, 'view-artifacts.png')}: ${(fs.statSync(path.join(out, 'view-artifacts.png')).size / 1024).toFixed(0)} KB (def solve found)`);
      if (process.argv.includes('--sessions')) {
        // A claude-code study: the run's agent sessions (limits, refusals, the transcript).
        await page.goto(`${sample}/transcript`, { waitUntil: 'networkidle' });
        await page.getByText('agent sessions', { exact: true }).first().click();
        await page.getByText('Refused', { exact: false }).first().waitFor({ timeout: 20_000 });
        await page.waitForTimeout(1000);
        const file = path.join(out, 'view-agent-sessions.png');
        await page.screenshot({ path: file });
        console.log(`${file}: ${(fs.statSync(file).size / 1024).toFixed(0)} KB (Refused found)`);
      }
    } finally {
      await ctx.close();
    }
  } finally {
    if (viewer.pid) process.kill(-viewer.pid, 'SIGINT');
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`viewScreenshots: ${(e as Error).message}`);
  process.exit(1);
});
