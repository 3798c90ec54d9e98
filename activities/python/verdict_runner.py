"""lockin's main program for one suite run (docs/verdicts.md "Layer 2" and "Layer 3").

pytest is not the program: this is. Before any candidate code loads it
  1. reads the run's token (one line on stdin, from the parent; never in the environment, argv
     or a file) and closes stdin;
  2. moves the harness channel (LOCKIN_CHANNEL_FD, a pipe the sandbox opened) to a private,
     non-inheritable descriptor and closes the original;
  3. makes the process non-dumpable (prctl PR_SET_DUMPABLE 0: no other process of the sandbox's
     uid, the JVM and what it starts included, can open its /proc/<pid>/fd or /proc/<pid>/mem);
  4. reads its settings from the environment once;
  5. installs the runtime guard (an audit hook; `install_guard`);
then calls pytest.main with the harness plugin as an object (pytest_harness.Harness), and only
after pytest.main RETURNED sends `finished` with the exit status and ends with os._exit(status).
Every message carries the token. activities/execution/verdict.ts decides from them.

Used two ways: as a program by the pytest activity (activities/execution/pytest.ts; `main`), and
by the suite zygote for each variant's child (activities/python/suite_zygote.py; `run`).
"""
from __future__ import annotations

import json
import os
import sys

PR_SET_DUMPABLE = 4

#: pickle.find_class targets admitted at run time: data types of the standard library, PySpark,
#: pandas, numpy and pyarrow, and the checked modules' own classes.
_PICKLE_MODULES = ("pyspark", "pandas", "numpy", "pyarrow", "datetime", "decimal", "collections", "fractions",
                   "zoneinfo", "uuid", "enum", "re", "test_solution", "solution", "contract_test", "test_acceptance", "py4j")
_PICKLE_BUILTINS = {"set", "frozenset", "list", "dict", "tuple", "bytearray", "complex", "slice", "range", "bool", "int",
                    "float", "str", "bytes", "object", "NotImplemented", "Ellipsis"}
_PICKLE_OTHER = {("copyreg", "_reconstructor"), ("copyreg", "__newobj__"), ("_codecs", "encode"), ("copy_reg", "_reconstructor")}

#: Audit events that start a process, signal one, or reach the interpreter's internals.
_REFUSED_EVENTS = {
    "os.system": "starting a process (os.system)", "os.exec": "starting a program (os.exec*)",
    "os.posix_spawn": "starting a process (posix_spawn)", "os.spawn": "starting a process (os.spawn*)",
    "os.fork": "forking the process", "os.forkpty": "forking the process", "os.kill": "sending a signal (os.kill)",
    "os.killpg": "sending a signal (os.killpg)", "signal.pthread_kill": "sending a signal (pthread_kill)",
    "gc.get_objects": "the interpreter's objects (gc.get_objects)", "gc.get_referrers": "the interpreter's objects (gc.get_referrers)",
    "gc.get_referents": "the interpreter's objects (gc.get_referents)", "sys._current_frames": "the interpreter's frames",
    "sys.settrace": "a trace function (sys.settrace)", "sys.setprofile": "a profile function (sys.setprofile)",
    "sys.addaudithook": "another audit hook", "os.add_dll_directory": "loading native code",
}


