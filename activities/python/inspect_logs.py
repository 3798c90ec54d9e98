"""Write a study's runs as Inspect AI eval logs with inspect_ai's own writer.

Usage: python inspect_logs.py SPEC_JSON
SPEC_JSON (built by activities/report/inspect/spec.ts, whose zod schema documents every field):
  {"logDir": str, "logs": [{"file": str, "task": str, "displayName": str, "model": str,
    "created": ISO str, "metadata": {...}, "metrics": [{"scorer": str, "metrics": {name: float}}],
    "samples": [{"id": str, "epoch": int, "input": str, "target": str, "calls": [CALL],
                 "sections": [{"title": str, "markdown": str}],
                 "scores": {name: {"value": float, "answer": str, "explanation": str}},
                 "metadata": {...}, "error": str | null}]}]}
  CALL: {"stage": str, "callFile": str, "system": str | null,
         "messages": [{"role": "user" | "assistant", "content": str}], "reply": str,
         "model": str, "provenance": str, "cacheHit": bool, "ok": bool,
         "protocolError": str | null, "startedAt": ISO str | null, "finishedAt": ISO str | null,
         "durationMs": float | null, "inputTokens": int, "outputTokens": int,
         "request": {...} | null}
Writes LOG_DIR/<file> for each log (Inspect's binary .eval format, which `inspect view`,
read_eval_log and inspect_ai.analysis.samples_df read) and prints one JSON line:
{"written": [{"file": path, "samples": n}]}.

How a run maps to Inspect (one log per model x condition; a sample per task and sample index):
  messages  the system prompt once, then per protocol call its request's messages and its reply
  events    per call a span named by its stage holding a model event (input, output, the request
            as sent); then one info event per section (artifacts, pytest, comparison, labels);
            then one score event per score
  scores    one per lockin measure, value in [0, 1], explanation in Markdown
Nothing here computes a verdict: every value comes from the spec.
"""
from __future__ import annotations

import json
import os
import sys
from datetime import datetime, timezone

from inspect_ai.event import InfoEvent, ModelEvent, ScoreEvent, SpanBeginEvent, SpanEndEvent
from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalLog,
    EvalMetric,
    EvalPlan,
    EvalPlanStep,
    EvalResults,
    EvalSample,
    EvalScore,
    EvalSpec,
    EvalStats,
    write_eval_log,
)
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    ModelCall,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.scorer import Score


def _when(iso: str | None, fallback: datetime) -> datetime:
    """An ISO time (a trailing Z allowed) as an aware datetime; `fallback` when absent."""
    if not iso:
        return fallback
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def _message(m: dict, meta: dict) -> ChatMessageUser | ChatMessageAssistant:
    cls = ChatMessageAssistant if m["role"] == "assistant" else ChatMessageUser
    return cls(content=m["content"], source="input", metadata=meta)


