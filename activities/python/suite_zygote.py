"""The sandboxed job of a suite over its variants (gold, mutants, obligation violations, column
swaps): docs/verdicts.md "Blindness"; activities/mutation/suites.ts drives it.

A trusted zygote: it imports pytest, PySpark, pandas, numpy and lockin's runner, holds the job's
JVM (cold: a spark_slot.py supervisor it starts inside this sandbox; warm: the slot's, named by
PYSPARK_GATEWAY_PORT), and never runs, reads, relays or holds candidate code, a variant's token
or anything a variant wrote: its memory, which every child inherits, is the same for every
variant. For each variant it forks a MONITOR (which relays the variant's messages, then dies),
and the monitor forks the CHILD; the child reads its one command line from stdin (written by the
parent only after the previous variant ended), closes stdin and every other inherited
descriptor, writes its files into /tmp/<random name>/, and runs verdict_runner.run (token,
private channel, non-dumpable, runtime guard, finished after pytest returned). Only one
variant's files exist at any time. The zygote is a child subreaper, so whatever a child leaves
running is its descendant and is found and killed before the next variant.

Messages to the parent on the job's channel (LOCKIN_CHANNEL_FD), one JSON object per line:
    {"zygote": "ready", "ms"}                  imports done, the JVM up
    {"zygote": "waiting", "v": k}              child k forked, waiting for its command on stdin
    {"v": k, "line": "<raw>", "nl": bool}      a line child k wrote on its own pipe (relayed as is)
    {"zygote": "ended", "v": k, "exit", "signal", "ms", "check": {...} | null}
                                               child k ended; its process group and strays killed,
                                               /tmp emptied of what it left; cold: the JVM reset and
                                               compared with its snapshot (check)
A child that reads end-of-file instead of a command exits 100 without writing: the zygote then
ends. When a cold check is not clean, the zygote ends after "ended" (the parent continues the
rest in a new job, with a new JVM).

Command (one JSON line): {"token", "dir", "files": {name: text}, "only": [names] | null,
"exitFirst": bool, "timeout": seconds}.
"""
from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import verdict_runner  # noqa: E402

STOP_EXIT = 100
_DAEMON = re.compile(r"(^|\s)-m (spark_worker_daemon|pyspark\.daemon)(\s|$)")


def _preimport() -> None:
    """Imports what every child uses, once (a child inherits them: no import substitution for
    these names, and no per-variant import time)."""
    import pytest  # noqa: F401
    import pytest_timeout  # noqa: F401
    import _pytest.junitxml  # noqa: F401
    import pyspark.sql  # noqa: F401
    import pyspark.sql.functions  # noqa: F401
    import pyspark.sql.types  # noqa: F401
    import pytest_harness  # noqa: F401
    import spark_session  # noqa: F401
    try:
        import pandas  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:  # pragma: no cover
        pass


