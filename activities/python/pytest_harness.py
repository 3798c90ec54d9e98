"""The harness pytest plugin for a condition's test_solution.py (docs/protocol.md §4
"Test outcome").

Loaded with `-p pytest_harness` from lockin's own folder (activities/python on PYTHONPATH),
together with `--noconftest` and `-c <harness pytest.ini>`: the model's files cannot replace
it (a conftest.py, pytest.ini or pyproject.toml among the artifacts is ignored, and only
solution.py and test_solution.py are staged into the run folder anyway).

Provides the session-scoped `spark` fixture, built by spark_session.build_session from the
study's Spark settings, passed as JSON in the environment variable LOCKIN_SPARK_SETTINGS.

The verdict channel. pytest's JUnit file, its exit code and its reports can all be rewritten by
code running in the pytest process (a JUnit file written before `os._exit(0)`; a
`pytest_runtest_makereport` hook registered at import or through `pytest_plugins`). So the
plugin reports to the harness on its own descriptor (LOCKIN_CHANNEL_FD, a pipe opened by the
sandbox before any candidate code loads), one JSON object per line:

    {"event": "start"}                                   plugin loaded (before collection)
    {"event": "collect-error", "id", "text"}             a module that could not be collected
    {"event": "collected", "ids": [nodeid, ...]}         after collection
    {"event": "phase", "id", "when", "raw", "reported", "xfail", "message", "text"}
    {"event": "finished", "exitstatus", "foreignHooks": ["module.function (hook)", ...]}

`raw` is what happened, read from the phase's own CallInfo (no exception: passed; a skip
exception: skipped; anything else: failed) before any other makereport implementation runs;
`reported` is the outcome of the report pytest's hooks produced. `foreignHooks` lists every
hook implementation registered from a module that is not pytest's, pluggy's, pytest-timeout's
or this plugin (e.g. from solution.py or test_solution.py). activities/execution/verdict.ts
decides from these messages. What this does not stop: code that rewrites this plugin or
writes these messages itself (README "Security").
"""
import json
import os

import pytest

_FD = None
_ALLOWED_MODULES = ("_pytest", "pytest", "pluggy", "pytest_timeout", "pytest_harness")


def _send(obj):
    if _FD is None:
        return
    try:
        os.write(_FD, (json.dumps(obj) + "\n").encode("utf-8"))
    except OSError:
        pass


def _open_channel():
    global _FD
    fd = os.environ.get("LOCKIN_CHANNEL_FD")
    if fd and _FD is None:
        try:
            _FD = os.dup(int(fd))  # a private copy: closing fd 3 does not close the channel
            os.set_inheritable(_FD, False)
        except OSError:
            _FD = None
    _send({"event": "start"})


_open_channel()


@pytest.fixture(scope="session")
def spark():
    """The study's local SparkSession (one per pytest run); stopped at the end of the session."""
    from spark_session import build_session, parse_settings_arg

    settings = parse_settings_arg(os.environ["LOCKIN_SPARK_SETTINGS"])
    warm = os.environ.get("LOCKIN_SPARK_WARM") == "1"
    session = build_session(settings, "lockin-pytest")
    yield session
    if not warm:  # a warm slot's JVM outlives the run (activities/execution/slots.ts)
        session.stop()


def _clip(text, limit=4000):
    text = text or ""
    return text if len(text) <= limit else text[:limit] + f"\n… [{len(text) - limit} more characters cut]"


@pytest.hookimpl(tryfirst=True)
def pytest_collectreport(report):
    if report.failed:
        _send({"event": "collect-error", "id": report.nodeid, "text": _clip(str(report.longreprtext))})


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    _send({"event": "collected", "ids": [item.nodeid for item in session.items]})


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    excinfo = call.excinfo
    if excinfo is None:
        raw = "passed"
    elif excinfo.errisinstance(pytest.skip.Exception):
        raw = "skipped"
    else:
        raw = "failed"
    message = "" if excinfo is None else _clip(f"{excinfo.typename}: {excinfo.value}", 500)
    xfail = item.get_closest_marker("xfail") is not None or (excinfo is not None and excinfo.errisinstance(pytest.xfail.Exception))
    report = yield
    reported = getattr(report, "outcome", None)
    text = ""
    if raw == "failed":
        text = _clip(str(getattr(report, "longreprtext", "") or "") or message)
    _send({"event": "phase", "id": item.nodeid, "when": call.when, "raw": raw, "reported": reported,
           "xfail": bool(xfail), "message": message, "text": text})
    return report


def _foreign_hooks(pluginmanager):
    found = []
    for name in dir(pluginmanager.hook):
        if not name.startswith("pytest_"):
            continue
        caller = getattr(pluginmanager.hook, name, None)
        get = getattr(caller, "get_hookimpls", None)
        if get is None:
            continue
        for impl in get():
            fn = getattr(impl, "function", None)
            module = getattr(fn, "__module__", None) or getattr(impl.plugin, "__name__", "?")
            if not str(module).split(".")[0] in _ALLOWED_MODULES:
                found.append(f"{module}.{getattr(fn, '__name__', '?')} ({name})")
    return sorted(set(found))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    _send({"event": "finished", "exitstatus": int(exitstatus), "foreignHooks": _foreign_hooks(session.config.pluginmanager)})