def sample_of(s: dict, created: datetime) -> EvalSample:
    """One EvalSample from a spec sample (see the module docstring)."""
    messages: list = []
    events: list = []
    usage: dict[str, ModelUsage] = {}
    first_system = next((c["system"] for c in s["calls"] if c.get("system")), None)
    if first_system:
        messages.append(ChatMessageSystem(content=first_system))
    for n, c in enumerate(s["calls"], start=1):
        meta = {"stage": c["stage"], "call": n, "callFile": c["callFile"], "provenance": c["provenance"]}
        asked = [_message(m, meta) for m in c["messages"]]
        reply = ChatMessageAssistant(content=c["reply"] or "(no reply text)", source="generate", model=c["model"], metadata=meta)
        messages.extend(asked)
        messages.append(reply)
        began = _when(c.get("startedAt"), created)
        span = f"{s['id']}-{s['epoch']}-call-{n}"
        events.append(SpanBeginEvent(id=span, name=f"call {n}: {c['stage']}", type="call", timestamp=began))
        call_usage = ModelUsage(input_tokens=c["inputTokens"], output_tokens=c["outputTokens"], total_tokens=c["inputTokens"] + c["outputTokens"])
        u = usage.setdefault(c["model"], ModelUsage())
        u.input_tokens += call_usage.input_tokens
        u.output_tokens += call_usage.output_tokens
        u.total_tokens += call_usage.total_tokens
        events.append(
            ModelEvent(
                span_id=span,
                timestamp=began,
                completed=_when(c.get("finishedAt"), began),
                working_time=(c["durationMs"] or 0) / 1000,
                model=c["model"],
                input=([ChatMessageSystem(content=c["system"])] if c.get("system") else []) + asked,
                tools=[],
                tool_choice="none",
                config=GenerateConfig(),
                output=ModelOutput(model=c["model"], choices=[ChatCompletionChoice(message=reply, stop_reason="stop")], usage=call_usage),
                cache="read" if c["cacheHit"] else None,
                error=c.get("protocolError"),
                call=ModelCall(request=c["request"], response={"text": c["reply"]}) if c.get("request") else None,
                metadata=meta,
            )
        )
        events.append(SpanEndEvent(id=span, span_id=span, timestamp=_when(c.get("finishedAt"), began)))
    for k, sec in enumerate(s["sections"], start=1):
        # A span per section, so the transcript's outline lists it beside the calls.
        span = f"{s['id']}-{s['epoch']}-section-{k}"
        events.append(SpanBeginEvent(id=span, name=sec["title"], type="section", timestamp=created))
        events.append(InfoEvent(span_id=span, source=sec["title"], data=sec["markdown"], timestamp=created))
        events.append(SpanEndEvent(id=span, span_id=span, timestamp=created))
    scores = {name: Score(value=v["value"], answer=v.get("answer"), explanation=v.get("explanation")) for name, v in s["scores"].items()}
    for name, sc in scores.items():
        events.append(ScoreEvent(score=sc, scorer=name, target=s["target"], timestamp=created))
    return EvalSample(
        id=s["id"],
        epoch=s["epoch"],
        input=s["input"],
        target=s["target"],
        messages=messages,
        output=ModelOutput(model=s["calls"][-1]["model"], choices=[ChatCompletionChoice(message=messages[-1], stop_reason="stop")]) if s["calls"] else ModelOutput(),
        scores=scores,
        metadata=s["metadata"],
        events=events,
        model_usage=usage,
        error=None,
    )


def log_of(spec: dict) -> EvalLog:
    """One EvalLog (status success) from a spec log (see the module docstring)."""
    created = _when(spec["created"], datetime.now(timezone.utc))
    samples = [sample_of(s, created) for s in spec["samples"]]
    ids = sorted({s.id for s in samples}, key=str)
    epochs = max((s.epoch for s in samples), default=1)
    return EvalLog(
        version=2,
        status="success",
        eval=EvalSpec(
            created=created.isoformat(),
            task=spec["task"],
            task_display_name=spec["displayName"],
            task_id=spec["task"],
            dataset=EvalDataset(name=spec["metadata"].get("studyId"), samples=len(ids), sample_ids=ids),
            model=spec["model"],
            config=EvalConfig(epochs=epochs),
            metadata=spec["metadata"],
            packages={"lockin": spec["metadata"].get("gitRevision") or "unknown"},
        ),
        plan=EvalPlan(name=spec["task"], steps=[EvalPlanStep(solver=spec["task"], params={"callBudget": spec["metadata"].get("callBudget")})]),
        results=EvalResults(
            total_samples=len(samples),
            completed_samples=len(samples),
            scores=[
                EvalScore(name=m["scorer"], scorer=m["scorer"], scored_samples=len(samples), metrics={k: EvalMetric(name=k, value=v) for k, v in m["metrics"].items()})
                for m in spec["metrics"]
            ],
        ),
        stats=EvalStats(started_at=created.isoformat(), completed_at=created.isoformat()),
        samples=samples,
    )


def main() -> None:
    spec = json.load(open(sys.argv[1], encoding="utf-8"))
    os.makedirs(spec["logDir"], exist_ok=True)
    written = []
    # Written last to first: the viewer lists the newest file first, so the logs show in the spec's order (Table I's).
    for log_spec in reversed(spec["logs"]):
        out = os.path.join(spec["logDir"], log_spec["file"])
        write_eval_log(log_of(log_spec), out, format="eval")
        written.append({"file": out, "samples": len(log_spec["samples"])})
    written.reverse()
    print(json.dumps({"written": written}))


if __name__ == "__main__":
    main()
