/**
 * The equivalence cache of the mutation analysis written before the task was called `taskId`
 * everywhere (its equivalence.json says `qid`) is still a cache hit: checkEquivalence returns it
 * without starting Spark (the reference folder it would need is absent, so a miss would throw).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkEquivalence, equivalenceDir } from '../../activities/mutation/generate';
import { pythonDir, tasksRoot } from '../../activities/common/paths';
import { sha256File } from '../../activities/common/hash';

test('an equivalence.json naming the task `qid` is read as taskId and returned from the cache', async () => {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-eqcache-'));
  const goldFile = path.join(tasksRoot(), 'q3', 'gold', 'solution.py');
  const goldSha = sha256File(goldFile);
  const dir = equivalenceDir({ taskId: 'q3', scale: 0.5, goldSha, cacheDir });
  fs.mkdirSync(path.join(dir, 'gold'), { recursive: true });
  fs.copyFileSync(goldFile, path.join(dir, 'gold', 'solution.py'));
  const old = {
    qid: 'q3', scale: 0.5, goldSha, maxPerOperator: 2, generatorSha: sha256File(path.join(pythonDir(), 'mutants.py')),
    gold: { status: 'ok', agree: true, summary: 'agree: 4 columns, 20 rows' },
    mutants: [{ id: 'join-type-1', operator: 'join-type', line: 12, description: 'join how -> "left"', verdict: 'equivalent', summary: 'agree', status: 'ok' }],
  };
  fs.writeFileSync(path.join(dir, 'equivalence.json'), JSON.stringify(old));
  // SF=0.5 has no references here: only a cache hit can return.
  const eq = await checkEquivalence({ taskId: 'q3', scale: 0.5, cacheDir });
  expect([eq.taskId, eq.mutants.map((m) => `${m.id}:${m.verdict}`)]).toEqual(['q3', ['join-type-1:equivalent']]);
  // Another task id in the file is no hit: the miss needs the reference and says so.
  fs.writeFileSync(path.join(dir, 'equivalence.json'), JSON.stringify({ ...old, qid: 'q7' }));
  await expect(checkEquivalence({ taskId: 'q3', scale: 0.5, cacheDir })).rejects.toThrow(/no reference for q3 at scale 0.5/);
});
