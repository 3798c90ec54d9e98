/** After Ctrl-C the study's status says it was interrupted and how to resume it (client/interrupted.ts). */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { clearInterrupted, interruptedLine, markInterrupted, readInterrupted } from '../../client/interrupted';
import { mainJobStatusLines } from '../../client/mainJob';

test('the mark is written, read, shown unless its process still runs here, and cleared', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-int-'));
  try {
    expect(readInterrupted(dir)).toBeNull();
    // A process that no longer exists (pid far above pid_max) on this host: interrupted.
    markInterrupted(dir, { at: '2026-12-06T05:00:00.000Z', pid: 2 ** 30, host: 'h1', workflowId: 'main-s1', resume: 'npx lockin study main --scale 0.01 --study-id s1' });
    const mark = readInterrupted(dir);
    expect(interruptedLine(mark, 'h1')).toBe('interrupted at 2026-12-06T05:00:00.000Z (Ctrl-C): the workflow main-s1 waits on the Temporal server with nothing lost, but no worker of lockin runs its activities; resume with: npx lockin study main --scale 0.01 --study-id s1');
    // The same mark written by this very (living) process: not interrupted.
    expect(interruptedLine({ ...mark!, pid: process.pid }, 'h1')).toBeNull();
    // From another host its process cannot be probed: the mark is shown.
    expect(interruptedLine({ ...mark!, pid: process.pid }, 'h2')).toMatch(/^interrupted at /);
    const lines = mainJobStatusLines('s1', 'RUNNING', new Date('2026-12-06T04:00:00Z'), null, interruptedLine(mark, 'h1'));
    expect(lines[0]).toBe('main job of study s1 (workflow main-s1): INTERRUPTED (started 2026-12-06T04:00:00.000Z)');
    expect(lines[1]).toMatch(/^ {2}interrupted at .* resume with: npx lockin study main --scale 0.01 --study-id s1$/);
    clearInterrupted(dir);
    expect(readInterrupted(dir)).toBeNull();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
