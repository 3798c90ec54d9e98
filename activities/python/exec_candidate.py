"""Runs a frozen candidate: imports solution.py, calls solve(spark, tables) on the study
database, and (mode "execute") writes output.arrow + schema.json, or (mode "smoke") only asks
Spark for the analysed schema of the returned DataFrame.

Runs INSIDE the sandbox built by activities/execution/sandbox.ts (a fresh process per
candidate). Protocol: progress on stderr; the harness's messages, one JSON object per line, on
the channel descriptor (LOCKIN_CHANNEL_FD, a pipe the sandbox opened): `{"event":
"candidate-start"}` just before the first line of candidate code runs, then ONE result object.
stdout is never read by the harness (the candidate's prints are re-pointed to stderr anyway).
The host honours "harness-error" only when it comes before "candidate-start": after it, every
line on the channel could have been written by the candidate (activities/execution/execute.ts).
In mode execute, output.arrow and schema.json are written to descriptors the harness opened
(--arrow-fd, --schema-fd), never to a path.

Result JSON: {"status": "ok" | "exception" | "out-of-memory" | "forbidden-access" |
"missing-solution" | "harness-error", "reason"?: str, "rows"?: int, "schema"?: str,
"forbidden"?: [path], "phasesMs": {phase: ms}}. "harness-error" means lockin itself failed
(Spark did not start, the database did not load): not the candidate's fault, the caller retries.

Order: Spark session from the study settings -> tables loaded -> guard installed -> solution
imported (import-time code already counts as the candidate) -> Python address-space limit
applied (after the JVM started, so the JVM keeps its own -Xmx = settings.driverMemory) -> solve
-> output written. docs/protocol.md §4 "Execution".
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import resource
import sys
import time
import traceback

import exec_guard

_RESULT_FD: int | None = None
_T0 = time.monotonic()
_PHASES: dict[str, int] = {}


def _send(obj: dict) -> None:
    """Writes one JSON line on the harness channel (stdout when there is none)."""
    os.write(_RESULT_FD if _RESULT_FD is not None else 1, (json.dumps(obj) + "\n").encode("utf-8"))


def _emit(result: dict) -> None:
    """Writes the result line on the channel and leaves at once (no candidate atexit)."""
    result.setdefault("phasesMs", _PHASES)
    sys.stderr.flush()
    _send(result)
    os._exit(0)


def _phase(name: str, since: float) -> float:
    now = time.monotonic()
    _PHASES[name] = int((now - since) * 1000)
    print(f"[exec] {name}: {_PHASES[name]} ms", file=sys.stderr, flush=True)
    return now


def _short(text: str, limit: int = 1500) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + f" … [{len(text) - limit} more chars]"


def _candidate_line(tb) -> str:
    """' (solution.py line N)' for the innermost traceback frame in solution.py, else ''."""
    line = ""
    for frame in traceback.extract_tb(tb):
        if os.path.basename(frame.filename) == "solution.py":
            line = f" (solution.py line {frame.lineno})"
    return line


def classify(exc: BaseException) -> dict:
    """Maps a candidate exception to an execution status and a one-paragraph reason.

    Precedence: forbidden access (the audit hook refused a path, or the message names a
    forbidden path, e.g. a JVM-side read) > out-of-memory (MemoryError, java OutOfMemoryError)
    > exception. The reason names the exception type and message (truncated to 1500 chars).
    """
    text = f"{type(exc).__name__}: {exc}"
    where = _candidate_line(exc.__traceback__)
    tried = exec_guard.attempts()
    named = exec_guard.mentions_forbidden(text)
    if tried or named:
        paths = tried or [named]
        return {"status": "forbidden-access", "forbidden": paths,
                "reason": _short(f"candidate tried to read {', '.join(paths)} (not available to candidates){where}; {text}")}
    if isinstance(exc, MemoryError) or "OutOfMemoryError" in text:
        return {"status": "out-of-memory", "reason": _short(f"{text}{where}")}
    return {"status": "exception", "reason": _short(f"{text}{where}")}


def _limit_address_space(extra_mb: int) -> None:
    """Caps this Python process's address space at its current size + `extra_mb` MiB
    (soft = hard, so the candidate cannot raise it). The JVM was started before, so it keeps
    its own limits."""
    if extra_mb <= 0:
        return
    with open("/proc/self/status", encoding="ascii") as fh:
        vm_kb = next(int(l.split()[1]) for l in fh if l.startswith("VmSize:"))
    cap = vm_kb * 1024 + extra_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def main(argv: list[str]) -> None:
    global _RESULT_FD
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=["execute", "smoke"], required=True)
    ap.add_argument("--candidate", required=True, help="folder holding the frozen solution.py")
    ap.add_argument("--db", required=True, help="typed database folder (databaseDir(S))")
    ap.add_argument("--arrow-fd", type=int, help="descriptor receiving output.arrow (mode execute)")
    ap.add_argument("--schema-fd", type=int, help="descriptor receiving schema.json (mode execute)")
    ap.add_argument("--settings", required=True, help="SparkSettings JSON (inline or @file)")
    ap.add_argument("--python-memory-mb", type=int, default=0)
    args = ap.parse_args(argv)

    # The harness channel; the candidate's prints go to stderr.
    channel = os.environ.get("LOCKIN_CHANNEL_FD")
    _RESULT_FD = int(channel) if channel else os.dup(1)
    os.set_inheritable(_RESULT_FD, False)
    os.dup2(2, 1)

    # lockin's own modules are imported before any candidate code runs.
    from pyspark.sql import DataFrame
    from outputs import write_output_fds
    from spark_session import parse_settings_arg, build_session
    from tables import load_tables

    try:
        settings = parse_settings_arg(args.settings)
    except ValueError as exc:
        _emit({"status": "harness-error", "reason": str(exc)})
    if args.mode == "execute" and (args.arrow_fd is None or args.schema_fd is None):
        _emit({"status": "harness-error", "reason": "--arrow-fd and --schema-fd are required in mode execute"})

    sol = os.path.join(args.candidate, "solution.py")
    if not os.path.isfile(sol):
        _emit({"status": "missing-solution", "reason": f"{sol}: no solution.py in the frozen artifacts"})

    t = time.monotonic()
    try:
        spark = build_session(settings, f"lockin-{args.mode}")
        t = _phase("spark", t)
        tables = load_tables(spark, args.db)
        t = _phase("tables", t)
    except BaseException as exc:  # noqa: BLE001
        _emit({"status": "harness-error", "reason": _short(f"{type(exc).__name__}: {exc}")})

    # From here on, candidate code runs. The study's session exists already, so a candidate's
    # own SparkSession.builder.getOrCreate() (often at module level) gets it, settings intact.
    exec_guard.install()
    _send({"event": "candidate-start"})
    exec_guard.activate()
    sys.path.insert(0, args.candidate)
    try:
        module = importlib.import_module("solution")
        solve = getattr(module, "solve", None)
        if not callable(solve):
            raise AttributeError("solution.py defines no callable solve(spark, tables)")
    except BaseException as exc:  # noqa: BLE001 - candidate code: everything is an outcome
        _emit(classify(exc))
    t = _phase("import", t)

    try:
        _limit_address_space(args.python_memory_mb)
        df = solve(spark, tables)
        if not isinstance(df, DataFrame):
            raise TypeError(f"solve returned {type(df).__name__}, not a pyspark.sql.DataFrame")
        schema = df.schema.simpleString()  # forces analysis
        t = _phase("solve", t)
        if args.mode == "smoke":
            _emit({"status": "ok", "schema": schema})
        written = write_output_fds(df, args.arrow_fd, args.schema_fd)
        _phase("output", t)
        _emit({"status": "ok", "rows": int(written["rows"]), "schema": schema})
    except BaseException as exc:  # noqa: BLE001
        _emit(classify(exc))


if __name__ == "__main__":
    main(sys.argv[1:])
