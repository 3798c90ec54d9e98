"""Tests for q7 written from task.yaml: average store-sale figures per item id for one customer profile in 2000."""
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType, DoubleType, IntegerType, StringType, StructField, StructType

from solution import solve

SALES = StructType([
    StructField("ss_sold_date_sk", IntegerType()), StructField("ss_item_sk", IntegerType(), False),
    StructField("ss_cdemo_sk", IntegerType()), StructField("ss_promo_sk", IntegerType()),
    StructField("ss_quantity", IntegerType()), StructField("ss_list_price", DecimalType(7, 2)),
    StructField("ss_coupon_amt", DecimalType(7, 2)), StructField("ss_sales_price", DecimalType(7, 2)),
])
CD = StructType([
    StructField("cd_demo_sk", IntegerType(), False), StructField("cd_gender", StringType()),
    StructField("cd_marital_status", StringType()), StructField("cd_education_status", StringType()),
])
DATE = StructType([StructField("d_date_sk", IntegerType(), False), StructField("d_year", IntegerType())])
ITEM = StructType([StructField("i_item_sk", IntegerType(), False), StructField("i_item_id", StringType())])
PROMO = StructType([
    StructField("p_promo_sk", IntegerType(), False), StructField("p_channel_email", StringType()),
    StructField("p_channel_event", StringType()),
])


def _tables(spark, sales):
    return {
        "store_sales": spark.createDataFrame(sales, SALES),
        "customer_demographics": spark.createDataFrame(
            [(1, "M", "S", "College"), (2, "F", "S", "College"), (3, "M", "M", "College")], CD),
        "date_dim": spark.createDataFrame([(1, 2000), (2, 2001)], DATE),
        # two item rows share business id ITEM_A
        "item": spark.createDataFrame([(10, "ITEM_A"), (11, "ITEM_A"), (12, "ITEM_B")], ITEM),
        "promotion": spark.createDataFrame([(1, "N", "Y"), (2, "Y", "N"), (3, "Y", "Y")], PROMO),
    }


def _sale(date, item, cdemo, promo, qty, lp, cp, sp):
    return (date, item, cdemo, promo, qty, Decimal(lp), Decimal(cp), Decimal(sp))


@pytest.fixture(scope="module")
def result(spark):
    sales = [
        _sale(1, 10, 1, 1, 1, "10.00", "1.00", "8.00"),
        _sale(1, 11, 1, 2, 2, "20.00", "0.00", "9.00"),   # same item id via another sk, email OR event = N
        _sale(1, 12, 1, 1, 5, "5.00", "0.50", "4.00"),
        _sale(1, 12, 1, 3, 9, "99.00", "9.00", "99.00"),  # promotion used both channels: excluded
        _sale(1, 12, 2, 1, 9, "99.00", "9.00", "99.00"),  # female: excluded
        _sale(1, 12, 3, 1, 9, "99.00", "9.00", "99.00"),  # married: excluded
        _sale(2, 12, 1, 1, 9, "99.00", "9.00", "99.00"),  # 2001: excluded
        _sale(1, 12, 1, None, 9, "99.00", "9.00", "99.00"),  # no promotion: excluded
    ]
    return solve(spark, _tables(spark, sales))


def test_first_column_item_id_and_five_columns(result):
    assert result.columns[0] == "i_item_id"
    assert len(result.columns) == 5


def test_averages_per_item_id(result):
    rows = [tuple(r) for r in result.collect()]
    assert [r[0] for r in rows] == ["ITEM_A", "ITEM_B"]
    a, b = rows
    assert a[1] == pytest.approx(1.5)
    assert Decimal(a[2]) == Decimal("15") and Decimal(a[3]) == Decimal("0.5") and Decimal(a[4]) == Decimal("8.5")
    assert b[1] == pytest.approx(5.0)
    assert Decimal(b[2]) == Decimal("5") and Decimal(b[3]) == Decimal("0.5") and Decimal(b[4]) == Decimal("4")


def test_price_averages_stay_decimal(result):
    types = [f.dataType for f in result.schema.fields]
    assert isinstance(types[1], DoubleType)
    assert all(isinstance(t, DecimalType) for t in types[2:])


def test_limit_100_by_item_id(spark):
    t = _tables(spark, [])
    t["item"] = spark.createDataFrame([(i, f"ITEM_{i:03d}") for i in range(120)], ITEM)
    t["store_sales"] = spark.createDataFrame([_sale(1, i, 1, 1, 1, "1.00", "1.00", "1.00") for i in range(120)], SALES)
    rows = [r[0] for r in solve(spark, t).collect()]
    assert rows == [f"ITEM_{i:03d}" for i in range(100)]
