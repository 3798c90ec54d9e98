/**
 * Contract-First's C-0 sees no candidate (docs/protocol.md §2 "Contract-First", §3): its rendered
 * request holds nothing of the condition directory's artifacts, the preflight's candidate rule
 * finds them in a revision's request, and the sealed contract suite is restored when changed.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadTaskSpec, stageVars } from '../../activities/model/stageInputs';
import { renderTemplate } from '../../activities/model/prompts';
import { candidateFindings } from '../../activities/preflight/preflight';
import { guardContract, sealContract } from '../../activities/store/contract';
import { parseArtifactReply } from '../../activities/model/reply';
import type { StageRequest } from '../../protocol/types';

const gold = path.join(__dirname, '..', '..', 'tasks', 'q3', 'gold');

function conditionDirWithCandidate(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-cf-'));
  for (const f of ['plan.md', 'solution.py', 'test_solution.py']) fs.copyFileSync(path.join(gold, f), path.join(dir, f));
  return dir;
}

function render(stage: StageRequest['stage'], workDir: string, feedbackFile?: string): string {
  const req = { studyId: 's', taskId: 'q3', condition: 'contract-first', stage, workDir, callIndex: 2, model: 'replay:x', params: { temperature: 1, topP: 1, maxTokens: 10, longContext: false }, inputs: feedbackFile ? { feedbackFile } : {} } as StageRequest;
  const { template, vars } = stageVars(req, loadTaskSpec('q3'));
  return renderTemplate(template, vars).text;
}

test('the C-0 request holds no candidate artifact; a revision request of the same folder does (the rule can fail)', () => {
  const dir = conditionDirWithCandidate();
  const candidates = ['plan.md', 'solution.py', 'test_solution.py'].map((f) => ({ where: f, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
  const c0 = render('c0-contract', dir);
  expect(c0).toContain('contract_test.py');
  expect(candidateFindings(c0, candidates)).toEqual([]);
  fs.writeFileSync(path.join(dir, 'failures.md'), 'contract_test.py::test_x failed\n');
  const revise = render('cf-revise-1', dir, path.join(dir, 'failures.md'));
  expect(candidateFindings(revise, candidates).map((f) => f.kind)).toEqual(['candidate-artifact', 'candidate-artifact', 'candidate-artifact']);
});

test('reply protocol: C-0 writes only contract_test.py; a revision may name it (so the harness can reject it)', () => {
  const block = (name: string) => '```python ' + name + '\nx = 1\n```\n';
  expect(parseArtifactReply(block('contract_test.py'), 'c0-contract')).toEqual({ ok: true, files: { 'contract_test.py': 'x = 1\n' } });
  expect(parseArtifactReply(block('solution.py'), 'c0-contract')).toEqual({ ok: false, protocolError: 'unexpected file solution.py (allowed: contract_test.py)' });
  expect(parseArtifactReply(block('solution.py') + block('contract_test.py'), 'cf-revise-1')).toEqual({ ok: true, files: { 'solution.py': 'x = 1\n', 'contract_test.py': 'x = 1\n' } });
  expect(parseArtifactReply(block('contract_test.py'), 'cf-revise-2')).toMatchObject({ ok: false, protocolError: expect.stringContaining('missing file solution.py') });
});

test('guardContract: intact suite untouched; an edited or deleted suite is restored from the seal', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-cf-'));
  const file = path.join(dir, 'contract_test.py');
  fs.writeFileSync(file, 'def test_a():\n    assert 1 == 1\n');
  const { sha256 } = await sealContract({ dir });
  expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(await guardContract({ dir, sha256: sha256! })).toEqual({ intact: true, foundSha256: sha256, restoredSha256: sha256 });
  fs.rmSync(file);
  fs.writeFileSync(file, 'def test_a():\n    pass\n');
  const edited = await guardContract({ dir, sha256: sha256! });
  expect([edited.intact, edited.foundSha256 === sha256, edited.restoredSha256]).toEqual([false, false, sha256]);
  expect(fs.readFileSync(file, 'utf8')).toBe('def test_a():\n    assert 1 == 1\n');
  fs.rmSync(file);
  expect((await guardContract({ dir, sha256: sha256! })).foundSha256).toBe('missing');
  expect(await sealContract({ dir: fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-cf-')) })).toEqual({ sha256: null });
});

test('the judge labels the scored suite: contract_test.py (shown) for Contract-First, test_solution.py for the paper conditions', () => {
  const dir = conditionDirWithCandidate();
  fs.writeFileSync(path.join(dir, 'contract_test.py'), 'def test_contract_marker():\n    assert 1 == 1\n');
  fs.writeFileSync(path.join(dir, 'judge-input.json'), '{"obligations": []}');
  const judge = (condition: string) => {
    const req = { studyId: 's', taskId: 'q3', condition, stage: 'judge', workDir: dir, callIndex: 90, model: 'replay:x', params: { temperature: 1, topP: 1, maxTokens: 10, longContext: false }, inputs: { feedbackFile: path.join(dir, 'judge-input.json') } } as StageRequest;
    const { template, vars } = stageVars(req, loadTaskSpec('q3'));
    return renderTemplate(template, vars).text;
  };
  const cf = judge('contract-first');
  expect(cf).toContain('(does contract_test.py check it?)');
  expect(cf).toContain('```python contract_test.py\ndef test_contract_marker():');
  const op = judge('one-pass');
  expect(op).toContain('(does test_solution.py check it?)');
  expect(op).not.toContain('test_contract_marker');
});
