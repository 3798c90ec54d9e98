"""Tests for q77 written from task.yaml: per-call-center catalog grain, period returns total, rollup, int ids."""
import datetime
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType, IntegerType

from solution import solve

D = Decimal
DAY = datetime.date(2000, 8, 10)
LAST = datetime.date(2000, 9, 2)
LATE = datetime.date(2000, 9, 3)


@pytest.fixture(scope="module")
def tables(spark):
    mk = spark.createDataFrame
    date_dim = mk([(1, DAY), (2, LAST), (3, LATE)], "d_date_sk int, d_date date")
    store = mk([(1,), (2,)], "s_store_sk int")
    web_page = mk([(8,)], "wp_web_page_sk int")
    store_sales = mk([
        (1, 1, D("100.00"), D("10.00")), (2, 1, D("50.00"), D("5.00")), (3, 1, D("999.00"), D("9.00")),
        (1, 2, D("20.00"), D("2.00")),
    ], "ss_sold_date_sk int, ss_store_sk int, ss_ext_sales_price decimal(7,2), ss_net_profit decimal(7,2)")
    store_returns = mk([(1, 1, D("30.00"), D("4.00")), (3, 1, D("500.00"), D("50.00"))],
                       "sr_returned_date_sk int, sr_store_sk int, sr_return_amt decimal(7,2), sr_net_loss decimal(7,2)")
    catalog_sales = mk([
        (1, 1, D("40.00"), D("4.00")), (1, 2, D("60.00"), D("6.00")), (2, 2, D("10.00"), D("1.00")),
    ], "cs_sold_date_sk int, cs_call_center_sk int, cs_ext_sales_price decimal(7,2), cs_net_profit decimal(7,2)")
    catalog_returns = mk([(1, D("7.00"), D("2.00")), (2, D("3.00"), D("1.00")), (3, D("100.00"), D("100.00"))],
                         "cr_returned_date_sk int, cr_return_amount decimal(7,2), cr_net_loss decimal(7,2)")
    web_sales = mk([(1, 8, D("70.00"), D("7.00"))],
                   "ws_sold_date_sk int, ws_web_page_sk int, ws_ext_sales_price decimal(7,2), ws_net_profit decimal(7,2)")
    web_returns = mk([], "wr_returned_date_sk int, wr_web_page_sk int, wr_return_amt decimal(7,2), wr_net_loss decimal(7,2)")
    return dict(date_dim=date_dim, store=store, web_page=web_page, store_sales=store_sales, store_returns=store_returns,
                catalog_sales=catalog_sales, catalog_returns=catalog_returns, web_sales=web_sales, web_returns=web_returns)


@pytest.fixture(scope="module")
def rows(spark, tables):
    return solve(spark, tables).collect()


def _detail(rows, word):
    return {r["id"]: r for r in rows if r["channel"] and word in r["channel"] and r["id"] is not None}


def test_schema(spark, tables):
    df = solve(spark, tables)
    assert df.columns == ["channel", "id", "sales", "returns", "profit"]
    assert isinstance(df.schema["id"].dataType, IntegerType)
    assert isinstance(df.schema["sales"].dataType, DecimalType)


def test_store_rows_with_and_without_returns(rows):
    st = _detail(rows, "store")
    assert set(st) == {1, 2}
    assert (st[1]["sales"], st[1]["returns"], st[1]["profit"]) == (D("150.00"), D("30.00"), D("11.00"))
    assert (st[2]["sales"], st[2]["returns"], st[2]["profit"]) == (D("20.00"), D("0.00"), D("2.00"))


def test_catalog_one_row_per_call_center_with_period_returns(rows):
    cat = _detail(rows, "catalog")
    assert set(cat) == {1, 2}
    assert cat[1]["sales"] == D("40.00") and cat[2]["sales"] == D("70.00")
    for cc in cat.values():
        assert cc["returns"] == D("10.00")
    assert cat[1]["profit"] == D("1.00")   # 4 - 3
    assert cat[2]["profit"] == D("4.00")   # 7 - 3


def test_web_page_row(rows):
    web = _detail(rows, "web")
    assert (web[8]["sales"], web[8]["returns"], web[8]["profit"]) == (D("70.00"), D("0.00"), D("7.00"))


def test_rollup_rows(rows):
    subtotals = [r for r in rows if r["channel"] and r["id"] is None]
    assert len(subtotals) == 3
    grand = [r for r in rows if not r["channel"] and r["id"] is None]
    assert len(grand) == 1
    assert grand[0]["sales"] == D("350.00")
    assert grand[0]["returns"] == D("50.00")  # 30 + 10 + 10 + 0
