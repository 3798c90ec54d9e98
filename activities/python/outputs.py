"""Writes a DataFrame as an Arrow IPC file plus its Spark schema JSON.

Used for references (references.py) and for candidate outputs (candidate execution), so both
sides of a reference-agreement comparison are stored in the same form.
"""
from __future__ import annotations

import hashlib
import json
import os

ARROW_FILE = "output.arrow"
SCHEMA_FILE = "schema.json"


def to_arrow_table(df):
    """Collects `df` to a pyarrow.Table (keeps Spark's column order and names, duplicates included).

    Columns with duplicate names are kept: pyarrow tables allow them.
    """
    import pyarrow as pa

    # Spark 4 returns a pyarrow.Table directly.
    table = df.toArrow()
    if not isinstance(table, pa.Table):  # pragma: no cover - older pyspark
        table = pa.Table.from_batches(table)
    return table


def write_arrow_ipc(table, path: str) -> None:
    """Writes a pyarrow.Table to `path` as an Arrow IPC *file* (random-access format)."""
    import pyarrow as pa

    tmp = path + ".tmp"
    with pa.OSFile(tmp, "wb") as sink:
        with pa.ipc.new_file(sink, table.schema) as writer:
            writer.write_table(table)
    os.replace(tmp, path)


def write_output(df, out_dir: str, arrow_name: str = ARROW_FILE, schema_name: str = SCHEMA_FILE) -> dict:
    """Writes `df` as `<out_dir>/output.arrow` (Arrow IPC file) + `<out_dir>/schema.json`
    (`df.schema.json()`, Spark's StructType JSON).

    Inputs: a Spark DataFrame; the output folder (created if missing).
    Returns: {"rows": int, "arrow": path, "schema": path, "sparkSchema": dict, "table": pyarrow.Table}.
    """
    os.makedirs(out_dir, exist_ok=True)
    schema_json = df.schema.json()
    table = to_arrow_table(df)
    arrow_path = os.path.join(out_dir, arrow_name)
    schema_path = os.path.join(out_dir, schema_name)
    write_arrow_ipc(table, arrow_path)
    with open(schema_path, "w", encoding="utf-8") as fh:
        fh.write(schema_json)
    return {
        "rows": table.num_rows,
        "arrow": arrow_path,
        "schema": schema_path,
        "sparkSchema": json.loads(schema_json),
        "table": table,
    }


def write_output_fds(df, arrow_fd: int, schema_fd: int) -> dict:
    """Like write_output, but into two descriptors the harness opened (the candidate
    execution's outputs: activities/execution/sandbox.ts, "outputs"), never through a path.

    Returns: {"rows": int}.
    """
    import pyarrow as pa

    schema_json = df.schema.json()
    table = to_arrow_table(df)
    with os.fdopen(os.dup(arrow_fd), "wb") as fh:
        with pa.ipc.new_file(pa.PythonFile(fh, mode="w"), table.schema) as writer:
            writer.write_table(table)
    with os.fdopen(os.dup(schema_fd), "wb") as fh:
        fh.write(schema_json.encode("utf-8"))
    return {"rows": table.num_rows}


def read_arrow_ipc(path: str):
    """Reads an Arrow IPC file written by write_output into a pyarrow.Table."""
    import pyarrow as pa

    with pa.memory_map(path, "r") as source:
        return pa.ipc.open_file(source).read_all()


#: Significant digits kept for floating-point cells in content_hash.
FLOAT_DIGITS = 12


def _canonical_cell(value) -> str:
    """Canonical text of one cell for hashing: None -> '\\N', Decimal kept exact (its scale
    included), floats at FLOAT_DIGITS significant digits (so a re-execution that sums doubles
    in another order hashes equal), dates ISO, strings JSON-quoted (separators stay unambiguous)."""
    if value is None:
        return "\\N"
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value == 0:
            return "0"  # -0.0 and 0.0 are equal values
        return format(value, f".{FLOAT_DIGITS}g")
    if isinstance(value, (bytes, bytearray)):
        return "b:" + bytes(value).hex()
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_canonical_cell(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_canonical_cell(k)}:{_canonical_cell(v)}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))) + "}"
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return json.dumps(str(value), ensure_ascii=False) if isinstance(value, str) else str(value)


def content_hash(table) -> str:
    """Order-independent content hash of a pyarrow.Table: sha256 over the sorted list of
    canonical row texts (so two tables with the same multiset of rows hash equal).

    Column names and order are part of the hash (a header line); row order is not. Floating-point
    cells are rounded to FLOAT_DIGITS significant digits, so the hash is exact for every other
    type and tolerant only in the last digits of doubles.
    """
    cols = table.column_names
    pylists = [table.column(i).to_pylist() for i in range(table.num_columns)]
    rows = [
        "\x1f".join(_canonical_cell(col[r]) for col in pylists)
        for r in range(table.num_rows)
    ]
    rows.sort()
    h = hashlib.sha256()
    h.update(("\x1f".join(cols) + "\n").encode("utf-8"))
    for row in rows:
        h.update(row.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()
