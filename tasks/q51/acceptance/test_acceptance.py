"""Acceptance tests for q51 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (by the declared
names), except in the schema and type tests.

Fixture rules that keep one violation from failing another obligation's test: a sale's extended
price and net paid equal its sales price (only O3's test tells them apart); months are 1205 unless
the month window is tested; a fixture with several items keeps their dates apart or reads only the
keys; a date present in one channel only is kept in one test each (web-only: O5, store-only: O6);
a later date adds nothing to an item's running maximum unless the running maximum is tested."""
import datetime
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["item_sk", "d_date", "web_sales", "store_sales", "web_cumulative", "store_cumulative"]
MONEY = ["web_sales", "store_sales", "web_cumulative", "store_cumulative"]

# Date keys: the month window's neighbours and bounds, then consecutive days of month 1205.
D1199, D1200, D1211, D1212 = 1, 2, 3, 4
D5, D6, D7, D8, D9 = 5, 6, 7, 8, 9
DAY = {
    D1199: datetime.date(1999, 12, 15), D1200: datetime.date(2000, 1, 10),
    D1211: datetime.date(2000, 12, 20), D1212: datetime.date(2001, 1, 10),
    D5: datetime.date(2000, 6, 1), D6: datetime.date(2000, 6, 2), D7: datetime.date(2000, 6, 3),
    D8: datetime.date(2000, 6, 4), D9: datetime.date(2000, 6, 5),
}
MONTH = {D1199: 1199, D1200: 1200, D1211: 1211, D1212: 1212}
DATES = [{"d_date_sk": k, "d_date": day.isoformat(), "d_month_seq": MONTH.get(k, 1205)} for k, day in DAY.items()]


def web(item, date_sk, price, ext=None, paid=None):
    """A web sale line; its extended price and net paid equal its sales price unless given."""
    return {"ws_item_sk": item, "ws_sold_date_sk": date_sk, "ws_sales_price": price,
            "ws_ext_sales_price": price if ext is None else ext, "ws_net_paid": price if paid is None else paid}


def store(item, date_sk, price, ext=None, paid=None):
    """A store sale line; its extended price and net paid equal its sales price unless given."""
    return {"ss_item_sk": item, "ss_sold_date_sk": date_sk, "ss_sales_price": price,
            "ss_ext_sales_price": price if ext is None else ext, "ss_net_paid": price if paid is None else paid}


def run(spark, web_rows, store_rows):
    return solve(spark, T.all(spark, date_dim=DATES, web_sales=web_rows, store_sales=store_rows))


def dec(*values):
    """Decimals from strings, None kept."""
    return tuple(None if v is None else Decimal(v) for v in values)


def row(item, date_sk, *money):
    """An expected output row: item, the date of date_sk, then the four money values."""
    return (item, DAY[date_sk]) + dec(*money)


def type_of(df, name, position):
    """The Spark type of the output column named `name`, or of the column at `position` when no column has that name."""
    return dict(zip(names(df), field_types(df))).get(name, field_types(df)[position])


@pytest.fixture(scope="module")
def plain(spark):
    """One item sold on one date in both channels, web above store: one output row."""
    return run(spark, [web(1, D5, "3.00")], [store(1, D5, "1.00")])


@pytest.mark.obligation("O1")
def test_columns_are_the_declared_six_in_order(plain):
    assert names(plain) == DECLARED


@pytest.mark.obligation("O2")
def test_month_window_1200_to_1211_inclusive(spark):
    # One item. Months 1199 and 1212 are outside: in the window web runs 2, 2 and store 1, 1.
    # With month 1199 the store total (9 + 1) would exceed the web one on every date; with 1212 a third row (3 > 1).
    webs = [web(1, D1199, "1.00"), web(1, D1200, "2.00"), web(1, D1211, "0.00"), web(1, D1212, "1.00")]
    stores = [store(1, D1199, "9.00"), store(1, D1200, "1.00"), store(1, D1211, "0.00"), store(1, D1212, "0.00")]
    out = run(spark, webs, stores)
    assert declared_bag(out, DECLARED) == [row(1, D1200, "2.00", "1.00", "2.00", "1.00"),
                                          row(1, D1211, "2.00", "1.00", "2.00", "1.00")]


@pytest.mark.obligation("O3")
def test_daily_totals_sum_the_sales_price(spark):
    # Sales prices: web 3 > store 2. Extended prices (web 1, store 5) or net paid (web 1, store 6) would drop the row.
    out = run(spark, [web(1, D5, "3.00", ext="1.00", paid="1.00")], [store(1, D5, "2.00", ext="5.00", paid="6.00")])
    assert declared_bag(out, DECLARED) == [row(1, D5, "3.00", "2.00", "3.00", "2.00")]


