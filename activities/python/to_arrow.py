"""Convert a Parquet output to an Arrow IPC file plus a Spark schema JSON (for the comparator).

Usage: to_arrow.py INPUT.parquet OUT.arrow OUT_SCHEMA.json

The Spark schema is taken, in this order, from Spark's own Parquet metadata
(`org.apache.spark.sql.parquet.row.metadata`, written by Spark's Parquet writer) or derived
from the Arrow schema with Spark's Arrow type mapping. Prints progress on stderr and one JSON
object on the last stdout line: {"arrowFile", "schemaFile", "schemaSource", "rows", "columns"}.
"""
import json
import sys

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

SPARK_META = b"org.apache.spark.sql.parquet.row.metadata"


def spark_type(t: pa.DataType):
    """Spark schema-JSON type of an Arrow type (Spark's Arrow conversion, inverted)."""
    if pa.types.is_int8(t):
        return "byte"
    if pa.types.is_int16(t):
        return "short"
    if pa.types.is_int32(t):
        return "integer"
    if pa.types.is_int64(t):
        return "long"
    if pa.types.is_float32(t):
        return "float"
    if pa.types.is_float64(t):
        return "double"
    if pa.types.is_decimal(t):
        return f"decimal({t.precision},{t.scale})"
    if pa.types.is_date(t):
        return "date"
    if pa.types.is_timestamp(t):
        return "timestamp" if t.tz else "timestamp_ntz"
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string"
    if pa.types.is_boolean(t):
        return "boolean"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return "binary"
    if pa.types.is_null(t):
        return "void"
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return {"type": "array", "elementType": spark_type(t.value_type), "containsNull": True}
    if pa.types.is_struct(t):
        return {"type": "struct", "fields": [field_json(t.field(i)) for i in range(t.num_fields)]}
    raise ValueError(f"Arrow type {t} has no Spark counterpart")


def field_json(f: pa.Field):
    return {"name": f.name, "type": spark_type(f.type), "nullable": f.nullable, "metadata": {}}


def main() -> None:
    if len(sys.argv) != 4:
        print("usage: to_arrow.py INPUT.parquet OUT.arrow OUT_SCHEMA.json", file=sys.stderr)
        sys.exit(2)
    src, out_arrow, out_schema = sys.argv[1:4]
    pf = pq.ParquetFile(src)
    meta = pf.schema_arrow.metadata or {}
    table = pf.read()
    if SPARK_META in meta:
        schema = json.loads(meta[SPARK_META].decode("utf-8"))
        source = "spark-metadata"
    else:
        schema = {"type": "struct", "fields": [field_json(f) for f in table.schema]}
        source = "derived"
    table = table.replace_schema_metadata(None)
    with ipc.new_file(out_arrow, table.schema) as w:
        w.write_table(table)
    with open(out_schema, "w", encoding="utf-8") as fh:
        json.dump(schema, fh)
    print(f"to_arrow: {src}: {table.num_rows} rows, {table.num_columns} columns ({source})", file=sys.stderr)
    print(json.dumps({"arrowFile": out_arrow, "schemaFile": out_schema, "schemaSource": source,
                      "rows": table.num_rows, "columns": table.num_columns}))


if __name__ == "__main__":
    main()
