"""Runs many variants of one task (gold mutants, the gold itself) in ONE Python process with ONE
SparkSession, and hands back each variant's output the way candidate execution does (Arrow IPC
file + Spark schema JSON, outputs.write_output_fds), so each can be compared with the reference
(equivalent-mutant detection and the obligations check, activities/mutation/generate.ts).

A Spark job like any other (activities/mutation/generate.ts mutantOutputs runs it through
activities/execution/slots.ts runSparkJob): sandboxed, cold or in a warm slot, where
spark_session.build_session attaches to the slot's JVM and the session is this job's own (it is
not stopped at the end: the slot's supervisor resets it). The variants are lockin's own code
(mutants of the gold solutions), so one process runs them all: each variant's solution.py is
imported fresh under a module name of its own, `solve` is called with the shared session and
tables, and every exception is caught per variant.

The variant folders are read-only. Variant k's output goes to the two descriptors the harness
opened for it (--out-fds, pair k: output.arrow, schema.json); its result, as soon as it is
known, is one JSON line on the harness channel (LOCKIN_CHANNEL_FD):
    {"index": k, "dir", "status": "ok" | "exception" | "timeout", "reason"?, "rows"?, "ms"}
so a caller whose run was cut short still has the finished ones. Progress on stderr; at the end
ONE JSON line on stdout, {"results": [...]} in the order of --variants. Variants' own prints go
to stderr.

Each variant has a time limit (--per-variant-timeout, seconds): past it, its Spark jobs are
cancelled and it is recorded as {"status": "timeout"}; the next variant runs in the same session.
A variant that does not let go within --cancel-grace seconds of the cancel (a hang in Python, not
in Spark) ends the process after its result (and that of a variant running beside it) is
written: later variants have no result (the caller records them as not run).

--at-once 2 runs two variants at a time, each in a thread of its own with its Spark jobs in a job
group of their own, on the one session and its tables (docs/protocol.md §7 "How an execution job
meets its variants"): a query on a small database keeps about one core busy, so a second variant uses the
other. Sharing the session is safe because the variants only read the tables and build
DataFrames; the caller asks for one at a time when a variant's text reaches the session's state
(temp views, SQL conf, the catalog, caching, the context: activities/mutation/sharedState.ts
sessionStateUse). Each variant's output is the same whatever runs beside it.

Usage (LOCKIN_CHANNEL_FD set):
    python mutant_outputs.py --variants DIR1,DIR2,... --db DB_DIR --settings JSON|@FILE
        --out-fds A0:S0,A1:S1,... [--per-variant-timeout 600] [--cancel-grace 60] [--at-once 1|2]
"""
from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import sys
import threading
import time
import traceback



# The same one-line summaries as a candidate's execution (exec_candidate.py).
from exec_candidate import _candidate_line as _solution_line, _short  # noqa: E402


def _with_root_cause(text: str) -> str:
    """A Java exception's text with its innermost "Caused by:" line moved up as the second line
    (": <cause>"), so that a reason cut to its first 1500 characters still names the cause
    (py4j's first lines name only the JVM call, e.g. "An error occurred while calling o1400.getResult.")."""
    causes = [line.strip()[len("Caused by: "):] for line in text.splitlines() if line.strip().startswith("Caused by: ")]
    if not causes:
        return text
    first, _, rest = text.partition("\n")
    return f"{first}\n: {causes[-1]}\n{rest}"


