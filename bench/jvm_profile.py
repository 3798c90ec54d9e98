"""Where a warm JVM's CPU goes while it runs one suite's small-fixture tests (warm Spark slots, README "How long it takes").

A warm study's Spark time is mostly tests on small fixtures (`lockin study profile`, "work inside
the jobs"), each query a few hundred milliseconds of Spark's own machinery. This bench shows
which machinery: it runs one suite on its solution in one JVM (built by spark_session.build_session
from the study's default Spark settings, as fixture_floor.py does), --warmup times, then as often
as it can for --seconds while it reads every JVM thread's CPU time from /proc before and after
(JIT compiler threads, garbage collector threads, the rest) and the Python process's own; then
for --seconds more it records the JVM with Java Flight Recorder (`jcmd <pid> JFR.start`, method
samples with stacks up to 1024 frames deep; the recorder slows the JVM, so the times and CPU
figures are the first window's) and sorts the samples by the first of these it finds in each
stack: closure cleaning (Spark's ClosureCleaner reading and parsing class files before each
job), analysis (Catalyst's analyzer and its checks), AQE re-planning (re-optimising after each
query stage), query planning, task (de)serialisation, code generation, the listener bus, class
loading, else "other Spark work" (executing tasks, scheduling, building plans).
It prints the suite's seconds per run, the CPU figures, one line per kind with its share of the
samples, and the figures as JSON on the last line. The JIT and GC threads are native: their time
is in the CPU figures, not in the samples.

Usage (from the repository root, after setup; needs jcmd and jfr of the JDK Spark runs on):
    .venv/bin/python bench/jvm_profile.py --dir runs/<study>/tasks/q87/contract-first \\
        --test contract_test.py [--warmup 30] [--seconds 40]
Like fixture_floor.py it runs the suite and solution WITHOUT lockin's sandbox: point it only at
code you trust, e.g. a replay study's.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# The study's default settings, the session fixture and the Python modules' folder: as fixture_floor.py has them.
from fixture_floor import CONFTEST, DEFAULT_SETTINGS, PYTHON_DIR  # noqa: E402

#: Kinds of JVM work, each with the text a stack frame ("Class.method", package stripped) holds;
#: a sample counts for the first kind any of its frames matches.
KINDS = [
    ("closure cleaning", "ClosureCleaner"),
    ("AQE re-planning", "AdaptiveSparkPlanExec.reOptimize"),
    ("analysis", "CheckAnalysis"),
    ("analysis", "Analyzer."),
    ("query planning", "QueryPlanner"),
    ("task serialisation", "ObjectOutputStream"),
    ("task deserialisation", "ObjectInputStream"),
    ("code generation", "CodeGenerator"),
    ("listener bus", "ListenerBus"),
    ("class loading", "ClassLoader.loadClass"),
]


def kind_of(frames: list[str]) -> str:
    """The kind of one sample: the first KINDS entry whose text some frame contains; else "other Spark work"."""
    for name, text in KINDS:
        if any(text in f for f in frames):
            return name
    return "other Spark work"


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds per thread family of process `pid` (digits in names folded), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    out: collections.Counter = collections.Counter()
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{t}/comm") as fh:
                name = fh.read().strip()
            with open(f"/proc/{pid}/task/{t}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[re.sub(r"\d+", "N", name)] += (int(fields[11]) + int(fields[12])) / tick
    return dict(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog="Runs the suite WITHOUT lockin's sandbox: only code you trust.")
    p.add_argument("--dir", required=True, help="folder with solution.py and the test file")
    p.add_argument("--test", default="test_solution.py", help="the test file in --dir (default test_solution.py)")
    p.add_argument("--warmup", type=int, default=30, help="unmeasured runs first, so the JIT has compiled what the suite runs (default 30)")
    p.add_argument("--seconds", type=float, default=40.0, help="measured seconds (default 40)")
    args = p.parse_args()
    for name in ("solution.py", args.test):
        if not os.path.isfile(os.path.join(args.dir, name)):
            sys.exit(f"{os.path.join(args.dir, name)}: no such file (--dir must hold solution.py and --test)")
    for tool in ("jcmd", "jfr"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool}: not found on PATH (it comes with the JDK that runs Spark)")
    work = tempfile.mkdtemp(prefix="lockin-jvm-profile-")
    try:
        for name in ("solution.py", args.test):
            shutil.copy(os.path.join(args.dir, name), work)
        with open(os.path.join(work, "conftest.py"), "w", encoding="utf-8") as fh:
            fh.write(CONFTEST)
        os.environ["BENCH_SPARK_SETTINGS"] = json.dumps(DEFAULT_SETTINGS)
        # Deep stacks, so a sample's frames reach the Spark code that asked for the work.
        os.environ["JAVA_TOOL_OPTIONS"] = (os.environ.get("JAVA_TOOL_OPTIONS", "") + " -XX:FlightRecorderOptions:stackdepth=1024").strip()
        sys.path[:0] = [work, os.path.abspath(PYTHON_DIR)]
        os.chdir(work)
        import pytest
        from pyspark.sql import SparkSession

        module = os.path.splitext(args.test)[0]

        def once() -> int:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                code = pytest.main(["-q", "-p", "no:cacheprovider", args.test])
            for name in [m for m in sys.modules if m in ("solution", module, "conftest")]:
                del sys.modules[name]
            return int(code)

        codes = [once() for _ in range(max(1, args.warmup))]
        spark = SparkSession.getActiveSession()
        pid = int(spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())
        # The times and CPU figures come from a window without the recorder, which slows the JVM
        # (on this machine 1.8x: 3.50 s a run against 1.96 s, its JIT compiler threads busy again); its samples only
        # give the shares, from a second window of the same length.
        before, py0, t0, runs = thread_cpu(pid), os.times(), time.time(), 0
        while time.time() - t0 < args.seconds:
            codes.append(once())
            runs += 1
        elapsed, after, py1 = time.time() - t0, thread_cpu(pid), os.times()
        jfr_file = os.path.join(work, "profile.jfr")
        subprocess.run(["jcmd", str(pid), "JFR.start", "name=lockin", "settings=default", f"filename={jfr_file}"], check=True, capture_output=True)
        t1, recorded = time.time(), 0
        while time.time() - t1 < args.seconds:
            codes.append(once())
            recorded += 1
        recorded_s = time.time() - t1
        subprocess.run(["jcmd", str(pid), "JFR.stop", "name=lockin"], check=True, capture_output=True)
        printed = subprocess.run(["jfr", "print", "--json", "--stack-depth", "1024", "--events", "jdk.ExecutionSample", jfr_file], check=True, capture_output=True, text=True).stdout
        samples = json.loads(printed)["recording"]["events"]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    cpu = {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after}
    jvm = sum(cpu.values())
    jit = sum(v for k, v in cpu.items() if "Compiler" in k)
    gc = sum(v for k, v in cpu.items() if k.startswith(("GC ", "GN ", "G1 ")) or "Conc#" in k)
    python = (py1.user + py1.system) - (py0.user + py0.system)
    kinds = collections.Counter(kind_of([f["method"]["type"]["name"].split("/")[-1] + "." + f["method"]["name"] for f in e["values"]["stackTrace"]["frames"]]) for e in samples)
    total = sum(kinds.values()) or 1
    print(f"suite: {os.path.join(args.dir, args.test)} on its solution.py, one JVM, after {max(1, args.warmup)} warm-up runs; cores: {os.cpu_count()}")
    print(f"{runs} runs in {elapsed:.1f} s: {elapsed / max(runs, 1):.2f} s a run; exit codes seen {sorted(set(codes))} (0: every test passed)")
    print(f"CPU: JVM {jvm:.1f} s ({jvm / elapsed:.2f} cores), of which JIT compiler threads {jit:.1f} s and garbage collector threads {gc:.1f} s; Python {python:.1f} s ({python / elapsed:.2f} cores)")
    print(f"JVM method samples (Java Flight Recorder, a second window: {recorded} runs in {recorded_s:.1f} s, {recorded_s / max(recorded, 1):.2f} s a run under the recorder; JIT and GC threads are native and not sampled): {sum(kinds.values())}")
    for name, n in kinds.most_common():
        print(f"  {name:<22} {100 * n / total:5.1f} %")
    print(json.dumps({"suite": os.path.join(args.dir, args.test), "runs": runs, "seconds": round(elapsed, 2), "cpuSeconds": {"jvm": round(jvm, 2), "jit": round(jit, 2), "gc": round(gc, 2), "python": round(python, 2)},
                      "recordedRuns": recorded, "recordedSeconds": round(recorded_s, 2), "samples": dict(kinds), "exitCodes": sorted(set(codes))}))


if __name__ == "__main__":
    main()
