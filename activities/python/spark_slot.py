"""The trusted supervisor of a warm Spark slot (activities/execution/slots.ts; warm Spark slots, README "How long it takes").

A slot is one long-lived sandbox (the same bubblewrap policy as a cold run: read-only runtime,
the profile's /lockin mounts, a private size-limited /tmp, no network but a loopback) in which
this process starts ONE JVM with the study's recorded Spark settings
(spark_session.build_session, exactly as a cold run builds it) and keeps it warm. Each job (a
pytest run, a candidate execution, a suite over mutants) is a fresh, separately sandboxed
Python process that the host starts inside the slot's namespaces; it attaches to this JVM
(spark_session.build_session with LOCKIN_SPARK_WARM=1) and works in a SparkSession of its own
(`newSession()` of the base session built here). Untrusted code never runs in this process.

Protocol. Messages to the host, one JSON object per line, on the harness channel
(LOCKIN_CHANNEL_FD):
    {"event": "ready", "port", "secret", "ms"}           the JVM is up, warmed and snapshotted
    {"event": "checked", "nonce", "clean", "problems": [...], "resets": [...], "jvmLost", "ms"}
    {"event": "error", "reason"}                         the slot could not start
Commands from the host, one JSON object per line, on stdin:
    {"op": "check", "nonce"}   after every job: reset what a job may leave behind, then compare
                               the JVM's shared state with the snapshot taken at start
    {"op": "stop"}             stop Spark and leave (stdin's end does the same)
"clean" is false when a problem was found (the host then restarts the slot); "resets" lists
what was put back (a dropped global temp view, cleared caches, …), which is routine.
"jvmLost" is true when the JVM exited or no longer answers (jvm_lost): the job that just ran
may have seen it go, so the host discards that job's outcome and runs the job again cold.

What is reset after every job: py4j's references to the objects the job created released
(and a full GC, so their broadcast and shuffle blocks are freed), running Spark jobs cancelled, the default and active session
put back to the base session, cached tables and persisted RDDs dropped, global temp views
dropped, the log level put back, the job's files in the private /tmp removed. What is
compared with the snapshot (a difference is a problem): the SparkContext (same, not stopped),
its SparkConf, the Hadoop configuration, the base session's SQL conf, current catalog and
database, the databases, tables and views of the catalog, the built-in and the base session's
function registries, jars, files and archives added, the checkpoint folder, the listener bus,
the session extensions and experimental rules, JVM system properties, default time zone and
locale, the threads of the JVM (a thread of a class the JDK or Spark's jars did not define,
or a family of threads the snapshot has not seen; a thread found clean by an earlier check is
checked by name only, _threads), and the space /tmp holds. README
"Security" lists what a job can still affect.
"""
from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import sys
import time

_CHANNEL: int | None = None


def _send(obj: dict) -> None:
    data = (json.dumps(obj) + "\n").encode("utf-8")
    if _CHANNEL is None:
        sys.stderr.buffer.write(data)
        sys.stderr.flush()
    else:
        os.write(_CHANNEL, data)


