/** Replay-corpus builder (placeholder until written below). */
export interface BuildReplayReport { lines: string[]; goldTasks: number; goldFiles: number; lockinWritten: number; lockinKept: number; problems: string[] }
export function buildReplay(_opts: { ids?: string[] }): BuildReplayReport {
  return { lines: [], goldTasks: 0, goldFiles: 0, lockinWritten: 0, lockinKept: 0, problems: ['not written yet'] };
}
