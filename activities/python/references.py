"""Builds, reproduces and externally checks the study's reference outputs (docs/protocol.md §1, §4).

Subcommands (progress on stderr, ONE JSON line last on stdout):
  build     --scale S --settings JSON [--ids ...] [--db-dir D] [--refs-dir R] [--jar J]
            executes each reference variant's SQL and stores <R>/<taskId>/reference.arrow (Arrow IPC
            file), reference.parquet, schema.json, plus <R>/references.json. Variants already
            stored for the same database, text and settings are skipped (resume).
  reproduce --scale S --settings JSON [...]   re-executes in a fresh session (this process) and
            compares schema + multiset of rows (order-independent hash, then a row-by-row
            diff to name the first difference) with the stored reference.
  golden    --scale S --settings JSON [...]   compares each stored reference with Spark's golden
            answer in the jar (tpcds-query-results/v1_4/<q>.sql.out; strings right-trimmed),
            formatting ours as the golden files were (HiveResult.hiveResultString).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import time
import zipfile

from outputs import content_hash, read_arrow_ipc, write_output
from queries import QueryError, check_ids, load_texts, text_sha256
from tables import (default_database_dir, default_references_dir, emit, fail, progress,
                    read_json, sha256_file, write_json)

#: Mirrors REFERENCE_INVENTORY of protocol/corpus.ts (the 30 study tasks + q23b, q54, q85);
#: the TypeScript activities always pass --ids explicitly.
REFERENCE_INVENTORY = (
    "q2", "q4", "q5", "q11", "q13", "q14a", "q14b", "q17", "q33", "q35", "q47", "q69", "q77", "q78", "q80",
    "q1", "q3", "q7", "q12", "q18", "q22", "q27", "q36", "q38", "q49", "q51", "q70", "q87", "q94", "q98",
    "q23b", "q54", "q85",
)
REFERENCES_JSON = "references.json"
ARROW = "reference.arrow"
PARQUET = "reference.parquet"
SCHEMA = "schema.json"
GOLDEN_FOLDER = "tpcds-query-results/v1_4/"
FORMAT_VERSION = 1


class ReferenceError_(Exception):
    """A clear, user-facing problem (missing database, missing reference)."""


def _read_json(path: str):
    """read_json with this module's error class."""
    return read_json(path, ReferenceError_, "")






def _manifest_hash(db_dir: str) -> str:
    manifest = _read_json(os.path.join(db_dir, "manifest.json"))
    if not manifest or "manifestHash" not in manifest:
        raise ReferenceError_(f"{os.path.join(db_dir, 'manifest.json')}: missing or without field "
                              f"manifestHash; run `lockin data prepare` for this scale")
    return manifest["manifestHash"]


def _session(settings: dict, db_dir: str, app: str):
    from spark_session import build_session
    from tables import load_tables

    spark = build_session(settings, app, jit="tiered")  # long scans: the JVM's default JIT (spark_session.JIT_OPTIONS)
    load_tables(spark, db_dir)
    return spark


# ----------------------------------------------------------------------------- build

def _stored_ok(refs_dir: str, vid: str, rec: dict) -> bool:
    folder = os.path.join(refs_dir, vid)
    for name, digest in rec.get("files", {}).items():
        path = os.path.join(folder, name)
        if not os.path.exists(path) or sha256_file(path) != digest:
            return False
    return bool(rec.get("files"))


#: Settings that cannot change a query's result: a reference built with another value is reused.
RESULT_NEUTRAL_SETTINGS = ("driverMemory",)


def _result_settings(settings: dict) -> dict:
    """The Spark settings that can change a result (all but RESULT_NEUTRAL_SETTINGS)."""
    return {k: v for k, v in settings.items() if k not in RESULT_NEUTRAL_SETTINGS}


def build_one(spark, text: str, folder: str) -> dict:
    """Executes one variant's SQL and stores reference.arrow + reference.parquet + schema.json
    in `folder`. Returns {"rows", "schema", "contentHash", "seconds", "files": {name: sha256}}."""
    import pyarrow.parquet as pq

    t0 = time.monotonic()
    df = spark.sql(text)
    out = write_output(df, folder, arrow_name=ARROW, schema_name=SCHEMA)
    seconds = time.monotonic() - t0
    table = out["table"]
    pq.write_table(table, os.path.join(folder, PARQUET))
    return {
        "rows": out["rows"],
        "schema": out["sparkSchema"],
        "contentHash": content_hash(table),
        "seconds": round(seconds, 3),
        "files": {n: sha256_file(os.path.join(folder, n)) for n in (ARROW, PARQUET, SCHEMA)},
    }


