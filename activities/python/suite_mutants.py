"""Runs ONE frozen test suite against several solutions (the gold solution and its mutants) in
one sandboxed job and one JVM: the test-suite validity and mutation analysis of issue "Gold
solutions and replay corpora" (docs/protocol.md §4 "Test outcome" for how a suite run is judged,
§7 for the mutation analysis).

Runs INSIDE the sandbox (activities/execution/sandbox.ts): the suite is model-written code.
Layout, prepared by activities/mutation/suites.ts:
    <variants>/<variant id>/solution.py        gold ("gold") or a mutant ("join-type-1", ...)
    <variants>/<variant id>/test_solution.py   the frozen suite, copied unchanged
For each variant, pytest.main runs <variant>/test_solution.py with the same isolation as the
pytest activity (`--noconftest`, the harness's own ini, no cache provider) and a plugin whose
`spark` fixture yields a SparkSession of that variant's own: `newSession()` of the process's
session (temp views, UDFs, SQL conf and current database start clean for every variant; the
SparkContext, cached data and the catalog's tables are shared), made the session
`SparkSession.builder.getOrCreate()` returns (if a suite stops the SparkContext, the next
variant gets a new one). Mutants run with `-x` (the first failing test kills the mutant); gold
runs in full. With --stop-if-gold-fails, a suite that does not pass on gold (run first) is
invalid and is not run on the mutants: each gets {"status": "not-run"}.

With --processes 2 (warm Spark slots, README "How long it takes": one query on small fixtures keeps about one core busy,
so two variants at once use both), this process and one helper process (this script with
--helper, started at once, attached to this process's JVM through its py4j gateway as a warm job
attaches to a slot's) take the variants one at a time from one queue, each in a session of its
own as above; this process takes the first (gold). Under --stop-if-gold-fails, a variant the
helper finishes while gold still runs is reported once gold passed, and as not-run (its result
discarded) when gold failed, so the verdicts are those of gold first, then the rest (until
2026-12-05 the helper waited for gold's verdict before it took a variant). The caller asks
for it only when the suite's text reaches nothing that all sessions of a JVM share
(activities/mutation/sharedState.ts). If the helper ends early, no variant is charged: this
process finishes its own variant and exits without the final status line, and the caller runs
the rest again one at a time (activities/mutation/suites.ts), where an early end is charged.

Each variant's verdict is written on the harness channel (LOCKIN_CHANNEL_FD, a pipe the
sandbox opened; the caller appends it to results.jsonl) as soon as it is known, in the order
the variants finish, so a run killed by the wall-clock watchdog keeps what it finished (the
caller restarts the rest):
    {"variant": id, "exitCode": int, "passed": bool, "ms": int}
Gold's JUnit report goes to the descriptor --gold-junit-fd (opened by the harness); the
mutants' reports stay in the sandbox's private /tmp. Nothing is written through a host path.
`passed` is pytest exit code 0 (every collected test passed; exit 5 "no tests" is not a pass).
The last stdout line is {"status": "ok", "variants": n}.

With --only '{"<variant id>": ["test_a", ...]}' a variant runs only the named tests (by function
name), stopping at the first failure, and its row lists their outcomes as with --full (the
discrimination check's column swaps, activities/tasks/columns.ts).

With --full every variant runs the whole suite (no -x), and each row also lists every test's
outcome and the obligations its `@pytest.mark.obligation("O3")` markers name (executable labels, the
acceptance tests of tasks/<taskId>/acceptance/):
    "tests": [{"name": "test_x", "obligations": ["O3"], "outcome": "passed" | "failed" | "error" | "skipped"}]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import threading
import time

import pytest


class SharedSpark:
    """pytest plugin object: the `spark` fixture, a session of the current variant's own."""

    def __init__(self, settings: dict):
        self.settings = settings
        self.session = None
        self.variant_session = None

    def get(self):
        """The process's session (the one the variants' sessions are made from); rebuilt when a
        suite stopped the SparkContext."""
        from spark_session import build_session

        s = self.session
        if s is None or s.sparkContext._jsc is None:
            self.session = build_session(self.settings, "lockin-mutation")
        return self.session

    def fresh(self):
        """Makes the next variant's session: `newSession()` of the process's session, set as the
        one `SparkSession.builder.getOrCreate()`, `getActiveSession()` and the JVM's active
        session of this thread return."""
        from pyspark.sql import SparkSession

        base = self.get()
        s = SparkSession(base.sparkContext, jsparkSession=base._jsparkSession.newSession())
        SparkSession._instantiatedSession = s
        SparkSession._activeSession = s
        SparkSession._get_j_spark_session_class(s._jvm).setActiveSession(s._jsparkSession)
        self.variant_session = s
        return s

    @pytest.fixture(scope="session")
    def spark(self):
        s = self.variant_session
        yield s if s is not None and s.sparkContext._jsc is not None else self.fresh()


