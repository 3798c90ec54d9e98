/**
 * The task prompt as the model sees it: the gateway's `renderTaskPrompt`
 * (activities/model/prompts) when the gateway provides one, else renderTaskPromptFallback.
 */
import type { TaskSpec } from './schema';
import { renderTaskPromptFallback } from './render';

/**
 * Renders the prompt for `task`.
 * Returns: {text, renderer} where renderer names the function used
 * ("activities/model/prompts renderTaskPrompt" or "activities/tasks/render (fallback)").
 */
export function renderTaskPrompt(task: TaskSpec): { text: string; renderer: string } {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require('../model/prompts') as { renderTaskPrompt?: (t: TaskSpec) => unknown };
    if (typeof mod.renderTaskPrompt === 'function') {
      const out = mod.renderTaskPrompt(task);
      if (typeof out === 'string') return { text: out, renderer: 'activities/model/prompts renderTaskPrompt' };
      if (out && typeof out === 'object' && typeof (out as { text?: unknown }).text === 'string')
        return { text: (out as { text: string }).text, renderer: 'activities/model/prompts renderTaskPrompt' };
    }
  } catch {
    /* the gateway's prompts module is not there yet */
  }
  return { text: renderTaskPromptFallback(task), renderer: 'activities/tasks/render (fallback)' };
}