_ERROR_CLASS = re.compile(r"\[[A-Z][A-Z0-9_]+\] ")


def query_error_message(exc: BaseException):
    """The one-line message of a query's own failure, or None for an infrastructure failure.

    A PySpark error (AnalysisException, ArithmeticException, ...) is the query's: its first line.
    A Py4J error is the query's only when Spark names an error class with a SQLSTATE (e.g.
    SCALAR_SUBQUERY_TOO_MANY_ROWS raised at collect time, wrapped in a Py4JJavaError); the line
    naming it is returned. Any other Py4J error (the JVM gone) is None: the caller re-raises.
    """
    text = str(exc).strip()
    if type(exc).__module__.startswith("py4j") or "Py4J" in type(exc).__name__:
        if "SQLSTATE" not in text:
            return None
        for line in text.splitlines():
            m = _ERROR_CLASS.search(line)
            if m:
                return line[m.start():].strip()[:500]
        return None
    return (text.splitlines() or [type(exc).__name__])[0][:500]


def build(scale, settings, ids, db_dir, refs_dir, jar) -> dict:
    """Builds the references for `ids` with the study's Spark settings (resumable).

    Returns: {"built": [ids], "skipped": [ids], "failed": [{id, error}], "count": n in
    references.json, "empty": [ids of `ids` whose stored reference has 0 rows], "manifestHash",
    "querySource", "seconds": {id: s}}. A variant whose SQL fails
    (e.g. an ANSI division by zero on a tiny database) is listed in "failed" and not stored.
    """
    mhash = _manifest_hash(db_dir)
    source, texts = load_texts(jar)
    os.makedirs(refs_dir, exist_ok=True)
    index_path = os.path.join(refs_dir, REFERENCES_JSON)
    index = _read_json(index_path) or {}
    same_base = (index.get("manifestHash") == mhash and index.get("querySource") == source
                 and _result_settings(index.get("sparkSettings") or {}) == _result_settings(settings))
    variants = index.get("variants", {}) if same_base else {}
    # A variant whose SQL failed on this database, text and settings fails again the same way
    # (e.g. q12's ANSI division by zero at SF=0.01): it is recorded and not retried.
    failed_before = index.get("failedVariants", {}) if same_base else {}
    index = {"formatVersion": FORMAT_VERSION, "scale": scale, "manifestHash": mhash,
             "sparkSettings": index["sparkSettings"] if same_base else settings,
             "querySource": source, "variants": variants, "failedVariants": failed_before}
    built, skipped, failed, spark = [], [], [], None
    try:
        for i, vid in enumerate(ids, 1):
            rec = variants.get(vid)
            if rec and rec.get("textSha256") == text_sha256(texts[vid]) and _stored_ok(refs_dir, vid, rec):
                skipped.append(vid)
                progress(f"references: [{i}/{len(ids)}] {vid}: already stored ({rec['rows']} rows, skipped)")
                continue
            prior = failed_before.get(vid)
            if prior and prior.get("textSha256") == text_sha256(texts[vid]):
                failed.append({"id": vid, "error": prior["error"]})
                progress(f"references: [{i}/{len(ids)}] {vid}: failed on this database before, not retried: {prior['error']}")
                continue
            if spark is None:
                spark = _session(settings, db_dir, "lockin-references")
                index["sparkVersion"] = spark.version
                index["sparkSettings"] = settings
            progress(f"references: [{i}/{len(ids)}] {vid}: running")
            try:
                rec = build_one(spark, texts[vid], os.path.join(refs_dir, vid))
            except Exception as exc:  # noqa: BLE001 - a failing reference is reported, the rest still built
                message = query_error_message(exc)
                if message is None:
                    raise
                failed.append({"id": vid, "error": message})
                variants.pop(vid, None)
                failed_before[vid] = {"textSha256": text_sha256(texts[vid]), "error": message}
                write_json(index_path, index)
                progress(f"references: [{i}/{len(ids)}] {vid}: FAILED {message} "
                         "(any Spark ERROR lines just above are this failure; the query is left out "
                         "of studies on this database and the other references are still built)")
                continue
            rec["textSha256"] = text_sha256(texts[vid])
            variants[vid] = rec
            failed_before.pop(vid, None)
            built.append(vid)
            write_json(index_path, index)
            progress(f"references: [{i}/{len(ids)}] {vid}: {rec['rows']} rows in {rec['seconds']:.1f}s")
    finally:
        if spark is not None:
            spark.stop()
    write_json(index_path, index)
    return {"built": built, "skipped": skipped, "failed": failed, "count": len(variants),
            "empty": [v for v in ids if v in variants and variants[v].get("rows") == 0],
            "manifestHash": mhash, "querySource": source, "refsDir": refs_dir,
            "seconds": {v: variants[v]["seconds"] for v in ids if v in variants}}


