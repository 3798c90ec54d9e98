/** Table III's caution on plan scores from unmeasured labellers (activities/report/render.ts planCaveat; new-user 3 finding 29). */
import { planCaveat } from '../../activities/report/render';

test('a caution when plan labels come from the heuristic or the judge; none when from raters only', () => {
  expect(planCaveat('heuristic 84, raters-agreed 12')).toBe(
    ' Plan score: its automated plan labels come from heuristic 84 (labels), labellers whose plan labels are not measured on known truth (only code labels are, below): read the plan columns here and in Table IV as indicative.',
  );
  expect(planCaveat('judge 40, heuristic 2')).toContain('come from judge 40, heuristic 2 (labels)');
  expect(planCaveat('adjudicated 10')).toBe('');
  expect(planCaveat('none')).toBe('');
});
