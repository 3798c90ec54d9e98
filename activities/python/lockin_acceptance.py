"""Helpers for the acceptance tests of tasks/<taskId>/acceptance/ (executable labels; tasks/README.md
"Executable obligations").

An acceptance test checks ONE obligation on a small, discriminating fixture, and must not fail
for an unrelated reason: it reads the candidate's output by column POSITION in the task's
declared output order (never by alias), so a misnamed column does not fail the tests of a join
or a filter. Schema and alias obligations are the exception: their tests look at names and types
on purpose.

Importable inside the sandbox: activities/python is on PYTHONPATH in every pytest run.
"""
from __future__ import annotations

import json
import os
from decimal import Decimal


def rows(df) -> list[tuple]:
    """The output's rows in output order, each a tuple of values by column position."""
    return [tuple(r) for r in df.collect()]


def _key(value):
    """A sort key that orders None first and never compares unlike types."""
    if value is None:
        return (0, "", 0)
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        return (1, "", value)
    return (2, type(value).__name__, str(value))


def bag(df) -> list[tuple]:
    """The output's rows as a sorted list (a multiset comparison ignores the row order)."""
    return sorted(rows(df), key=lambda r: tuple(_key(v) for v in r))


def column(df, position: int) -> list:
    """The values of the column at 0-based `position`, in output order."""
    return [r[position] for r in rows(df)]


def field_types(df) -> list[str]:
    """The Spark type of each output column by position, e.g. ["int", "decimal(17,2)"]."""
    return [f.dataType.simpleString() for f in df.schema.fields]


def names(df) -> list[str]:
    """The output column names, lower-cased (for schema and alias obligations only)."""
    return [c.lower() for c in df.columns]


TABLES_FILE = "tables.json"


def _spark_type(name: str):
    """The pyspark DataType of a task.yaml type name (int, bigint, decimal(7,2), date, ...)."""
    import re

    from pyspark.sql import types as T

    m = re.fullmatch(r"decimal\((\d+),(\d+)\)", name)
    if m:
        return T.DecimalType(int(m.group(1)), int(m.group(2)))
    simple = {"int": T.IntegerType(), "bigint": T.LongType(), "smallint": T.ShortType(), "tinyint": T.ByteType(),
              "double": T.DoubleType(), "float": T.FloatType(), "string": T.StringType(), "date": T.DateType(),
              "timestamp": T.TimestampType(), "boolean": T.BooleanType()}
    if name not in simple:
        raise ValueError(f"{TABLES_FILE}: unknown type name {name!r}")
    return simple[name]


def _convert(value, type_name: str):
    """A fixture value in the column's Python type: "1.50" → Decimal for decimals, "2000-01-02" → date."""
    import datetime

    if value is None:
        return None
    if type_name.startswith("decimal") and not isinstance(value, Decimal):
        return Decimal(str(value))
    if type_name == "date" and isinstance(value, str):
        return datetime.date.fromisoformat(value)
    if type_name == "double" and isinstance(value, (int, Decimal)):
        return float(value)
    return value


class TaskTables:
    """The task's input tables with every column task.yaml declares (types and nullability),
    read from `tables.json` beside the acceptance test (staged there by the harness; `lockin
    obligations check --keep <dir>` writes it to <dir>/<taskId>/acceptance/ for a run by hand). A fixture row names only the columns
    it needs; every other column is NULL, so a candidate that reads any declared column runs."""

    def __init__(self, test_file: str):
        path = os.path.join(os.path.dirname(os.path.abspath(test_file)), TABLES_FILE)
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: no {TABLES_FILE} beside the acceptance test")
        with open(path, encoding="utf-8") as fh:
            self.tables = {t["name"]: t["columns"] for t in json.load(fh)}

    def schema(self, table: str):
        """The StructType of `table` as task.yaml declares it."""
        from pyspark.sql import types as T

        return T.StructType([T.StructField(c["name"], _spark_type(c["type"]), c["nullable"]) for c in self.tables[table]])

    def df(self, spark, table: str, rows: list[dict]):
        """A DataFrame of `table` holding `rows` (dicts by column name; unnamed columns NULL).
        A key that is not a column of the table raises KeyError, naming it; a NULL in a column
        task.yaml declares NOT NULL raises ValueError, naming the table, column and row.

        Built from an Arrow table (pyarrow) with the task's StructType: the JVM reads the
        columns directly, so scanning a fixture table starts no Python worker (from a list of
        tuples every scan ran one, about half of an acceptance test's time). Same schema,
        nullability and values as `spark.createDataFrame(tuples, schema)`: checked on every input
        table of the 30 tasks (empty, typed values, NULLs) when this path was adopted."""
        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_schema

        cols = self.tables[table]
        known = {c["name"] for c in cols}
        for i, r in enumerate(rows):
            extra = set(r) - known
            if extra:
                raise KeyError(f"{table} has no column(s) {sorted(extra)}")
            for c in cols:
                if not c["nullable"] and r.get(c["name"]) is None:
                    raise ValueError(f"{table}.{c['name']} is NOT NULL in task.yaml, but fixture row {i} leaves it NULL")
        schema = self.schema(table)
        arrow_schema = to_arrow_schema(schema)
        arrays = [pa.array([_convert(r.get(c["name"]), c["type"]) for r in rows], type=f.type) for c, f in zip(cols, arrow_schema)]
        return spark.createDataFrame(pa.Table.from_arrays(arrays, schema=arrow_schema), schema)

    def all(self, spark, **rows: list[dict]) -> dict:
        """Every table of the task, each with the rows given under its name (empty when none)."""
        return {name: self.df(spark, name, rows.get(name, [])) for name in self.tables}


def declared_rows(df, declared: list) -> list[tuple]:
    """The rows with columns in the task's declared output order: position i holds the column
    named declared[i] when the task declares a name and the output has it (so a candidate that
    reorders named columns is read right), else the output's column at position i."""
    lower = [c.lower() for c in df.columns]
    picks = [lower.index(n) if n is not None and n in lower else i for i, n in enumerate(declared)]
    return [tuple(r[p] for p in picks) for r in df.collect()]


def declared_bag(df, declared: list) -> list[tuple]:
    """declared_rows as a sorted list (row order ignored)."""
    return sorted(declared_rows(df, declared), key=lambda r: tuple(_key(v) for v in r))
