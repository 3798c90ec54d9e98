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


def _tokens(name: str) -> set[str]:
    """The words of a column name after its table prefix: ss_ext_sales_price -> {ext, sales, price}."""
    return set(name.split("_")[1:])


def _nearest(name: str, named: list[str]) -> str:
    """The named family member whose name shares the most words with `name` (the first on a tie)."""
    return max(named, key=lambda n: (len(_tokens(n) & _tokens(name)), -named.index(n)))


def _decimal_bounds(type_name: str) -> tuple[int, int]:
    import re

    m = re.fullmatch(r"decimal\((\d+),(\d+)\)", type_name)
    return (int(m.group(1)), int(m.group(2))) if m else (7, 2)


def filler(type_name: str, name: str, position: int):
    """The value of a column a fixture row does not name and no family member decides: non-NULL,
    the same in every row (so rows that name the same values still fall in one group), different
    from every other column's (so reading another column changes what a query sees), and far from
    the values fixtures use (keys match no row; dates fall before 1902; strings say whose they are)."""
    import datetime

    if type_name in ("int", "bigint"):
        return 7_000_000 + 1000 * position
    if type_name in ("smallint", "tinyint"):
        return 90 + position % 30
    if type_name.startswith("decimal"):
        p, sc = _decimal_bounds(type_name)
        limit = 10 ** (p - sc) - 1
        whole = min(limit, 800 + position) if limit > 800 else max(1, limit - 1)
        return Decimal(whole) + (Decimal(position % 90 + 10).scaleb(-2) if sc >= 2 else Decimal(0))
    if type_name in ("double", "float"):
        return 800.0 + position + 0.25
    if type_name == "date":
        return datetime.date(1901, 1, 1) + datetime.timedelta(days=position * 3)
    if type_name == "timestamp":
        return datetime.datetime(1901, 1, 1) + datetime.timedelta(hours=position)
    if type_name == "boolean":
        return False
    return f"{name}~fill"


def differ(value, type_name: str, k: int):
    """A family member's value when the running test's obligation names the family: unlike the
    named `value` and unlike every other member's (k = the member's 1-based place in its family).
    Money: value + k x 1000.01 (within the type's range, else minus); keys: a negative key that
    matches no row."""
    if value is None:
        return None
    if type_name.startswith("decimal"):
        p, sc = _decimal_bounds(type_name)
        top = Decimal(10 ** (p - sc)) - Decimal(1).scaleb(-sc)
        step = Decimal(10) ** max(0, p - sc - 2) + Decimal(k).scaleb(-sc)
        v = Decimal(str(value)) + k * step
        return v if v <= top else Decimal(str(value)) - k * step
    return -(1_000_000 * k + abs(int(value)))


def fill_rows(columns: list[dict], families: list[list[str]], varied: set[str], rows: list[dict]) -> list[dict]:
    """Every row with a value for every column (pure: the fill rule of tasks/README.md
    "Discriminating fixtures"):
      - a column the row names keeps the row's value (None included: a NULL test);
      - a column of a family (columns.ts: money columns, date / time / customer role keys of one
        table) of which the row names a member copies the nearest named member (most words in
        common), so a candidate reading the wrong member sees the same values; but when the
        running test's obligations name a member of the family (`varied`), it differs from it
        (`differ`), so that substitution changes what the test asserts; a NULL is copied as NULL;
      - any other column gets its `filler`.
    `columns`: [{name, type, nullable}] of the table; `families`: its families; rows: dicts."""
    family_of = {c: f for f in families for c in f}
    out = []
    for r in rows:
        full = {}
        for j, c in enumerate(columns):
            name, type_name = c["name"], c["type"]
            if name in r:
                full[name] = r[name]
                continue
            fam = family_of.get(name)
            named = [x for x in fam if x in r] if fam else []
            if named:
                src = r[_nearest(name, named)]
                full[name] = differ(src, type_name, fam.index(name) + 1) if any(x in varied for x in fam) else src
            else:
                full[name] = filler(type_name, name, j)
        out.append(full)
    return out


