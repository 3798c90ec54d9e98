"""Tests for q70 written from task.yaml: month filter, rollup levels, rank within parent, ordering."""
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType

from solution import solve

D = Decimal


@pytest.fixture(scope="module")
def tables(spark):
    mk = spark.createDataFrame
    date_dim = mk([(1, 1200), (2, 1211), (3, 1212)], "d_date_sk int, d_month_seq int")
    store = mk([(1, "TN", "Davidson"), (2, "TN", "Shelby"), (3, "GA", "Fulton")],
               "s_store_sk int, s_state string, s_county string")
    store_sales = mk([
        (1, 1, D("10.00")), (2, 1, D("5.00")), (1, 2, D("30.00")), (1, 3, D("7.00")),
        (3, 3, D("999.00")),   # month 1212
    ], "ss_sold_date_sk int, ss_store_sk int, ss_net_profit decimal(7,2)")
    return dict(date_dim=date_dim, store=store, store_sales=store_sales)


@pytest.fixture(scope="module")
def result(spark, tables):
    df = solve(spark, tables)
    return df, df.collect()


def test_columns(result):
    df, _ = result
    assert df.columns == ["total_sum", "s_state", "s_county", "lochierarchy", "rank_within_parent"]
    assert isinstance(df.schema["total_sum"].dataType, DecimalType)


def test_totals_per_level(result):
    _, rows = result
    by = {(r["lochierarchy"], r["s_state"], r["s_county"]): r for r in rows}
    assert len(rows) == 3 + 2 + 1
    assert by[(2, None, None)]["total_sum"] == D("52.00")
    assert by[(1, "TN", None)]["total_sum"] == D("45.00")
    assert by[(0, "TN", "Davidson")]["total_sum"] == D("15.00")
    assert by[(0, "GA", "Fulton")]["total_sum"] == D("7.00")


def test_ranks(result):
    _, rows = result
    by = {(r["lochierarchy"], r["s_state"], r["s_county"]): r["rank_within_parent"] for r in rows}
    assert by[(1, "TN", None)] == 1 and by[(1, "GA", None)] == 2
    assert by[(0, "TN", "Shelby")] == 1 and by[(0, "TN", "Davidson")] == 2
    assert by[(0, "GA", "Fulton")] == 1


def test_order(result):
    _, rows = result
    keys = [(r["lochierarchy"], r["s_state"], r["rank_within_parent"]) for r in rows]
    assert [k[0] for k in keys] == [2, 1, 1, 0, 0, 0]
    assert [k[1] for k in keys[3:]] == ["GA", "TN", "TN"]
