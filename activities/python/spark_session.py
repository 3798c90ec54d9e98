"""Builds the local Spark session from the study's recorded Spark settings.

The settings are the JSON form of activities/common/settings.ts `SparkSettings`
(docs/protocol.md §6: every setting passed explicitly, never read from ambient defaults).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Mapping

#: The keys of SparkSettings and the Spark configuration each one sets.
SETTING_KEYS = {
    "master": None,  # set through the builder's master()
    "shufflePartitions": "spark.sql.shuffle.partitions",
    "ansi": "spark.sql.ansi.enabled",
    "sessionTimeZone": "spark.sql.session.timeZone",
    "caseSensitive": "spark.sql.caseSensitive",
    "adaptive": "spark.sql.adaptive.enabled",
    "defaultParallelism": "spark.default.parallelism",
    "driverMemory": "spark.driver.memory",
}


def _conf_value(value: Any) -> str:
    """Renders a settings value as a Spark configuration string (booleans lower-case)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def validate_settings(settings: Mapping[str, Any], source: str = "spark settings") -> dict:
    """Checks that `settings` carries every SparkSettings key and no unknown one.

    Inputs: a mapping parsed from the study settings JSON; `source` names it in errors.
    Returns: a plain dict copy.
    Raises: ValueError naming the source and the missing/unknown field.
    """
    if not isinstance(settings, Mapping):
        raise ValueError(f"{source}: expected a JSON object of Spark settings, got {type(settings).__name__}")
    missing = [k for k in SETTING_KEYS if k not in settings]
    if missing:
        raise ValueError(f"{source}: missing field(s) {', '.join(missing)} (keys of SparkSettings)")
    unknown = [k for k in settings if k not in SETTING_KEYS]
    if unknown:
        raise ValueError(f"{source}: unknown field(s) {', '.join(unknown)} (keys of SparkSettings)")
    return dict(settings)


