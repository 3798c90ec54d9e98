/**
 * The text of `report/README.md`: what each export holds and how to recompute every table
 * cell of report.md with pandas alone (test/report checks the Table III recipe against
 * summary.json).
 */

/** README.md for a report folder; `subsets` are the sensitivity subsets Table V shows (protocol/sensitivity.ts). */
export function readmeText(subsets: readonly { name: string; exclude: string[]; reproducedOnly: boolean }[]): string {
  const subsetLines = subsets
    .map((s) => {
      const keep = [s.reproducedOnly ? '(scores.reproduced == True)' : '', s.exclude.length ? `~scores.task.isin(${JSON.stringify(s.exclude)})` : ''].filter(Boolean);
      const d = keep.length ? `scores[${keep.join(' & ')}]` : 'scores';
      return `subsets[${JSON.stringify(s.name)}] = ${d}`;
    })
    .join('\n');
  return `# Recomputing the report from its exports

Every number in report.md comes from the files in this folder. Read them with pandas
(\`pd.read_parquet\` or \`pd.read_csv\`; the CSVs hold the same rows, booleans as true/false,
empty cells as nulls). Column types: with pandas' default types an integer column that has a
null comes back as float64 and a boolean column with a null as object;
\`pd.read_parquet(f, dtype_backend="numpy_nullable")\` (or \`pd.read_csv(f,
dtype_backend="numpy_nullable")\`) keeps them Int64 and boolean. The recipes below work with either.

| File | One row per | Key columns |
|---|---|---|
| runs.parquet / runs.csv | run (task × condition; replicate runs have \`replicate\` set; a run with no record, because its task or condition failed, has present = false, null outcomes (test_passed, executed, reference_agreement, false_pass, calls_used, sco, deviations: not observed, not false) and zero scores) | model, sample, replayed, reply_provenance (the kinds of the run's replies, ';'-separated: authored, generated, …), test_passed, executed, reference_agreement, false_pass, calls_used, pytest_*, pfe, primary_category, categories (';'-separated), plan/code/test_score (final labels), auto_*_score, sco, test_file_changed, reproduced |
| labels.parquet / labels.csv | obligation of a run | auto_plan/auto_code/auto_test (+ *_source: executable, schema-rule, execution, judge, heuristic, adjudicated; protocol/labels.ts), final_plan/final_code/final_test, final_origin (adjudicated, raters-agreed or automated; plan=…;code=…;test=… when the dimensions differ), plan/code/test_weight of the final labels, sco |
| scores.parquet / scores.csv | primary task × condition (all assigned tasks; a missing run has present = false, zero scores and null outcomes) | plan/code/test_score, *_change_pp (branch − one-pass, percentage points; null for one-pass rows and when this run or its one-pass partner has no record: not a paired task), reproduced |
| trajectories.parquet / .csv | revision branch × task × obligation | trajectory, assertions_changed, test_file_changed |
| summary.json | condition | Table III numbers (fractions, not percent) |
| intervals.json | model × condition, and each paired comparison | the "Samples and intervals" section: Wilson and cluster-bootstrap intervals (fractions), McNemar b/c/p, sign and Wilcoxon tests over every sample (activities/report/intervals.ts) |

Rules (docs/protocol.md §5): weights plan present 1, partial/ambiguous 0.5, absent/contradicted 0;
code satisfied 1, else 0; test covered 1, partially-covered 0.5, not-covered 0. A task score is
the mean weight over its obligations; a condition mean is over ALL assigned tasks (a missing
run scores zero there, and counts in Table III's denominators as a run that neither passed nor
matched), while Table IV pairs only tasks where both the branch's and the one-pass run have a
record (\`*_change_pp\` not null; the others are named as missing). The "Samples and
intervals" section and intervals.json count only runs with a record. An SCO is
plan absent/contradicted AND code violated (not execution-failed) AND test not-covered; an obligation
whose run's suite fails on gold (test invalid-on-gold) is never an SCO, its coverage not being measured.
Labels whose source is \`heuristic\` were produced by the documented fallback
(activities/obligations/heuristic.ts) because no judge reply was available.

\`\`\`python
import pandas as pd
runs = pd.read_parquet("runs.parquet"); labels = pd.read_parquet("labels.parquet")
scores = pd.read_parquet("scores.parquet"); traj = pd.read_parquet("trajectories.parquet")
primary = runs[runs.replicate.isna()]

# Table III (and summary.json): over all assigned runs, a missing run (present == False, null
# outcomes) counting as one that neither passed nor matched.
outcomes = ["test_passed", "executed", "reference_agreement", "false_pass"]
assigned = primary.assign(**{c: primary[c].fillna(False).astype(bool) for c in outcomes},
                          calls_used=primary.calls_used.fillna(0), sco=primary.sco.fillna(0))
t3 = assigned.groupby("condition").agg(
    tasks=("task", "size"), testPassed=("test_passed", "sum"), executed=("executed", "sum"),
    referenceAgreement=("reference_agreement", "sum"), falsePasses=("false_pass", "sum"),
    modelCalls=("calls_used", "sum"), planScoreMean=("plan_score", "mean"),
    codeScoreMean=("code_score", "mean"), testScoreMean=("test_score", "mean"), sco=("sco", "sum"))
t3["falsePassRate"] = t3.falsePasses / t3.tasks                       # over all assigned runs
t3["conditionalFalsePassProportion"] = t3.falsePasses / t3.testPassed  # over test-passing runs
# "Samples and intervals" (intervals.json): the same rate over the runs with a record only
primary[primary.present].groupby("condition").false_pass.agg(["sum", "count"])

# Task scores from the labels themselves (equal to scores.parquet)
by_run = labels[labels.replicate.isna()].groupby(["task", "condition"])[["plan_weight", "code_weight", "test_weight"]].mean()

# Failure categories (runs without reference agreement)
primary[primary.present & ~primary.reference_agreement.fillna(True).astype(bool)].groupby(["condition", "primary_category"]).size()

# Table IV: paired changes with Tukey hinges (odd n: the median belongs to both halves), over
# the paired tasks only (a null change: the branch run or its one-pass partner is missing)
def med(v):
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2
def hinges(x):
    s = sorted(x); h = (len(s) + 1) // 2
    return med(s[:h]), med(s), med(s[len(s) - h:])
def paired(d, branch, dim):
    c = d[d.condition == branch][f"{dim}_change_pp"].dropna()
    lo, md, hi = hinges(list(c))
    return dict(n=len(c), missing=int((d.condition == branch).sum()) - len(c), mean=c.mean(), improved=(c > 0).sum(), unchanged=(c == 0).sum(),
                decreased=(c < 0).sum(), median=md, lower=lo, upper=hi, iqr=hi - lo)
paired(scores, "plan-audit", "test")

# Table V: the same computations on each sensitivity subset (study.json sensitivity; pairing preserved)
subsets = {}
${subsetLines}
paired(subsets[${JSON.stringify(subsets[0]?.name ?? '')}], "plan-audit", "code")   # and Table III's groupby on runs filtered the same way

# Table VI: violated obligations in false-pass runs
v = labels[labels.replicate.isna() & labels.false_pass.fillna(False).astype(bool) & (labels.final_code == "violated")]
v.groupby("condition").agg(violated=("obligation", "size"),
                           no_test_covered=("final_test", lambda t: (t == "not-covered").sum()),
                           covered_passed_anyway=("final_test", lambda t: t.isin(["covered", "partially-covered"]).sum()),
                           suite_fails_on_gold=("final_test", lambda t: (t == "invalid-on-gold").sum()))

# Table VII: targeted replication
runs[runs.replicate.notna()][["task", "replicate", "condition", "pytest_passed", "pytest_total", "pfe", "reference_agreement"]]

# Trajectories (count, and how many had assertions changed)
traj.groupby(["branch", "trajectory"]).agg(count=("obligation", "size"), assertions_changed=("assertions_changed", "sum"))

# Robustness and usage
primary[primary.present].groupby(["condition", "ladder_level"], dropna=False).size()
primary.groupby("condition")[["input_tokens", "output_tokens", "cost_usd"]].sum()

# Figure 1 counts: high internal scores without reference agreement
p = primary[primary.present]
p[(p.plan_score >= 0.9) & ~p.reference_agreement.astype(bool)].groupby("condition").size()
p[(p.test_score >= 0.9) & ~p.reference_agreement.astype(bool)].groupby("condition").size()
\`\`\`

Mutation scores (when ../mutation.json exists, also exported as mutation.csv/.parquet, one
row per suite and non-equivalent mutant):

\`\`\`python
mut = pd.read_parquet("mutation.parquet")
valid = mut[mut.valid_on_gold & (mut.mutant != "")].astype({"killed": bool})  # killed is empty (null) only for suites invalid on gold
valid.groupby("condition").killed.agg(["sum", "count", "mean"])   # pooled score = mean
mut.groupby(["condition", "task"]).valid_on_gold.first().groupby("condition").apply(lambda v: (~v).sum())  # suites invalid on gold
valid[~valid.killed].groupby(["condition", "operator"]).size()    # survivors per operator
\`\`\`

figure2-mutation.svg/.png draws one cell per suite (task × condition): killed/total shaded by
score, grey "inv" for a suite invalid on gold, a red frame where that run was a false pass
(runs.csv's false_pass).

Table II reads ../controls.json and Table V's reproduction list ../reproduce.json (both as
written by lockin); mutation scores read ../mutation.json.
`;
}
