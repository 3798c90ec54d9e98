"""Tests for q94 written from task.yaml: ship-date/state/site filters, multi-warehouse EXISTS, no returns."""
import datetime
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType, LongType

from solution import solve

D = Decimal


def _tables(spark, lines, returns=()):
    """lines: (ship_date_sk, addr, site, order, warehouse, ship_cost, net_profit)."""
    mk = spark.createDataFrame
    date_dim = mk([(1, datetime.date(1999, 2, 1)), (2, datetime.date(1999, 4, 2)), (3, datetime.date(1999, 4, 3))],
                  "d_date_sk int, d_date date")
    ca = mk([(1, "IL"), (2, "CA")], "ca_address_sk int, ca_state string")
    site = mk([(1, "pri"), (2, "able")], "web_site_sk int, web_company_name string")
    ws = mk(list(lines), "ws_ship_date_sk int, ws_ship_addr_sk int, ws_web_site_sk int, ws_order_number bigint, "
                         "ws_warehouse_sk int, ws_ext_ship_cost decimal(7,2), ws_net_profit decimal(7,2)")
    wr = mk(list(returns), "wr_order_number bigint")
    return dict(date_dim=date_dim, customer_address=ca, web_site=site, web_sales=ws, web_returns=wr)


def _row(spark, t):
    df = solve(spark, t)
    rows = df.collect()
    assert len(df.columns) == 3 and len(rows) == 1
    return df, rows[0]


def test_types(spark):
    df, _ = _row(spark, _tables(spark, [(1, 1, 1, 1, 1, D("1.00"), D("1.00")), (1, 1, 1, 1, 2, D("2.00"), D("2.00"))]))
    assert isinstance(df.schema[0].dataType, LongType)
    assert isinstance(df.schema[1].dataType, DecimalType) and isinstance(df.schema[2].dataType, DecimalType)


def test_multi_warehouse_lines_counted_once(spark):
    lines = [
        (1, 1, 1, 1, 1, D("1.00"), D("10.00")),
        (2, 1, 1, 1, 2, D("2.00"), D("20.00")),
        (2, 1, 1, 1, 3, D("4.00"), D("40.00")),
        (1, 1, 1, 2, 1, D("8.00"), D("80.00")),   # single-warehouse order
    ]
    _, r = _row(spark, _tables(spark, lines))
    assert r[0] == 1
    assert r[1] == D("7.00")
    assert r[2] == D("70.00")


def test_filters_and_returns(spark):
    lines = [
        (1, 1, 1, 1, 1, D("1.00"), D("1.00")),
        (3, 2, 2, 1, 2, D("9.00"), D("9.00")),    # other warehouse line: out of window, CA, other site
        (1, 1, 1, 2, 1, D("5.00"), D("5.00")),
        (1, 1, 1, 2, 2, D("5.00"), D("5.00")),    # order 2 is returned
    ]
    _, r = _row(spark, _tables(spark, lines, [(2,)]))
    assert (r[0], r[1], r[2]) == (1, D("1.00"), D("1.00"))