def _not_dumpable() -> None:
    """prctl(PR_SET_DUMPABLE, 0): the JVM and the jobs run as the same uid; this keeps them from
    opening /proc/<this pid>/fd (the channel to the host) or /proc/<this pid>/mem."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)
    except OSError:  # pragma: no cover - no libc
        pass


#: Thread name families a job may leave running for a while: Spark's own pools and the JDK's.
#: A family is a thread name with its numbers removed.
BENIGN_THREAD_FAMILIES = (
    "Executor task launch worker for task", "process reaper", "Idle Worker Monitor for",
    "Worker Monitor for", "stdout writer for", "stderr reader for", "Thread-", "py4j-",
    "shuffle-", "rpc-", "block-manager-", "ForkJoinPool", "Common-Cleaner", "Attach Listener",
    "task-result-getter-", "dispatcher-", "executor-", "broadcast-exchange-", "subquery-",
    "files-client-", "RemoteBlock-", "QueryStageCreator", "spark-listener-group-",
    "element-tracking-store-", "s3a-", "Timer-", "pool-", "HiveServer", "map-output-dispatcher-",
    "python-", "Executor task", "SparkUI-", "context-cleaner", "Spark Context Cleaner",
    "heartbeat-receiver", "driver-heartbeater", "dag-scheduler", "netty-rpc-", "globPath-",
    "parquet-", "ParquetFileFormat", "Signal Dispatcher", "Finalizer", "Reference Handler",
    "main", "Notification Thread", "Cleaner-", "Abandoned connection", "Java2D", "JIT",
    "C1 CompilerThread", "C2 CompilerThread", "Sweeper thread", "Service Thread",
    "Monitor Deflation Thread", "Common-Cleaner", "Timer for", "SparkListenerBus",
    "cleaner-", "threadDeathWatcher", "file-stream-", "BroadcastExchange", "Worker",
    "ResultQueryStage", "subquery", "arrow", "fetch", "ExecutorMetricsPoller",
    "executor-heartbeater", "executor-kill-mark-cleanup", "driver-revive-thread",
    "kill-executor-thread", "appclient", "sql-", "SparkExecutionContext", "Spark ",
)

#: Classes a thread or its Runnable may belong to: defined by the JDK or a jar of Spark's class path.
_SYSTEM_LOADERS = ("bootstrap", "platform", "app")


def _family(name: str) -> str:
    return re.sub(r"[0-9]+", "", name).strip(" -#")


def _threads(jvm, verified: set | None = None) -> list:
    """Every live JVM thread as (name, class name, Runnable class name or '', class loader
    names, thread id).

    `verified`: ids of threads an earlier check already inspected and found clean. Such a
    thread is listed by name and id only (class name '', no loaders): its class and its
    Runnable were fixed when it was created, and HotSpot never gives a thread id to another
    thread (a JVM-wide counter), so only its name can have changed since. Spark's cached pools
    (broadcast-exchange, shuffle-exchange, AQE's stage pools, the block manager's) keep each
    idle thread for 60 s and start a new one per task below their size, so a slot that runs
    jobs back to back holds hundreds of threads: inspecting each one's class and loaders after
    every job took about 10 gateway calls a thread, 0.4-0.6 s a check at 450-750 threads
    (2026-12-05, a probe of 12 small jobs in one slot), against 3 calls for a verified one."""
    out = []
    threads = jvm.java.lang.Thread.getAllStackTraces().keySet().toArray()
    field = None
    try:
        field = jvm.java.lang.Thread._java_lang_class.getDeclaredField("target")
        field.setAccessible(True)
    except Exception:  # noqa: BLE001 - java.base not opened: the Runnable is not inspected
        field = None
    for t in threads:
        try:
            tid = int(t.getId())
            if verified is not None and tid in verified:
                out.append((str(t.getName()), "", "", [], tid))
                continue
            cls = t.getClass()
            target = field.get(t) if field is not None else None
            tcls = target.getClass() if target is not None else None
            loaders = []
            for c in (cls, tcls):
                if c is None:
                    continue
                loader = c.getClassLoader()
                loaders.append("bootstrap" if loader is None else str(loader.getName() or loader.getClass().getName()))
            out.append((str(t.getName()), str(cls.getName()), str(tcls.getName()) if tcls else "", loaders, tid))
        except Exception:  # noqa: BLE001 - the thread ended meanwhile
            continue
    return out


def _field_sizes(obj) -> dict:
    """Sizes of the collection fields of a JVM object (SparkSessionExtensions' injected builders)."""
    out = {}
    for f in obj.getClass().getDeclaredFields():
        try:
            f.setAccessible(True)
            v = f.get(obj)
            if v is not None and hasattr(v, "size"):
                out[str(f.getName())] = int(v.size())
        except Exception:  # noqa: BLE001 - not a collection, or not readable
            continue
    return out


def _hadoop_conf(jvm, jsc) -> dict:
    sw = jvm.java.io.StringWriter()
    jvm.org.apache.hadoop.conf.Configuration.dumpConfiguration(jsc.hadoopConfiguration(), sw)
    props = json.loads(sw.toString()).get("properties", [])
    return {p["key"]: str(p["value"]) for p in props}


def _sorted_map(jvm, jmap) -> str:
    """A java.util.Map as one sorted text (one gateway call)."""
    return str(jvm.java.util.TreeMap(jmap).toString())


def fingerprint(spark) -> dict:
    """The shared JVM state a job could change, as comparable plain values (see the module docstring)."""
    jvm = spark._jvm
    jsc = spark._jsc
    sc = jsc.sc()
    jss = spark._jsparkSession
    catalog = jss.sessionState().catalog()
    external = jss.sharedState().externalCatalog()
    databases = [str(d) for d in jvm.scala.jdk.javaapi.CollectionConverters.asJava(external.listDatabases())]
    fp = {
        "context": [int(jvm.java.lang.System.identityHashCode(sc)), bool(sc.isStopped())],
        "sparkConf": dict(l.split("=", 1) for l in str(sc.getConf().toDebugString()).split("\n") if "=" in l),
        "hadoopConf": _hadoop_conf(jvm, jsc),
        "sqlConf": _sorted_map(jvm, jss.conf().getAllAsJava()),
        "catalog": [str(catalog.getCurrentDatabase()), str(jss.sessionState().catalogManager().currentCatalog().name())],
        "tables": {db: str(external.listTables(db)) for db in databases},
        "tempViews": str(catalog.listTables(catalog.getCurrentDatabase())),
        "builtinFunctions": int(jvm.org.apache.spark.sql.catalyst.analysis.FunctionRegistry.builtin().listFunction().size()),
        "builtinTableFunctions": int(jvm.org.apache.spark.sql.catalyst.analysis.TableFunctionRegistry.builtin().listFunction().size()),
        "sessionFunctions": int(jss.sessionState().functionRegistry().listFunction().size()),
        "jars": str(sc.listJars()),
        "files": str(sc.listFiles()),
        "archives": str(sc.listArchives()),
        "jarClassLoader": len(jss.sharedState().jarClassLoader().getURLs()),
        "checkpointDir": str(sc.getCheckpointDir()),
        "listeners": sorted(str(x.getClass().getName()) for x in sc.listenerBus().listeners()
                            if "ExecutionListenerBus" not in str(x.getClass().getName())),
        "extensions": _field_sizes(jss.extensions()),
        "experimental": [int(jss.experimental().extraStrategies().size()), int(jss.experimental().extraOptimizations().size())],
        "systemProperties": _sorted_map(jvm, jvm.java.lang.System.getProperties()),
        "timeZone": str(jvm.java.util.TimeZone.getDefault().getID()),
        "locale": str(jvm.java.util.Locale.getDefault().toString()),
        "charset": str(jvm.java.nio.charset.Charset.defaultCharset().name()),
    }
    return fp


def _thread_problems(jvm, families: set, verified: set | None = None) -> list:
    """The threads of the JVM that are a problem (see the module docstring), as messages.
    `verified` (optional): ids of threads found clean before, not inspected again (_threads);
    the ids of the threads found clean now are added to it."""
    problems = []
    for name, cls, target, loaders, tid in _threads(jvm, verified):
        fam = _family(name)
        if any(l not in _SYSTEM_LOADERS and not l.startswith("jdk.internal.loader") for l in loaders):
            problems.append(f"thread {name!r} runs a class the JDK or Spark did not define ({target or cls}, loader {', '.join(loaders)})")
        elif fam not in families and not fam.startswith(BENIGN_THREAD_FAMILIES):
            problems.append(f"thread {name!r} ({target or cls or 'inspected before'}) was not there when the slot started")
        elif verified is not None:
            verified.add(tid)
    return problems


def _tmp_entries(root: str = "/tmp") -> set:
    try:
        return set(os.listdir(root))
    except OSError:
        return set()


def private_tmp(scratch_mb: int) -> bool:
    """True when /tmp is the slot's own size-limited tmpfs (at most `scratch_mb` MiB), the only
    place this process ever removes files from: never a host's shared /tmp."""
    try:
        st = os.statvfs("/tmp")
    except OSError:
        return False
    return os.environ.get("LOCKIN_SLOT_PRIVATE_TMP") == "1" and st.f_blocks * st.f_frsize <= (scratch_mb + 1) * 1048576


def _du_mb(root: str = "/tmp") -> float:
    """MiB the file system at `root` (the slot's private tmpfs) holds: its own used blocks, so a
    read-only folder bound inside it (the venv of a clone under /tmp, mounted at its host path)
    is not counted, as walking the tree counted it (1.1 GB, which stopped every slot after its
    first job)."""
    try:
        st = os.statvfs(root)
    except OSError:
        return 0.0
    return (st.f_blocks - st.f_bfree) * st.f_frsize / 1048576


def jvm_lost(spark) -> str | None:
    """Why the slot's JVM is gone, or None when it is alive: its process exited (the launcher's
    Popen, PySpark's `gateway.proc`), or a trivial call through the gateway fails."""
    proc = getattr(spark.sparkContext._gateway, "proc", None)
    if proc is not None and proc.poll() is not None:
        return f"the slot's JVM exited (status {proc.returncode})"
    try:
        spark._jvm.java.lang.System.nanoTime()
    except BaseException as exc:  # noqa: BLE001 - any failure means the JVM cannot be used
        return f"the slot's JVM does not answer ({type(exc).__name__}: {str(exc)[:200]})"
    return None


class Slot:
    """The base session, its snapshot and the per-job reset and check."""

    def __init__(self, spark, scratch_mb: int):
        self.spark = spark
        self.scratch_mb = scratch_mb
        jvm = spark._jvm
        self.base = spark._jsparkSession
        self.snapshot = fingerprint(spark)
        threads = _threads(jvm)
        self.families = {_family(t[0]) for t in threads}
        #: Ids of threads inspected and found clean (the snapshot's, and each check's): not inspected again.
        self.verified = {t[4] for t in threads if not any(l not in _SYSTEM_LOADERS and not l.startswith("jdk.internal.loader") for l in t[3])}
        self.tmp = _tmp_entries()
        self.local_dirs = [d for d in (str(x) for x in jvm.org.apache.spark.util.Utils.getConfiguredLocalDirs(spark._jsc.sc().conf())) if d]
        self.own_pyspark = set()
        for d in self.local_dirs:
            for root, dirs, _f in os.walk(d):
                self.own_pyspark.update(os.path.join(root, x) for x in dirs if x.startswith("pyspark-"))
        self.mark = self._marker()

    def _marker(self) -> int:
        """The py4j id number of a fresh JVM object ("o1234" -> 1234). py4j numbers the objects it
        hands out from one counter per gateway, shared by every process attached to this JVM, so
        the objects a job creates between two markers taken while this supervisor is idle are
        exactly the ids between them."""
        return int(self.spark._jvm.java.lang.Object()._target_id[1:])

    def release_job_objects(self) -> int:
        """Drops py4j's references to the JVM objects the last job created (its DataFrames, query
        plans and the broadcast relations those hold). A job's Python process exits without
        telling py4j it no longer needs them, so without this they stay reachable for the JVM's
        life and the slot's memory fills up: q69's broadcast join failed with "Not enough memory
        to build and broadcast the table" after a few jobs, where a cold run agrees. Then a full
        GC, so Spark's ContextCleaner frees the broadcast and shuffle blocks they held.
        Returns how many ids were released (ids never handed out are released harmlessly)."""
        start = self._marker()
        client = self.spark.sparkContext._gateway._gateway_client
        try:
            import inspect

            queued = "enqueue" in inspect.signature(client.garbage_collect_object).parameters
        except (TypeError, ValueError):
            queued = False
        for n in range(self.mark + 1, start):
            if queued:
                client.garbage_collect_object(f"o{n}", enqueue=False)
            else:
                client.garbage_collect_object(f"o{n}")
        self.spark._jvm.java.lang.System.gc()
        return max(0, start - self.mark - 1)

    def reset(self) -> list:
        """Puts back what a job may leave behind; returns what was put back."""
        spark, jvm = self.spark, self.spark._jvm
        # First, before this process creates any JVM object of its own (see _marker); routine
        # after every job, so not listed among the resets.
        self.release_job_objects()
        sc = spark._jsc.sc()
        resets = []
        active = list(sc.statusTracker().getActiveJobIds())
        if active:
            sc.cancelAllJobs()
            resets.append(f"{len(active)} running Spark job(s) cancelled")
        cls = jvm.org.apache.spark.sql.classic.SparkSession
        default = cls.getDefaultSession()
        if not (default.isDefined() and default.get().equals(self.base)):
            resets.append("default session put back")
        cls.setDefaultSession(self.base)
        cls.setActiveSession(self.base)
        if not self.base.sharedState().cacheManager().isEmpty():
            spark.catalog.clearCache()
            resets.append("cached tables dropped")
        persisted = spark._jsc.getPersistentRDDs()
        if persisted.size() > 0:
            for rdd in list(persisted.values()):
                rdd.unpersist(True)
            resets.append(f"{persisted.size()} persisted RDD(s) dropped")
        gtv = self.base.sharedState().globalTempViewManager()
        views = [str(v) for v in jvm.scala.jdk.javaapi.CollectionConverters.asJava(gtv.listViewNames("*"))]
        for v in views:
            gtv.remove(v)
        if views:
            resets.append(f"global temp view(s) {', '.join(views)} dropped")
        catalog = self.base.sessionState().catalog()
        for name in [str(v) for v in jvm.scala.jdk.javaapi.CollectionConverters.asJava(catalog.getTempViewNames())]:
            catalog.dropTempView(name)
            resets.append(f"temp view {name} of the base session dropped")
        spark.sparkContext.setLogLevel("ERROR")
        # Python workers (and their daemon) are the JVM's children and keep the modules a job's
        # UDFs imported (its solution.py among them): stopped, so the next job's start fresh.
        env = jvm.org.apache.spark.SparkEnv.get()
        field = env.getClass().getDeclaredField("pythonWorkers")
        field.setAccessible(True)
        factories = field.get(env)
        if factories.size() > 0:
            for factory in list(jvm.scala.jdk.javaapi.CollectionConverters.asJava(factories).values()):
                factory.stop()
            factories.clear()
            resets.append("python workers stopped")
        if not private_tmp(self.scratch_mb):
            return resets  # not the slot's own /tmp (a test outside the sandbox): nothing is removed
        for name in sorted(_tmp_entries() - self.tmp):
            path = os.path.join("/tmp", name)
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.unlink(path)
            except OSError:
                pass
        for d in self.local_dirs:
            for root, dirs, _f in os.walk(d):
                for x in dirs:
                    p = os.path.join(root, x)
                    if x.startswith("pyspark-") and p not in self.own_pyspark:
                        shutil.rmtree(p, ignore_errors=True)
        return resets

    def check(self) -> list:
        """Compares the shared state with the snapshot; returns the differences (problems)."""
        spark, jvm = self.spark, self.spark._jvm
        if spark._jsc.sc().isStopped():
            return ["the SparkContext was stopped"]
        problems = []
        deadline = time.monotonic() + 5
        while list(spark._jsc.sc().statusTracker().getActiveJobIds()) and time.monotonic() < deadline:
            time.sleep(0.1)
        if list(spark._jsc.sc().statusTracker().getActiveJobIds()):
            problems.append("Spark jobs still running 5 s after they were cancelled")
        now = fingerprint(spark)
        for key, before in self.snapshot.items():
            after = now.get(key)
            if after == before:
                continue
            if isinstance(before, dict) and isinstance(after, dict):
                keys = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
                problems.append(f"{key} changed: {', '.join(keys[:5])}{' …' if len(keys) > 5 else ''}")
            else:
                problems.append(f"{key} changed: {str(before)[:200]} -> {str(after)[:200]}")
        problems += _thread_problems(jvm, self.families, self.verified)
        used = _du_mb() if private_tmp(self.scratch_mb) else 0.0
        if used > self.scratch_mb / 2:
            problems.append(f"/tmp holds {used:.0f} MiB after the reset (half the slot's scratch is {self.scratch_mb / 2:.0f} MiB)")
        return problems


def warm_up(spark, db: str | None) -> None:
    """Runs the kinds of work jobs do once, so the snapshot holds the JVM as jobs leave it
    (thread pools started, classes loaded) and the first job does not pay the JIT's first run."""
    from pyspark.sql import functions as F

    s = spark.newSession()
    df = s.createDataFrame([(i, f"k{i % 3}", float(i)) for i in range(50)], ["id", "k", "v"])
    df.groupBy("k").agg(F.sum("v").alias("s"), F.count("*").alias("n")).join(df, "k").toArrow()
    s.range(100).toPandas()
    if db:
        from tables import load_tables

        t = load_tables(s, db)
        t["item"].join(t["store_sales"], F.col("i_item_sk") == F.col("ss_item_sk")).groupBy("i_category").count().toArrow()
    s.catalog.clearCache()
    del s


def main(argv: list) -> None:
    global _CHANNEL
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--settings", required=True, help="SparkSettings JSON (inline or @file)")
    ap.add_argument("--db", help="a database folder to warm up on (the profile's fixed mount)")
    ap.add_argument("--scratch-mb", type=int, default=1024)
    args = ap.parse_args(argv)

    fd = os.environ.get("LOCKIN_CHANNEL_FD")
    if fd:
        _CHANNEL = os.dup(int(fd))
        os.set_inheritable(_CHANNEL, False)
        os.close(int(fd))
    _not_dumpable()
    t0 = time.monotonic()
    os.environ.pop("LOCKIN_SPARK_WARM", None)
    try:
        from spark_session import build_session, parse_settings_arg

        spark = build_session(parse_settings_arg(args.settings), "lockin-warm")
        warm_up(spark, args.db)
        slot = Slot(spark, args.scratch_mb)
        gw = spark.sparkContext._gateway
        port, secret = gw.gateway_parameters.port, gw.gateway_parameters.auth_token
    except BaseException as exc:  # noqa: BLE001
        _send({"event": "error", "reason": f"{type(exc).__name__}: {exc}"[:2000]})
        os._exit(1)
    _send({"event": "ready", "port": port, "secret": secret, "ms": int((time.monotonic() - t0) * 1000)})
    for line in sys.stdin:
        try:
            cmd = json.loads(line)
        except ValueError:
            continue
        if cmd.get("op") == "stop":
            break
        if cmd.get("op") == "check":
            t = time.monotonic()
            lost = jvm_lost(spark)
            if lost:
                resets, problems = [], [lost]
            else:
                try:
                    resets = slot.reset()
                    problems = slot.check()
                    slot.mark = slot._marker()
                except BaseException as exc:  # noqa: BLE001 - an unverifiable state is a problem
                    resets, problems = [], [f"the check failed: {type(exc).__name__}: {str(exc)[:500]}"]
                    lost = jvm_lost(spark)
                    if lost:
                        problems.append(lost)
            _send({"event": "checked", "nonce": cmd.get("nonce"), "clean": not problems, "problems": problems,
                   "resets": resets, "jvmLost": lost is not None, "ms": int((time.monotonic() - t) * 1000)})
    try:
        spark.stop()
    finally:
        os._exit(0)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main(sys.argv[1:])
