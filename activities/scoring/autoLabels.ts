/**
 * Automated obligation labels for one run (docs/protocol.md §5): a pure function combining,
 * in order of precedence,
 *   1. execution: when the frozen candidate did not execute, every code label is
 *      `execution-failed` (the paper: "Execution failures receive zero code scores; plan and
 *      test scores retain observed labels");
 *   2. executable: an obligation with an executable form gets its code label from its
 *      acceptance tests on the candidate and its test label from the candidate's suite on its
 *      violation (activities/obligations/labels.ts, executable-labels.json);
 *   3. schema-rule: obligations with a schema `rule` get their code label from the candidate
 *      output's Spark schema (schemaRules.ts);
 *   4. judge: the model-judge reply (stage 'judge'), for everything else;
 *   5. heuristic: the documented fallback of heuristic.ts, a labelled last resort when no
 *      executable form and no judge reply covers the obligation. Marked `source: heuristic`.
 */
import type { Obligation } from '../../protocol/corpus';
import type { FailureCategory } from '../../protocol/types';
import type { ObligationLabel, PlanLabel, CodeLabel, TestLabel, LabelSource } from '../../protocol/labels';
import { checkRule, type OutputField } from '../obligations/schemaRules';
import { keyTerms, heuristicPlan, heuristicTest, heuristicCode } from '../obligations/heuristic';
import type { ExecutableLabelsFile } from '../obligations/labels';

/** One judge label as validated by JudgeReply (protocol/stages.ts). */
export interface JudgeLabel {
  id: string;
  plan: PlanLabel;
  code: CodeLabel;
  test: TestLabel;
  rationale?: string;
}

/** Everything the automated labeller looks at for one run. */
export interface AutoLabelInput {
  obligations: Obligation[];
  /** The frozen artifacts' text ('' when a file is missing). */
  artifacts: { plan: string; solution: string; tests: string };
  /** True when the candidate executed on the study database (ExecutionOutcome.status = ok). */
  executed: boolean;
  /** The candidate output's schema (null when it did not execute or schema.json is missing). */
  outputSchema: OutputField[] | null;
  /** Reference agreement and failure categories (null when not compared). */
  comparison: { agree: boolean; categories: FailureCategory[] } | null;
  /** Judge labels, or null when no judge reply is available. */
  judge: JudgeLabel[] | null;
  /** Executable code/test labels of the run (executable-labels.json), or null/absent. */
  executable?: ExecutableLabelsFile | null;
}

/**
 * Labels every obligation of one run.
 * Output: one ObligationLabel per obligation, in obligation order, each dimension with its source.
 */
export function autoLabels(input: AutoLabelInput): ObligationLabel[] {
  const judgeById = new Map((input.judge ?? []).map((j) => [j.id, j]));
  const agree = input.comparison?.agree ?? false;
  const categories = input.comparison?.categories ?? [];
  return input.obligations.map((ob) => {
    const terms = keyTerms(ob.statement);
    const j = judgeById.get(ob.id);
    const evidence: string[] = [];
    let plan: PlanLabel, test: TestLabel, code: CodeLabel;
    let planSrc: LabelSource, testSrc: LabelSource, codeSrc: LabelSource;
    const xCode = input.executable?.code[ob.id];
    const xTest = input.executable?.test[ob.id];
    if (j) {
      plan = j.plan;
      test = j.test;
      planSrc = testSrc = 'judge';
      if (j.rationale) evidence.push(`judge: ${j.rationale}`);
    } else {
      plan = heuristicPlan(terms, input.artifacts.plan);
      test = heuristicTest(terms, input.artifacts.tests);
      planSrc = testSrc = 'heuristic';
      evidence.push(`key terms: ${terms.join(' | ') || '(none)'}`);
    }
    if (xTest) {
      test = xTest.label;
      testSrc = 'executable';
      evidence.push(`suite on the violation: ${xTest.evidence}`);
    }
    if (!input.executed) {
      code = 'execution-failed';
      codeSrc = 'execution';
    } else if (xCode) {
      code = xCode.label;
      codeSrc = 'executable';
      evidence.push(`acceptance tests: ${xCode.evidence}`);
    } else if (ob.rule && input.outputSchema) {
      const r = checkRule(ob.rule, input.outputSchema);
      code = r.label;
      codeSrc = 'schema-rule';
      evidence.push(r.evidence);
    } else if (j) {
      code = j.code;
      codeSrc = 'judge';
    } else {
      code = heuristicCode(ob, terms, input.artifacts.solution, agree, categories);
      codeSrc = 'heuristic';
    }
    return { obligation: ob.id, plan, code, test, source: { plan: planSrc, code: codeSrc, test: testSrc }, evidence: evidence.join('; '), ...(xTest?.repeats ? { repeats: xTest.repeats } : {}) };
  });
}
