/** The replay builder: output parses with the stage zod schemas; authored files are never overwritten. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseReply } from '../../activities/model/reply';
import { buildReplay, GENERATED_MARKER } from '../../activities/tasks/replay';
import { fixtureObligations, fixtureTask, writeFixtureCorpus } from './fixtures';

function corpusWithGold(): string {
  const root = writeFixtureCorpus(fixtureTask(), fixtureObligations());
  const g = path.join(root, 'q3', 'gold');
  fs.mkdirSync(g);
  fs.writeFileSync(path.join(g, 'plan.md'), '# Plan\n\n```text\nan inner fence\n```\n');
  fs.writeFileSync(path.join(g, 'solution.py'), 'def solve(spark, tables):\n    return tables["date_dim"]\n');
  fs.writeFileSync(path.join(g, 'test_solution.py'), 'def test_ok():\n    assert True\n');
  return root;
}

describe('buildReplay', () => {
  test('gold and lockin replies parse with the stage schemas and carry the expected content', () => {
    const root = corpusWithGold();
    const replay = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-replay-'));
    const rep = buildReplay({ root, replay });
    expect(rep.problems).toEqual([]);
    expect(rep).toMatchObject({ goldTasks: 1, goldFiles: 6, lockinWritten: 5, lockinKept: 0 });

    const gen = parseReply(fs.readFileSync(path.join(replay, 'gold/q3/generate.md'), 'utf8'), 'generate');
    expect(gen.ok).toBe(true);
    const files = gen.ok ? gen.files ?? {} : {};
    expect(Object.keys(files).sort()).toEqual(['plan.md', 'solution.py', 'test_solution.py']);
    expect(files['solution.py']!.trim()).toBe('def solve(spark, tables):\n    return tables["date_dim"]');
    expect(files['plan.md']).toContain('```text\nan inner fence\n```');
    const read = (p: string, stage: Parameters<typeof parseReply>[1]) => {
      const r = parseReply(fs.readFileSync(path.join(replay, p), 'utf8'), stage);
      expect([p, r.ok]).toEqual([p, true]);
      return (r.ok ? r.json : undefined) as Record<string, unknown[]>;
    };
    // gold: the 6 prompt-inferable obligations of the fixture, all stated and covered.
    expect((read('gold/q3/plan-audit/c1-extract.md', 'c1-extract').obligations as { id: string }[]).map((o) => o.id)).toEqual(['O1', 'O2', 'O3', 'O4', 'O5', 'O8']);
    expect(read('gold/q3/plan-audit/c2_5-ground.md', 'c2_5-ground').groundings).toEqual([]);
    expect(read('gold/q3/plan-audit/c4-recommend.md', 'c4-recommend')).toEqual({ actionable: false, repairs: [] });
    // lockin: hidden-reference O7 is not extracted; schema-grounded O6 is inferable and grounded.
    const c1 = read('lockin/q3/plan-audit/c1-extract.md', 'c1-extract').obligations as { id: string }[];
    expect(c1.map((o) => o.id)).toEqual(['O1', 'O2', 'O3', 'O4', 'O5', 'O6', 'O8']);
    const c2 = read('lockin/q3/plan-audit/c2-assess.md', 'c2-assess').assessments as { id: string; support: string }[];
    expect(c2.find((a) => a.id === 'O6')!.support).toBe('inferable');
    expect(c2.filter((a) => a.support === 'stated')).toHaveLength(6);
    expect((read('lockin/q3/plan-audit/c2_5-ground.md', 'c2_5-ground').groundings as { id: string }[]).map((g) => g.id)).toEqual(['O6']);
    const c3 = read('lockin/q3/plan-audit/c3-audit.md', 'c3-audit').audit as { id: string; code: string }[];
    expect(c3).toHaveLength(7);
    expect(c3.every((a) => a.code === 'covered')).toBe(true);
  });

  test('authored lockin files are kept; generated ones are refreshed', () => {
    const root = corpusWithGold();
    const replay = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-replay-'));
    const authored = path.join(replay, 'lockin/q3/plan-audit/c3-audit.md');
    fs.mkdirSync(path.dirname(authored), { recursive: true });
    fs.writeFileSync(authored, 'hand-written\n```json\n{"audit": []}\n```\n');
    const rep = buildReplay({ root, replay });
    expect(rep).toMatchObject({ lockinWritten: 4, lockinKept: 1 });
    expect(fs.readFileSync(authored, 'utf8')).toBe('hand-written\n```json\n{"audit": []}\n```\n');
    const gen = path.join(replay, 'lockin/q3/plan-audit/c1-extract.md');
    expect(fs.readFileSync(gen, 'utf8').startsWith(GENERATED_MARKER)).toBe(true);
    expect(buildReplay({ root, replay })).toMatchObject({ lockinWritten: 4, lockinKept: 1 });
  });
});
