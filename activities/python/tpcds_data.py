"""Generates, types and records the study's TPC-DS database (docs/protocol.md §1, §4).

Subcommands (each prints progress on stderr and ONE JSON line last on stdout):
  generate  --scale S [--raw-dir D]                 run tpcgen-cli (--compat c) into D
  load      --scale S --settings JSON [--raw-dir D] [--db-dir D]
                                                    cast to docs/tpcds-types.md, write typed Parquet
                                                    under <db>/<table>/ and <db>/manifest.json
  prepare   (generate then load, same options)
  verify    --scale S [--db-dir D]                  check every typed file against manifest.json

Resume: a step whose outputs already match its record (generate.json for the generator's
files, manifest.json / per-table `_lockin_table.json` for typed tables) is skipped.
A file whose sha256 no longer matches its record is reported as corrupted; nothing is deleted.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys

from tables import (TPCDS_TABLES, default_database_dir, default_raw_dir, emit, fail, progress,
                    REPO_ROOT, read_json, sha256_file, write_json)

GENERATOR = "tpcgen-cli"
GENERATOR_FLAGS = ["tpcds", "parquet", "--compat", "c"]
GENERATE_STAMP = "generate.json"
TABLE_STAMP = "_lockin_table.json"
MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1

#: The six ticket/order numbers: the only bigint columns (docs/tpcds-types.md).
BIGINT_COLUMNS = frozenset({
    "ss_ticket_number", "sr_ticket_number", "cs_order_number", "cr_order_number",
    "ws_order_number", "wr_order_number",
})
#: decimal(5,2) columns besides the *_gmt_offset family (s_tax_precentage is the kit's spelling).
DECIMAL_5_2_COLUMNS = frozenset({"cc_tax_percentage", "web_tax_percentage", "s_tax_precentage"})
#: Columns renamed to the names the Spark v1.4 query texts use.
RENAMES = {"customer": {"c_last_review_date_sk": "c_last_review_date"}}


class DataError(Exception):
    """A clear, user-facing problem (missing package, corrupted file, bad input)."""


def _read_json(path: str):
    """read_json with this module's error class."""
    return read_json(path, DataError, "; move it away to rebuild")


# ----------------------------------------------------------------------------- types

def expected_type(column: str, source_type: str) -> str:
    """The study's Spark type (simpleString) of one generator column (docs/tpcds-types.md).

    Inputs: the generator's column name; `source_type` = the family of the type Spark reads
    from the generator's Parquet ("int", "bigint", "decimal(p,s)", "date", "string").
    Returns: "int" | "bigint" | "decimal(7,2)" | "decimal(5,2)" | "decimal(15,2)" | "date" | "string".
    Raises: DataError for a source type the table does not cover.
    """
    if column in BIGINT_COLUMNS:
        return "bigint"
    if column.endswith("_sk"):
        return "int"
    if column == "p_cost":
        return "decimal(15,2)"
    if column.endswith("_gmt_offset") or column in DECIMAL_5_2_COLUMNS:
        return "decimal(5,2)"
    if source_type in ("int", "bigint", "smallint", "tinyint"):
        return "int"
    if source_type.startswith("decimal"):
        return "decimal(7,2)"
    if source_type == "date":
        return "date"
    if source_type == "string":
        return "string"
    raise DataError(f"column {column}: generator type {source_type} is not covered by docs/tpcds-types.md")


def typed_frame(df, table: str):
    """Casts a generator DataFrame to the study's types and names; returns (DataFrame, [(name, type)])."""
    from pyspark.sql import functions as F

    cols, spec = [], []
    renames = RENAMES.get(table, {})
    for field in df.schema.fields:
        target = expected_type(field.name, field.dataType.simpleString())
        name = renames.get(field.name, field.name)
        cols.append(F.col(f"`{field.name}`").cast(target).alias(name))
        spec.append((name, target))
    return df.select(*cols), spec


# ----------------------------------------------------------------------------- generate

def generator_binary() -> str:
    """Path of tpcgen-cli in the project venv. Raises DataError when it is not installed."""
    path = os.path.join(REPO_ROOT, ".venv", "bin", GENERATOR)
    if not os.path.exists(path):
        raise DataError(f"{path}: {GENERATOR} is not installed (run `node infra/setup.js`)")
    return path


def generator_version(binary: str) -> str:
    """`tpcgen-cli --version` -> "4.0.0"."""
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    return out.strip().split()[-1]


def scale_arg(scale: float) -> str:
    """The -s argument: 1 -> "1", 0.01 -> "0.01"."""
    return repr(float(scale))[:-2] if float(scale).is_integer() else repr(float(scale))