def parse_settings_arg(text: str) -> dict:
    """Parses a `--settings` argument: inline JSON or `@path/to/file.json`.

    Raises: ValueError naming the file (or argument) and the problem.
    """
    source = "--settings"
    if text.startswith("@"):
        source = text[1:]
        try:
            with open(source, "r", encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            raise ValueError(f"{source}: cannot read Spark settings file: {exc}") from exc
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{source}: Spark settings are not valid JSON: {exc}") from exc
    return validate_settings(value, source)


_LOG4J = """rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
"""


def _quiet_log4j_file() -> str:
    """Writes (once) a log4j2 configuration that only logs errors, returns its path."""
    import tempfile

    path = os.path.join(tempfile.gettempdir(), f"lockin-log4j2-{os.getuid()}.properties")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(_LOG4J)
        os.replace(tmp, path)
    return path


def _quiet_query_context_loggers() -> None:
    """PySpark logs every failing query's context (with stack traces) as JSON at ERROR level;
    the exception itself still reaches the caller, so these loggers are raised to CRITICAL."""
    import logging

    try:
        from pyspark.logger import PySparkLogger
    except ImportError:  # pragma: no cover - older pyspark
        return
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(name).setLevel(logging.CRITICAL)


#: The Python worker daemon of every SparkContext built here: PySpark's, without re-reading
#: unchanged zip archives on each task (spark_worker_daemon.py says why and what it guarantees).
WORKER_DAEMON = "spark_worker_daemon"


def _worker_daemon_importable() -> None:
    """Puts this folder on the PYTHONPATH the JVM is about to inherit (its Python workers' path
    is PySpark's archives plus the JVM's PYTHONPATH), so `python -m spark_worker_daemon` finds
    the module wherever lockin's Python runs; a PYTHONPATH that already holds it is unchanged."""
    here = os.path.dirname(os.path.abspath(__file__))
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if here not in [os.path.abspath(p) for p in parts]:
        os.environ["PYTHONPATH"] = os.pathsep.join(parts + [here])


#: JVM options of each LOCKIN_SPARK_JIT choice (activities/common/sparkJit.ts says what was
#: measured): "tiered" is the JVM's default, "quick" compiles with C1 only. No effect on results.
JIT_OPTIONS = {"quick": "-XX:TieredStopAtLevel=1", "tiered": ""}


def jit_options(jit: str | None = None) -> str:
    """The JVM options of a JIT choice: `jit`, else LOCKIN_SPARK_JIT, else "tiered".

    Returns: a string of JVM options ("" for tiered). Raises: ValueError naming LOCKIN_SPARK_JIT
    (or the argument) when the choice is not one of JIT_OPTIONS.
    """
    choice = jit if jit is not None else (os.environ.get("LOCKIN_SPARK_JIT", "").strip() or "tiered")
    if choice not in JIT_OPTIONS:
        where = "jit argument" if jit is not None else "LOCKIN_SPARK_JIT"
        raise ValueError(f"{where}: {choice!r} is not one of {', '.join(JIT_OPTIONS)}")
    return JIT_OPTIONS[choice]


def build_session(settings: Mapping[str, Any], app_name: str, jit: str | None = None):
    """Builds (or replaces) the local SparkSession configured exactly by `settings`.

    Inputs: `settings` with every SparkSettings key (master, shufflePartitions, ansi,
    sessionTimeZone, caseSensitive, adaptive, defaultParallelism, driverMemory);
    `app_name` for the Spark application name; `jit`, the JIT of a JVM this call starts
    (jit_options: None takes LOCKIN_SPARK_JIT, else "tiered"; the database build and the
    references pass "tiered" whatever the environment says).
    Returns: a pyspark.sql.SparkSession with the UI disabled, WARN->ERROR logging and lockin's
    Python worker daemon (WORKER_DAEMON; no effect on results); local rows of `createDataFrame`
    reach the JVM without PySpark's identity pass through a Python worker (local_rows.py: same
    rows in the same partitions, no effect on results). A job attached to a warm slot's JVM
    (LOCKIN_SPARK_WARM) gets that JVM's JIT, the slot's.
    Raises: ValueError when a setting is missing or unknown, or the JIT choice is not known.
    """
    s = validate_settings(settings)
    jit_opts = jit_options(jit)
    import local_rows

    local_rows.install()
    if os.environ.get("LOCKIN_SPARK_WARM") == "1" and os.environ.get("PYSPARK_GATEWAY_PORT"):
        return attach_session(s)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    log_conf = _quiet_log4j_file()
    _worker_daemon_importable()
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app_name).master(str(s["master"]))
    for key, conf in SETTING_KEYS.items():
        if conf is not None:
            builder = builder.config(conf, _conf_value(s[key]))
    builder = (
        builder.config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.sources.default", "parquet")
        .config("spark.driver.extraJavaOptions", " ".join(x for x in (f"-Dlog4j2.configurationFile=file:{log_conf}", jit_opts) if x))
        .config("spark.python.daemon.module", WORKER_DAEMON)
    )
    _quiet_query_context_loggers()
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def attach_session(settings: Mapping[str, Any]):
    """A job's session in a warm Spark slot (activities/python/spark_slot.py; warm Spark slots): attaches
    to the slot's JVM through the gateway named by PYSPARK_GATEWAY_PORT / PYSPARK_GATEWAY_SECRET,
    wraps its running SparkContext and returns a SparkSession of this job's own (`newSession()` of
    the slot's base session, which was built by build_session from the same `settings`), so temp
    views, UDFs and SQL conf set by the job die with it. The Python-side singletons are set as
    build_session's getOrCreate sets them, so a candidate's own `SparkSession.builder.getOrCreate()`
    returns this session. When the slot's SparkContext is not running (a job stopped it), a new one
    is built in the same JVM, as a cold run's getOrCreate would (the slot is restarted after the job).

    Returns: a pyspark.sql.SparkSession. Raises: RuntimeError when the gateway has no base session.
    """
    from pyspark import SparkContext
    from pyspark.java_gateway import launch_gateway
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    _quiet_query_context_loggers()
    if SparkSession._instantiatedSession is not None and SparkSession._instantiatedSession._sc._jsc is not None:
        return SparkSession._instantiatedSession
    gateway = SparkContext._gateway or launch_gateway()
    jvm = gateway.jvm
    default = jvm.org.apache.spark.sql.classic.SparkSession.getDefaultSession()
    if not default.isDefined() or default.get().sparkContext().isStopped():
        os.environ.pop("LOCKIN_SPARK_WARM", None)  # the slot is gone: build as a cold run would, in this JVM
        SparkContext._gateway, SparkContext._jvm = gateway, jvm
        return build_session(settings, "lockin-warm-job")
    base = default.get()
    if SparkContext._active_spark_context is None:
        jsc = jvm.org.apache.spark.api.java.JavaSparkContext(base.sparkContext())
        SparkContext(gateway=gateway, jsc=jsc)
    # Python workers are the JVM's children: the slot started it with this job's profile
    # environment (PYTHONPATH included), as a cold run's JVM inherits the job's.
    return SparkSession(SparkContext._active_spark_context, jsparkSession=base.newSession())


def session_conf_snapshot(spark) -> dict:
    """Returns the Spark configuration values the study records (conf name -> string)."""
    names = [c for c in SETTING_KEYS.values() if c] + ["spark.master", "spark.ui.enabled"]
    out = {}
    for n in names:
        try:
            out[n] = spark.conf.get(n)
        except Exception:  # noqa: BLE001 - some confs are only in the SparkContext
            out[n] = spark.sparkContext.getConf().get(n, None)
    out["spark.version"] = spark.version
    return out
