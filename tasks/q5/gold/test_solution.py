"""Tests for q5 written from task.yaml: per-entity sales/returns/profit in a 14-day window, rolled up."""
import datetime
from decimal import Decimal as D

import pytest

from solution import solve


@pytest.fixture(scope="module")
def tables(spark):
    d = datetime.date
    date_dim = spark.createDataFrame(
        [(1, d(2000, 8, 23)), (2, d(2000, 9, 6)), (3, d(2000, 9, 7)), (4, d(2000, 8, 22))],
        "d_date_sk int, d_date date")
    store = spark.createDataFrame([(10, "S1"), (11, "S2")], "s_store_sk int, s_store_id string")
    page = spark.createDataFrame([(20, "P1")], "cp_catalog_page_sk int, cp_catalog_page_id string")
    site = spark.createDataFrame([(30, "W1")], "web_site_sk int, web_site_id string")
    ss = spark.createDataFrame([
        (10, 1, D("100.00"), D("30.00"), D("55.00")),   # in window
        (10, 2, D("50.00"), D("10.00"), D("25.00")),    # last day of window
        (10, 3, D("999.00"), D("999.00"), D("1.00")),   # day after the window
    ], "ss_store_sk int, ss_sold_date_sk int, ss_ext_sales_price decimal(7,2), ss_net_profit decimal(7,2), "
       "ss_net_paid decimal(7,2)")
    sr = spark.createDataFrame([
        (10, 1, D("20.00"), D("4.00")),
        (11, 2, D("7.00"), D("2.00")),                  # store with returns only
        (11, 4, D("500.00"), D("500.00")),              # before the window
    ], "sr_store_sk int, sr_returned_date_sk int, sr_return_amt decimal(7,2), sr_net_loss decimal(7,2)")
    cs = spark.createDataFrame([(20, 1, D("40.00"), D("8.00"))],
                               "cs_catalog_page_sk int, cs_sold_date_sk int, cs_ext_sales_price decimal(7,2), "
                               "cs_net_profit decimal(7,2)")
    cr = spark.createDataFrame([(20, 3, D("1.00"), D("1.00"))],
                               "cr_catalog_page_sk int, cr_returned_date_sk int, cr_return_amount decimal(7,2), "
                               "cr_net_loss decimal(7,2)")
    ws = spark.createDataFrame([(30, 1, 5, 900, D("60.00"), D("12.00"))],
                               "ws_web_site_sk int, ws_sold_date_sk int, ws_item_sk int, ws_order_number bigint, "
                               "ws_ext_sales_price decimal(7,2), ws_net_profit decimal(7,2)")
    wr = spark.createDataFrame([(5, 900, 2, D("6.00"), D("3.00")), (6, 901, 2, D("50.00"), D("50.00"))],
                               "wr_item_sk int, wr_order_number bigint, wr_returned_date_sk int, "
                               "wr_return_amt decimal(7,2), wr_net_loss decimal(7,2)")
    return {"date_dim": date_dim, "store": store, "catalog_page": page, "web_site": site,
            "store_sales": ss, "store_returns": sr, "catalog_sales": cs, "catalog_returns": cr,
            "web_sales": ws, "web_returns": wr}


@pytest.fixture(scope="module")
def result(spark, tables):
    return solve(spark, tables)


@pytest.fixture(scope="module")
def detail(result):
    return {(r["channel"], r["id"]): (r["sales"], r["returns"], r["profit"])
            for r in result.collect() if r["channel"] is not None and r["id"] is not None}


def test_columns(result):
    assert result.columns == ["channel", "id", "sales", "returns", "profit"]


def test_store_entity_measures(detail):
    # sales 100 + 50, returns 20, profit (30 + 10) - 4
    assert detail[("store channel", "storeS1")] == (D("150.00"), D("20.00"), D("36.00"))


def test_entity_with_only_returns_has_zero_sales(detail):
    assert detail[("store channel", "storeS2")] == (D("0.00"), D("7.00"), D("-2.00"))


def test_catalog_and_web_labels_and_ids(detail):
    assert detail[("catalog channel", "catalog_pageP1")] == (D("40.00"), D("0.00"), D("8.00"))
    # the matched web return counts; the unmatched one drops out
    assert detail[("web channel", "web_siteW1")] == (D("60.00"), D("6.00"), D("9.00"))
    assert len(detail) == 4


def test_subtotals_and_grand_total(result):
    rows = result.collect()
    assert len(rows) == 4 + 3 + 1
    biggest = max(rows, key=lambda r: r["sales"])
    assert (biggest["sales"], biggest["returns"], biggest["profit"]) == (D("250.00"), D("33.00"), D("51.00"))
