"""Reads the study's typed TPC-DS tables (written by tpcds_data.py) into Spark."""
from __future__ import annotations

import os

#: The 24 TPC-DS tables of the study database (dbgen_version is not loaded).
TPCDS_TABLES = (
    "call_center", "catalog_page", "catalog_returns", "catalog_sales", "customer",
    "customer_address", "customer_demographics", "date_dim", "household_demographics",
    "income_band", "inventory", "item", "promotion", "reason", "ship_mode", "store",
    "store_returns", "store_sales", "time_dim", "warehouse", "web_page", "web_returns",
    "web_sales", "web_site",
)


def recorded_schemas(db_dir: str) -> dict:
    """The Spark schema of each table as `<db_dir>/manifest.json` records it.

    The manifest's schema is the one Spark read back from the written file
    (tpcds_data.py `_write_typed_table`), i.e. exactly what `spark.read.parquet` would infer.
    Returns: {table name: schema JSON (dict)}; {} when the manifest is absent or unreadable (the
    caller then lets Spark infer, as before).
    """
    try:
        with open(os.path.join(db_dir, "manifest.json"), "r", encoding="utf-8") as fh:
            manifest = _json.load(fh)
        return {name: rec["schema"] for name, rec in manifest["tables"].items() if isinstance(rec.get("schema"), dict)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def load_tables(spark, db_dir: str, register_views: bool = True) -> dict:
    """Reads every table of the typed database under `db_dir` (`<db_dir>/<table>/` Parquet).

    Inputs: a SparkSession; `db_dir` = databaseDir(S) (holds manifest.json and one folder per table).
    Each table is read with the schema manifest.json records for it (`recorded_schemas`: the
    schema Spark infers from that file, so the DataFrame is the same) instead of having Spark
    infer it: inference runs a Spark job per table, about 0.4 s each of a cold run's start-up
    (warm Spark slots). A table the manifest does not describe is inferred.
    Returns: {table name: DataFrame} for the 24 tables; when `register_views`, each is also
    registered as a temporary view under its name so the query texts resolve.
    Raises: FileNotFoundError naming the missing table folder.
    """
    from pyspark.sql.types import StructType

    schemas = recorded_schemas(db_dir)
    out = {}
    for name in TPCDS_TABLES:
        path = os.path.join(db_dir, name)
        if not os.path.isdir(path):
            raise FileNotFoundError(
                f"{path}: table folder missing (run `lockin data prepare` for this scale)")
        reader = spark.read
        if name in schemas:
            reader = reader.schema(StructType.fromJson(schemas[name]))
        df = reader.parquet(path)
        if register_views:
            df.createOrReplaceTempView(name)
        out[name] = df
    return out


# ---------------------------------------------------------------------------
# Locations and script helpers shared by tpcds_data.py, queries.py, references.py.
# The TypeScript side (activities/common/paths.ts) passes folders explicitly; these
# defaults mirror it for direct command-line use.
# ---------------------------------------------------------------------------

import json as _json
import sys as _sys
import time as _time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def lockin_home() -> str:
    """LOCKIN_HOME or `<repo>/.lockin` (mirrors paths.ts lockinHome)."""
    env = os.environ.get("LOCKIN_HOME")
    return os.path.abspath(env) if env else os.path.join(REPO_ROOT, ".lockin")


def scale_tag(scale: float) -> str:
    """1 -> "sf1", 0.01 -> "sf0.01" (mirrors paths.ts scaleTag, which uses JS number text)."""
    text = repr(float(scale))
    if text.endswith(".0"):
        text = text[:-2]
    return f"sf{text}"


def default_database_dir(scale: float) -> str:
    """`<home>/data/tpcds/sf<S>` (mirrors paths.ts databaseDir)."""
    return os.path.join(lockin_home(), "data", "tpcds", scale_tag(scale))


def default_references_dir(scale: float) -> str:
    """`<home>/data/references/sf<S>` (mirrors paths.ts referencesDir)."""
    return os.path.join(lockin_home(), "data", "references", scale_tag(scale))


def default_raw_dir(scale: float) -> str:
    """`<home>/cache/tpcgen/sf<S>`: the generator's untyped Parquet output."""
    return os.path.join(lockin_home(), "cache", "tpcgen", scale_tag(scale))


def default_tests_jar(spark_version: str = "4.1.2") -> str:
    """`<home>/cache/jars/spark-sql_2.13-<v>-tests.jar` (mirrors paths.ts sparkTestsJar); when
    LOCKIN_HOME points elsewhere and has no jar, the one fetched by setup under `<repo>/.lockin`."""
    name = f"spark-sql_2.13-{spark_version}-tests.jar"
    path = os.path.join(lockin_home(), "cache", "jars", name)
    fallback = os.path.join(REPO_ROOT, ".lockin", "cache", "jars", name)
    return path if os.path.exists(path) or not os.path.exists(fallback) else fallback


_T0 = _time.monotonic()


def progress(message: str) -> None:
    """Prints one progress line to stderr: the time of day (which runs on across the phases of a
    step, each phase being a script of its own) and the seconds since this phase's script started
    (the message names the phase), e.g. `[17:46:25 +131.4s] load: store_sales: 28810 rows in 3.1s`."""
    print(f"[{_time.strftime('%H:%M:%S')} +{_time.monotonic() - _T0:.1f}s] {message}", file=_sys.stderr, flush=True)


def emit(result: dict) -> None:
    """Prints the script's result as ONE JSON line, the last line of stdout (python.ts protocol)."""
    _sys.stdout.write(_json.dumps(result, sort_keys=True, default=str) + "\n")
    _sys.stdout.flush()


def fail(message: str, code: int = 2) -> None:
    """Prints a clear error to stderr and exits non-zero (no traceback)."""
    print(f"error: {message}", file=_sys.stderr, flush=True)
    raise SystemExit(code)


def sha256_file(path: str, chunk: int = 1 << 20) -> str:
    """sha256 hex digest of a file's bytes."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while True:
            block = fh.read(chunk)
            if not block:
                break
            h.update(block)
    return h.hexdigest()


def read_json(path: str, error_cls: type = ValueError, hint: str = ""):
    """Reads a JSON file. Returns None when it does not exist.

    Raises error_cls("<path>: unreadable (<reason>)<hint>") when it exists but cannot be read or parsed.
    """
    try:
        with open(path, "r", encoding="utf-8") as fh:
            return _json.load(fh)
    except FileNotFoundError:
        return None
    except (OSError, _json.JSONDecodeError) as exc:
        raise error_cls(f"{path}: unreadable ({exc}){hint}") from exc


def write_json(path: str, value) -> None:
    """Writes JSON atomically (a .tmp file renamed over the target), keys sorted, indented."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        _json.dump(value, fh, indent=2, sort_keys=True)
        fh.write("\n")
    os.replace(tmp, path)
