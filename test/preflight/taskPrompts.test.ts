/**
 * Every task of the corpus (tasks/<taskId>/task.yaml) renders a generation prompt that passes the
 * reference-SQL check: a task prompt that reads like its query would stop the study at its first call.
 */
import * as fs from 'fs';
import * as path from 'path';
import YAML from 'yaml';
import { REPO_ROOT } from '../../activities/common/paths';
import { TaskSpec } from '../../protocol/corpus';
import { renderTaskPrompt } from '../../activities/model/prompts';
import { referenceSql } from '../../activities/preflight/referenceSql';
import { describeOverlap, findSqlLeaks } from '../../activities/preflight/sqlNgrams';

test('no task prompt contains reference SQL', async () => {
  const root = path.join(REPO_ROOT, 'tasks');
  const ids = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => fs.existsSync(path.join(root, d, 'task.yaml'))) : [];
  const { index } = await referenceSql();
  const leaks: string[] = [];
  for (const id of ids) {
    const parsed = TaskSpec.safeParse(YAML.parse(fs.readFileSync(path.join(root, id, 'task.yaml'), 'utf8')));
    if (!parsed.success) continue; // schema problems are the corpus checker's business
    for (const o of findSqlLeaks(renderTaskPrompt(parsed.data), index)) leaks.push(`${id}: ${describeOverlap(o)}`);
  }
  expect(leaks).toEqual([]);
});
