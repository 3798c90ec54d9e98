"""Tests for q3 written from task.yaml: November store sales per year and brand for manufacturer 128."""
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType, IntegerType, StringType, StructField, StructType

from solution import solve

DATE = StructType([StructField("d_date_sk", IntegerType(), False), StructField("d_year", IntegerType()), StructField("d_moy", IntegerType())])
SALES = StructType([
    StructField("ss_sold_date_sk", IntegerType()), StructField("ss_item_sk", IntegerType(), False),
    StructField("ss_ext_sales_price", DecimalType(7, 2)),
])
ITEM = StructType([
    StructField("i_item_sk", IntegerType(), False), StructField("i_brand_id", IntegerType()),
    StructField("i_brand", StringType()), StructField("i_manufact_id", IntegerType()),
])


def _tables(spark, sales):
    dates = [(1, 2000, 11), (2, 2000, 10), (3, 2001, 11)]
    items = [(10, 7, "brand7", 128), (11, 8, "brand8", 128), (12, 9, "brand9", 5)]
    return {
        "date_dim": spark.createDataFrame(dates, DATE),
        "store_sales": spark.createDataFrame(sales, SALES),
        "item": spark.createDataFrame(items, ITEM),
    }


@pytest.fixture(scope="module")
def result(spark):
    sales = [
        (1, 10, Decimal("10.00")), (1, 10, Decimal("5.50")),   # 2000-11 brand7: 15.50
        (1, 11, Decimal("20.00")),                              # 2000-11 brand8: 20.00
        (2, 10, Decimal("99.00")),                              # October: excluded
        (1, 12, Decimal("50.00")),                              # manufacturer 5: excluded
        (3, 10, Decimal("1.25")),                               # 2001-11 brand7
    ]
    return solve(spark, _tables(spark, sales))


def test_first_column_is_year_and_four_columns(result):
    assert result.columns[0] == "d_year"
    assert len(result.columns) == 4


def test_totals_per_year_and_brand_for_november_and_manufacturer_128(result):
    rows = [tuple(r) for r in result.collect()]
    assert rows == [
        (2000, 8, "brand8", Decimal("20.00")),
        (2000, 7, "brand7", Decimal("15.50")),
        (2001, 7, "brand7", Decimal("1.25")),
    ]


def test_total_is_an_exact_decimal(result):
    assert isinstance(result.schema.fields[3].dataType, DecimalType)


def test_limit_100(spark):
    dates = [(1, 2000, 11)]
    items = [(i, i, f"b{i}", 128) for i in range(150)]
    t = {
        "date_dim": spark.createDataFrame(dates, DATE),
        "store_sales": spark.createDataFrame([(1, i, Decimal(i)) for i in range(150)], SALES),
        "item": spark.createDataFrame(items, ITEM),
    }
    rows = solve(spark, t).collect()
    assert len(rows) == 100
    assert rows[0][3] == Decimal("149.00")  # highest total first within the year
