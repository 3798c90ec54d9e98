"""Tests for q12 written from task.yaml: web_sales revenue per item in Sports/Books/Home, 1999-02-22..1999-03-24, share of class."""
import datetime
from decimal import Decimal

import pytest
from pyspark.sql.types import DateType, DecimalType, IntegerType, StringType, StructField, StructType

from solution import solve

SALES = StructType([
    StructField("ws_sold_date_sk", IntegerType()), StructField("ws_item_sk", IntegerType(), False),
    StructField("ws_ext_sales_price", DecimalType(7, 2)),
])
ITEM = StructType([
    StructField("i_item_sk", IntegerType(), False), StructField("i_item_id", StringType()),
    StructField("i_item_desc", StringType()), StructField("i_current_price", DecimalType(7, 2)),
    StructField("i_class", StringType()), StructField("i_category", StringType()),
])
DATE = StructType([StructField("d_date_sk", IntegerType(), False), StructField("d_date", DateType())])


def _tables(spark, sales, items):
    dates = [
        (1, datetime.date(1999, 2, 21)), (2, datetime.date(1999, 2, 22)),
        (3, datetime.date(1999, 3, 24)), (4, datetime.date(1999, 3, 25)),
    ]
    return {
        "web_sales": spark.createDataFrame(sales, SALES),
        "item": spark.createDataFrame(items, ITEM),
        "date_dim": spark.createDataFrame(dates, DATE),
    }


ITEMS = [
    (1, "A", "desc a", Decimal("1.00"), "pop", "Books"),
    (2, "B", "desc b", Decimal("2.00"), "pop", "Books"),
    (3, "C", "desc c", Decimal("3.00"), "golf", "Sports"),
    (4, "D", "desc d", Decimal("4.00"), "pop", "Music"),
]


@pytest.fixture(scope="module")
def result(spark):
    sales = [
        (2, 1, Decimal("30.00")), (3, 1, Decimal("10.00")),  # A: 40 (both window ends included)
        (2, 2, Decimal("60.00")),                            # B: 60
        (3, 3, Decimal("25.00")),                            # C: 25, alone in its class
        (1, 1, Decimal("500.00")), (4, 2, Decimal("500.00")),  # outside the window
        (2, 4, Decimal("700.00")),                           # category Music: excluded
    ]
    return solve(spark, _tables(spark, sales, ITEMS))


def test_stated_columns_first_and_six_columns(result):
    assert result.columns[:4] == ["i_item_desc", "i_category", "i_class", "i_current_price"]
    assert len(result.columns) == 6


def test_revenue_and_class_share(result):
    rows = [tuple(r) for r in result.collect()]
    assert [r[0] for r in rows] == ["desc a", "desc b", "desc c"]  # Books/pop A, Books/pop B, Sports/golf C
    a, b, c = rows
    assert a[4] == Decimal("40.00") and b[4] == Decimal("60.00") and c[4] == Decimal("25.00")
    assert Decimal(a[5]) == Decimal("40") and Decimal(b[5]) == Decimal("60") and Decimal(c[5]) == Decimal("100")


def test_revenue_is_exact_decimal(result):
    assert isinstance(result.schema.fields[4].dataType, DecimalType)
    assert isinstance(result.schema.fields[5].dataType, DecimalType)


def test_one_row_per_item_even_with_the_same_description(spark):
    items = [(1, "A", "same", Decimal("1.00"), "pop", "Home"), (2, "B", "same", Decimal("1.00"), "pop", "Home")]
    out = solve(spark, _tables(spark, [(2, 1, Decimal("1.00")), (2, 2, Decimal("3.00"))], items)).collect()
    assert sorted(r[4] for r in out) == [Decimal("1.00"), Decimal("3.00")]


def test_limit_100(spark):
    items = [(i, f"I{i:03d}", f"d{i}", Decimal("1.00"), "pop", "Home") for i in range(1, 131)]
    sales = [(2, i, Decimal("1.00")) for i in range(1, 131)]
    rows = solve(spark, _tables(spark, sales, items)).collect()
    assert len(rows) == 100
    assert [r[0] for r in rows] == [f"d{i}" for i in range(1, 101)]
