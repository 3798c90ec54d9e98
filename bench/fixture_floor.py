"""The floor under a study's time: one suite's small-fixture tests in 1..N warm JVMs side by side.

How fast one suite's tests run in a warm JVM, and whether more JVMs side by side run more of them
(warm Spark slots, README "How long it takes"; README "The floor: the cores").

Most of a warm study's Spark time is tests on small fixtures: the executable labels' acceptance
tests and the candidates' suites on gold, violations and mutants (`lockin study profile`, "work
inside the jobs"). This bench measures that work with nothing of lockin around it (no sandbox,
no slot, no Temporal): for each N of --jvms it starts N processes at once, each with its own
JVM built by spark_session.build_session from the study's default Spark settings (lockin's
Python worker daemon included), runs the suite --warmup times, then as often as it can for
--seconds, and prints, side by side, the suite runs per minute of all N together and the
seconds per run of each. If N JVMs do no more runs per minute than one, the machine's cores are
the limit, not the JVM's start-up or its waiting.

Usage (from the repository root, after setup):
    .venv/bin/python bench/fixture_floor.py --dir runs/<study>/tasks/q36/contract-first \\
        --test contract_test.py [--seconds 60] [--jvms 1,2,3] [--warmup 3]
`--dir` holds solution.py and the test file (a frozen run's folder); only those two are used.
Output: one line per N (JVMs; suite runs a minute of all N together; seconds per run of each;
tests a second of all together), then the figures as JSON on the last line (`exitCodes`: pytest's
exit codes seen, 0 = every test passed, 1 = some failed: the suite was still timed). Reading it:
if the runs a minute stay flat as N grows, the cores are the limit. Each N also costs its JVMs'
start-up and --warmup runs beyond --seconds (about a minute here).

Unlike lockin's own runs, the suite and solution run here WITHOUT the sandbox (no bubblewrap,
no limits, the network reachable): point it only at code you trust, e.g. a replay study's.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(HERE, "..", "activities", "python")

#: protocol/settings.ts DEFAULT_SPARK_SETTINGS (the paper's settings; the study records them).
DEFAULT_SETTINGS = {"master": "local[*]", "shufflePartitions": 8, "ansi": True, "sessionTimeZone": "UTC", "caseSensitive": False,
                    "adaptive": True, "defaultParallelism": 2, "driverMemory": "4g"}

CONFTEST = '''import json, os, pytest
from spark_session import build_session
_SESSION = []

@pytest.fixture(scope="session")
def spark():
    if not _SESSION:
        _SESSION.append(build_session(json.loads(os.environ["BENCH_SPARK_SETTINGS"]), "lockin-bench-fixture-floor"))
    return _SESSION[0]
'''


def child(args: argparse.Namespace) -> None:
    """One JVM: warm up, wait for the others, run the suite for --seconds; prints one JSON line."""
    import pytest

    work = args.workdir
    os.chdir(work)
    sys.path.insert(0, work)

    def once() -> int:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = pytest.main(["-q", "-p", "no:cacheprovider", args.test])
        for name in [m for m in sys.modules if m in ("solution", os.path.splitext(args.test)[0], "conftest")]:
            del sys.modules[name]
        return int(code)

    codes = [once() for _ in range(args.warmup)]
    open(os.path.join(args.barrier, f"ready-{os.getpid()}"), "w").close()
    while len(os.listdir(args.barrier)) < args.n:
        time.sleep(0.05)
    start, runs = time.time(), 0
    while time.time() - start < args.seconds:
        codes.append(once())
        runs += 1
    elapsed = time.time() - start
    print(json.dumps({"runs": runs, "seconds": elapsed, "exitCodes": sorted(set(codes))}), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog="Runs the suite WITHOUT lockin's sandbox: only code you trust.")
    p.add_argument("--dir", required=True, help="folder with solution.py and the test file")
    p.add_argument("--test", default="test_solution.py", help="the test file in --dir (default test_solution.py)")
    p.add_argument("--seconds", type=float, default=60.0, help="measured seconds per N (default 60)")
    p.add_argument("--warmup", type=int, default=3, help="unmeasured runs per JVM first (default 3)")
    p.add_argument("--jvms", default="1,2", help="comma-separated numbers of JVMs side by side (default 1,2)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--workdir", help=argparse.SUPPRESS)
    p.add_argument("--barrier", help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args)
        return
    for name in ("solution.py", args.test):
        if not os.path.isfile(os.path.join(args.dir, name)):
            sys.exit(f"{os.path.join(args.dir, name)}: no such file (--dir must hold solution.py and --test)")
    try:
        counts = [int(x) for x in args.jvms.split(",")]
        if any(n < 1 for n in counts):
            raise ValueError
    except ValueError:
        sys.exit(f"--jvms {args.jvms!r}: expected positive integers separated by commas, e.g. 1,2,3")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.path.abspath(PYTHON_DIR), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
           "BENCH_SPARK_SETTINGS": json.dumps(DEFAULT_SETTINGS)}
    tests = sum(1 for line in open(os.path.join(args.dir, args.test), encoding="utf-8") if line.startswith("def test_"))
    print(f"suite: {os.path.join(args.dir, args.test)} ({tests} top-level test functions) on its solution.py; "
          f"{args.warmup} warm-up runs per JVM, then {args.seconds:.0f} s measured; cores: {os.cpu_count()}", flush=True)
    print(f"{'JVMs':>5} {'suite runs/min (all)':>21} {'s per run (each)':>17} {'tests/s (all)':>14}", flush=True)
    figures = []
    for n in counts:
        tmp = tempfile.mkdtemp(prefix="lockin-fixture-floor-")
        barrier = os.path.join(tmp, "barrier")
        os.mkdir(barrier)
        procs = []
        for i in range(n):
            work = os.path.join(tmp, f"jvm{i}")
            os.mkdir(work)
            for name in ("solution.py", args.test):
                shutil.copy(os.path.join(args.dir, name), work)
            with open(os.path.join(work, "conftest.py"), "w", encoding="utf-8") as fh:
                fh.write(CONFTEST)
            procs.append(subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", "--dir", args.dir, "--test", args.test,
                                           "--seconds", str(args.seconds), "--warmup", str(args.warmup), "--workdir", work,
                                           "--barrier", barrier, "--n", str(n)], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
        results = []
        for proc in procs:
            out, _ = proc.communicate()
            lines = [line for line in out.splitlines() if line.startswith("{")]
            if proc.returncode != 0 or not lines:
                sys.exit(f"a benchmark process failed (exit {proc.returncode}); run the suite by hand to see why")
            results.append(json.loads(lines[-1]))
        shutil.rmtree(tmp, ignore_errors=True)
        per_min = sum(r["runs"] / r["seconds"] * 60 for r in results)
        each = [r["seconds"] / r["runs"] for r in results if r["runs"]]
        fig = {"jvms": n, "runsPerMinute": round(per_min, 2), "secondsPerRun": [round(x, 2) for x in each],
               "testsPerSecond": round(per_min * tests / 60, 2), "exitCodes": sorted({c for r in results for c in r["exitCodes"]})}
        figures.append(fig)
        print(f"{n:>5} {per_min:>21.1f} {', '.join(f'{x:.2f}' for x in each):>17} {fig['testsPerSecond']:>14.2f}", flush=True)
    print(json.dumps({"suite": os.path.join(args.dir, args.test), "tests": tests, "figures": figures}))


if __name__ == "__main__":
    main()
