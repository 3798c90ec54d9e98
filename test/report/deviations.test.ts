/** The deviations list: the docs/paper.md section (moved from the README) names every one, and the report renders them with the study's own first. */
import * as fs from 'fs';
import * as path from 'path';
import { DEVIATIONS, renderDeviations, studyDeviations } from '../../activities/report/deviations';

test('the docs/paper.md section "Deviations from the paper" has every deviation of activities/report/deviations.ts, by title', () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'paper.md'), 'utf8');
  const section = readme.split('## Deviations from the paper')[1].split('\n## ')[0];
  const titles = [...section.matchAll(/^- \*\*(.+?)\.\*\*/gm)].map((m) => m[1]);
  expect(titles).toEqual(DEVIATIONS.map((d) => d.title));
  expect(titles).toEqual(expect.arrayContaining(['Query texts', 'Data generator', 'A call is one API request, or one Claude Code session', 'top_p recorded, not sent', 'Task selection', 'Replay replies']));
});

test('study deviations: a replayed model and a task subset are named; a full live study on the paper\'s model has none', () => {
  expect(studyDeviations({ model: 'replay:lockin', tasks: ['q3', 'q4'], studyTaskCount: 30 })).toEqual([
    "This study's replies were replayed from `replay:lockin`, not sampled from claude-sonnet-4-6 (see the first paragraph for their provenance).",
    'This study assigned 2 of the 30 study tasks (q3 q4).',
  ]);
  const all = Array.from({ length: 30 }, (_, i) => `q${i}`);
  expect(studyDeviations({ model: 'anthropic:claude-sonnet-4-6', tasks: all, studyTaskCount: 30 })).toEqual([]);
  expect(studyDeviations({ model: 'anthropic:claude-opus-4-1', tasks: all, studyTaskCount: 30 })).toEqual(["This study's model is `anthropic:claude-opus-4-1`, not the paper's claude-sonnet-4-6."]);
  const md = renderDeviations([]);
  expect(md.split('\n')).toHaveLength(DEVIATIONS.length);
  expect(md).toContain('- **A call is one API request, or one Claude Code session.** Paper: A protocol-level call is a Claude Code (July 2026) session');
});

test('a study off the paper\'s scale says so; SF=1 does not', () => {
  expect(studyDeviations({ model: 'anthropic:claude-sonnet-4-6', tasks: ['q3'], studyTaskCount: 1, scale: 0.01 })).toEqual(["This study ran on the SF=0.01 database, not the paper's SF=1."]);
  expect(studyDeviations({ model: 'anthropic:claude-sonnet-4-6', tasks: ['q3'], studyTaskCount: 1, scale: 1 })).toEqual([]);
});