def _not_dumpable() -> None:
    """prctl(PR_SET_DUMPABLE, 0); a machine without it leaves the process as it was."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no libc
        pass


def read_line(fd: int) -> str:
    """One line from `fd`, read byte by byte (nothing past the newline is consumed)."""
    out = bytearray()
    while True:
        b = os.read(fd, 1)
        if not b or b == b"\n":
            return out.decode("utf-8")
        out += b


def make_sender(fd: int, token: str):
    """A function writing one message (a dict, the token added) on descriptor `fd`."""
    write = os.write
    dumps = json.dumps

    def send(obj: dict) -> None:
        data = (dumps({**obj, "t": token}) + "\n").encode("utf-8")
        try:
            while data:
                data = data[write(fd, data):]
        except OSError:
            pass

    return send


def install_guard(send, code_files: list[str], channel_fd: int, allowed_paths=()) -> None:
    """Installs the runtime guard (docs/verdicts.md "Layer 3"): an audit hook that, on the events
    it refuses, sends a tokened `reached` message naming the event (the run is then not passed) and
    raises PermissionError. It refuses: starting processes (but PySpark's own spark-submit),
    signals, the interpreter's objects and frames (gc, _current_frames, settrace), pickles
    resolving anything outside _PICKLE_MODULES, opening /proc/self, /proc/<this pid>, /dev/fd or
    the channel's descriptor, and importing code from a file that is neither in `code_files` nor
    under the venv, the standard library or lockin's Python folder. Its state lives in this
    closure, which no module names; audit hooks cannot be removed. `allowed_paths`: paths opened
    by lockin's own arguments (the JUnit descriptor's /proc/self/fd/N)."""
    import stat

    own = str(os.getpid())
    trusted = tuple(os.path.realpath(p) + os.sep for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.abspath(__file__))})
    code = frozenset(os.path.realpath(f) for f in code_files)
    try:
        st = os.fstat(channel_fd)
        channel_id = (st.st_dev, st.st_ino)
    except OSError:
        channel_id = None
    refused = dict(_REFUSED_EVENTS)
    pickle_modules = _PICKLE_MODULES
    pickle_builtins = frozenset(_PICKLE_BUILTINS)
    pickle_other = frozenset(_PICKLE_OTHER)
    realpath = os.path.realpath
    exists = os.path.exists
    fstat = os.fstat
    isfifo = stat.S_ISFIFO
    proc_prefixes = ("/proc/self/", "/proc/thread-self/", f"/proc/{own}/", "/dev/fd/", "/dev/stdin", "/dev/stdout", "/dev/stderr")
    busy = []
    allowed = frozenset(allowed_paths)

    def why(event: str, args: tuple):
        if event in refused:
            return refused[event]
        if event.startswith("ctypes."):
            return f"native code ({event})"
        if event == "subprocess.Popen":
            argv = args[1] if len(args) > 1 else None
            first = argv[0] if isinstance(argv, (list, tuple)) and argv else argv
            if isinstance(first, (str, bytes)):
                first = os.fsdecode(first)
                if first.endswith("/bin/spark-submit") and realpath(first).startswith(trusted):
                    return None  # PySpark starting its JVM
            return f"starting a process ({first!r})"
        if event == "pickle.find_class":
            mod, name = str(args[0]), str(args[1])
            if mod.split(".")[0] in pickle_modules or (mod in ("builtins", "__builtin__") and name in pickle_builtins) or (mod, name) in pickle_other:
                return None
            return f"a pickle resolving {mod}.{name}"
        if event == "open" and args:
            path = args[0]
            if isinstance(path, int):
                if channel_id is not None and path > 2:
                    try:
                        s = fstat(path)
                        if isfifo(s.st_mode) and (s.st_dev, s.st_ino) == channel_id:
                            return "the harness channel's descriptor"
                    except OSError:
                        return None
                return None
            if isinstance(path, bytes):
                path = os.fsdecode(path)
            if not isinstance(path, str):
                return None
            if path in allowed:
                return None
            full = path if path.startswith("/") else os.path.join(os.getcwd(), path)
            if full.startswith(proc_prefixes) or (full.startswith("/proc/") and full.rstrip("/").endswith(("/mem", "/environ"))):
                return f"the process's own files ({path})"
            mode = args[1] if len(args) > 1 and isinstance(args[1], str) else "r"
            if full.endswith((".py", ".pyc", ".so")) and not any(c in mode for c in "wax+"):
                real = realpath(full)
                if real not in code and not real.startswith(trusted) and exists(real):
                    # (an attempt on a missing file is harmless: pytest and the import system look
                    # for cached bytecode first; no bytecode is ever written, so any found beside a
                    # checked file was written by the run itself)
                    return f"code read from {path} (neither a checked file nor lockin's, Python's or the venv's)"
        return None

    getframe = sys._getframe
    # Events lockin's own plugins raise: pytest-timeout dumps every thread's stack when a test
    # runs out of time (its timeout message must survive).
    own = {"sys._current_frames": ("pytest_timeout",)}

    def hook(event: str, args: tuple) -> None:
        if busy:
            return
        busy.append(1)
        try:
            reason = why(event, args)
            if reason is not None and event in own:
                caller = getframe(1).f_globals.get("__name__", "")
                if caller in own[event]:
                    reason = None
        finally:
            busy.pop()
        if reason is not None:
            send({"event": "reached", "what": reason})
            raise PermissionError(f"lockin: {reason} is not allowed in a suite run")

    sys.addaudithook(hook)


def prepare(token_fd: int = 0):
    """Steps 1-3 of the module docstring. Returns (token, private channel descriptor or None)."""
    token = read_line(token_fd).strip()
    try:
        os.close(token_fd)
    except OSError:
        pass
    try:
        os.open(os.devnull, os.O_RDONLY)  # takes descriptor 0 again, so nothing else lands there
    except OSError:
        pass
    channel = None
    fd = os.environ.pop("LOCKIN_CHANNEL_FD", None)
    if fd:
        try:
            channel = os.dup(int(fd))
            os.set_inheritable(channel, False)
            os.close(int(fd))
        except OSError:
            channel = None
    _not_dumpable()
    return token, channel


def run(token: str, channel, args: list[str], settings: dict, warm: bool, code_files: list[str], only=None, allowed_paths=()) -> None:
    """Runs pytest with `args` and the harness plugin, then sends `finished` and ends the process
    with pytest's exit status (never returns)."""
    send = make_sender(channel, token) if channel is not None else (lambda obj: None)
    send({"event": "start"})
    import pytest
    import pytest_harness

    harness = pytest_harness.Harness(send, settings, warm, only)
    if channel is not None:
        install_guard(send, code_files, channel, allowed_paths)
    try:
        code = int(pytest.main(args, plugins=[harness]))
    except BaseException as exc:  # noqa: BLE001 - pytest itself failed: an internal error (exit 3)
        sys.stderr.write(f"[runner] pytest raised {type(exc).__name__}: {exc}\n")
        code = 3
    send({"event": "finished", "exitstatus": code, "foreignHooks": harness.foreign})
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def main(argv: list[str]) -> None:
    """The pytest activity's program: verdict_runner.py --suite F --ini I --rootdir D
    [--junit-fd N] [--timeout S] [--only JSON]; the token on stdin."""
    import argparse

    token, channel = prepare(0)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", required=True)
    ap.add_argument("--ini", required=True)
    ap.add_argument("--rootdir", required=True)
    ap.add_argument("--junit-fd", type=int)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only", help="JSON list of test function names")
    a = ap.parse_args(argv)
    settings = json.loads(os.environ["LOCKIN_SPARK_SETTINGS"])
    warm = os.environ.get("LOCKIN_SPARK_WARM") == "1"
    args = [a.suite, "-c", a.ini, "--rootdir", a.rootdir, "--noconftest", "-p", "pytest_timeout", "-p", "no:cacheprovider",
            f"--timeout={a.timeout}", "-q", "-rfE", "--color=no"]
    if a.junit_fd is not None:
        args.append(f"--junitxml=/proc/self/fd/{a.junit_fd}")
    code_files = [os.path.join(a.rootdir, f) for f in ("solution.py", os.path.basename(a.suite))]
    junit = (f"/proc/self/fd/{a.junit_fd}",) if a.junit_fd is not None else ()
    run(token, channel, args, settings, warm, code_files, json.loads(a.only) if a.only else None, junit)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main(sys.argv[1:])
