"""Acceptance tests for q70 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (by the declared
names), except in the schema and type tests. An empty string in a rolled-up key is read as NULL
outside O10's test, so that one representation error fails O10 alone."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["total_sum", "s_state", "s_county", "lochierarchy", "rank_within_parent"]
M1199, M1200, M1211, M1212, M1205 = 1, 2, 3, 4, 5
DATES = [{"d_date_sk": k, "d_month_seq": m} for k, m in [(M1199, 1199), (M1200, 1200), (M1211, 1211), (M1212, 1212), (M1205, 1205)]]


def stores(*pairs):
    """Stores 1.. with the (state, county) pairs given."""
    return [{"s_store_sk": k, "s_state": st, "s_county": c} for k, (st, c) in enumerate(pairs, start=1)]


def sale(store_sk, profit, date_sk=M1205, paid=None):
    """A store sale; its net paid equals its net profit unless given (only O6's test tells them apart)."""
    paid = profit if paid is None else paid
    return {"ss_item_sk": 1, "ss_store_sk": store_sk, "ss_sold_date_sk": date_sk, "ss_net_profit": profit, "ss_net_paid": paid}


def run(spark, store_rows, sales):
    return solve(spark, T.all(spark, date_dim=DATES, store=store_rows, store_sales=sales))


def nul(value):
    """A rolled-up key read as NULL whether the candidate wrote NULL or an empty string (O10 tells them apart)."""
    return None if value == "" else value


def keyed(df):
    """Rows in output order as (total_sum, state, county, lochierarchy, rank), keys normalized by nul()."""
    return [(r[0], nul(r[1]), nul(r[2]), r[3], r[4]) for r in declared_rows(df, DECLARED)]


def county_rows(df, *fields):
    """The rows with both a state and a county, as a sorted list of (state, county, *fields)."""
    pos = {"total": 0, "rank": 4}
    return sorted((r[1], r[2]) + tuple(r[pos[f]] for f in fields) for r in keyed(df)
                  if r[1] is not None and r[2] is not None)


def type_of(df, name, position):
    """The Spark type of the output column named `name`, or of the column at `position` when no column has that name."""
    return dict(zip(names(df), field_types(df))).get(name, field_types(df)[position])


@pytest.fixture(scope="module")
def plain(spark):
    """One state with two counties, sales in the window: nothing to filter, join or break."""
    return run(spark, stores(("TN", "c1"), ("TN", "c2")), [sale(1, "1.00"), sale(2, "2.00")])


@pytest.mark.obligation("O1")
def test_columns_are_the_declared_five_in_order(plain):
    assert names(plain) == DECLARED


@pytest.mark.obligation("O2")
def test_month_window_1200_to_1211_inclusive(spark):
    # Months 1199 and 1212 fall outside, 1200 and 1211 are the bounds: 2 + 4 = 6.
    sales = [sale(1, "1.00", M1199), sale(1, "2.00", M1200), sale(1, "4.00", M1211), sale(1, "8.00", M1212)]
    out = run(spark, stores(("TN", "c1")), sales)
    assert county_rows(out, "total") == [("TN", "c1", Decimal("6.00"))]


@pytest.mark.obligation("O3")
def test_every_state_with_sales_qualifies(spark):
    # Six states: the rank within each state's own partition is 1, so all six qualify (a top 5 of states would drop S1).
    states = [f"S{k}" for k in range(1, 7)]
    out = run(spark, stores(*[(st, "c") for st in states]), [sale(k, f"{k}.00") for k in range(1, 7)])
    assert [r[0] for r in county_rows(out)] == states


@pytest.mark.obligation("O4")
def test_stores_without_a_state_are_left_out(spark):
    # Store 2 has no state: its sales count nowhere, the grand total is store 1's alone.
    out = run(spark, stores(("TN", "c1"), (None, "c9")), [sale(1, "3.00"), sale(2, "5.00")])
    assert county_rows(out, "total") == [("TN", "c1", Decimal("3.00"))]
    assert [r[0] for r in keyed(out) if r[1] is None and r[2] is None] == [Decimal("3.00")]


@pytest.mark.obligation("O5")
def test_rollup_gives_county_rows_state_subtotals_and_one_grand_total(spark):
    store_rows = stores(("TN", "c1"), ("TN", "c2"), ("GA", "c3"))
    out = run(spark, store_rows, [sale(1, "1.00"), sale(2, "2.00"), sale(3, "4.00")])
    got = sorted(((r[1] or "", r[2] or "") for r in keyed(out)))
    assert got == [("", ""), ("GA", ""), ("GA", "c3"), ("TN", ""), ("TN", "c1"), ("TN", "c2")]


@pytest.mark.obligation("O6")
def test_total_is_the_sum_of_net_profit(spark):
    out = run(spark, stores(("TN", "c1")), [sale(1, "1.25", paid="7.00"), sale(1, "-0.50", paid="9.00")])
    assert county_rows(out, "total") == [("TN", "c1", Decimal("0.75"))]
    assert type_of(out, "total_sum", 0) == "decimal(17,2)"


@pytest.mark.obligation("O7")
def test_lochierarchy_comes_from_the_grouping_flags_not_null_values(spark):
    # Store 2 has a NULL county: its county row is level 0 though its county is NULL.
    out = run(spark, stores(("TN", "c1"), ("TN", None)), [sale(1, "1.00"), sale(2, "2.00")])
    got = [(r[1], r[3]) for r in keyed(out)]
    assert sorted(level for st, level in got if st == "TN") == [0, 0, 1]


@pytest.mark.obligation("O8")
def test_county_rows_rank_by_total_descending_within_their_state(spark):
    # TN: c1 10, c2 30; GA: c3 20, c4 5. Within each state: c2 1, c1 2; c3 1, c4 2.
    store_rows = stores(("TN", "c1"), ("TN", "c2"), ("GA", "c3"), ("GA", "c4"))
    out = run(spark, store_rows, [sale(1, "10.00"), sale(2, "30.00"), sale(3, "20.00"), sale(4, "5.00")])
    assert county_rows(out, "rank") == [("GA", "c3", 1), ("GA", "c4", 2), ("TN", "c1", 2), ("TN", "c2", 1)]


@pytest.mark.obligation("O9")
def test_lochierarchy_is_tinyint_and_rank_is_int(plain):
    assert type_of(plain, "lochierarchy", 3) == "tinyint"
    assert type_of(plain, "rank_within_parent", 4) == "int"


@pytest.mark.obligation("O10")
def test_rolled_up_keys_are_null(plain):
    got = {(r[1], r[2]) for r in declared_rows(plain, DECLARED)}
    assert {v for pair in got for v in pair} <= {"TN", "c1", "c2", None}
    assert {(None, None), ("TN", None), ("TN", "c1"), ("TN", "c2")} <= got


def _order_key(r):
    """The task's sort key on a keyed row: level descending, state for county rows, rank."""
    return (-r[3], r[1] if r[3] == 0 else "", r[4])


@pytest.mark.obligation("O11")
def test_rows_sorted_by_level_desc_then_state_then_rank(spark):
    # AL's total is below ZZ's (subtotal ranks ZZ 1, AL 2); stores inserted out of order.
    store_rows = stores(("ZZ", "z2"), ("AL", "a1"), ("ZZ", "z1"), ("AL", "a2"))
    out = run(spark, store_rows, [sale(1, "8.00"), sale(2, "1.00"), sale(3, "4.00"), sale(4, "2.00")])
    got = keyed(out)
    assert len(got) >= 7
    assert got == sorted(got, key=_order_key)


@pytest.mark.obligation("O11")
def test_limit_keeps_the_first_100_by_the_sort(spark):
    # 120 county rows, 2 state subtotals, 1 grand total: the limit keeps the totals first.
    pairs = [("AA", f"a{k:02d}") for k in range(60)] + [("BB", f"b{k:02d}") for k in range(60)]
    out = run(spark, stores(*pairs), [sale(k, "1.00") for k in range(1, 121)])
    got = keyed(out)
    assert len(got) == 100
    assert {(None, None), ("AA", None), ("BB", None)} <= {(r[1], r[2]) for r in got}
