"""Tests for q27 written from task.yaml: demographics/year/state filters, rollup rows and g_state flag."""
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType

from solution import solve

D = Decimal


@pytest.fixture(scope="module")
def tables(spark):
    mk = spark.createDataFrame
    date_dim = mk([(1, 2002), (2, 2001)], "d_date_sk int, d_year int")
    item = mk([(10, "A"), (11, "B")], "i_item_sk int, i_item_id string")
    store = mk([(1, "TN"), (2, "GA")], "s_store_sk int, s_state string")
    cd = mk([(1, "M", "S", "College"), (2, "F", "S", "College"), (3, "M", "M", "College")],
            "cd_demo_sk int, cd_gender string, cd_marital_status string, cd_education_status string")
    ss = ("ss_sold_date_sk int, ss_item_sk int, ss_store_sk int, ss_cdemo_sk int, ss_quantity int, "
          "ss_list_price decimal(7,2), ss_coupon_amt decimal(7,2), ss_sales_price decimal(7,2)")
    store_sales = mk([
        (1, 10, 1, 1, 1, D("10.00"), D("1.00"), D("8.00")),
        (1, 10, 1, 1, 2, D("20.00"), D("0.00"), D("16.00")),
        (1, 11, 1, 1, 5, D("5.00"), D("0.00"), D("5.00")),
        (1, 10, 2, 1, 9, D("90.00"), D("9.00"), D("90.00")),   # GA
        (1, 10, 1, 2, 9, D("90.00"), D("9.00"), D("90.00")),   # female
        (1, 10, 1, 3, 9, D("90.00"), D("9.00"), D("90.00")),   # married
        (2, 10, 1, 1, 9, D("90.00"), D("9.00"), D("90.00")),   # 2001
    ], ss)
    return dict(date_dim=date_dim, item=item, store=store, customer_demographics=cd, store_sales=store_sales)


@pytest.fixture(scope="module")
def result(spark, tables):
    df = solve(spark, tables)
    return df, df.collect()


def test_columns(result):
    df, _ = result
    assert df.columns == ["i_item_id", "s_state", "g_state", "agg1", "agg2", "agg3", "agg4"]
    assert isinstance(df.schema["agg2"].dataType, DecimalType)


def test_item_state_rows(result):
    _, rows = result
    a = [r for r in rows if r["i_item_id"] == "A" and r["s_state"] == "TN"]
    assert len(a) == 1
    r = a[0]
    assert r["g_state"] == 0
    assert r["agg1"] == pytest.approx(1.5)
    assert (r["agg2"], r["agg3"], r["agg4"]) == (D("15"), D("0.5"), D("12"))


def test_rollup_rows_and_flag(result):
    _, rows = result
    assert len(rows) == 2 + 2 + 1
    subtotals = [r for r in rows if r["i_item_id"] is not None and r["g_state"] == 1]
    assert sorted(r["i_item_id"] for r in subtotals) == ["A", "B"]
    grand = [r for r in rows if r["i_item_id"] is None]
    assert len(grand) == 1 and grand[0]["g_state"] == 1
    assert grand[0]["agg1"] == pytest.approx(8 / 3)


def test_ordering(result):
    _, rows = result
    ids = [r["i_item_id"] for r in rows]
    assert ids[0] is None and ids[1:] == sorted(ids[1:])
