"""Builds seeded variant databases from the study database (differential execution;
docs/protocol.md §7 "Differential execution").

Subcommand (progress on stderr, ONE JSON line last on stdout):
  build --source-db D --out-dir V [--variants nulls,dupdims,crosschannel] [--seed N]
        writes, for each variant, `<V>/<variant>/<table>/part-00000.parquet` (one file per table)
        and `<V>/<variant>/manifest.json`. A variant whose manifest already records the same
        source database, seed and parameters, and whose files match it, is skipped (resume).

Transformations (deterministic for a seed: numpy's PCG64 seeded with [seed, sha256(variant,
table, column)], so one table's draw does not depend on the others):
  nulls    each cell of a nullable non-key column is set to NULL with probability `fraction`.
           Key columns (never touched): surrogate keys `*_sk`, business keys `*_id` and the six
           ticket/order numbers (docs/tpcds-types.md; TPC-DS declares these NOT NULL or joins on them).
           The calendar tables (date_dim, time_dim; `exceptTables`) are left whole: the generator
           never leaves a calendar cell NULL and the queries use them as scalar lookups (q54's
           `(SELECT DISTINCT d_month_seq + 1 ... )` would return two rows, NULL and the month).
  dupdims  each row of a dimension table (every table but the seven fact tables) is appended
           once more with probability `fraction` (exact duplicate, same keys), so a join on it
           fans out.
  crosschannel  each store sale line with a customer and a sold date is, with probability
           `fraction`, echoed into the web and the catalog channel: one line appended to
           web_sales and one to catalog_sales, copied from a line of that table drawn at random,
           with the store line's customer (as the bill-to customer), item and sold date, and a
           new order number (above every existing one, so no return matches it). The generator
           almost never lets one customer buy one item in all three channels in a year, so
           questions about such overlaps have empty answers on the study database (q78 at
           SF=0.01 and SF=1); on this variant they are not empty (differential execution, "distilled" databases
           on which a reference discriminates).

The tables are read and written with pyarrow (no JVM): the Arrow types are kept as read, so
Spark reads each file with the schema the source manifest records, which the variant manifest
copies (tables.load_tables reads it from there).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil

from tables import TPCDS_TABLES, emit, fail, progress, read_json, sha256_file, write_json

MANIFEST = "manifest.json"
FORMAT_VERSION = 1
PART = "part-00000.parquet"

#: The variants this script builds and their default parameters.
DEFAULT_PARAMS = {
    "nulls": {"fraction": 0.08, "exceptTables": ["date_dim", "time_dim"]},
    "dupdims": {"fraction": 0.06},
    "crosschannel": {"fraction": 0.05},
}
VARIANTS = tuple(DEFAULT_PARAMS)
#: What each variant does, in words (recorded in its manifest).
TRANSFORMATIONS = {
    "nulls": "each cell of a non-key column (not *_sk, *_id or a ticket/order number) of a table not in exceptTables set to NULL with probability fraction",
    "dupdims": "each row of a dimension table (not one of the seven fact tables) appended once more with probability fraction",
    "crosschannel": "each store_sales line with a customer and a sold date echoed, with probability fraction, as one web_sales and one catalog_sales line (a random line of that table with the store line's customer as bill-to customer, item and sold date, and a new order number)",
}

#: The seven fact tables (TPC-DS spec §2); every other table is a dimension.
FACT_TABLES = frozenset({
    "store_sales", "store_returns", "catalog_sales", "catalog_returns", "web_sales", "web_returns", "inventory",
})
#: The six ticket/order numbers (key columns that do not end in _sk; docs/tpcds-types.md).
NUMBER_KEYS = frozenset({
    "ss_ticket_number", "sr_ticket_number", "cs_order_number", "cr_order_number", "ws_order_number", "wr_order_number",
})


class VariantError(Exception):
    """A clear, user-facing problem (missing source database, unknown variant, corrupted file)."""


def is_key_column(column: str) -> bool:
    """True for the columns no variant sets to NULL: `*_sk`, `*_id` and the ticket/order numbers."""
    return column.endswith("_sk") or column.endswith("_id") or column in NUMBER_KEYS


def rng_for(seed: int, *parts: str):
    """A numpy Generator (PCG64) seeded with [seed, first 8 bytes of sha256("/".join(parts))]."""
    import numpy as np

    digest = hashlib.sha256("/".join(parts).encode("utf-8")).digest()
    return np.random.default_rng([int(seed), int.from_bytes(digest[:8], "big")])


def inject_nulls(table, name: str, seed: int, fraction: float, except_tables=()):
    """Sets cells of the non-key columns of `table` (pyarrow.Table `name`) to NULL, each with
    probability `fraction`. Returns (new table, {column: cells changed}) where a changed cell
    was non-NULL and became NULL (columns with no change are left out)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    columns, changed = [], {}
    if name in except_tables:
        return table, changed
    for field, col in zip(table.schema, table.columns):
        if is_key_column(field.name) or table.num_rows == 0:
            columns.append(col)
            continue
        mask = pa.array(rng_for(seed, "nulls", name, field.name).random(table.num_rows) < fraction)
        n = pc.sum(pc.and_(mask, pc.is_valid(col))).as_py() or 0
        columns.append(pc.if_else(mask, pa.scalar(None, field.type), col) if n else col)
        if n:
            changed[field.name] = int(n)
    return pa.Table.from_arrays(columns, schema=table.schema), changed


