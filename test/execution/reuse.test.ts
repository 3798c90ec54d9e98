/** Reuse of identical runs within a study (activities/execution/reuse.ts), with a fake run. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { reuseKey, reuseRun } from '../../activities/execution/reuse';

interface Out {
  status: string;
  file: string;
}

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-reuse-'));
  process.env.LOCKIN_RUNS = path.join(root, 'runs');
});

function spec(scope: string | undefined, outDir: string, status: string, calls: string[]) {
  return {
    scope,
    kind: 'pytest' as const,
    key: reuseKey(['same inputs']),
    outDir,
    files: [['log.txt', `log-${path.basename(outDir)}.txt`]] as [string, string][],
    run: async (): Promise<Out> => {
      calls.push(outDir);
      await new Promise((r) => setTimeout(r, 50));
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(path.join(outDir, `log-${path.basename(outDir)}.txt`), `made in ${path.basename(outDir)}`);
      return { status, file: path.join(outDir, 'x') };
    },
    reusable: (o: Out) => o.status === 'completed',
    relocate: (o: Out, d: string) => ({ ...o, file: path.join(d, 'x') }),
  };
}

test('concurrent and later identical runs in one study are made once; files and paths follow the caller', async () => {
  const calls: string[] = [];
  const [a, b] = await Promise.all([spec('s1', path.join(root, 'a'), 'completed', calls), spec('s1', path.join(root, 'b'), 'completed', calls)].map((s) => reuseRun(s)));
  const c = await reuseRun(spec('s1', path.join(root, 'c'), 'completed', calls));
  expect(calls).toEqual([path.join(root, 'a')]);
  expect([a.file, b.file, c.file]).toEqual(['a', 'b', 'c'].map((d) => path.join(root, d, 'x')));
  expect(fs.readFileSync(path.join(root, 'c', 'log-c.txt'), 'utf8')).toBe('made in a');
  expect(JSON.parse(fs.readFileSync(path.join(root, 'c', 'reused.json'), 'utf8')).from).toBe(path.join(root, 'a'));
  expect(fs.existsSync(path.join(root, 'a', 'reused.json'))).toBe(false);
  // Another study never reuses s1's sample.
  await reuseRun(spec('s2', path.join(root, 'd'), 'completed', calls));
  expect(calls).toEqual([path.join(root, 'a'), path.join(root, 'd')]);
});

test('a time-out is never reused; without a scope nothing is', async () => {
  const calls: string[] = [];
  const t = (d: string) => ({ ...spec('s3', path.join(root, d), 'timeout', calls), key: reuseKey(['timeout inputs']) });
  await reuseRun(t('e'));
  await reuseRun(t('f'));
  await reuseRun(spec(undefined, path.join(root, 'g'), 'completed', calls));
  await reuseRun(spec(undefined, path.join(root, 'h'), 'completed', calls));
  expect(calls.map((c) => path.basename(c))).toEqual(['e', 'f', 'g', 'h']);
});

test('the key covers file bytes: one changed byte, another key', () => {
  const f = path.join(root, 'solution.py');
  fs.writeFileSync(f, 'x = 1\n');
  const k1 = reuseKey([{ file: f }, 'settings']);
  fs.writeFileSync(f, 'x = 2\n');
  expect(reuseKey([{ file: f }, 'settings'])).not.toBe(k1);
  expect(reuseKey([{ file: path.join(root, 'nope.py') }])).toBe(reuseKey([{ file: path.join(root, 'also-nope.py') }]));
});

test('a copied outcome that says how Spark ran says it was copied (no job ran); the first keeps its own', async () => {
  const calls: string[] = [];
  const withSpark = (d: string) => ({
    ...spec('s4', path.join(root, d), 'completed', calls),
    key: reuseKey(['spark inputs']),
    run: async () => {
      calls.push(d);
      return { status: 'completed', file: path.join(root, d, 'x'), spark: { mode: 'warm', jvmStarted: true } };
    },
  });
  const first = await reuseRun(withSpark('i'));
  const copy = await reuseRun(withSpark('j'));
  expect(calls).toEqual(['i']);
  expect(first).toEqual({ status: 'completed', file: path.join(root, 'i', 'x'), spark: { mode: 'warm', jvmStarted: true } });
  expect(copy).toEqual({ status: 'completed', file: path.join(root, 'j', 'x'), spark: { mode: 'warm', jvmStarted: true, reused: true } });
});
