"""Runs ONE frozen test suite against several solutions (the gold solution and its mutants) in
one Python process and one SparkSession: the test-suite validity and mutation analysis of
issue "Gold solutions and replay corpora" (docs/protocol.md §4 "Test outcome" for how a
suite run is judged).

Runs INSIDE the sandbox (activities/execution/sandbox.ts): the suite is model-written code.
Layout, prepared by activities/mutation/suites.ts:
    <variants>/<variant id>/solution.py        gold ("gold") or a mutant ("join-type-1", ...)
    <variants>/<variant id>/test_solution.py   the frozen suite, copied unchanged
For each variant, in the order given, pytest.main runs <variant>/test_solution.py with the
same isolation as the pytest activity (`--noconftest`, the harness's own ini, no cache
provider) and a plugin whose session-scoped `spark` fixture yields the shared session (it is
never stopped by the fixture; if a suite stops it, the next variant gets a new one).
Mutants run with `-x` (the first failing test kills the mutant); gold runs in full. With
--stop-if-gold-fails, a suite that does not pass on gold (run first) is invalid and is not run on
the mutants: each gets {"status": "not-run"}.

Each variant's verdict is written on the harness channel (LOCKIN_CHANNEL_FD, a pipe the
sandbox opened; the caller appends it to results.jsonl) as soon as it is known, so a run
killed by the wall-clock watchdog keeps what it finished (the caller restarts the rest):
    {"variant": id, "exitCode": int, "passed": bool, "ms": int}
Gold's JUnit report goes to the descriptor --gold-junit-fd (opened by the harness); the
mutants' reports stay in the sandbox's private /tmp. Nothing is written through a host path.
`passed` is pytest exit code 0 (every collected test passed; exit 5 "no tests" is not a pass).
The last stdout line is {"status": "ok", "variants": n}.

With --full every variant runs the whole suite (no -x), and each row also lists every test's
outcome and the obligations its `@pytest.mark.obligation("O3")` markers name (issue 17, the
acceptance tests of tasks/<taskId>/acceptance/):
    "tests": [{"name": "test_x", "obligations": ["O3"], "outcome": "passed" | "failed" | "error" | "skipped"}]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import pytest


class SharedSpark:
    """pytest plugin object: the `spark` fixture over one SparkSession shared by all variants."""

    def __init__(self, settings: dict):
        self.settings = settings
        self.session = None

    def get(self):
        """The live shared session; rebuilt when a suite stopped it."""
        from spark_session import build_session

        s = self.session
        if s is None or s.sparkContext._jsc is None:
            self.session = build_session(self.settings, "lockin-mutation")
        return self.session

    @pytest.fixture(scope="session")
    def spark(self):
        yield self.get()


class TestRecorder:
    """pytest plugin object: each test's outcome and obligation markers, for one variant."""

    def __init__(self):
        self.marks: dict[str, list[str]] = {}
        self.outcomes: dict[str, str] = {}

    def pytest_configure(self, config):
        config.addinivalue_line("markers", "obligation(id): the obligation an acceptance test checks")

    def pytest_collection_modifyitems(self, items):
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
    args = ap.parse_args(argv)

    from spark_session import parse_settings_arg

    shared = SharedSpark(parse_settings_arg(args.settings))
    shared.get()
    root = os.path.abspath(args.variants)
    channel = int(os.environ["LOCKIN_CHANNEL_FD"]) if os.environ.get("LOCKIN_CHANNEL_FD") else None

    def emit(row: dict) -> None:
        line = (json.dumps(row) + "\n").encode("utf-8")
        if channel is None:
            sys.stderr.buffer.write(line)
        else:
            os.write(channel, line)

    ids = [v for v in args.order.split(",") if v]
    for vid in ids:
        vdir = os.path.join(root, vid)
        _purge((root,))
        sys.path[:] = [p for p in sys.path if not p.startswith(root)]
        sys.path.insert(0, vdir)
        t0 = time.monotonic()
        opts = [
            os.path.join(vdir, "test_solution.py"), "-c", args.ini, "--rootdir", vdir, "--noconftest",
            "-p", "no:cacheprovider",
            f"--junitxml=/proc/self/fd/{args.gold_junit_fd}" if vid == "gold" and args.gold_junit_fd is not None else f"--junitxml=/tmp/junit-{vid}.xml",
            f"--timeout={args.per_test_timeout}", "-q", "--color=no", "-p", "no:randomly",
        ]
        if vid != "gold" and not args.full:
            opts.append("-x")
        recorder = TestRecorder() if args.full else None
        print(f"[suite] {vid}: running the suite", file=sys.stderr, flush=True)
        try:
            code = int(pytest.main(opts, plugins=[shared] + ([recorder] if recorder else [])))
        except BaseException as exc:  # noqa: BLE001 - a suite's own failure is a verdict
            print(f"[suite] {vid}: pytest raised {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            code = 3
        row = {"variant": vid, "exitCode": code, "passed": code == 0, "ms": int((time.monotonic() - t0) * 1000)}
        if recorder:
            row["tests"] = recorder.rows()
        emit(row)
        if vid == "gold" and code != 0 and args.stop_if_gold_fails:
            print("[suite] the suite fails gold: invalid, not run on the mutants", file=sys.stderr, flush=True)
            for rest in ids[ids.index(vid) + 1:]:
                emit({"variant": rest, "exitCode": None, "passed": False, "ms": 0, "status": "not-run"})
            break
    sys.stdout.write(json.dumps({"status": "ok", "variants": len(ids)}) + "\n")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
