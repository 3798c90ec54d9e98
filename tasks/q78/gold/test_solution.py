"""Tests for q78 written from task.yaml: unreturned lines, (year, item, customer) matching, ratio and totals."""
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType, DoubleType

from solution import solve

D = Decimal
COLUMNS = ["ratio", "store_qty", "store_wholesale_cost", "store_sales_price",
           "other_chan_qty", "other_chan_wholesale_cost", "other_chan_sales_price"]


@pytest.fixture(scope="module")
def tables(spark):
    mk = spark.createDataFrame
    date_dim = mk([(1, 2000), (2, 2001)], "d_date_sk int, d_year int")
    ss = ("ss_sold_date_sk int, ss_item_sk int, ss_customer_sk int, ss_ticket_number bigint, ss_quantity int, "
          "ss_wholesale_cost decimal(7,2), ss_sales_price decimal(7,2)")
    store_sales = mk([
        (1, 10, 100, 1, 6, D("1.00"), D("2.00")),
        (1, 10, 100, 2, 4, D("1.00"), D("2.00")),
        (1, 10, 100, 3, 50, D("9.00"), D("9.00")),   # returned
        (1, 11, 100, 4, 5, D("1.00"), D("1.00")),    # no catalog purchase
        (2, 10, 100, 5, 7, D("1.00"), D("1.00")),    # 2001
    ], ss)
    store_returns = mk([(3, 10)], "sr_ticket_number bigint, sr_item_sk int")
    ws = ("ws_sold_date_sk int, ws_item_sk int, ws_bill_customer_sk int, ws_order_number bigint, ws_quantity int, "
          "ws_wholesale_cost decimal(7,2), ws_sales_price decimal(7,2)")
    web_sales = mk([
        (1, 10, 100, 1, 2, D("0.50"), D("1.50")),
        (1, 10, 100, 2, 9, D("9.00"), D("9.00")),    # returned
        (1, 11, 100, 3, 1, D("1.00"), D("1.00")),
        (2, 10, 100, 4, 3, D("1.00"), D("1.00")),
    ], ws)
    web_returns = mk([(2, 10)], "wr_order_number bigint, wr_item_sk int")
    cs = ("cs_sold_date_sk int, cs_item_sk int, cs_bill_customer_sk int, cs_order_number bigint, cs_quantity int, "
          "cs_wholesale_cost decimal(7,2), cs_sales_price decimal(7,2)")
    catalog_sales = mk([(1, 10, 100, 1, 3, D("0.25"), D("0.75")), (2, 10, 100, 2, 3, D("1.00"), D("1.00"))], cs)
    catalog_returns = mk([], "cr_order_number bigint, cr_item_sk int")
    return dict(date_dim=date_dim, store_sales=store_sales, store_returns=store_returns, web_sales=web_sales,
                web_returns=web_returns, catalog_sales=catalog_sales, catalog_returns=catalog_returns)


def test_schema(spark, tables):
    df = solve(spark, tables)
    assert df.columns == COLUMNS
    assert isinstance(df.schema["ratio"].dataType, DoubleType)
    assert isinstance(df.schema["store_wholesale_cost"].dataType, DecimalType)


def test_single_matching_pair(spark, tables):
    rows = solve(spark, tables).collect()
    assert len(rows) == 1
    r = rows[0]
    assert r["store_qty"] == 10
    assert r["store_wholesale_cost"] == D("2.00") and r["store_sales_price"] == D("4.00")
    assert r["other_chan_qty"] == 5
    assert r["other_chan_wholesale_cost"] == D("0.75") and r["other_chan_sales_price"] == D("2.25")
    assert r["ratio"] == pytest.approx(2.0)


def test_ratio_is_rounded(spark, tables):
    extra = tables["web_sales"].union(
        spark.createDataFrame([(1, 10, 100, 9, 1, D("0.00"), D("0.00"))], tables["web_sales"].schema))
    rows = solve(spark, dict(tables, web_sales=extra)).collect()
    assert rows[0]["ratio"] == pytest.approx(1.67)  # 10 / 6