class TestRecorder:
    """pytest plugin object: each test's outcome and obligation markers, for one variant. With
    `only`, the tests whose function name (the last part of the node id) is not in it are
    deselected before any runs."""

    def __init__(self, only: list[str] | None = None):
        self.marks: dict[str, list[str]] = {}
        self.outcomes: dict[str, str] = {}
        self.only = set(only) if only is not None else None

    def pytest_configure(self, config):
        config.addinivalue_line("markers", "obligation(id): the obligation an acceptance test checks")

    def pytest_collection_modifyitems(self, config, items):
        if self.only is not None:
            keep = [i for i in items if i.nodeid.split("::")[-1] in self.only]
            dropped = [i for i in items if i.nodeid.split("::")[-1] not in self.only]
            if dropped:
                config.hook.pytest_deselected(items=dropped)
            items[:] = keep
        for item in items:
            self.marks[item.nodeid] = [str(a) for m in item.iter_markers("obligation") for a in m.args]

    def pytest_runtest_logreport(self, report):
        prev = self.outcomes.get(report.nodeid)
        if report.failed:
            self.outcomes[report.nodeid] = "failed" if report.when == "call" else "error"
        elif report.skipped and prev is None:
            self.outcomes[report.nodeid] = "skipped"
        elif report.passed and report.when == "call" and prev is None:
            self.outcomes[report.nodeid] = "passed"

    def rows(self) -> list[dict]:
        """One entry per collected test: its function name, obligations and outcome."""
        return [{"name": nid.split("::")[-1], "obligations": ids, "outcome": self.outcomes.get(nid, "error")}
                for nid, ids in self.marks.items()]


def _purge(prefixes: tuple[str, ...]) -> None:
    """Forgets the modules imported from a previous variant (solution, test_solution, and any
    module whose file lies in a variant folder)."""
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None) or ""
        if name in ("solution", "test_solution") or (f and f.startswith(prefixes)):
            del sys.modules[name]


