/** The reply protocol parsers (pure). */
import { fencedBlocks, infoFileName, parseArtifactReply, parseJsonReply, parseReply } from '../../activities/model/reply';

const block = (info: string, body: string, fence = '```') => `${fence}${info}\n${body}\n${fence}\n`;
const three = block('markdown plan.md', '# plan') + block('python solution.py', 'def solve(spark, tables):\n    pass') + block('python test_solution.py', 'def test_x(spark):\n    pass');

test('info strings: the last word names the file', () => {
  expect(infoFileName('python solution.py')).toBe('solution.py');
  expect(infoFileName('solution.py')).toBe('solution.py');
  expect(infoFileName('python title="test_solution.py"')).toBe('test_solution.py');
  expect(infoFileName('python')).toBeNull();
  expect(infoFileName('')).toBeNull();
  expect(infoFileName('json')).toBeNull();
});

test('fences: four backticks hold a body with three; an unclosed block is an error', () => {
  const b = fencedBlocks('text\n````python solution.py\nx = """\n```\n"""\n````\nafter');
  expect(b).toEqual([{ info: 'python solution.py', body: 'x = """\n```\n"""', line: 2 }]);
  expect(() => fencedBlocks('```python solution.py\nx = 1\n')).toThrow('unclosed code block opened at line 1');
});

test('generate: all three files, exact bodies; prose blocks ignored', () => {
  const r = parseArtifactReply('Intro\n' + block('python', 'print(1)') + three, 'generate');
  expect(r).toEqual({ ok: true, files: { 'plan.md': '# plan\n', 'solution.py': 'def solve(spark, tables):\n    pass\n', 'test_solution.py': 'def test_x(spark):\n    pass\n' } });
});

test('protocol errors: missing, duplicated, unexpected file, unclosed', () => {
  expect(parseArtifactReply(block('markdown plan.md', 'p') + block('python test_solution.py', 't'), 'generate')).toEqual({
    ok: false,
    protocolError: 'missing file solution.py (a fenced block whose info string ends with the file name, e.g. ```python solution.py)',
  });
  expect(parseArtifactReply(three + block('python solution.py', 'x'), 'generate')).toEqual({ ok: false, protocolError: 'duplicated file solution.py' });
  expect(parseArtifactReply(three + block('python helpers.py', 'x'), 'generate')).toEqual({ ok: false, protocolError: 'unexpected file helpers.py (allowed: plan.md, solution.py, test_solution.py)' });
  expect(parseArtifactReply('```python solution.py\nx', 'revise-1').ok).toBe(false);
});

test('revise-N requires solution.py only; c5-revise-N requires all three', () => {
  expect(parseArtifactReply(block('python solution.py', 'x'), 'revise-1')).toEqual({ ok: true, files: { 'solution.py': 'x\n' } });
  expect(parseArtifactReply(block('python solution.py', 'x'), 'c5-revise-1')).toMatchObject({ ok: false, protocolError: expect.stringMatching(/^missing files plan\.md, test_solution\.py/) });
});

test('JSON stages: exactly one json block, valid JSON, schema-valid', () => {
  expect(parseJsonReply(block('json', '{"actionable": false, "repairs": []}'), 'c4-recommend')).toEqual({ ok: true, json: { actionable: false, repairs: [] } });
  expect(parseJsonReply('no block', 'c4-recommend')).toEqual({ ok: false, protocolError: 'expected exactly one ```json block, found 0' });
  expect(parseJsonReply(block('json', '{}') + block('json', '{}'), 'c4-recommend')).toEqual({ ok: false, protocolError: 'expected exactly one ```json block, found 2' });
  expect(parseJsonReply(block('json', '{"actionable": tru}'), 'c4-recommend')).toMatchObject({ ok: false, protocolError: expect.stringMatching(/^invalid JSON/) });
  const bad = parseJsonReply(block('json', '{"audit": [{"id": "O1", "plan": "yes", "code": "covered", "tests": "absent"}]}'), 'c3-audit');
  expect(bad).toMatchObject({ ok: false, protocolError: expect.stringMatching(/^JSON does not match the c3-audit schema: audit\.0\.plan:/) });
  expect(parseReply(block('json', '{"labels": []}'), 'judge')).toEqual({ ok: true, json: { labels: [] } });
});

test('a fence left open before the next file is reported as unclosed, not as a missing file', () => {
  const text = ['```markdown plan.md', 'plan', '```', '```python solution.py', 'def solve(spark, tables):', '    return None', '```python test_solution.py', 'def test_a():', '    pass', '```', ''].join('\n');
  expect(parseArtifactReply(text, 'generate')).toEqual({
    ok: false,
    protocolError: "unclosed code block: solution.py (opened at line 4) is not closed before ```python test_solution.py at line 7; close each file's fence before the next",
  });
});