@pytest.mark.obligation("O4")
def test_running_sums_per_item_ordered_by_date(spark):
    # Item 1 sells 5/1 on D5 and 0/0 on D7: its running totals stay 5 and 1 on D7 (not the day's 0 and 0).
    # Item 2 sells 1/2 on D6 and is dropped (1 < 2); a running sum across items would give it 6 > 3.
    webs = [web(1, D5, "5.00"), web(2, D6, "1.00"), web(1, D7, "0.00")]
    stores = [store(1, D5, "1.00"), store(2, D6, "2.00"), store(1, D7, "0.00")]
    out = run(spark, webs, stores)
    assert declared_bag(out, DECLARED) == [row(1, D5, "5.00", "1.00", "5.00", "1.00"),
                                          row(1, D7, "5.00", "1.00", "5.00", "1.00")]


@pytest.mark.obligation("O5")
def test_a_date_with_web_sales_only_is_kept(spark):
    # D6 has web sales only: it stays, with no store running total and store 1 carried forward.
    out = run(spark, [web(1, D5, "2.00"), web(1, D6, "0.00")], [store(1, D5, "1.00")])
    assert declared_bag(out, DECLARED) == [row(1, D5, "2.00", "1.00", "2.00", "1.00"),
                                          row(1, D6, "2.00", None, "2.00", "1.00")]


@pytest.mark.obligation("O6")
def test_a_date_with_store_sales_only_takes_the_store_keys(spark):
    # D6 has store sales only: its item and date come from the store side (web 3 carried forward, above store 1).
    out = run(spark, [web(1, D5, "3.00")], [store(1, D5, "1.00"), store(1, D6, "0.00")])
    assert declared_bag(out, DECLARED) == [row(1, D5, "3.00", "1.00", "3.00", "1.00"),
                                          row(1, D6, None, "1.00", "3.00", "1.00")]


@pytest.mark.obligation("O7")
def test_cumulative_is_the_running_maximum_up_to_the_date(spark):
    # D5: web 5 > store 1, kept. D6: web 6 < store 11, dropped. A maximum over all the item's dates
    # (6 and 11) would drop D5 too.
    out = run(spark, [web(1, D5, "5.00"), web(1, D6, "1.00")], [store(1, D5, "1.00"), store(1, D6, "10.00")])
    assert declared_bag(out, DECLARED) == [row(1, D5, "5.00", "1.00", "5.00", "1.00")]


@pytest.mark.obligation("O8")
def test_filter_compares_carried_forward_totals_and_drops_missing_store(spark):
    # Item 1: web 5 then -4 (running 5, 1), store 3 then -1 (running 3, 2). On D6 the running maxima
    # are 5 > 3 (kept) though the day's running totals are 1 < 2.
    # Item 2 has web sales only: no store total, so it is dropped (not compared with zero).
    webs = [web(1, D5, "5.00"), web(1, D6, "-4.00"), web(2, D7, "1.00")]
    stores = [store(1, D5, "3.00"), store(1, D6, "-1.00")]
    out = run(spark, webs, stores)
    assert declared_bag(out, DECLARED) == [row(1, D5, "5.00", "3.00", "5.00", "3.00"),
                                          row(1, D6, "1.00", "2.00", "5.00", "3.00")]


@pytest.mark.obligation("O9")
def test_money_columns_are_decimal_27_2(plain):
    assert [type_of(plain, n, 2 + i) for i, n in enumerate(MONEY)] == ["decimal(27,2)"] * 4


@pytest.mark.obligation("O10")
def test_item_sk_is_int_and_d_date_is_date(plain):
    assert type_of(plain, "item_sk", 0) == "int"
    assert type_of(plain, "d_date", 1) == "date"


def _grid(items, dates):
    """Web 1.00 and store 0.00 for every (item, date): every pair is an output row."""
    webs = [web(i, d, "1.00") for d in dates for i in items]
    stores = [store(i, d, "0.00") for d in dates for i in items]
    return webs, stores


def keys(df):
    """The (item_sk, d_date) pairs in output order."""
    return [(r[0], r[1]) for r in declared_rows(df, DECLARED)]


@pytest.mark.obligation("O11")
def test_rows_sorted_by_item_then_date(spark):
    # Items and dates given out of order; (date, item) or insertion order would differ.
    out = run(spark, *_grid([3, 1, 2], [D7, D5, D6]))
    assert keys(out) == [(i, DAY[d]) for i in [1, 2, 3] for d in [D5, D6, D7]]


@pytest.mark.obligation("O11")
def test_limit_keeps_the_first_100_by_item_and_date(spark):
    # 21 items x 5 dates = 105 rows: the first 100 are items 1..20 on all five dates.
    out = run(spark, *_grid(list(range(21, 0, -1)), [D9, D5, D8, D6, D7]))
    assert keys(out) == [(i, DAY[d]) for i in range(1, 21) for d in [D5, D6, D7, D8, D9]]
