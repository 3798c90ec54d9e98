/** Loading and validating task folders: a broken task.yaml names the file, the field and the problem. */
import * as path from 'path';
import YAML from 'yaml';
import { checkPassages, checkObligationIds, leakCheck, checkTaskSelf } from '../../activities/tasks/check';
import { loadTaskFolder, TaskLoadError, fieldPath } from '../../activities/tasks/load';
import { readQueryTexts } from '../../activities/tasks/queryTexts';
import { checkCorpus } from '../../activities/tasks/corpus';
import { fixtureObligations, fixtureTask, writeFixtureCorpus } from './fixtures';

function loadError(root: string): TaskLoadError {
  try {
    loadTaskFolder(path.join(root, 'q3'));
  } catch (e) {
    if (e instanceof TaskLoadError) return e;
    throw e;
  }
  throw new Error('expected a TaskLoadError');
}

describe('loadTaskFolder', () => {
  test('a valid fixture loads and passes the self checks', () => {
    const root = writeFixtureCorpus();
    const t = loadTaskFolder(path.join(root, 'q3'));
    expect(t.taskId).toBe('q3');
    expect(t.obligations.obligations).toHaveLength(8);
    expect(checkTaskSelf(t)).toEqual([]);
  });

  test('missing field: names the file and the field', () => {
    const task = fixtureTask();
    delete task.title;
    const root = writeFixtureCorpus(task);
    const e = loadError(root);
    expect(e.problems).toHaveLength(1);
    expect(e.problems[0].file).toBe(path.join(root, 'q3', 'task.yaml'));
    expect(e.problems[0].field).toBe('title');
    expect(e.message).toBe(`${path.join(root, 'q3', 'task.yaml')}: title: ${e.problems[0].message}`);
    expect(e.problems[0].message).toMatch(/expected string/);
  });

  test('wrong type: names tables[1].columns[2].type and says it is not a Spark type name', () => {
    const task = fixtureTask() as { tables: { columns: { type: string }[] }[] };
    task.tables[1].columns[2].type = 'numeric';
    const root = writeFixtureCorpus(task);
    const e = loadError(root);
    expect(e.message).toBe(
      `${path.join(root, 'q3', 'task.yaml')}: tables[1].columns[2].type: not a Spark type name such as int, bigint, decimal(7,2), date, string, double`,
    );
  });

  test('a limit given as a string and a prompt-inferable obligation without passage are both reported', () => {
    const task = { ...fixtureTask(), limit: '100' };
    const obl = fixtureObligations() as { obligations: Record<string, unknown>[] };
    delete obl.obligations[1].passage;
    const root = writeFixtureCorpus(task, obl);
    const e = loadError(root);
    const fields = e.problems.map((p) => `${path.basename(p.file)}: ${p.field}`);
    expect(fields).toEqual(['task.yaml: limit', 'obligations.yaml: obligations[1].passage']);
  });

  test('id must equal the folder name; YAML syntax errors carry a line', () => {
    const e1 = loadError(writeFixtureCorpus({ ...fixtureTask(), id: 'q4' }));
    expect(e1.problems.map((p) => [p.field, p.message])).toEqual([['id', 'is "q4" but the folder is "q3"']]);
    const e2 = loadError(writeFixtureCorpus('id: q3\ntitle: [unclosed\n'));
    expect(e2.problems[0].field).toMatch(/^line \d+:\d+$/);
    expect(e2.problems[0].message).toMatch(/^YAML syntax error/);
  });

  test('fieldPath renders zod paths', () => {
    expect(fieldPath(['tables', 0, 'columns', 2, 'type'])).toBe('tables[0].columns[2].type');
    expect(fieldPath([])).toBe('(top level)');
  });
});

describe('passage and id checks', () => {
  test('a passage that is not an exact substring is caught; one that is passes', () => {
    const text = YAML.stringify(fixtureTask());
    const obl = [
      { id: 'O1', class: 'prompt-inferable', passage: 'only sales made in November' },
      { id: 'O2', class: 'prompt-inferable', passage: 'only sales made in december' },
      { id: 'O3', class: 'hidden-reference' },
    ];
    const p = checkPassages(text, obl, 'obligations.yaml', 'task.yaml');
    expect(p).toEqual([
      { file: 'obligations.yaml', field: 'obligations[1].passage', message: 'O2: the passage is not an exact substring of task.yaml: "only sales made in december"' },
    ]);
  });

  test('duplicate obligation ids are caught', () => {
    expect(checkObligationIds([{ id: 'O1' }, { id: 'O2' }, { id: 'O1' }], 'o.yaml')).toEqual([
      { file: 'o.yaml', field: 'obligations[2].id', message: 'duplicate id O1 (first at obligations[0])' },
    ]);
  });
});

describe('SQL leak check (n = 8, threshold = 2)', () => {
  let q3 = '';
  beforeAll(async () => {
    q3 = (await readQueryTexts(['q3'])).q3;
  });

  test('the query text is read from the jar at run time', () => {
    expect(q3).toMatch(/ss_ext_sales_price/i);
  });

  test('a pasted SQL fragment of the reference is caught', () => {
    // The WHERE clause of the reference, pasted verbatim into a note.
    const where = q3.slice(q3.toUpperCase().indexOf('WHERE'), q3.toUpperCase().indexOf('GROUP BY'));
    expect(where.length).toBeGreaterThan(40);
    const text = YAML.stringify({ ...fixtureTask(), notes: [where] });
    const r = leakCheck(text, q3);
    expect(r.leak).toBe(true);
    expect(r.shared).toBeGreaterThanOrEqual(2);
    expect(leakCheck(YAML.stringify(fixtureTask()), q3)).toMatchObject({ leak: false, shared: 0 });
  });

  test('exactly 8 shared tokens are one 8-gram (below the threshold); 9 are two (a leak)', () => {
    const query = 'select a1 a2 a3 a4 a5 a6 a7 a8 a9 from t';
    expect(leakCheck('x a1 a2 a3 a4 a5 a6 a7 a8 y', query)).toMatchObject({ shared: 1, leak: false });
    expect(leakCheck('x a1 a2 a3 a4 a5 a6 a7 a8 a9 y', query)).toMatchObject({ shared: 2, leak: true });
  });

  test('lockin tasks check reports a pasted fragment with the file, the field and the problem', async () => {
    const where = q3.slice(q3.toUpperCase().indexOf('WHERE'), q3.toUpperCase().indexOf('GROUP BY'));
    const root = writeFixtureCorpus({ ...fixtureTask(), notes: ['fine prose', where] });
    const rep = await checkCorpus({ scale: 0.01, root, ids: ['q3'] });
    const p = rep.tasks[0].problems.find((x) => x.message.startsWith('reference SQL leak'));
    expect(p).toBeDefined();
    expect(p!.file).toBe(path.join(root, 'q3', 'task.yaml'));
    expect(p!.field).toBe('notes[1]');
    expect(p!.message).toMatch(/^reference SQL leak: \d+ shared 8-token runs with the q3 query text \(threshold 2\)/);
    expect(rep.tasks[0].ok).toBe(false);
  });
});

test('tasks check names the tasks whose reference schema is missing (new-user finding: "1 task(s)" did not say which)', async () => {
  const root = writeFixtureCorpus();
  // SF=0.37 is never built: no references there.
  const rep = await checkCorpus({ scale: 0.37, root, ids: ['q3'], skipLeak: true });
  expect(rep.notes.filter((n) => n.includes('reference schema'))).toEqual([expect.stringMatching(/^1 task\(s\) without a reference schema under .*0\.37.* \(q3\): output checks skipped for them$/)]);
});