def _parquet_rows(path: str) -> int:
    import pyarrow.parquet as pq

    try:
        return pq.read_metadata(path).num_rows
    except Exception as exc:  # noqa: BLE001 - any unreadable footer is a corrupted file
        raise DataError(f"{path}: not a readable Parquet file ({exc})") from exc


def generate(scale: float, raw_dir: str, expect_version: str | None) -> dict:
    """Runs tpcgen-cli for the 24 tables at `scale` into `raw_dir` (skips a verified earlier run).

    Returns: {"skipped": bool, "generator": {...}, "tables": {table: {file, sha256, rows}}, "seconds"}.
    Raises: DataError when the generator is missing or has the wrong version, or a recorded
    file is corrupted (its sha256 differs from generate.json).
    """
    import time

    t0 = time.monotonic()
    binary = generator_binary()
    version = generator_version(binary)
    if expect_version and version != expect_version:
        raise DataError(f"{binary}: version {version}, the study pins {expect_version}")
    flags = GENERATOR_FLAGS + ["-s", scale_arg(scale)]
    gen = {"name": GENERATOR, "version": version, "flags": flags}
    os.makedirs(raw_dir, exist_ok=True)
    stamp_path = os.path.join(raw_dir, GENERATE_STAMP)
    stamp = _read_json(stamp_path)
    if stamp and stamp.get("generator") != gen:
        raise DataError(f"{stamp_path}: generated by {stamp.get('generator')}, now {gen}; "
                        f"use another --raw-dir or move the folder away")
    recorded = (stamp or {}).get("tables", {})
    todo = []
    for table in TPCDS_TABLES:
        path = os.path.join(raw_dir, f"{table}.parquet")
        rec = recorded.get(table)
        if rec and os.path.exists(path):
            digest = sha256_file(path)
            if digest != rec["sha256"]:
                raise DataError(f"{path}: corrupted (sha256 {digest[:12]}…, {GENERATE_STAMP} records "
                                f"{rec['sha256'][:12]}…); move it away and rerun to regenerate it")
        else:
            todo.append(table)
    if not todo:
        progress(f"generate: sf{scale_arg(scale)} already generated in {raw_dir} (skipped)")
        return {"skipped": True, "generator": gen, "tables": recorded, "seconds": time.monotonic() - t0}
    progress(f"generate: {GENERATOR} {version} sf{scale_arg(scale)}: {len(todo)} table(s) -> {raw_dir}")
    cmd = [binary, *flags, "-o", raw_dir, "--overwrite", "-q"]
    if len(todo) < len(TPCDS_TABLES):
        cmd += ["--tables", ",".join(todo)]
    else:
        cmd += ["--tables", ",".join(TPCDS_TABLES)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise DataError(f"{GENERATOR} failed (exit {res.returncode}): {res.stderr.strip()[-800:]}")
    tables = dict(recorded)
    for table in todo:
        path = os.path.join(raw_dir, f"{table}.parquet")
        if not os.path.exists(path):
            raise DataError(f"{path}: {GENERATOR} did not write this table")
        tables[table] = {"file": f"{table}.parquet", "sha256": sha256_file(path), "rows": _parquet_rows(path)}
        progress(f"generate: {table}: {tables[table]['rows']} rows")
    write_json(stamp_path, {"generator": gen, "scale": scale, "tables": tables})
    return {"skipped": False, "generator": gen, "tables": tables, "seconds": time.monotonic() - t0}


# ----------------------------------------------------------------------------- load

def table_files(table_dir: str) -> dict:
    """{file name: sha256} of the data files of a typed table folder (names not starting with _ or .)."""
    return {
        name: sha256_file(os.path.join(table_dir, name))
        for name in sorted(os.listdir(table_dir))
        if not name.startswith(("_", ".")) and os.path.isfile(os.path.join(table_dir, name))
    }


def verify_table(db_dir: str, table: str, record: dict) -> None:
    """Checks a typed table folder against its record ({"files": {name: sha256}}).

    Raises: DataError naming the first missing, extra or corrupted file.
    """
    table_dir = os.path.join(db_dir, table)
    if not os.path.isdir(table_dir):
        raise DataError(f"{table_dir}: typed table folder missing")
    actual = table_files(table_dir)
    for name, digest in record["files"].items():
        if name not in actual:
            raise DataError(f"{os.path.join(table_dir, name)}: file missing (recorded in the manifest)")
        if actual[name] != digest:
            raise DataError(f"{os.path.join(table_dir, name)}: corrupted (sha256 {actual[name][:12]}…, "
                            f"recorded {digest[:12]}…); move {table_dir} away and rerun to rebuild it")
    extra = sorted(set(actual) - set(record["files"]))
    if extra:
        raise DataError(f"{os.path.join(table_dir, extra[0])}: unexpected file in a typed table")


def manifest_hash(manifest: dict) -> str:
    """sha256 of the canonical JSON of what identifies the database: generator, scale and,
    per table, rows, schema, source sha256 and file sha256s (Spark settings and timings excluded)."""
    core = {"generator": manifest["generator"], "scale": manifest["scale"],
            "tables": {t: {k: v for k, v in rec.items() if k in ("rows", "schema", "files", "source")}
                       for t, rec in manifest["tables"].items()}}
    text = json.dumps(core, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _write_typed_table(spark, raw_path: str, db_dir: str, table: str, source: dict) -> dict:
    """Casts one generator file and writes it as ONE Parquet file `<db>/<table>/part-00000.parquet`
    (atomically via a hidden temp folder). Returns the table record."""
    df, spec = typed_frame(spark.read.parquet(raw_path), table)
    tmp_dir = os.path.join(db_dir, f".{table}.tmp")
    df.coalesce(1).write.mode("overwrite").option("compression", "snappy").parquet(tmp_dir)
    parts = [n for n in os.listdir(tmp_dir) if n.startswith("part-") and n.endswith(".parquet")]
    if len(parts) != 1:
        raise DataError(f"{tmp_dir}: expected one part file, found {len(parts)}")
    os.replace(os.path.join(tmp_dir, parts[0]), os.path.join(tmp_dir, "part-00000.parquet"))
    for name in os.listdir(tmp_dir):  # Spark's own side files (.crc, _SUCCESS) of this temp write
        if name != "part-00000.parquet":
            os.remove(os.path.join(tmp_dir, name))
    typed = spark.read.parquet(tmp_dir)
    actual = [(f.name, f.dataType.simpleString()) for f in typed.schema.fields]
    if actual != spec:
        raise DataError(f"{table}: written schema {actual} differs from the study types {spec}")
    record = {
        "rows": _parquet_rows(os.path.join(tmp_dir, "part-00000.parquet")),
        "schema": json.loads(typed.schema.json()),
        "files": table_files(tmp_dir),
        "source": source,
    }
    write_json(os.path.join(tmp_dir, TABLE_STAMP), record)
    final_dir = os.path.join(db_dir, table)
    os.replace(tmp_dir, final_dir)
    return record


def load(scale: float, settings: dict, raw_dir: str, db_dir: str, expect_version: str | None) -> dict:
    """Loads the generator's files into Spark with the study's types and writes the typed database
    plus manifest.json (docs/protocol.md §1; types from docs/tpcds-types.md).

    Returns: {"skipped", "manifestHash", "dbDir", "rows": {table: n}, "seconds"}.
    Raises: DataError when the generator output is missing or a typed file is corrupted.
    """
    import time

    t0 = time.monotonic()
    stamp = _read_json(os.path.join(raw_dir, GENERATE_STAMP))
    if not stamp:
        raise DataError(f"{os.path.join(raw_dir, GENERATE_STAMP)}: missing; run `generate` first")
    if expect_version and stamp["generator"]["version"] != expect_version:
        raise DataError(f"{raw_dir}: generated by {GENERATOR} {stamp['generator']['version']}, "
                        f"the study pins {expect_version}")
    os.makedirs(db_dir, exist_ok=True)
    manifest_path = os.path.join(db_dir, MANIFEST)
    old = _read_json(manifest_path)
    if old and old.get("generator") == stamp["generator"] and old.get("sparkSettings") == settings:
        try:
            for table in TPCDS_TABLES:
                rec = old["tables"][table]
                if rec["source"] != stamp["tables"][table]:
                    raise KeyError(table)
                verify_table(db_dir, table, rec)
            progress(f"load: {db_dir} matches {MANIFEST} (skipped)")
            return {"skipped": True, "manifestHash": old["manifestHash"], "dbDir": db_dir,
                    "rows": {t: r["rows"] for t, r in old["tables"].items()},
                    "seconds": time.monotonic() - t0}
        except KeyError:
            pass
    spark = None
    records = {}
    progress(f"load: {len(TPCDS_TABLES)} table(s) -> {db_dir}")
    try:
        for table in TPCDS_TABLES:
            source = stamp["tables"].get(table)
            raw_path = os.path.join(raw_dir, f"{table}.parquet")
            if not source or not os.path.exists(raw_path):
                raise DataError(f"{raw_path}: generator output missing; rerun `generate`")
            table_dir = os.path.join(db_dir, table)
            if os.path.isdir(table_dir):
                rec = _read_json(os.path.join(table_dir, TABLE_STAMP))
                if rec is None:
                    raise DataError(f"{table_dir}: typed table without {TABLE_STAMP}; move it away to rebuild")
                verify_table(db_dir, table, rec)
                if rec["source"] == source:
                    progress(f"load: {table}: already typed ({rec['rows']} rows, skipped)")
                    records[table] = rec
                    continue
                raise DataError(f"{table_dir}: typed from another generator file; move it away to rebuild")
            if spark is None:
                from spark_session import build_session
                spark = build_session(settings, "lockin-load", jit="tiered")
            t1 = time.monotonic()
            records[table] = _write_typed_table(spark, raw_path, db_dir, table, source)
            progress(f"load: {table}: {records[table]['rows']} rows in {time.monotonic() - t1:.1f}s")
    finally:
        if spark is not None:
            spark.stop()
    manifest = {
        "formatVersion": MANIFEST_FORMAT,
        "generator": stamp["generator"],
        "scale": scale,
        "sparkSettings": settings,
        "sparkVersion": _spark_version(),
        "renamedColumns": RENAMES,
        "tables": records,
    }
    manifest["manifestHash"] = manifest_hash(manifest)
    write_json(manifest_path, manifest)
    progress(f"load: wrote {manifest_path} (hash {manifest['manifestHash'][:12]}…)")
    return {"skipped": False, "manifestHash": manifest["manifestHash"], "dbDir": db_dir,
            "rows": {t: r["rows"] for t, r in records.items()}, "seconds": time.monotonic() - t0}


def _spark_version() -> str:
    import pyspark

    return pyspark.__version__


def verify(db_dir: str) -> dict:
    """Checks every typed file against manifest.json. Returns {"ok": True, "manifestHash", "rows"}.
    Raises: DataError naming the first problem."""
    manifest = read_manifest(db_dir)
    for table in TPCDS_TABLES:
        if table not in manifest["tables"]:
            raise DataError(f"{os.path.join(db_dir, MANIFEST)}: field tables.{table} missing")
        verify_table(db_dir, table, manifest["tables"][table])
    if manifest_hash(manifest) != manifest["manifestHash"]:
        raise DataError(f"{os.path.join(db_dir, MANIFEST)}: field manifestHash does not match its content")
    return {"ok": True, "manifestHash": manifest["manifestHash"], "dbDir": db_dir,
            "rows": {t: r["rows"] for t, r in manifest["tables"].items()}}


def read_manifest(db_dir: str) -> dict:
    """Reads `<db_dir>/manifest.json`. Raises DataError when it is missing or unreadable."""
    path = os.path.join(db_dir, MANIFEST)
    manifest = _read_json(path)
    if manifest is None:
        raise DataError(f"{path}: missing; run `lockin data prepare` for this scale")
    for field in ("generator", "scale", "tables", "manifestHash"):
        if field not in manifest:
            raise DataError(f"{path}: field {field} missing")
    return manifest


# ----------------------------------------------------------------------------- CLI

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tpcds_data.py", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("generate", "load", "prepare", "verify"):
        sp = sub.add_parser(name)
        sp.add_argument("--scale", type=float, required=True)
        sp.add_argument("--db-dir")
        sp.add_argument("--raw-dir")
        sp.add_argument("--expect-version", default=None, help="pinned tpcgen-cli version")
        if name in ("load", "prepare"):
            sp.add_argument("--settings", required=True, help="SparkSettings JSON or @file")
    return p


def main(argv=None) -> None:
    """Entry point: parses argv, runs the subcommand, emits its JSON result."""
    args = _parser().parse_args(argv)
    if args.scale <= 0:
        fail(f"--scale: must be positive, got {args.scale}")
    raw_dir = args.raw_dir or default_raw_dir(args.scale)
    db_dir = args.db_dir or default_database_dir(args.scale)
    try:
        if args.cmd == "verify":
            emit(verify(db_dir))
            return
        settings = None
        if args.cmd in ("load", "prepare"):
            from spark_session import parse_settings_arg
            settings = parse_settings_arg(args.settings)
        result = {"scale": args.scale, "rawDir": raw_dir, "dbDir": db_dir}
        if args.cmd in ("generate", "prepare"):
            g = generate(args.scale, raw_dir, args.expect_version)
            result["generate"] = {"skipped": g["skipped"], "seconds": g["seconds"], "generator": g["generator"],
                                  "rows": {t: r["rows"] for t, r in g["tables"].items()}}
        if args.cmd in ("load", "prepare"):
            result["load"] = load(args.scale, settings, raw_dir, db_dir, args.expect_version)
            result["manifestHash"] = result["load"]["manifestHash"]
        emit(result)
    except DataError as exc:
        fail(str(exc))
    except ValueError as exc:
        fail(str(exc))
    except ImportError as exc:
        fail(f"missing Python package: {exc.name or exc} (run `node infra/setup.js`)")


if __name__ == "__main__":
    main()
