"""Benchmark helper (not a test): runs two baseline comparators on the cases bench/compare.ts wrote.

Usage: compare.py CASES.json SETTINGS_JSON

CASES.json: {"cases": [{"id", "candidate": {"columns": [{"name","type"}], "rows": [[...]]},
"reference": {...}}]} with cells in lockin's canonical form (decimal strings, ISO dates, bigint
strings, doubles with "NaN"/"Infinity"/"-Infinity" as strings).

Baselines, each timed over all cases in one run (inputs already built as pyarrow tables / Spark
DataFrames; building them is timed separately):
- pandas multiset: lower-cased names and dtypes equal, equal row counts, equal
  collections.Counter of row tuples (the usual pandas idiom).
- pyspark.testing.assertDataFrameEqual(actual, expected, checkRowOrder=False) with its default
  tolerances (rtol=1e-5, atol=1e-8).
Prints progress on stderr and one JSON line on stdout: {"pandas": {...}, "spark": {...}, "cases": [...]}.
"""
import json
import sys
import time
from collections import Counter
from datetime import date, datetime
from decimal import Decimal

import pyarrow as pa

sys.path.insert(0, __file__.rsplit("/bench/", 1)[0] + "/activities/python")

INT = {"tinyint": pa.int8(), "smallint": pa.int16(), "int": pa.int32(), "bigint": pa.int64()}


def arrow_type(t: str):
    if t in INT:
        return INT[t]
    if t.startswith("decimal("):
        p, s = t[8:-1].split(",")
        return pa.decimal128(int(p), int(s))
    return {"double": pa.float64(), "float": pa.float32(), "string": pa.string(), "date": pa.date32(),
            "boolean": pa.bool_(), "timestamp": pa.timestamp("us", tz="UTC"), "timestamp_ntz": pa.timestamp("us")}[t]


def py_value(t: str, v):
    if v is None:
        return None
    if t in INT:
        return int(v)
    if t.startswith("decimal("):
        return Decimal(v)
    if t in ("double", "float"):
        return float(v)
    if t == "date":
        return date.fromisoformat(v)
    if t.startswith("timestamp"):
        return datetime.fromisoformat(v)
    return v


def to_arrow(spec) -> pa.Table:
    cols = spec["columns"]
    arrays = [pa.array([py_value(c["type"], r[j]) for r in spec["rows"]], arrow_type(c["type"])) for j, c in enumerate(cols)]
    return pa.Table.from_arrays(arrays, names=[c["name"] for c in cols])


def pandas_multiset(cand: pa.Table, ref: pa.Table):
    """(agree, reason) with the usual pandas idiom."""
    a = cand.to_pandas()
    b = ref.to_pandas()
    if [str(c).lower() for c in a.columns] != [str(c).lower() for c in b.columns]:
        return False, "column names differ"
    if [str(d) for d in a.dtypes] != [str(d) for d in b.dtypes]:
        return False, f"dtypes differ: {[str(d) for d in a.dtypes]} vs {[str(d) for d in b.dtypes]}"
    if len(a) != len(b):
        return False, f"row count {len(a)} vs {len(b)}"
    if Counter(a.itertuples(index=False, name=None)) != Counter(b.itertuples(index=False, name=None)):
        nan = any(a[c].isna().any() for c in a.columns if str(a[c].dtype).startswith("float"))
        return False, "row multisets differ" + (" (float columns hold NaN/null: NaN != NaN inside tuples)" if nan else "")
    return True, ""


def main() -> None:
    cases = json.load(open(sys.argv[1], encoding="utf-8"))["cases"]
    settings = json.loads(sys.argv[2])
    t0 = time.perf_counter()
    tables = [(to_arrow(c["candidate"]), to_arrow(c["reference"])) for c in cases]
    build_arrow_s = time.perf_counter() - t0

    out_cases = [{"id": c["id"]} for c in cases]
    pandas_multiset(*tables[0])  # warm-up, as for the other methods
    t0 = time.perf_counter()
    for oc, (ca, ra) in zip(out_cases, tables):
        s = time.perf_counter()
        try:
            oc["pandasAgree"], oc["pandasReason"] = pandas_multiset(ca, ra)
        except Exception as exc:  # noqa: BLE001 - a crash is a verdict of its own here
            oc["pandasAgree"], oc["pandasReason"] = False, f"error: {type(exc).__name__}: {exc}"
        oc["pandasMs"] = (time.perf_counter() - s) * 1000
    pandas_s = time.perf_counter() - t0
    print(f"bench: pandas done ({pandas_s:.2f}s)", file=sys.stderr)

    from spark_session import build_session
    from pyspark.testing import assertDataFrameEqual

    t0 = time.perf_counter()
    spark = build_session(settings, "lockin-bench-compare")
    session_s = time.perf_counter() - t0
    try:
        t0 = time.perf_counter()
        frames = [(spark.createDataFrame(ca), spark.createDataFrame(ra)) for ca, ra in tables]
        build_df_s = time.perf_counter() - t0
        # One warm-up comparison so JIT/planner start-up is not charged to the first case.
        assertDataFrameEqual(frames[0][1], frames[0][1], checkRowOrder=False)
        t0 = time.perf_counter()
        for i, (oc, (cdf, rdf)) in enumerate(zip(out_cases, frames)):
            s = time.perf_counter()
            try:
                assertDataFrameEqual(cdf, rdf, checkRowOrder=False)
                oc["sparkAgree"], oc["sparkReason"] = True, ""
            except Exception as exc:  # noqa: BLE001
                msg = str(exc).strip().splitlines()
                oc["sparkAgree"], oc["sparkReason"] = False, f"{type(exc).__name__}: {msg[0] if msg else ''}"[:300]
            oc["sparkMs"] = (time.perf_counter() - s) * 1000
            if (i + 1) % 10 == 0:
                print(f"bench: spark {i + 1}/{len(frames)}", file=sys.stderr)
        spark_s = time.perf_counter() - t0
    finally:
        spark.stop()
    print(json.dumps({
        "pandas": {"seconds": pandas_s},
        "spark": {"seconds": spark_s, "sessionSeconds": session_s, "buildDataFramesSeconds": build_df_s},
        "buildArrowSeconds": build_arrow_s,
        "cases": out_cases,
    }))


if __name__ == "__main__":
    main()