def run_variant(spark, tables, variant: str, index: int, fds: tuple[int, int]) -> dict:
    """Imports `<variant>/solution.py` as a fresh module, calls solve(spark, tables) and writes
    the output to the descriptors `fds` (output.arrow, schema.json).

    Returns: {"dir", "status": "ok", "rows", "ms"} or {"dir", "status": "exception", "reason", "ms"}
    (the reason names the exception type, its message and the solution.py line). Never raises
    for anything the variant does (KeyboardInterrupt excepted).
    """
    from pyspark.sql import DataFrame
    from outputs import write_output_fds

    t0 = time.monotonic()
    path = os.path.join(variant, "solution.py")
    name = f"lockin_variant_{index}"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise FileNotFoundError(f"{path}: no solution.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        solve = getattr(module, "solve", None)
        if not callable(solve):
            raise AttributeError("solution.py defines no callable solve(spark, tables)")
        df = solve(spark, tables)
        if not isinstance(df, DataFrame):
            raise TypeError(f"solve returned {type(df).__name__}, not a pyspark.sql.DataFrame")
        written = write_output_fds(df, *fds)
        result = {"dir": variant, "status": "ok", "rows": int(written["rows"])}
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a variant's failure is an outcome
        result = {"dir": variant, "status": "exception",
                  "reason": _short(_with_root_cause(f"{type(exc).__name__}: {exc}") + _solution_line(exc.__traceback__))}
    finally:
        sys.modules.pop(name, None)
    result["ms"] = int((time.monotonic() - t0) * 1000)
    return result


def run_with_limit(spark, tables, variant: str, index: int, limit_s: float, grace_s: float,
                   fds: tuple[int, int]) -> tuple[dict, bool]:
    """run_variant in a thread of its own, with its Spark jobs in a job group of their own.

    Returns (result, released): past `limit_s` seconds the group's jobs are cancelled and the
    result is {"dir", "status": "timeout", "reason", "ms"}; released is False when the variant's
    thread was still running `grace_s` seconds after the cancel (the process cannot go on safely).
    """
    box: dict = {}
    group = f"lockin-variant-{index}"

    def target() -> None:
        spark.sparkContext.setJobGroup(group, os.path.basename(variant), interruptOnCancel=True)
        box["result"] = run_variant(spark, tables, variant, index, fds)

    t0 = time.monotonic()
    worker = threading.Thread(target=target, name=group, daemon=True)
    worker.start()
    worker.join(limit_s)
    if not worker.is_alive() and "result" in box:
        return box["result"], True
    spark.sparkContext.cancelJobGroup(group)
    worker.join(grace_s)
    reason = f"stopped after the per-variant time limit of {limit_s:g} s"
    return {"dir": variant, "status": "timeout", "reason": reason, "ms": int((time.monotonic() - t0) * 1000)}, not worker.is_alive()


def run_all(spark, tables, variants: list[str], out_fds: list[tuple[int, int]], limit_s: float,
            grace_s: float, at_once: int, on_result) -> tuple[list[dict | None], bool]:
    """Runs every variant through run_with_limit, `at_once` at a time (1 or 2), taking them in
    order from one queue; `on_result(i, result)` is called (under a lock) as each finishes.

    Returns (results in the order of `variants`, None for a variant not started; released):
    released is False when a variant did not let go after its cancel, in which case no further
    variant is started and the variant running beside it is waited for (its own limit applies).
    """
    results: list[dict | None] = [None] * len(variants)
    lock = threading.Lock()
    state = {"next": 0, "released": True}

    def lane() -> None:
        while True:
            with lock:
                if not state["released"] or state["next"] >= len(variants):
                    return
                i = state["next"]
                state["next"] += 1
            r, released = run_with_limit(spark, tables, variants[i], i, limit_s, grace_s, out_fds[i])
            with lock:
                results[i] = r
                on_result(i, r)
                if not released:
                    state["released"] = False
                    return
            try:
                spark.catalog.clearCache()
                # Free what the variant left in the driver before the next one: Python's references
                # to its JVM objects (py4j releases them when collected), then a JVM GC, after which
                # Spark's ContextCleaner drops its broadcast relations and shuffles. Without it they
                # pile up until Spark's periodic GC (30 min): at SF=1 with a 2g driver, the 8th
                # variant of q69 failed in collect's awaitResult (obligations check, 2026-12-03).
                gc.collect()
                spark.sparkContext._jvm.System.gc()
            except Exception:  # noqa: BLE001
                pass

    if at_once <= 1:
        lane()
    else:
        lanes = [threading.Thread(target=lane, name=f"lockin-lane-{k}", daemon=True) for k in range(at_once)]
        for t in lanes:
            t.start()
        for t in lanes:
            t.join()
    return results, state["released"]


def _parse_out_fds(text: str, n: int) -> list[tuple[int, int]]:
    """`--out-fds` "A0:S0,A1:S1,...": one pair of descriptors per variant, in order.
    Exits (tables.fail) when the count or a number is wrong."""
    from tables import fail

    try:
        pairs = [tuple(int(x) for x in p.split(":")) for p in text.split(",") if p]
    except ValueError:
        fail(f"--out-fds: {text!r} is not A:S,... descriptor pairs")
    if len(pairs) != n or any(len(p) != 2 for p in pairs):
        fail(f"--out-fds: {len(pairs)} pair(s) for {n} variant(s)")
    return pairs  # type: ignore[return-value]


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", required=True, help="comma-separated folders, each holding solution.py")
    ap.add_argument("--db", required=True, help="typed database folder (databaseDir(S))")
    ap.add_argument("--settings", required=True, help="SparkSettings JSON (inline or @file)")
    ap.add_argument("--per-variant-timeout", type=float, default=600.0, help="seconds per variant")
    ap.add_argument("--cancel-grace", type=float, default=60.0, help="seconds a cancelled variant has to let go")
    ap.add_argument("--out-fds", required=True, help="per variant, in order, the descriptors of output.arrow and schema.json (A:S,...)")
    ap.add_argument("--at-once", type=int, choices=(1, 2), default=1, help="variants run at a time (threads on the one session)")
    args = ap.parse_args(argv)

    from spark_session import build_session, parse_settings_arg
    from tables import fail, load_tables, progress

    variants = [os.path.abspath(v) for v in args.variants.split(",") if v]
    for v in variants:
        if not os.path.isfile(os.path.join(v, "solution.py")):
            fail(f"{v}: no solution.py")
    try:
        settings = parse_settings_arg(args.settings)
    except ValueError as exc:
        fail(str(exc))
    out_fds = _parse_out_fds(args.out_fds, len(variants))
    if not os.environ.get("LOCKIN_CHANNEL_FD"):
        fail("no harness channel (LOCKIN_CHANNEL_FD)")
    channel = int(os.environ["LOCKIN_CHANNEL_FD"])
    warm = os.environ.get("LOCKIN_SPARK_WARM") == "1"

    # Variants' prints must not reach the result line.
    result_fd = os.dup(1)
    os.dup2(2, 1)

    at_once = args.at_once
    progress(f"starting Spark for {len(variants)} variant(s), {at_once} at a time")
    spark = build_session(settings, "lockin-mutant-outputs")
    tables = load_tables(spark, args.db)
    done = [0]

    def on_result(i: int, r: dict) -> None:
        os.write(channel, (json.dumps({"index": i, **r}) + "\n").encode("utf-8"))
        done[0] += 1
        progress(f"[{done[0]}/{len(variants)}] {os.path.basename(variants[i])}: {r['status']}"
                 + (f" ({r['rows']} rows)" if "rows" in r else f": {r.get('reason', '').splitlines()[0][:200]}")
                 + f" in {r['ms']} ms")

    results, released = run_all(spark, tables, variants, out_fds, args.per_variant_timeout,
                                args.cancel_grace, at_once, on_result)
    finished = [r for r in results if r is not None]
    sys.stdout.flush()
    sys.stderr.flush()
    os.write(result_fd, (json.dumps({"results": finished}) + "\n").encode("utf-8"))
    if not released:
        progress(f"a variant did not stop after the cancel: ending here, {len(variants) - len(finished)} variant(s) not run")
        sys.stderr.flush()
        os._exit(0)
    if not warm:  # a warm slot's context outlives the job (its supervisor resets the session)
        spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
