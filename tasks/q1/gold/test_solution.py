"""Tests for q1 written from task.yaml: customers returning more than 1.2x their store's average (TN stores, 2000)."""
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType, IntegerType, StringType, StructField, StructType

from solution import solve

RET = StructType([
    StructField("sr_returned_date_sk", IntegerType()), StructField("sr_customer_sk", IntegerType()),
    StructField("sr_store_sk", IntegerType()), StructField("sr_return_amt", DecimalType(7, 2)),
])
DATE = StructType([StructField("d_date_sk", IntegerType(), False), StructField("d_year", IntegerType())])
STORE = StructType([StructField("s_store_sk", IntegerType(), False), StructField("s_state", StringType())])
CUST = StructType([StructField("c_customer_sk", IntegerType(), False), StructField("c_customer_id", StringType())])


def _tables(spark, returns, stores=((1, "TN"), (2, "TN"), (3, "CA"))):
    customers = [(i, f"C{i:03d}") for i in range(1, 200)]
    return {
        "store_returns": spark.createDataFrame(returns, RET),
        "date_dim": spark.createDataFrame([(1, 2000), (2, 1999)], DATE),
        "store": spark.createDataFrame(list(stores), STORE),
        "customer": spark.createDataFrame(customers, CUST),
    }


def test_only_column_is_customer_id(spark):
    out = solve(spark, _tables(spark, [(1, 1, 1, Decimal("1.00"))]))
    assert out.columns == ["c_customer_id"]


def test_strictly_above_1_2_times_store_average(spark):
    # store 1 totals: c1=100, c2=50, c3=30 -> avg 60, threshold 72: only c1.
    # c4 has 71.99 + 0.01 = 72.00 at store 2 where avg of (72, 48) = 60 -> threshold 72: not strictly greater.
    returns = [
        (1, 1, 1, Decimal("60.00")), (1, 1, 1, Decimal("40.00")),
        (1, 2, 1, Decimal("50.00")), (1, 3, 1, Decimal("30.00")),
        (2, 3, 1, Decimal("900.00")),  # 1999: ignored
        (1, 4, 2, Decimal("71.99")), (1, 4, 2, Decimal("0.01")), (1, 5, 2, Decimal("48.00")),
    ]
    out = [r.c_customer_id for r in solve(spark, _tables(spark, returns)).collect()]
    assert out == ["C001"]


def test_only_tennessee_stores(spark):
    returns = [(1, 1, 3, Decimal("100.00")), (1, 2, 3, Decimal("1.00")), (1, 3, 3, Decimal("1.00"))]
    assert solve(spark, _tables(spark, returns)).count() == 0


def test_one_row_per_customer_and_store_ordered_and_limited(spark):
    returns = []
    for store in (1, 2):
        returns.append((1, 7, store, Decimal("500.00")))
        returns += [(1, c, store, Decimal("1.00")) for c in (8, 9, 10)]
    out = [r.c_customer_id for r in solve(spark, _tables(spark, returns)).collect()]
    assert out == ["C007", "C007"]
    many = [(1, c, 1, Decimal("100.00")) for c in range(1, 151)] + [(1, c, 1, Decimal("1.00")) for c in range(151, 199)]
    rows = [r.c_customer_id for r in solve(spark, _tables(spark, many)).collect()]
    assert len(rows) == 100
    assert rows == sorted(rows)