def run_variant(shared: SharedSpark, root: str, vid: str, args) -> dict:
    """Runs the suite on one variant in a session of its own; returns its verdict row."""
    vdir = os.path.join(root, vid)
    _purge((root,))
    sys.path[:] = [p for p in sys.path if not p.startswith(root)]
    sys.path.insert(0, vdir)
    t0 = time.monotonic()
    opts = [
        os.path.join(vdir, "test_solution.py"), "-c", args.ini, "--rootdir", vdir, "--noconftest",
        "-p", "no:cacheprovider",
        f"--junitxml=/proc/self/fd/{args.gold_junit_fd}" if vid == "gold" and args.gold_junit_fd is not None else f"--junitxml=/tmp/junit-{os.getpid()}-{vid}.xml",
        f"--timeout={args.per_test_timeout}", "-q", "--color=no", "-p", "no:randomly",
    ]
    only = args.only.get(vid)
    if (vid != "gold" and not args.full) or only is not None:
        opts.append("-x")
    recorder = TestRecorder(only) if args.full or only is not None else None
    print(f"[suite] {vid}: running the suite", file=sys.stderr, flush=True)
    try:
        shared.fresh()
        code = int(pytest.main(opts, plugins=[shared] + ([recorder] if recorder else [])))
    except BaseException as exc:  # noqa: BLE001 - a suite's own failure is a verdict
        print(f"[suite] {vid}: pytest raised {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        code = 3
    row = {"variant": vid, "exitCode": code, "passed": code == 0, "ms": int((time.monotonic() - t0) * 1000)}
    if recorder:
        row["tests"] = recorder.rows()
    return row


class Helper:
    """The second process of --processes 2: started at once (its start-up overlaps the first
    variant), attached to this process's JVM, fed variant ids on stdin by a thread of this
    process, answering each with its verdict row on a pipe of its own."""

    def __init__(self, argv: list[str], spark):
        gw = spark.sparkContext._gateway.gateway_parameters
        env = dict(os.environ, PYSPARK_GATEWAY_PORT=str(gw.port), PYSPARK_GATEWAY_SECRET=str(gw.auth_token), LOCKIN_SPARK_WARM="1")
        env.pop("LOCKIN_CHANNEL_FD", None)
        r, w = os.pipe()
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), *argv, "--helper", "--rows-fd", str(w)],
                                     stdin=subprocess.PIPE, env=env, pass_fds=(w,), text=True)
        os.close(w)
        self.rows = os.fdopen(r, "r", encoding="utf-8")
        self.failed = False
        self.thread = None

    def start(self, pending: collections.deque, lock: threading.Lock, emit, gate: "GoldGate | None" = None) -> None:
        """Feeds the helper variants from `pending` until it is empty. With a `gate` (gold still
        running under --stop-if-gold-fails), each row waits for gold's verdict: it is reported
        when gold passed, and as not-run (its result discarded) when gold failed."""
        def loop() -> None:
            while True:
                with lock:
                    if not pending:
                        return
                    vid = pending.popleft()
                try:
                    self.proc.stdin.write(vid + "\n")
                    self.proc.stdin.flush()
                    line = self.rows.readline()
                    row = json.loads(line) if line else None
                except (OSError, ValueError):
                    row = None
                if not isinstance(row, dict) or row.get("variant") != vid:
                    print(f"[suite] the helper process ended early on {vid}: the rest runs again one at a time", file=sys.stderr, flush=True)
                    with lock:
                        self.failed = True
                        pending.clear()
                    return
                if gate is not None and gate.failed():
                    print(f"[suite] {vid} ran beside gold, which failed: its result is discarded (not-run)", file=sys.stderr, flush=True)
                    row = not_run(vid)
                emit(row)

        self.thread = threading.Thread(target=loop, daemon=True)
        self.thread.start()

    def finish(self) -> None:
        if self.thread is not None:
            self.thread.join()
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class GoldGate:
    """Gold's verdict, for rows the helper finished while gold was still running (Helper.start)."""

    def __init__(self):
        self._known = threading.Event()
        self._failed = False

    def release(self, failed: bool) -> None:
        self._failed = failed
        self._known.set()

    def failed(self) -> bool:
        """Waits for gold's verdict; True when gold failed."""
        self._known.wait()
        return self._failed


def not_run(vid: str) -> dict:
    """The row of a variant not run because the suite fails gold (--stop-if-gold-fails)."""
    return {"variant": vid, "exitCode": None, "passed": False, "ms": 0, "status": "not-run"}


def helper_main(args) -> None:
    """--helper: runs the variants named on stdin, one per line, until stdin ends."""
    shared = SharedSpark(_settings(args))
    shared.get()
    out = os.fdopen(args.rows_fd, "w", encoding="utf-8")
    root = os.path.abspath(args.variants)
    for line in sys.stdin:
        vid = line.strip()
        if not vid:
            continue
        out.write(json.dumps(run_variant(shared, root, vid, args)) + "\n")
        out.flush()
    os._exit(0)


