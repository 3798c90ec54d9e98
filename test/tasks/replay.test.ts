/** The replay builder: output parses with the stage zod schemas; authored files are never overwritten. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseReply } from '../../activities/model/reply';
import { buildReplay } from '../../activities/model/replayCorpus';
import { parseReplayText } from '../../activities/model/backends/replay';
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
  test('a task with realistic faults gets replay/faults/<task>/generate.md: the first fault by name, copied with its source', () => {
    const root = corpusWithGold();
    for (const [name, sol] of [['b-second', 'return 2'], ['a-first', 'return 1']] as const) {
      const d = path.join(root, 'q3', 'faults', name);
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, 'plan.md'), `# ${name}\n`);
      fs.writeFileSync(path.join(d, 'solution.py'), `def solve(spark, tables):\n    ${sol}\n`);
      fs.writeFileSync(path.join(d, 'test_solution.py'), 'def test_ok():\n    assert True\n');
    }
    const replay = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-replay-'));
    expect(buildReplay({ root, replay }).lines[0]).toMatch(/; faults: a-first$/);
    const b = parseReplayText(fs.readFileSync(path.join(replay, 'faults/q3/generate.md'), 'utf8'), 'generate.md');
    expect(b.provenance).toEqual({ provenance: 'generated-from-faults', source: 'tasks/q3/faults/a-first' });
    const gen = parseReply(b.text, 'generate');
    expect(gen.ok && gen.files!['solution.py']!.trim()).toBe('def solve(spark, tables):\n    return 1');
  });

  test('gold and lockin replies parse with the stage schemas and carry the expected content', () => {
    const root = corpusWithGold();
    const replay = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-replay-'));
    const rep = buildReplay({ root, replay });
    expect(rep.problems).toEqual([]);
    expect(rep).toMatchObject({ goldTasks: 1, goldFiles: 7, lockinWritten: 5, lockinKept: 0 });

    const body = (p: string) => parseReplayText(fs.readFileSync(path.join(replay, p), 'utf8'), p);
    expect(body('gold/q3/generate.md').provenance).toEqual({ provenance: 'generated-from-gold', source: 'tasks/q3/gold' });
    expect(body('gold/q3/plan-audit/c3-audit.md').provenance).toEqual({ provenance: 'generated-from-obligations', source: 'tasks/q3/obligations.yaml' });
    expect(body('lockin/q3/plan-audit/c1-extract.md').provenance).toEqual({ provenance: 'generated-from-obligations', source: 'tasks/q3/obligations.yaml' });
    const gen = parseReply(body('gold/q3/generate.md').text, 'generate');
    expect(gen.ok).toBe(true);
    const files = gen.ok ? gen.files ?? {} : {};
    expect(Object.keys(files).sort()).toEqual(['plan.md', 'solution.py', 'test_solution.py']);
    expect(files['solution.py']!.trim()).toBe('def solve(spark, tables):\n    return tables["date_dim"]');
    expect(files['plan.md']).toContain('```text\nan inner fence\n```');
    // The gold contract (Contract-First C-0) is the gold test suite, as contract_test.py.
    const c0 = parseReply(body('gold/q3/contract-first/c0-contract.md').text, 'c0-contract');
    expect(c0.ok && Object.keys(c0.files ?? {})).toEqual(['contract_test.py']);
    expect(c0.ok && c0.files!['contract_test.py']).toBe(files['test_solution.py']);
    const read = (p: string, stage: Parameters<typeof parseReply>[1]) => {
      const r = parseReply(body(p).text, stage);
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

  test('authored, recorded and front-matter-less files are kept; generated ones are refreshed', () => {
    const root = corpusWithGold();
    const replay = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-replay-'));
    const pa = path.join(replay, 'lockin/q3/plan-audit');
    fs.mkdirSync(pa, { recursive: true });
    const kept: Record<string, string> = {
      'c3-audit.md': '---\nprovenance: authored\n---\nhand-written\n```json\n{"audit": []}\n```\n',
      'c4-recommend.md': '---\nprovenance: recorded\nmodel: claude-sonnet-4-6\nrecorded: 2026-07-14\n---\n```json\n{"actionable": false, "repairs": []}\n```\n',
      'c2-assess.md': 'no front matter\n',
    };
    for (const [n, t] of Object.entries(kept)) fs.writeFileSync(path.join(pa, n), t);
    fs.writeFileSync(path.join(pa, 'c1-extract.md'), '---\nprovenance: generated-from-obligations\nsource: tasks/q3/obligations.yaml\n---\nstale\n');
    const rep = buildReplay({ root, replay });
    expect(rep).toMatchObject({ lockinWritten: 2, lockinKept: 3 });
    for (const [n, t] of Object.entries(kept)) expect(fs.readFileSync(path.join(pa, n), 'utf8')).toBe(t);
    expect(fs.readFileSync(path.join(pa, 'c1-extract.md'), 'utf8')).not.toContain('stale');
    expect(buildReplay({ root, replay })).toMatchObject({ lockinWritten: 2, lockinKept: 3 });
  });

  test('the repository corpora: every file has a provenance; replay:lockin is 98 authored (50 for the paper conditions, 30 Contract-First contracts, one per task, and 18 Contract-First revisions: 16 cf-revise-1, 2 cf-revise-2) and 140 generated from obligations', () => {
    const count = (corpus: string) => {
      const out: Record<string, number> = {};
      const walk = (d: string): void => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else if (e.name.endsWith('.md')) {
            const k = parseReplayText(fs.readFileSync(p, 'utf8'), p).provenance.provenance;
            out[k] = (out[k] ?? 0) + 1;
          }
        }
      };
      walk(path.join(__dirname, '..', '..', 'replay', corpus));
      return out;
    };
    expect(count('lockin')).toEqual({ authored: 98, 'generated-from-obligations': 140 });
    expect(count('gold')).toEqual({ 'generated-from-gold': 60, 'generated-from-obligations': 150 });
    expect(count('faults')).toEqual({ 'generated-from-faults': fs.readdirSync(path.join(__dirname, '..', '..', 'replay', 'faults')).filter((d) => d.startsWith('q')).length });
  });
});