def _test_obligations(test_file: str) -> dict[str, list[str]]:
    """test function name -> the obligation ids of its @pytest.mark.obligation markers (the same
    reading as activities/tasks/executable.ts parseAcceptanceTests)."""
    import re

    out: dict[str, list[str]] = {}
    pending: list[str] = []
    try:
        with open(test_file, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
    except OSError:
        return out
    for line in lines:
        m = re.match(r"^\s*@pytest\.mark\.obligation\(([^)]*)\)\s*$", line)
        if m:
            pending += re.findall(r"[\"'](O\d+)[\"']", m.group(1))
            continue
        d = re.match(r"^\s*def\s+(test\w*)\s*\(", line)
        if d:
            out[d.group(1)] = pending
            pending = []
        elif line and not line.startswith((" ", "\t", "@", "#")):
            pending = []
    return out


class TaskTables:
    """The task's input tables with every column task.yaml declares (types and nullability),
    read from `tables.json` beside the acceptance test (staged there by the harness; `lockin
    obligations check --keep <dir>` writes it to <dir>/<taskId>/acceptance/ for a run by hand).
    A fixture row names only the columns it needs; `fill_rows` gives the others their values
    (never NULL unless a named family member is NULL): the columns of a family the running test's
    obligations name differ from the named one, the rest copy it (tasks/README.md "Discriminating
    fixtures"). The running test is read from pytest's PYTEST_CURRENT_TEST; a module-scoped fixture
    is filled in the context of the first test that uses it."""

    def __init__(self, test_file: str):
        path = os.path.join(os.path.dirname(os.path.abspath(test_file)), TABLES_FILE)
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: no {TABLES_FILE} beside the acceptance test")
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        if isinstance(doc, list):  # schemaVersion 1: the tables alone
            doc = {"tables": doc}
        self.tables = {t["name"]: t["columns"] for t in doc["tables"]}
        self.families: dict[str, list[list[str]]] = doc.get("families", {})
        self.obligation_columns: dict[str, list[str]] = doc.get("obligations", {})
        self.markers = _test_obligations(os.path.abspath(test_file))

    def varied(self) -> set[str]:
        """The input columns the running test's obligations name (empty outside a test)."""
        current = os.environ.get("PYTEST_CURRENT_TEST", "")
        name = current.split("::")[-1].split(" ")[0].split("[")[0]
        return {c for o in self.markers.get(name, []) for c in self.obligation_columns.get(o, [])}

    def schema(self, table: str):
        """The StructType of `table` as task.yaml declares it."""
        from pyspark.sql import types as T

        return T.StructType([T.StructField(c["name"], _spark_type(c["type"]), c["nullable"]) for c in self.tables[table]])

    def df(self, spark, table: str, rows: list[dict], vary: tuple[str, ...] = ()):
        """A DataFrame of `table` holding `rows` (dicts by column name; the others filled by
        `fill_rows`, with the columns in `vary` treated as named by the running test's
        obligations). A key that is not a column of the table raises KeyError, naming it; a
        NULL in a column task.yaml declares NOT NULL (named None or left out) raises ValueError,
        naming the table, column and row.

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
        full = fill_rows(cols, self.families.get(table, []), self.varied() | set(vary), rows)
        schema = self.schema(table)
        arrow_schema = to_arrow_schema(schema)
        arrays = [pa.array([_convert(r[c["name"]], c["type"]) for r in full], type=f.type) for c, f in zip(cols, arrow_schema)]
        return spark.createDataFrame(pa.Table.from_arrays(arrays, schema=arrow_schema), schema)

    def all(self, spark, vary: tuple[str, ...] = (), **rows: list[dict]) -> dict:
        """Every table of the task, each with the rows given under its name (empty when none)."""
        return {name: self.df(spark, name, rows.get(name, []), vary) for name in self.tables}


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
