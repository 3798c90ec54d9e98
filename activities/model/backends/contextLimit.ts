/**
 * A server's "prompt over the context limit" answer, recognized and explained: an HTTP 400 whose
 * body says the prompt does not fit (it is never retried, as no 400 is: the same prompt would not
 * fit the next time). The words servers use, as their error bodies state them:
 *   OpenAI         code "context_length_exceeded": "This model's maximum context length is N
 *                  tokens. However, your messages resulted in M tokens …"
 *   vLLM           "This model's maximum context length is N tokens. However, you requested M
 *                  tokens (P in the messages, C in the completion) …"
 *   llama.cpp      type "exceed_context_size_error": "the request exceeds the available context
 *                  size …", with n_prompt_tokens and n_ctx
 *   Anthropic      "prompt is too long: M tokens > N maximum"
 */

/** The limit and the prompt's size as the server stated them (null: not stated). */
export interface ContextLimit {
  limitTokens: number | null;
  promptTokens: number | null;
}

const CONTEXT_WORDS = /context_length_exceeded|exceed_context_size|maximum context length|exceeds the available context|context window|prompt is too long|too many tokens|context length/i;

/**
 * Reads a 400 body as a context-limit error. Pure.
 * @param status the HTTP status; @param body the response body as text.
 * @returns the stated limit and prompt size, or null when the body is not about the context.
 */
export function parseContextLimit(status: number | null, body: string): ContextLimit | null {
  if (status !== 400 || !CONTEXT_WORDS.test(body)) return null;
  const num = (re: RegExp) => {
    const m = re.exec(body);
    return m ? Number(m[1]) : null;
  };
  return {
    limitTokens: num(/maximum context length is (\d+)/i) ?? num(/"n_ctx"\s*:\s*(\d+)/) ?? num(/tokens? > (\d+) maximum/i),
    promptTokens: num(/"n_prompt_tokens"\s*:\s*(\d+)/) ?? num(/\((\d+) in the messages/i) ?? num(/resulted in (\d+) tokens/i) ?? num(/prompt is too long: (\d+) tokens/i),
  };
}

/**
 * The error message of a prompt over the context limit: names the model, the limit and the
 * prompt's size (the server's token counts where it gave them, and the prompt's characters).
 */
export function contextLimitMessage(who: string, limit: ContextLimit, promptChars: number, serverSaid: string): string {
  const size = limit.promptTokens !== null ? `${limit.promptTokens} tokens (${promptChars} characters)` : `${promptChars} characters (the server gave no token count)`;
  const max = limit.limitTokens !== null ? `${limit.limitTokens} tokens` : 'a limit the server did not state';
  return `${who}: the prompt is over the model's context limit, not retried (HTTP 400): the prompt is ${size}, the context is ${max}; use a model or server with a longer context, or lower max_tokens. The server said: ${serverSaid.slice(0, 300)}`;
}
