"""The harness's pytest plugin (docs/protocol.md §4 "Test outcome"; docs/verdicts.md "Layer 2").

An *object*, not a module of hooks: activities/python/verdict_runner.py (lockin's main program
for a suite run, which calls pytest.main itself) makes one `Harness` per run and passes it to
pytest.main; nothing in a module names it, so candidate code can neither import its hooks
(`-p pytest_harness` finds none in this module) nor reach the instance. The runner has read
the run's token, moved the channel to a private descriptor and made the process non-dumpable
before any candidate code loads; every message carries the token ("t"), one JSON object per
line:

    {"event": "start", "t"}                                  the runner started (sent by it)
    {"event": "collect-error", "t", "id", "text"}            a module that could not be collected
    {"event": "collected", "t", "ids": [nodeid, ...], "marks": {nodeid: ["O3", ...]}}
    {"event": "phase", "t", "id", "when", "raw", "reported", "xfail", "message", "text"}
    {"event": "reached", "t", "what"}                        the runtime guard refused something
    {"event": "finished", "t", "exitstatus", "foreignHooks"} after pytest.main RETURNED (runner)

`raw` is what happened, read from the phase's own CallInfo (no exception: passed; a skip
exception: skipped; anything else: failed) before any other makereport implementation runs;
`reported` is the outcome of the report pytest's hooks produced. `foreignHooks` lists every hook
implementation registered from a module that is not pytest's, pluggy's, pytest-timeout's or
lockin's. `marks` are the arguments of each test's `@pytest.mark.obligation("O3")` markers (the
acceptance tests of tasks/<id>/acceptance/). activities/execution/verdict.ts decides.

The `spark` fixture: the session-scoped SparkSession, built by spark_session.build_session from
the study's Spark settings (read once, by the runner, before candidate code).
"""
from __future__ import annotations

import pytest

ALLOWED_HOOK_MODULES = ("_pytest", "pytest", "pluggy", "pytest_timeout", "pytest_harness", "verdict_runner")


def clip(text, limit=4000):
    """`text` cut to `limit` characters, saying how many were cut."""
    text = text or ""
    return text if len(text) <= limit else text[:limit] + f"\n… [{len(text) - limit} more characters cut]"


class Harness:
    """The plugin object. Inputs: `send` (writes one message, token added), the Spark settings and
    whether the run attaches to a warm JVM, `only` (test function names to keep, None: all)."""

    def __init__(self, send, settings: dict, warm: bool, only=None):
        self._send = send
        self._settings = settings
        self._warm = warm
        self._only = set(only) if only is not None else None
        self._allowed = tuple(ALLOWED_HOOK_MODULES)  # a copy taken before any candidate code: patching the module changes nothing
        self.foreign: list[str] = []

    @pytest.fixture(scope="session")
    def spark(self):
        """The study's local SparkSession (one per pytest run); stopped at the end of a cold run."""
        from spark_session import build_session

        session = build_session(self._settings, "lockin-pytest")
        yield session
        if not self._warm:  # a warm slot's JVM outlives the run (activities/execution/slots.ts)
            session.stop()

    def pytest_configure(self, config):
        config.addinivalue_line("markers", "obligation(id): the obligation an acceptance test checks")

    @pytest.hookimpl(tryfirst=True)
    def pytest_collectreport(self, report):
        if report.failed:
            self._send({"event": "collect-error", "id": report.nodeid, "text": clip(str(report.longreprtext))})

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config, items):
        if self._only is None:
            return
        keep = [i for i in items if i.nodeid.split("::")[-1] in self._only]
        dropped = [i for i in items if i.nodeid.split("::")[-1] not in self._only]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = keep

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session):
        marks = {item.nodeid: [str(a) for m in item.iter_markers("obligation") for a in m.args] for item in session.items}
        self._send({"event": "collected", "ids": [item.nodeid for item in session.items], "marks": marks})

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        excinfo = call.excinfo
        if excinfo is None:
            raw = "passed"
        elif excinfo.errisinstance(pytest.skip.Exception):
            raw = "skipped"
        else:
            raw = "failed"
        message = "" if excinfo is None else clip(f"{excinfo.typename}: {excinfo.value}", 500)
        xfail = item.get_closest_marker("xfail") is not None or (excinfo is not None and excinfo.errisinstance(pytest.xfail.Exception))
        report = yield
        reported = getattr(report, "outcome", None)
        text = ""
        if raw == "failed":
            text = clip(str(getattr(report, "longreprtext", "") or "") or message)
        self._send({"event": "phase", "id": item.nodeid, "when": call.when, "raw": raw, "reported": reported,
                    "xfail": bool(xfail), "message": message, "text": text})
        return report

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        self.foreign = foreign_hooks(session.config.pluginmanager, self._allowed)


def foreign_hooks(pluginmanager, allowed=ALLOWED_HOOK_MODULES) -> list[str]:
    """Every hook implementation registered from a module that is not pytest's, pluggy's,
    pytest-timeout's or lockin's, as "module.function (hook)", sorted."""
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
            if str(module).split(".")[0] not in allowed:
                found.append(f"{module}.{getattr(fn, '__name__', '?')} ({name})")
    return sorted(set(found))