# ----------------------------------------------------------------------------- reproduce

def _sort_key(row):
    return tuple((v is None, "" if v is None else str(v)) for v in row)


def _cells_equal(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return True
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def first_row_difference(expected, actual):
    """First difference between two pyarrow.Tables compared as multisets of rows (floats with
    relative tolerance 1e-9). Returns None when equal, else a short description."""
    if expected.num_rows != actual.num_rows:
        return f"row count {actual.num_rows}, reference has {expected.num_rows}"
    exp_rows = sorted(zip(*[c.to_pylist() for c in expected.columns]), key=_sort_key) if expected.num_columns else []
    act_rows = sorted(zip(*[c.to_pylist() for c in actual.columns]), key=_sort_key) if actual.num_columns else []
    for n, (e, a) in enumerate(zip(exp_rows, act_rows)):
        for col, (x, y) in enumerate(zip(e, a)):
            if not _cells_equal(x, y):
                return f"sorted row {n}, column {expected.column_names[col]}: {y!r}, reference {x!r}"
    return None


def reproduce(settings, ids, db_dir, refs_dir, jar, outputs_dir=None, results_file=None) -> dict:
    """Re-executes each reference variant in this (fresh) session and compares it with the stored
    reference: schema (Spark schema JSON) and multiset of rows (docs/protocol.md §4, SQL re-execution).
    With `outputs_dir`, each re-executed output is also written as `<outputs_dir>/<taskId>/output.arrow`
    + schema.json (candidate form) so the TypeScript comparator can judge it too.
    With `results_file`, each result is appended to it as one JSON line (its fields plus
    `querySource` and the database's `manifestHash`) as soon as it is known, written and synced
    before the next query starts: a run killed part way keeps what it finished (the activity
    resumes from it; activities/data/references.ts reexecuteReferences).

    Returns: {"reproduced": n, "total": n, "results": [{id, reproduced, reason, seconds, rows?}]}
    (rows: the re-executed output's row count, when it was compared with the stored reference;
    0 for an empty reference, whose reproduction shows little).
    """
    index = _read_json(os.path.join(refs_dir, REFERENCES_JSON))
    if not index:
        raise ReferenceError_(f"{os.path.join(refs_dir, REFERENCES_JSON)}: missing; run `lockin data prepare`")
    mhash = _manifest_hash(db_dir)
    source, texts = load_texts(jar)
    results = []
    spark = _session(settings, db_dir, "lockin-reproduce")
    try:
        for i, vid in enumerate(ids, 1):
            rec = index.get("variants", {}).get(vid)
            res = {"id": vid, "reproduced": False, "reason": "", "seconds": 0.0}
            t0 = time.monotonic()
            if rec is None:
                res["reason"] = f"no stored reference in {REFERENCES_JSON}"
            elif index.get("manifestHash") != mhash:
                res["reason"] = "references were built on another database (manifestHash differs)"
            elif rec.get("textSha256") != text_sha256(texts[vid]):
                res["reason"] = f"query text differs from the one the reference was built from ({source})"
            else:
                df = spark.sql(texts[vid])
                schema = json.loads(df.schema.json())
                if outputs_dir:
                    table = write_output(df, os.path.join(outputs_dir, vid))["table"]
                else:
                    table = df.toArrow()
                stored_path = os.path.join(refs_dir, vid, ARROW)
                stored = read_arrow_ipc(stored_path) if os.path.exists(stored_path) else None
                if stored is None:
                    res["reason"] = f"{stored_path}: missing"
                elif schema != rec["schema"]:
                    res["reason"] = "schema differs from the stored reference"
                elif content_hash(stored) != rec["contentHash"]:
                    res["reason"] = f"{stored_path}: stored file does not match its recorded content hash"
                elif content_hash(table) == rec["contentHash"]:
                    res["rows"] = table.num_rows
                    res["reproduced"] = True
                    res["reason"] = "schema and multiset of rows equal (content hash)"
                else:
                    diff = first_row_difference(stored, table)
                    res["rows"] = table.num_rows
                    if diff is None:
                        res["reproduced"] = True
                        res["reason"] = "schema and multiset of rows equal (floats within 1e-9)"
                    else:
                        res["reason"] = diff
            res["seconds"] = round(time.monotonic() - t0, 3)
            results.append(res)
            if results_file:
                with open(results_file, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({**res, "querySource": source, "manifestHash": mhash}) + "\n")
                    fh.flush()
                    os.fsync(fh.fileno())
            progress(f"reproduce: [{i}/{len(ids)}] {vid}: "
                     f"{'reproduced' if res['reproduced'] else 'NOT reproduced: ' + res['reason']} "
                     f"({res['seconds']:.1f}s)")
    finally:
        spark.stop()
    return {"reproduced": sum(r["reproduced"] for r in results), "total": len(results),
            "querySource": source, "results": results}


# ----------------------------------------------------------------------------- golden

def parse_golden(text: str) -> tuple:
    """Parses a TPCDSQueryTestSuite `.sql.out` file: returns (schema string, [row strings])."""
    schema, rows, mode = "", [], None
    for line in text.split("\n"):
        if line.startswith("-- !query schema"):
            mode = "schema"
            continue
        if line.startswith("-- !query output"):
            mode = "output"
            continue
        if mode == "schema" and line.strip():
            schema, mode = line.strip(), None
        elif mode == "output":
            rows.append(line)
    while rows and rows[-1] == "":
        rows.pop()
    return schema, rows


def _split_trim(row: str) -> tuple:
    return tuple(f.rstrip() for f in row.split("\t"))


def _field_equal(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)


def compare_golden_rows(golden: list, ours: list):
    """Compares two lists of tab-separated result rows as multisets (fields right-trimmed,
    numbers equal within 1e-9 relative). Returns None when they agree, else the first difference."""
    g = sorted(_split_trim(r) for r in golden)
    o = sorted(_split_trim(r) for r in ours)
    if len(g) != len(o):
        extra_g = sorted(set(g) - set(o))[:1]
        extra_o = sorted(set(o) - set(g))[:1]
        return (f"row count {len(o)}, golden {len(g)}"
                + (f"; first golden-only row {list(extra_g[0])}" if extra_g else "")
                + (f"; first own-only row {list(extra_o[0])}" if extra_o else ""))
    for n, (x, y) in enumerate(zip(g, o)):
        if len(x) != len(y) or not all(_field_equal(a, b) for a, b in zip(x, y)):
            return f"sorted row {n}: ours {list(y)}, golden {list(x)}"
    return None


def _read_positional(spark, parquet: str, tmp_dir: str):
    """Reads a stored reference.parquet into Spark with columns renamed _c0.._cN (Spark cannot
    read a Parquet file whose column names repeat, e.g. q14b's; names do not matter for formatting)."""
    import pyarrow.parquet as pq

    table = pq.ParquetFile(parquet).read()  # not read_table: its dataset layer rejects repeated names
    renamed = table.rename_columns([f"_c{i}" for i in range(table.num_columns)])
    path = os.path.join(tmp_dir, os.path.basename(os.path.dirname(parquet)) + ".parquet")
    pq.write_table(renamed, path)
    return spark.read.parquet(path)


def golden(settings, ids, refs_dir, jar) -> dict:
    """Compares each stored reference with Spark's golden SF=1 answer in the jar.

    The stored reference.parquet is read back into Spark and formatted exactly as the golden
    files were (Spark's HiveResult.hiveResultString over the executed plan), so no query is
    re-executed. Returns {"agree": n, "total": n, "results": [{id, agree, difference,
    schemaMatches}]}. Disagreements are findings (older generator kit, CHAR padding), not errors.
    """
    from pyspark.sql.types import StructType

    source, _texts = load_texts(jar)
    if source != "spark-tests-jar":
        raise ReferenceError_(f"{jar}: the golden answers need the Spark tests jar")
    index = _read_json(os.path.join(refs_dir, REFERENCES_JSON)) or {"variants": {}}
    results = []
    from spark_session import build_session

    import tempfile

    spark = build_session(settings, "lockin-golden", jit="tiered")
    hive = spark._jvm.org.apache.spark.sql.execution.HiveResult
    tmp_dir = tempfile.mkdtemp(prefix="lockin-golden-")
    try:
        with zipfile.ZipFile(jar) as zf:
            names = set(zf.namelist())
            for i, vid in enumerate(ids, 1):
                entry = f"{GOLDEN_FOLDER}{vid}.sql.out"
                res = {"id": vid, "agree": False, "difference": "", "schemaMatches": None}
                parquet = os.path.join(refs_dir, vid, PARQUET)
                if entry not in names:
                    res["difference"] = f"no golden answer {entry} in the jar"
                elif vid not in index.get("variants", {}) or not os.path.exists(parquet):
                    res["difference"] = f"no stored reference for {vid} in {refs_dir}"
                else:
                    g_schema, g_rows = parse_golden(zf.read(entry).decode("utf-8"))
                    ours_schema = StructType.fromJson(index["variants"][vid]["schema"])
                    df = _read_positional(spark, parquet, tmp_dir)
                    seq = hive.hiveResultString(df._jdf.queryExecution().executedPlan())
                    ours = list(spark._jvm.scala.jdk.javaapi.CollectionConverters.asJava(seq))
                    res["schemaMatches"] = (ours_schema.simpleString() == g_schema)
                    diff = compare_golden_rows(g_rows, ours)
                    res["agree"] = diff is None
                    res["difference"] = diff or ""
                    res["rows"] = len(ours)
                    res["goldenRows"] = len(g_rows)
                    if not res["schemaMatches"]:
                        res["schemaNote"] = f"ours {ours_schema.simpleString()}, golden {g_schema}"
                results.append(res)
                progress(f"golden: [{i}/{len(ids)}] {vid}: "
                         f"{'agree' if res['agree'] else 'DISAGREE: ' + res['difference'][:300]}")
    finally:
        spark.stop()
        import shutil

        shutil.rmtree(tmp_dir, ignore_errors=True)
    return {"agree": sum(r["agree"] for r in results), "total": len(results), "results": results}


# ----------------------------------------------------------------------------- CLI

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="references.py", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("build", "reproduce", "golden"):
        sp = sub.add_parser(name)
        sp.add_argument("--scale", type=float, required=True)
        sp.add_argument("--settings", required=True, help="SparkSettings JSON or @file")
        sp.add_argument("--ids", default=None, help="comma-separated variant ids (default: the 33)")
        sp.add_argument("--db-dir")
        sp.add_argument("--refs-dir")
        sp.add_argument("--jar")
        if name == "reproduce":
            sp.add_argument("--outputs-dir", help="also write each re-executed output here (candidate form)")
            sp.add_argument("--results-file", help="append each result here as a JSON line as soon as it is known")
    return p


def main(argv=None) -> None:
    """Entry point: parses argv, runs the subcommand, emits its JSON result."""
    args = _parser().parse_args(argv)
    try:
        from spark_session import parse_settings_arg
        from tables import default_tests_jar

        settings = parse_settings_arg(args.settings)
        ids = check_ids(args.ids.split(",")) if args.ids else list(REFERENCE_INVENTORY)
        db_dir = args.db_dir or default_database_dir(args.scale)
        refs_dir = args.refs_dir or default_references_dir(args.scale)
        jar = args.jar or default_tests_jar()
        if args.cmd == "build":
            out = build(args.scale, settings, ids, db_dir, refs_dir, jar)
        elif args.cmd == "reproduce":
            out = reproduce(settings, ids, db_dir, refs_dir, jar, args.outputs_dir, args.results_file)
        else:
            out = golden(settings, ids, refs_dir, jar)
        emit({"scale": args.scale, **out})
    except (ReferenceError_, QueryError, ValueError, FileNotFoundError) as exc:
        fail(str(exc))
    except ImportError as exc:
        fail(f"missing Python package: {exc.name or exc} (run `node infra/setup.js`)")


if __name__ == "__main__":
    main()
