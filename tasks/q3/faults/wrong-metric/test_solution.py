from decimal import Decimal

import pytest
from pyspark.sql import types as T

from solution import solve

DATE = T.StructType([T.StructField("d_date_sk", T.IntegerType()), T.StructField("d_year", T.IntegerType()), T.StructField("d_moy", T.IntegerType())])
ITEM = T.StructType([T.StructField("i_item_sk", T.IntegerType()), T.StructField("i_brand_id", T.IntegerType()),
                     T.StructField("i_brand", T.StringType()), T.StructField("i_manufact_id", T.IntegerType())])
SALE = T.StructType([T.StructField("ss_sold_date_sk", T.IntegerType()), T.StructField("ss_item_sk", T.IntegerType()),
                     T.StructField("ss_ext_sales_price", T.DecimalType(7, 2)), T.StructField("ss_ext_list_price", T.DecimalType(7, 2))])


def tables(spark, sales, items=None, dates=None):
    dates = dates or [(1, 2000, 11), (2, 2000, 10), (3, 2001, 11)]
    items = items or [(10, 7, "brand7", 128), (11, 8, "brand8", 128), (12, 9, "brand9", 5)]
    return {
        "date_dim": spark.createDataFrame(dates, DATE),
        "item": spark.createDataFrame(items, ITEM),
        "store_sales": spark.createDataFrame([(d, i, Decimal(s), Decimal(l)) for d, i, s, l in sales], SALE),
    }


def test_output_columns(spark):
    out = solve(spark, tables(spark, [(1, 10, "8.00", "10.00")]))
    assert out.columns == ["d_year", "brand_id", "brand", "sum_agg"]
    assert dict(out.dtypes)["sum_agg"].startswith("decimal")


def test_totals_per_brand(spark):
    sales = [(1, 10, "8.00", "10.00"), (1, 10, "4.00", "5.00"), (1, 11, "16.00", "20.00")]
    rows = solve(spark, tables(spark, sales)).collect()
    assert [(r.brand_id, r.sum_agg) for r in rows] == [(8, Decimal("20.00")), (7, Decimal("15.00"))]


def test_only_manufacturer_128(spark):
    sales = [(1, 10, "8.00", "10.00"), (1, 12, "40.00", "50.00")]
    rows = solve(spark, tables(spark, sales)).collect()
    assert {r.brand_id for r in rows} == {7}


def test_only_november(spark):
    sales = [(1, 10, "8.00", "10.00"), (2, 10, "24.00", "30.00")]
    rows = solve(spark, tables(spark, sales)).collect()
    assert len(rows) == 1
    assert rows[0].sum_agg == Decimal("10.00")


def test_order_by_total_descending(spark):
    sales = [(1, 10, "4.00", "5.00"), (1, 11, "16.00", "20.00")]
    rows = solve(spark, tables(spark, sales)).collect()
    assert [r.brand_id for r in rows] == [8, 7]


def test_one_row_per_year(spark):
    sales = [(1, 10, "8.00", "10.00"), (3, 10, "8.00", "10.00")]
    rows = solve(spark, tables(spark, sales)).collect()
    assert [(r.d_year, r.brand_id) for r in rows] == [(2000, 7), (2001, 7)]