def duplicate_rows(table, name: str, seed: int, fraction: float):
    """Appends to `table` (a dimension) a copy of each row drawn with probability `fraction`, in
    row order. Returns (new table, number of rows appended). Fact tables are returned unchanged."""
    import numpy as np
    import pyarrow as pa

    if name in FACT_TABLES or table.num_rows == 0:
        return table, 0
    picks = np.nonzero(rng_for(seed, "dupdims", name).random(table.num_rows) < fraction)[0]
    if len(picks) == 0:
        return table, 0
    return pa.concat_tables([table, table.take(pa.array(picks))]), int(len(picks))


#: crosschannel: the columns set on an echoed line, per channel (customer, item, sold date, order number).
ECHO_COLUMNS = {
    "web_sales": ("ws_bill_customer_sk", "ws_item_sk", "ws_sold_date_sk", "ws_order_number"),
    "catalog_sales": ("cs_bill_customer_sk", "cs_item_sk", "cs_sold_date_sk", "cs_order_number"),
}
STORE_ECHO = ("ss_customer_sk", "ss_item_sk", "ss_sold_date_sk")


def echo_store_lines(table, name: str, seed: int, fraction: float, store_sales):
    """crosschannel for one table: for web_sales and catalog_sales, appends one line per store
    line picked (store lines with a customer and a sold date, each with probability `fraction`,
    the same picks for both channels), copied from a line of `table` drawn at random, with the
    store line's customer, item and sold date and order numbers max+1, max+2, ... in pick order.
    Returns (new table, lines appended). Other tables are returned unchanged.
    Raises VariantError when a column it sets is missing."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if name not in ECHO_COLUMNS or table.num_rows == 0:
        return table, 0
    for col in ECHO_COLUMNS[name]:
        if col not in table.column_names:
            raise VariantError(f"crosschannel: table {name} has no column {col}")
    for col in STORE_ECHO:
        if col not in store_sales.column_names:
            raise VariantError(f"crosschannel: table store_sales has no column {col}")
    eligible = pc.and_(pc.is_valid(store_sales.column("ss_customer_sk")), pc.is_valid(store_sales.column("ss_sold_date_sk")))
    candidates = np.nonzero(np.asarray(eligible.to_numpy(zero_copy_only=False), dtype=bool))[0]
    picks = candidates[rng_for(seed, "crosschannel", "store_sales").random(len(candidates)) < fraction]
    if len(picks) == 0:
        return table, 0
    store = store_sales.take(pa.array(picks))
    templates = rng_for(seed, "crosschannel", name).integers(0, table.num_rows, len(picks))
    echo = table.take(pa.array(templates))
    customer, item, date, order = ECHO_COLUMNS[name]
    top = pc.max(table.column(order)).as_py() or 0
    new_cols = {customer: store.column("ss_customer_sk"), item: store.column("ss_item_sk"), date: store.column("ss_sold_date_sk"),
                order: pa.array(range(top + 1, top + 1 + len(picks)))}
    arrays = []
    for field in table.schema:
        col = new_cols.get(field.name)
        arrays.append(echo.column(field.name) if col is None else pc.cast(col, field.type))
    return pa.concat_tables([table, pa.Table.from_arrays(arrays, schema=table.schema)]), int(len(picks))


def transform(variant: str, table, name: str, seed: int, params: dict, read_table=None) -> tuple:
    """Applies `variant` to one table (`read_table(name)` reads another source table: crosschannel
    reads store_sales). Returns (table, record) where record holds sourceRows, rows, changedCells
    (cells set to NULL or rows x columns appended) and details."""
    src_rows = table.num_rows
    if variant == "nulls":
        out, per_col = inject_nulls(table, name, seed, params["fraction"], params.get("exceptTables", ()))
        rec = {"changedCells": sum(per_col.values()), "nulledCells": per_col}
    elif variant == "dupdims":
        out, dup = duplicate_rows(table, name, seed, params["fraction"])
        rec = {"changedCells": dup * table.num_columns, "duplicatedRows": dup}
    elif variant == "crosschannel":
        out, echoed = echo_store_lines(table, name, seed, params["fraction"], read_table("store_sales") if name in ECHO_COLUMNS else None)
        rec = {"changedCells": echoed * table.num_columns, "echoedRows": echoed}
    else:
        raise VariantError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    rec.update({"sourceRows": src_rows, "rows": out.num_rows})
    return out, rec


def _read_source_table(source_db: str, name: str, record: dict):
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = os.path.join(source_db, name)
    parts = []
    for fname, digest in sorted(record.get("files", {}).items()):
        path = os.path.join(folder, fname)
        if not os.path.exists(path):
            raise VariantError(f"{path}: missing (recorded in the source manifest)")
        parts.append(pq.ParquetFile(path).read())
    if not parts:
        raise VariantError(f"{folder}: no data file recorded in the source manifest")
    return pa.concat_tables(parts) if len(parts) > 1 else parts[0]


def variant_manifest_hash(manifest: dict) -> str:
    """sha256 of the canonical JSON of what identifies a variant database: the source manifest
    hash, variant, seed, parameters and, per table, rows, schema and file sha256s."""
    core = {"source": manifest["source"]["manifestHash"], "variant": manifest["variant"], "seed": manifest["seed"],
            "params": manifest["params"],
            "tables": {t: {k: rec[k] for k in ("rows", "schema", "files")} for t, rec in manifest["tables"].items()}}
    return hashlib.sha256(json.dumps(core, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def _matches(manifest, source_hash: str, variant: str, seed: int, params: dict, folder: str) -> bool:
    if not manifest or manifest.get("formatVersion") != FORMAT_VERSION:
        return False
    if (manifest.get("source", {}).get("manifestHash"), manifest.get("variant"), manifest.get("seed"), manifest.get("params")) != (
            source_hash, variant, seed, params):
        return False
    for table, rec in manifest.get("tables", {}).items():
        for fname, digest in rec["files"].items():
            path = os.path.join(folder, table, fname)
            if not os.path.exists(path) or sha256_file(path) != digest:
                return False
    return set(manifest.get("tables", {})) == set(TPCDS_TABLES)


def build_variant(source_db: str, out_dir: str, variant: str, seed: int, params: dict | None = None) -> dict:
    """Builds one variant database `<out_dir>/<variant>/` from the typed database `source_db`.

    Returns {"variant", "skipped", "manifestHash", "dbDir", "rows": {table: n}, "changedCells": n}.
    Raises VariantError for a missing source manifest or an unknown variant.
    """
    import pyarrow.parquet as pq

    if variant not in DEFAULT_PARAMS:
        raise VariantError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    params = dict(params or DEFAULT_PARAMS[variant])
    src = read_json(os.path.join(source_db, MANIFEST), VariantError)
    if not src or "manifestHash" not in src or "tables" not in src:
        raise VariantError(f"{os.path.join(source_db, MANIFEST)}: missing or incomplete; run `lockin data prepare` for this scale")
    folder = os.path.join(out_dir, variant)
    old = read_json(os.path.join(folder, MANIFEST), VariantError)
    if _matches(old, src["manifestHash"], variant, seed, params, folder):
        progress(f"variants: {variant}: already built (manifest {old['manifestHash'][:12]}…, skipped)")
        return {"variant": variant, "skipped": True, "manifestHash": old["manifestHash"], "dbDir": folder,
                "rows": {t: r["rows"] for t, r in old["tables"].items()},
                "changedCells": sum(r["changedCells"] for r in old["tables"].values())}
    if os.path.isdir(folder):
        progress(f"variants: {variant}: rebuilding (source, seed or parameters differ, or a file changed)")
        shutil.rmtree(folder)
    tmp = os.path.join(out_dir, f".{variant}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    tables = {}
    for name in TPCDS_TABLES:
        if name not in src["tables"]:
            raise VariantError(f"{os.path.join(source_db, MANIFEST)}: field tables.{name} missing")
        table, rec = transform(variant, _read_source_table(source_db, name, src["tables"][name]), name, seed, params,
                               lambda other: _read_source_table(source_db, other, src["tables"][other]))
        os.makedirs(os.path.join(tmp, name))
        pq.write_table(table, os.path.join(tmp, name, PART), compression="snappy")
        rec["schema"] = src["tables"][name]["schema"]
        rec["files"] = {PART: sha256_file(os.path.join(tmp, name, PART))}
        tables[name] = rec
        if rec["changedCells"]:
            progress(f"variants: {variant}: {name}: {rec['rows']} rows, {rec['changedCells']} cells changed")
    manifest = {"formatVersion": FORMAT_VERSION, "variant": variant, "seed": seed, "params": params,
                "transformation": TRANSFORMATIONS[variant],
                "source": {"manifestHash": src["manifestHash"], "scale": src.get("scale"), "generator": src.get("generator")},
                "scale": src.get("scale"), "sparkSettings": src.get("sparkSettings"), "tables": tables}
    manifest["manifestHash"] = variant_manifest_hash(manifest)
    write_json(os.path.join(tmp, MANIFEST), manifest)
    os.replace(tmp, folder)
    total = sum(r["changedCells"] for r in tables.values())
    progress(f"variants: {variant}: built {folder} ({total} cells changed, manifest {manifest['manifestHash'][:12]}…)")
    return {"variant": variant, "skipped": False, "manifestHash": manifest["manifestHash"], "dbDir": folder,
            "rows": {t: r["rows"] for t, r in tables.items()}, "changedCells": total}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="variants.py", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("build")
    sp.add_argument("--source-db", required=True, help="the typed study database (databaseDir(S))")
    sp.add_argument("--out-dir", required=True, help="variantsDir(S): one folder per variant")
    sp.add_argument("--variants", default=",".join(VARIANTS))
    sp.add_argument("--seed", type=int, default=1)
    return p


def main(argv=None) -> None:
    """Entry point: parses argv, builds the variants, emits {"variants": [...]}."""
    args = _parser().parse_args(argv)
    try:
        names = [v.strip() for v in args.variants.split(",") if v.strip()]
        unknown = [v for v in names if v not in DEFAULT_PARAMS]
        if unknown:
            raise VariantError(f"unknown variant(s) {', '.join(unknown)} (known: {', '.join(VARIANTS)})")
        os.makedirs(args.out_dir, exist_ok=True)
        emit({"seed": args.seed, "variants": [build_variant(args.source_db, args.out_dir, v, args.seed) for v in names]})
    except VariantError as exc:
        fail(str(exc))
    except ImportError as exc:
        fail(f"missing Python package: {exc.name or exc} (run `node infra/setup.js`)")


if __name__ == "__main__":
    main()
