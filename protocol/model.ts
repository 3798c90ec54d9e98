/**
 * The model a study asks: its spec as given to `--model` and the sampling parameters of a call.
 */

/** Which model backend answers: "anthropic:<model-id>", "openai:<model-id>" or "replay:<dir>" (activities/model/spec.ts). */
export type ModelSpec = string;

/** Sampling parameters as the study intends them (the paper: temperature 1.0, top-p 1.0). */
export interface ModelParams {
  temperature: number;
  topP: number;
  maxTokens: number;
  /** Request the 1M-token context window (the paper's "[1m]" suffix). */
  longContext: boolean;
}
