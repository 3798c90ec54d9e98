"""Tests for q49 written from task.yaml: ratios of sums, rank() ties, top-10 filter, channel labels."""
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType

from solution import solve

D = Decimal


def _tables(spark, web_lines, web_returns):
    """web_lines: (date_sk, item, order, qty, net_paid, net_profit); web_returns: (order, item, ret_qty, ret_amt)."""
    mk = spark.createDataFrame
    date_dim = mk([(1, 2001, 12), (2, 2001, 11)], "d_date_sk int, d_year int, d_moy int")
    sales = "{p}_sold_date_sk int, {p}_item_sk int, {p}_{num} bigint, {p}_quantity int, {p}_net_paid decimal(7,2), {p}_net_profit decimal(7,2)"
    web_sales = mk(web_lines, sales.format(p="ws", num="order_number"))
    wr = mk(web_returns, "wr_order_number bigint, wr_item_sk int, wr_return_quantity int, wr_return_amt decimal(7,2)")
    cs = mk([], sales.format(p="cs", num="order_number"))
    cr = mk([], "cr_order_number bigint, cr_item_sk int, cr_return_quantity int, cr_return_amount decimal(7,2)")
    ss = mk([], sales.format(p="ss", num="ticket_number"))
    sr = mk([], "sr_ticket_number bigint, sr_item_sk int, sr_return_quantity int, sr_return_amt decimal(7,2)")
    return dict(date_dim=date_dim, web_sales=web_sales, web_returns=wr, catalog_sales=cs, catalog_returns=cr,
                store_sales=ss, store_returns=sr)


P = D("20000.00")
BIG = D("15000.00")


def test_columns_and_ratio(spark):
    t = _tables(spark, [(1, 7, 1, 10, P, D("5.00")), (1, 7, 2, 10, P, D("5.00"))],
                [(1, 7, 4, BIG), (2, 7, 1, BIG)])
    df = solve(spark, t)
    assert df.columns == ["channel", "item", "return_ratio", "return_rank", "currency_rank"]
    assert isinstance(df.schema["return_ratio"].dataType, DecimalType)
    rows = df.collect()
    assert len(rows) == 1
    r = rows[0]
    assert r["channel"] == "web" and r["item"] == 7
    assert r["return_ratio"] == D("0.25")     # (4 + 1) / (10 + 10)
    assert (r["return_rank"], r["currency_rank"]) == (1, 1)


def test_small_returns_and_other_months_excluded(spark):
    t = _tables(spark, [(1, 7, 1, 10, P, D("5.00")), (2, 8, 2, 10, P, D("5.00")), (1, 9, 3, 10, P, D("0.50"))],
                [(1, 7, 1, D("100.00")), (2, 8, 1, BIG), (3, 9, 1, BIG)])
    assert solve(spark, t).collect() == []


def test_rank_ties_share_rank_and_leave_gaps(spark):
    lines, rets = [], []
    # 12 items: items 1 and 2 tie at the lowest return ratio; item i returns i units of 100 sold
    # and a returned amount growing with i, so items 11 and 12 are outside both top 10s
    for i in range(1, 13):
        q = 1 if i <= 2 else i
        lines.append((1, i, i, 100, P, D("5.00")))
        rets.append((i, i, q, D("10000.00") + D(i * 100)))
    rows = solve(spark, _tables(spark, lines, rets)).collect()
    ranks = {r["item"]: r["return_rank"] for r in rows}
    assert ranks[1] == 1 and ranks[2] == 1
    assert ranks[3] == 3
    assert all(r["return_rank"] <= 10 or r["currency_rank"] <= 10 for r in rows)
    assert set(ranks) == set(range(1, 11))
    assert [r["return_rank"] for r in rows] == sorted(r["return_rank"] for r in rows)