def _subreaper() -> None:
    """prctl(PR_SET_CHILD_SUBREAPER, 1): a process a child leaves behind stays a descendant of the zygote."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover
        pass


def _send(fd: int, obj: dict) -> None:
    data = (json.dumps(obj) + "\n").encode("utf-8")
    while data:
        data = data[os.write(fd, data):]


class Holder:
    """Cold mode: a spark_slot.py supervisor in this sandbox (its JVM is the job's), for the
    children to attach to and for the reset and check between variants."""

    def __init__(self, settings: str, scratch_mb: int):
        r, w = os.pipe()
        env = dict(os.environ, LOCKIN_CHANNEL_FD=str(w), LOCKIN_SLOT_PRIVATE_TMP="1")
        env.pop("LOCKIN_SPARK_WARM", None)
        self.proc = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "spark_slot.py"),
                                      "--settings", settings, "--scratch-mb", str(scratch_mb)],
                                     stdin=subprocess.PIPE, pass_fds=(w,), env=env, text=True)
        os.close(w)
        self.out = r
        ready = self._next(lambda m: m.get("event") in ("ready", "error"))
        if not ready or ready.get("event") != "ready":
            raise RuntimeError(f"the job's JVM did not start: {ready and ready.get('reason')}")
        self.port, self.secret = ready["port"], ready["secret"]

    def _next(self, pred):
        """The next message satisfying `pred`, read unbuffered (each monitor reads with its own
        copy of this object, so nothing may stay buffered in the zygote's)."""
        while True:
            line = verdict_runner.read_line(self.out)
            if not line:
                return None
            try:
                m = json.loads(line)
            except ValueError:
                continue
            if pred(m):
                return m

    def check(self) -> dict:
        nonce = os.urandom(8).hex()
        try:
            self.proc.stdin.write(json.dumps({"op": "check", "nonce": nonce}) + "\n")
            self.proc.stdin.flush()
        except OSError:
            return {"clean": False, "problems": ["the job's JVM supervisor ended"], "resets": [], "jvmLost": True}
        m = self._next(lambda x: x.get("event") == "checked" and x.get("nonce") == nonce)
        if m is None:
            return {"clean": False, "problems": ["the job's JVM supervisor ended"], "resets": [], "jvmLost": True}
        return {"clean": bool(m["clean"]), "problems": m["problems"], "resets": m["resets"], "jvmLost": bool(m.get("jvmLost"))}

    def pids(self) -> set:
        return {self.proc.pid}


def _table() -> dict:
    out = {}
    for e in os.listdir("/proc"):
        if not e.isdigit():
            continue
        try:
            with open(f"/proc/{e}/stat", "r") as fh:
                st = fh.read()
            state, ppid = st[st.rindex(")") + 2:].split(" ")[:2]
            with open(f"/proc/{e}/cmdline", "rb") as fh:
                cmd = fh.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
            out[int(e)] = (int(ppid), cmd, state)
        except (OSError, ValueError):
            continue
    return out


def kill_strays(root: int, keep_roots: set) -> list:
    """Kills every descendant of `root` (the zygote, a child subreaper: orphans of a child are
    its descendants) that is not this process, the holder, its JVM or the JVM's Python daemon and
    workers; returns their command lines."""
    table = _table()
    kids: dict = {}
    for pid, (ppid, _cmd, _state) in table.items():
        kids.setdefault(ppid, []).append(pid)
    me = os.getpid()
    killed = []
    stack = list(kids.get(root, []))
    while stack:
        pid = stack.pop()
        _ppid, cmd, state = table.get(pid, (0, "", "Z"))
        if state == "Z" or not cmd:
            continue  # ended, or on its way out (a worker's command line is gone while it exits)
        kept = pid == me or pid in keep_roots or "/java " in f"{cmd} " or _DAEMON.search(cmd) or cmd.endswith("spark_slot.py") or "spark_slot.py " in cmd
        if kept:
            stack.extend(kids.get(pid, []))
            continue
        try:
            os.kill(pid, signal.SIGKILL)
            killed.append(cmd[:200] or f"pid {pid}")
        except OSError:
            pass
    return killed


def _empty_tmp(before: set) -> None:
    import shutil

    for name in set(os.listdir("/tmp")) - before:
        p = os.path.join("/tmp", name)
        try:
            if os.path.isdir(p) and not os.path.islink(p):
                shutil.rmtree(p, ignore_errors=True)
            else:
                os.unlink(p)
        except OSError:
            pass


def child(k: int, w: int, ini: str, settings: dict) -> None:
    """In the forked child: read the command, write the files, run the suite (never returns)."""
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    os.closerange(3, w)
    os.closerange(w + 1, 65536)  # the holder's pipes, the zygote's channel: none is the child's
    line = verdict_runner.read_line(0)
    if not line.strip():
        os._exit(STOP_EXIT)
    cmd = json.loads(line)
    del line
    os.close(0)
    os.open(os.devnull, os.O_RDONLY)
    verdict_runner._not_dumpable()
    token = cmd.pop("token")
    d = os.path.join("/tmp", cmd["dir"])
    os.mkdir(d, 0o755)
    for name, text in cmd["files"].items():
        with open(os.path.join(d, name), "w", encoding="utf-8") as fh:
            fh.write(text)
    cmd["files"] = None
    os.chdir(d)
    sys.path.insert(0, d)
    args = [os.path.join(d, "test_solution.py"), "-c", ini, "--rootdir", d, "--noconftest", "-p", "pytest_timeout",
            "-p", "no:cacheprovider", f"--timeout={int(cmd['timeout'])}", "-q", "--color=no", f"--basetemp={d}-t"]
    if cmd.get("exitFirst"):
        args.append("-x")
    verdict_runner.run(token, w, args, settings, True, [os.path.join(d, "solution.py"), os.path.join(d, "test_solution.py")], cmd.get("only"))


CHECK_FAILED = 101


def monitor(k: int, zygote: int, channel: int, ini: str, settings: dict, holder, tmp_before: set) -> None:
    """The monitor of variant k (forked from the zygote; never returns): forks the child, relays
    its lines, and after it ended kills what it left, empties /tmp, has the JVM checked (cold)
    and sends "ended". Exits 0, STOP_EXIT (the child read end-of-file) or CHECK_FAILED."""
    try:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                child(k, w, ini, settings)
            finally:
                os._exit(3)
        os.close(w)
        _send(channel, {"zygote": "waiting", "v": k})
        started = time.monotonic()
        buf = b""
        wrote = False
        status = None
        while True:
            ready, _, _ = select.select([r], [], [], 0.5)
            if ready:
                chunk = os.read(r, 65536)
                if not chunk:
                    break
                wrote = True
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    _send(channel, {"v": k, "line": line.decode("utf-8", "replace"), "nl": True})
            if status is None:
                done, st = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = st
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except OSError:
                        pass
                    # what is left in the pipe, at most 2 s more (a descendant may hold it open)
                    deadline = time.monotonic() + 2
                    while time.monotonic() < deadline:
                        ready, _, _ = select.select([r], [], [], 0.1)
                        chunk = os.read(r, 65536) if ready else b""
                        if not chunk:
                            break
                        wrote = True
                        buf += chunk
                    break
        if buf:
            parts = buf.split(b"\n")
            for i, line in enumerate(parts):
                if line:
                    _send(channel, {"v": k, "line": line.decode("utf-8", "replace"), "nl": i < len(parts) - 1})
        os.close(r)
        if status is None:
            _, status = os.waitpid(pid, 0)
        exit_code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        if exit_code == STOP_EXIT and not wrote:
            os._exit(STOP_EXIT)
        strays = kill_strays(zygote, holder.pids() if holder else set())
        _empty_tmp(tmp_before)
        check = holder.check() if holder else None
        if check is not None and strays:
            check["problems"] = check["problems"] + [f"a process was left running: {c}" for c in strays]
            check["clean"] = False
        _send(channel, {"zygote": "ended", "v": k, "exit": exit_code, "signal": sig, "ms": int((time.monotonic() - started) * 1000),
                        "check": check, "strays": strays})
        os._exit(CHECK_FAILED if check is not None and not check["clean"] else 0)
    except BaseException as exc:  # noqa: BLE001 - lockin's side: the zygote ends, the parent reruns the rest
        sys.stderr.write(f"[zygote] the monitor of variant {k} failed: {type(exc).__name__}: {exc}\n")
        os._exit(2)


def main(argv: list) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--settings", required=True)
    ap.add_argument("--ini", required=True)
    ap.add_argument("--scratch-mb", type=int, default=1024)
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    fd = os.environ.pop("LOCKIN_CHANNEL_FD", None)
    channel = os.dup(int(fd)) if fd else os.dup(2)
    os.set_inheritable(channel, False)
    if fd:
        os.close(int(fd))
    verdict_runner._not_dumpable()
    _subreaper()
    settings = json.loads(a.settings)
    holder = None
    if not (os.environ.get("LOCKIN_SPARK_WARM") == "1" and os.environ.get("PYSPARK_GATEWAY_PORT")):
        holder = Holder(a.settings, a.scratch_mb)
        os.environ.update(PYSPARK_GATEWAY_PORT=str(holder.port), PYSPARK_GATEWAY_SECRET=str(holder.secret), LOCKIN_SPARK_WARM="1")
    _preimport()
    tmp_before = set(os.listdir("/tmp"))
    _send(channel, {"zygote": "ready", "ms": int((time.monotonic() - t0) * 1000)})
    zygote = os.getpid()
    k = 0
    while True:
        k += 1
        mpid = os.fork()
        if mpid == 0:
            monitor(k, zygote, channel, a.ini, settings, holder, tmp_before)
        while True:
            done, st = os.waitpid(-1, 0)  # reaps orphans too (a child subreaper)
            if done == mpid:
                break
        code = os.WEXITSTATUS(st) if os.WIFEXITED(st) else None
        if code != 0:
            break  # STOP_EXIT: no variant left; CHECK_FAILED: the JVM is not as it started; else the monitor failed
    if holder is not None:
        try:
            holder.proc.stdin.write('{"op": "stop"}\n')
            holder.proc.stdin.flush()
        except OSError:
            pass
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
