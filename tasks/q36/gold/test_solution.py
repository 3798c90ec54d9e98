"""Tests for q36 written from task.yaml: gross margin ratio of sums, hierarchy levels, rank within parent."""
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType

from solution import solve

D = Decimal


@pytest.fixture(scope="module")
def tables(spark):
    mk = spark.createDataFrame
    date_dim = mk([(1, 2001), (2, 2000)], "d_date_sk int, d_year int")
    store = mk([(1, "TN"), (2, "AL")], "s_store_sk int, s_state string")
    item = mk([(10, "Books", "fiction"), (11, "Books", "history"), (12, "Music", "rock"), (13, "Music", "pop")],
              "i_item_sk int, i_category string, i_class string")
    ss = "ss_sold_date_sk int, ss_item_sk int, ss_store_sk int, ss_net_profit decimal(7,2), ss_ext_sales_price decimal(7,2)"
    store_sales = mk([
        (1, 10, 1, D("10.00"), D("100.00")),   # fiction 0.10
        (1, 11, 1, D("30.00"), D("100.00")),   # history 0.30
        (1, 12, 1, D("5.00"), D("100.00")),    # rock 0.05
        (1, 13, 1, D("20.00"), D("100.00")),   # pop 0.20
        (1, 13, 1, D("0.00"), D("100.00")),    # pop now 20/200 = 0.10
        (2, 10, 1, D("99.00"), D("100.00")),   # 2000
        (1, 10, 2, D("99.00"), D("100.00")),   # AL
    ], ss)
    return dict(date_dim=date_dim, store=store, item=item, store_sales=store_sales)


@pytest.fixture(scope="module")
def result(spark, tables):
    df = solve(spark, tables)
    return df, df.collect()


def test_columns(result):
    df, _ = result
    assert df.columns == ["gross_margin", "i_category", "i_class", "lochierarchy", "rank_within_parent"]
    assert isinstance(df.schema["gross_margin"].dataType, DecimalType)


def test_levels_and_margins(result):
    _, rows = result
    assert len(rows) == 4 + 2 + 1
    by = {(r["lochierarchy"], r["i_category"], r["i_class"]): r for r in rows}
    assert by[(2, None, None)]["gross_margin"] == D("0.13")
    assert by[(1, "Books", None)]["gross_margin"] == D("0.2")
    assert abs(by[(1, "Music", None)]["gross_margin"] - D(25) / D(300)) < D("1e-15")
    assert by[(0, "Music", "pop")]["gross_margin"] == D("0.1")


def test_rank_within_parent(result):
    _, rows = result
    by = {(r["lochierarchy"], r["i_category"], r["i_class"]): r["rank_within_parent"] for r in rows}
    assert by[(2, None, None)] == 1
    assert by[(1, "Music", None)] == 1 and by[(1, "Books", None)] == 2
    assert by[(0, "Books", "fiction")] == 1 and by[(0, "Books", "history")] == 2
    assert by[(0, "Music", "rock")] == 1 and by[(0, "Music", "pop")] == 2


def test_order_coarsest_first(result):
    _, rows = result
    levels = [r["lochierarchy"] for r in rows]
    assert levels == sorted(levels, reverse=True)
    detail = [(r["i_category"], r["rank_within_parent"]) for r in rows if r["lochierarchy"] == 0]
    assert detail == sorted(detail)
