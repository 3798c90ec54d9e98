"""The harness pytest plugin for a condition's test_solution.py (docs/protocol.md §4
"Test outcome").

Loaded with `-p pytest_harness` from lockin's own folder (activities/python on PYTHONPATH),
together with `--noconftest` and `-c <harness pytest.ini>`: the model's files cannot replace
it (a conftest.py, pytest.ini or pyproject.toml among the artifacts is ignored, and only
solution.py and test_solution.py are staged into the run folder anyway).

Provides the session-scoped `spark` fixture, built by spark_session.build_session from the
study's Spark settings, passed as JSON in the environment variable LOCKIN_SPARK_SETTINGS.
"""
import os

import pytest


@pytest.fixture(scope="session")
def spark():
    """The study's local SparkSession (one per pytest run); stopped at the end of the session."""
    from spark_session import build_session, parse_settings_arg

    settings = parse_settings_arg(os.environ["LOCKIN_SPARK_SETTINGS"])
    session = build_session(settings, "lockin-pytest")
    yield session
    session.stop()
