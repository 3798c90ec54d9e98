"""Writes the report's export tables as Parquet with explicit column types (pyarrow).

Usage: python export_parquet.py SPEC_JSON
SPEC_JSON: {"tables": [{"name": str, "out": path.parquet,
                        "columns": [[name, "string"|"int"|"float"|"bool"], ...],
                        "rows": [{column: value|null, ...}, ...]}]}
Prints one JSON line: {"written": [{"name": str, "out": path, "rows": n}]}.
Columns keep the declared order; nulls stay nulls (nullable columns).
"""
from __future__ import annotations

import json
import sys

TYPES = {"string": "string", "int": "int64", "float": "float64", "bool": "bool_"}


def main() -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    with open(sys.argv[1], encoding="utf-8") as fh:
        spec = json.load(fh)
    written = []
    for t in spec["tables"]:
        fields = [pa.field(name, getattr(pa, TYPES[kind])()) for name, kind in t["columns"]]
        schema = pa.schema(fields)
        cols = {}
        for name, kind in t["columns"]:
            values = [r.get(name) for r in t["rows"]]
            if kind == "float":
                values = [None if v is None else float(v) for v in values]
            elif kind == "int":
                values = [None if v is None else int(v) for v in values]
            cols[name] = pa.array(values, type=schema.field(name).type)
        table = pa.Table.from_pydict(cols, schema=schema)
        pq.write_table(table, t["out"])
        written.append({"name": t["name"], "out": t["out"], "rows": table.num_rows})
        print(f"export_parquet: {t['name']}: {table.num_rows} rows", file=sys.stderr)
    print(json.dumps({"written": written}))


if __name__ == "__main__":
    main()