def _settings(args) -> dict:
    from spark_session import parse_settings_arg

    return parse_settings_arg(args.settings)


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", required=True, help="folder holding one sub-folder per variant")
    ap.add_argument("--order", required=True, help="comma-separated variant ids, in run order")
    ap.add_argument("--ini", required=True, help="the harness's pytest.ini")
    ap.add_argument("--gold-junit-fd", type=int, help="descriptor receiving gold's JUnit report")
    ap.add_argument("--settings", required=True, help="SparkSettings JSON (inline or @file)")
    ap.add_argument("--per-test-timeout", type=int, default=60)
    ap.add_argument("--stop-if-gold-fails", action="store_true")
    ap.add_argument("--full", action="store_true", help="run every test on every variant and record each outcome")
    ap.add_argument("--only", default="{}", help="JSON {variant id: [test function names]}: run only these tests on that variant, stopping at the first failure")
    ap.add_argument("--processes", type=int, default=1, choices=(1, 2), help="variants at once (2: one more process on this JVM, beside the first variant)")
    ap.add_argument("--helper", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--rows-fd", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.only = json.loads(args.only)
    if args.helper:
        helper_main(args)
        return

    shared = SharedSpark(_settings(args))
    spark = shared.get()
    root = os.path.abspath(args.variants)
    # Without the harness's channel (a run by hand), the rows go to a copy of stderr taken now:
    # pytest captures descriptor 2 while a variant runs, and the helper's rows may arrive then.
    channel = int(os.environ["LOCKIN_CHANNEL_FD"]) if os.environ.get("LOCKIN_CHANNEL_FD") else os.dup(2)
    lock = threading.Lock()

    def emit(row: dict) -> None:
        line = (json.dumps(row) + "\n").encode("utf-8")
        with lock:
            os.write(channel, line)

    ids = [v for v in args.order.split(",") if v]
    pending = collections.deque(ids)
    helper = None
    if args.processes > 1 and len(ids) >= 3:
        helper_argv = ["--variants", args.variants, "--order", "-", "--ini", args.ini, "--settings", args.settings,
                       "--per-test-timeout", str(args.per_test_timeout), "--only", json.dumps(args.only)] + (["--full"] if args.full else [])
        helper = Helper(helper_argv, spark)
    # The helper takes variants from the start, beside this process's first one. Under
    # --stop-if-gold-fails with gold first, what it finishes before gold's verdict waits for it
    # (GoldGate): reported when gold passes, not-run when gold fails.
    gate = GoldGate() if args.stop_if_gold_fails and ids and ids[0] == "gold" else None
    gold_failed = False
    started = False
    while True:
        with lock:
            if not pending:
                break
            vid = pending.popleft()
        if helper is not None and not started:
            helper.start(pending, lock, emit, gate)
            started = True
        row = run_variant(shared, root, vid, args)
        emit(row)
        if vid == "gold" and row["exitCode"] != 0 and args.stop_if_gold_fails:
            print("[suite] the suite fails gold: invalid, not run on the mutants", file=sys.stderr, flush=True)
            with lock:
                rest, _ = list(pending), pending.clear()
            for r in rest:
                emit(not_run(r))
            gold_failed = True
        if vid == "gold" and gate is not None:
            gate.release(gold_failed)
        if gold_failed:
            break
    if helper is not None:
        helper.finish()
    # After gold failed, a variant the helper ended early on has no row: the caller reports it
    # not-run (activities/mutation/suites.ts), as any variant without a row after gold failed.
    if not gold_failed and helper is not None and helper.failed:
        sys.stdout.flush()
        os._exit(3)
    sys.stdout.write(json.dumps({"status": "ok", "variants": len(ids)}) + "\n")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
