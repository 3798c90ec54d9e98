/** Prompts, pricing, the model spec, the RPM limiter and the cache key (pure or local). */
import * as fs from 'fs';
import * as path from 'path';
import YAML from 'yaml';
import { TaskSpec } from '../../protocol/corpus';
import { fillTemplate, loadTemplate, renderTaskPrompt, renderTemplate } from '../../activities/model/prompts';
import { callCost } from '../../activities/model/pricing';
import { isLocalSpec, isReplaySpec, parseModelSpec, tryParseModelSpec } from '../../protocol/model';
import { RpmLimiter } from '../../activities/model/rateLimit';
import { cacheKey, canonicalJson } from '../../activities/model/cache';
import { gatewayConfig } from '../../activities/model/config';
import { STAGES } from '../../protocol/stages';
import { templateFor } from '../../activities/model/stageInputs';
import { FIXTURES } from './support';

const task = TaskSpec.parse(YAML.parse(fs.readFileSync(path.join(FIXTURES, 'tasks', 'q900', 'task.yaml'), 'utf8')));

test('renderTaskPrompt: task prompt, input schemas, the spark fixture and the reply protocol; no header comment', () => {
  const p = renderTaskPrompt(task);
  expect(p.startsWith('# Task q900: Units sold per widget colour\n')).toBe(true);
  expect(p).toContain('1. `colour`, string: the widget colour');
  expect(p).toContain('| w_widget_sk | int | no |');
  expect(p).toContain('A `spark` pytest fixture (a local SparkSession) is provided');
  expect(p).toContain('```python solution.py');
  expect(p).toContain('No row limit.');
  expect(p).not.toContain('lockin-prompt');
  expect(p).not.toMatch(/\{\{/);
});

test('every stage has a template that loads with a version and a hash', () => {
  for (const s of STAGES) {
    const t = loadTemplate(templateFor(s));
    expect(t.version).toBe(s === 'judge' ? 'v2' : 'v1'); // judge v2: the test label names the scored suite (contract_test.py for Contract-First)
    expect(t.sha256).toMatch(/^[0-9a-f]{64}$/);
  }
  expect(loadTemplate('generate').sha256).toBe(loadTemplate('generate').sha256);
  expect(loadTemplate('generate').sha256).not.toBe(loadTemplate('revise').sha256);
});

test('a missing placeholder value is an error naming it; values are not re-expanded', () => {
  expect(() => fillTemplate('t', 'a {{x}} b', {})).toThrow('prompt template t: no value for {{x}}');
  expect(fillTemplate('t', '{{x}}', { x: '{{y}}' })).toBe('{{y}}');
  expect(() => renderTemplate('c2-assess', { taskId: 'q1', title: 't', taskPrompt: 'p' })).toThrow('no value for {{priorOutputs}}');
});

test('pricing: exact cost, long-context surcharge, unknown model', () => {
  const u = { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 2000, cacheWriteTokens: 100 };
  // 1000*3 + 500*15 + 2000*0.3 + 100*3.75 = 3000 + 7500 + 600 + 375 = 11475 per M
  expect(callCost('claude-sonnet-4-6', u)).toEqual({ costUsd: 0.011475, note: undefined });
  const big = { inputTokens: 300_000, outputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0 };
  // 300000*3*2 + 1000*15*1.5 = 1,800,000 + 22,500 per M
  expect(callCost('claude-sonnet-4-6', big).costUsd).toBe(1.8225);
  expect(callCost('some-model', u)).toEqual({ costUsd: null, note: 'no price for model some-model in pricing table 2026-11' });
});

test('model specs', () => {
  expect(parseModelSpec('anthropic')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-6', params: {} });
  expect(parseModelSpec('anthropic:')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-6', params: {} });
  expect(parseModelSpec('anthropic:claude-opus-4-6')).toEqual({ provider: 'anthropic', model: 'claude-opus-4-6', params: {} });
  expect(parseModelSpec('replay:/x/y')).toEqual({ provider: 'replay', model: '/x/y', params: {} });
  expect(parseModelSpec('replay:lockin')).toEqual({ provider: 'replay', model: 'lockin', params: {} });
  expect(parseModelSpec('openai:m?ctx=8192&seed=1')).toEqual({ provider: 'openai', model: 'm', params: { ctx: '8192', seed: '1' } });
  expect(() => parseModelSpec('replay:')).toThrow('replay spec needs a directory');
  expect(() => parseModelSpec('gpt')).toThrow('unknown model spec "gpt" (expected anthropic:<model-id>, openai:<model-id>, replay:<dir>, local:<gguf-path-or-name>, or claude-code:<model-id>)');
  expect(parseModelSpec('local')).toEqual({ provider: 'local', model: 'gemma3-270m', params: {} });
  expect(parseModelSpec('local:/m/qwen.gguf?format=chat')).toEqual({ provider: 'local', model: '/m/qwen.gguf', params: { format: 'chat' } });
  expect(() => parseModelSpec('openai:m?ctx')).toThrow('"ctx" is not name=value');
  expect(() => parseModelSpec('openai:m?a=1&a=2')).toThrow('"a" is given twice');
  expect(() => parseModelSpec('gpt')).toThrow(expect.objectContaining({ name: 'InputError', field: 'model' }));
  expect(tryParseModelSpec('gpt')).toBeNull();
  expect(['replay:lockin', 'replay:', 'anthropic', 'scripted', 'xreplay:a', 'local'].map(isReplaySpec)).toEqual([true, false, false, false, false, false]);
  expect(['local', 'local:gemma3-270m', 'replay:lockin', 'openai:m'].map(isLocalSpec)).toEqual([true, true, false, false]);
});

test('the RPM limiter admits rpm requests per 60 s window, then waits', async () => {
  let now = 0;
  const waits: number[] = [];
  const lim = new RpmLimiter(2, () => now, async (ms) => {
    waits.push(ms);
    now += ms;
  });
  expect(await lim.acquire()).toBe(0);
  now = 10_000;
  expect(await lim.acquire()).toBe(0);
  now = 20_000;
  expect(await lim.acquire()).toBe(40_001); // waits until the first stamp leaves the window
  expect(waits).toEqual([40_001]);
  expect(await new RpmLimiter(0).acquire()).toBe(0);
});

test('cache key: canonical JSON ignores key order; config parsing is typed', () => {
  expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 2 }] } })).toBe('{"a":{"c":[3,{"e":2,"f":1}],"d":2},"b":1}');
  expect(cacheKey({ a: 1, b: 2 })).toBe(cacheKey({ b: 2, a: 1 }));
  expect(cacheKey({ a: 1 })).not.toBe(cacheKey({ a: 2 }));
  expect(gatewayConfig({ LOCKIN_MODEL_RPM: '7' }).rpm).toBe(7);
  expect(gatewayConfig({}).maxRetries).toBe(8);
  expect(() => gatewayConfig({ LOCKIN_MODEL_RPM: 'fast' })).toThrow('LOCKIN_MODEL_RPM');
});
