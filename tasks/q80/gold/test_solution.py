"""Tests for q80 written from task.yaml: per-entity totals, returns outer join, filters, rollup rows."""
import datetime
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType

from solution import solve

D = Decimal
IN_WINDOW = datetime.date(2000, 9, 1)
LAST_DAY = datetime.date(2000, 9, 22)
TOO_LATE = datetime.date(2000, 9, 23)


@pytest.fixture(scope="module")
def tables(spark):
    mk = spark.createDataFrame
    date_dim = mk([(1, IN_WINDOW), (2, LAST_DAY), (3, TOO_LATE)], "d_date_sk int, d_date date")
    item = mk([(10, D("60.00")), (11, D("50.00"))], "i_item_sk int, i_current_price decimal(7,2)")
    promotion = mk([(100, "N"), (101, "Y")], "p_promo_sk int, p_channel_tv string")
    store = mk([(1, "S1"), (2, "S2")], "s_store_sk int, s_store_id string")
    catalog_page = mk([(7, "CP7")], "cp_catalog_page_sk int, cp_catalog_page_id string")
    web_site = mk([(5, "W5")], "web_site_sk int, web_site_id string")
    ss_schema = ("ss_sold_date_sk int, ss_item_sk int, ss_store_sk int, ss_promo_sk int, ss_ticket_number bigint, "
                 "ss_ext_sales_price decimal(7,2), ss_net_profit decimal(7,2)")
    store_sales = mk([
        (1, 10, 1, 100, 1, D("100.00"), D("10.00")),   # returned below
        (2, 10, 1, 100, 2, D("50.00"), D("5.00")),     # last day, kept
        (3, 10, 1, 100, 3, D("999.00"), D("9.00")),    # too late
        (1, 11, 1, 100, 4, D("999.00"), D("9.00")),    # price not > 50
        (1, 10, 2, 101, 5, D("999.00"), D("9.00")),    # TV promotion
        (1, 10, 2, 100, 6, D("20.00"), D("2.00")),
    ], ss_schema)
    store_returns = mk([(10, 1, D("30.00"), D("4.00"))],
                       "sr_item_sk int, sr_ticket_number bigint, sr_return_amt decimal(7,2), sr_net_loss decimal(7,2)")
    catalog_sales = mk([(1, 10, 7, 100, 1, D("40.00"), D("4.00"))],
                       "cs_sold_date_sk int, cs_item_sk int, cs_catalog_page_sk int, cs_promo_sk int, cs_order_number bigint, "
                       "cs_ext_sales_price decimal(7,2), cs_net_profit decimal(7,2)")
    catalog_returns = mk([(10, 1, D("10.00"), D("1.00"))],
                         "cr_item_sk int, cr_order_number bigint, cr_return_amount decimal(7,2), cr_net_loss decimal(7,2)")
    web_sales = mk([(1, 10, 5, 100, 1, D("70.00"), D("7.00"))],
                   "ws_sold_date_sk int, ws_item_sk int, ws_web_site_sk int, ws_promo_sk int, ws_order_number bigint, "
                   "ws_ext_sales_price decimal(7,2), ws_net_profit decimal(7,2)")
    web_returns = mk([], "wr_item_sk int, wr_order_number bigint, wr_return_amt decimal(7,2), wr_net_loss decimal(7,2)")
    return dict(date_dim=date_dim, item=item, promotion=promotion, store=store, catalog_page=catalog_page,
                web_site=web_site, store_sales=store_sales, store_returns=store_returns, catalog_sales=catalog_sales,
                catalog_returns=catalog_returns, web_sales=web_sales, web_returns=web_returns)


@pytest.fixture(scope="module")
def rows(spark, tables):
    return solve(spark, tables).collect()


def _entity(rows, text):
    hits = [r for r in rows if r["id"] is not None and r["id"] != "" and text in r["id"]]
    assert len(hits) == 1, hits
    return hits[0]


def test_columns_and_exact_decimals(spark, tables):
    df = solve(spark, tables)
    assert df.columns == ["channel", "id", "sales", "returns", "profit"]
    for name in ("sales", "returns", "profit"):
        assert isinstance(df.schema[name].dataType, DecimalType)


def test_store_entity_totals_with_outer_returns(rows):
    s1 = _entity(rows, "S1")
    assert s1["id"].startswith("store")
    assert s1["sales"] == D("150.00")
    assert s1["returns"] == D("30.00")
    assert s1["profit"] == D("11.00")  # 10 - 4 + 5 - 0


def test_filters_exclude_window_price_and_tv(rows):
    s2 = _entity(rows, "S2")
    assert s2["sales"] == D("20.00")


def test_catalog_and_web_entities(rows):
    cp = _entity(rows, "CP7")
    assert cp["id"].startswith("catalog_page")
    assert (cp["sales"], cp["returns"], cp["profit"]) == (D("40.00"), D("10.00"), D("3.00"))
    w = _entity(rows, "W5")
    assert w["id"].startswith("web_site")
    assert (w["sales"], w["returns"], w["profit"]) == (D("70.00"), D("0.00"), D("7.00"))


def test_rollup_subtotals_and_grand_total(rows):
    def empty(v):
        return v is None or v == ""

    grand = [r for r in rows if empty(r["channel"]) and empty(r["id"])]
    assert len(grand) == 1
    assert grand[0]["sales"] == D("280.00")
    subtotals = [r for r in rows if not empty(r["channel"]) and empty(r["id"])]
    assert len(subtotals) == 3
    assert sorted(r["sales"] for r in subtotals) == [D("40.00"), D("70.00"), D("170.00")]
    assert len(rows) == 4 + 3 + 1
