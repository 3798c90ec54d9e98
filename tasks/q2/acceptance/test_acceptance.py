"""Acceptance tests for q2 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (pooled web and catalog extended sales prices totalled per week
sequence and day name; each 2001 week's seven weekday totals divided by those of the week 53
later, rounded half-up to 2 decimals).

Fixtures are built week by week: a week is seven date_dim days (Sunday to Saturday, one row each,
with a d_year per day) and by default one web sale per day with an extended sales price of 10
(unit price equal, quantity 1). `pair(w)` makes a first-year week w (2001) and its second-year
week w + 53 (2002), plus a twin of the second-year week at w + 52 with the same days and sales, so
that a pairing 52 weeks apart (the O5 violation) gives the same rows and fails only O5's test.
Unless a test says otherwise every weekday has sales in both weeks and the ratios are 1.00, a
value that a reversed ratio (the O6 violation) keeps.

The output repeats a week once per (first-year day, second-year day) pair (O8, the day-level date
join), so outside O8's test results are read as DISTINCT rows, by column position (the task gives
the output columns no names), never by alias except in the alias test; a ratio is read as the
exact decimal it prints (Decimal(str(v))), so a double ratio fails only the type test."""
from collections import Counter
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, bag, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
D = Decimal
ONE = D("1.00")


class Db:
    """date_dim, web_sales and catalog_sales rows of one fixture, with fresh date keys."""

    def __init__(self):
        self.dates, self.web, self.catalog = [], [], []

    def sale(self, date_sk, price, channel="web", unit=None, quantity=1):
        """One sale on date `date_sk` with extended sales price `price` (unit price `unit`,
        default price / quantity)."""
        unit = D(str(price)) / quantity if unit is None else unit
        if channel == "web":
            self.web.append({"ws_item_sk": 1, "ws_order_number": len(self.web) + 1, "ws_sold_date_sk": date_sk,
                             "ws_quantity": quantity, "ws_sales_price": unit, "ws_ext_sales_price": price})
        else:
            self.catalog.append({"cs_item_sk": 1, "cs_order_number": len(self.catalog) + 1, "cs_sold_date_sk": date_sk,
                                 "cs_quantity": quantity, "cs_sales_price": unit, "cs_ext_sales_price": price})

    def week(self, seq, year, prices=(10,) * 7):
        """Week `seq`: seven days Sunday..Saturday, day i in year `year` (or year[i] for a list),
        each with one web sale of prices[i] (None: no sale). Returns the seven date keys."""
        years = list(year) if isinstance(year, (list, tuple)) else [year] * 7
        keys = []
        for name, y, price in zip(DAY_NAMES, years, prices):
            sk = len(self.dates) + 1
            self.dates.append({"d_date_sk": sk, "d_week_seq": seq, "d_year": y, "d_day_name": name})
            if price is not None:
                self.sale(sk, price)
            keys.append(sk)
        return keys

    def pair(self, w, first=(10,) * 7, second=(10,) * 7, first_year=2001, second_year=2002):
        """First-year week w, its second-year week w + 53 and the twin w + 52 of the latter."""
        self.week(w, first_year, first)
        self.week(w + 53, second_year, second)
        self.week(w + 52, second_year, second)

    def run(self, spark):
        return solve(spark, T.all(spark, web_sales=self.web, catalog_sales=self.catalog, date_dim=self.dates))


def exact(v):
    """A ratio as the exact decimal it prints (None stays None)."""
    return None if v is None else D(str(v))


def distinct(out):
    """The distinct output rows, sorted, with the ratios read as exact decimals."""
    seen = []
    for r in bag(out):
        t = (r[0], *[exact(v) for v in r[1:]])
        if t not in seen:
            seen.append(t)
    return seen


def weeks_in_order(out):
    """The first column in output order, consecutive repeats collapsed."""
    out_weeks = []
    for r in rows(out):
        if not out_weeks or out_weeks[-1] != r[0]:
            out_weeks.append(r[0])
    return out_weeks


def row(w, *ratios):
    """An expected distinct row: week w and its seven ratios (strings, None for null)."""
    return (w, *[None if x is None else D(x) for x in ratios])


PLAIN = ["1.00"] * 7


@pytest.mark.obligation("O1")
def test_web_and_catalog_rows_are_pooled_keeping_duplicates(spark):
    # Week 10's Sunday: two identical web sales of 10 and a catalog sale of 10 on the same day: 30.
    # Week 63's (and its twin's) Sunday: a web sale of 12 and a catalog sale of 18: 30. Ratio 1.00;
    # de-duplicated rows would give 10 / 30 = 0.33, the web channel alone 20 / 12 = 1.67.
    db = Db()
    sun1 = db.week(10, 2001, (None, 10, 10, 10, 10, 10, 10))[0]
    db.sale(sun1, 10)
    db.sale(sun1, 10)
    db.sale(sun1, 10, channel="catalog")
    for w in (63, 62):
        sun2 = db.week(w, 2002, (None, 10, 10, 10, 10, 10, 10))[0]
        db.sale(sun2, 12)
        db.sale(sun2, 18, channel="catalog")
    assert distinct(db.run(spark)) == [row(10, *PLAIN)]


@pytest.mark.obligation("O2")
def test_measure_is_the_extended_sales_price(spark):
    # Week 10's Sunday: a web sale of extended price 20 (unit price 10, quantity 2); week 63's
    # Sunday: a catalog sale of extended price 20 (unit price 5, quantity 4). Ratio 20 / 20 = 1.00
    # (a reversed ratio keeps it); the unit prices would give 10 / 5 = 2.00, the web unit price
    # alone 10 / 20 = 0.50, the catalog's alone 20 / 5 = 4.00. Net paid and the other money columns are left to
    # the fill rule, which gives them values unequal to the extended price in this test (the test
    # names the family), so reading any of them changes the Sunday ratio.
    db = Db()
    sun1 = db.week(10, 2001, (None, 10, 10, 10, 10, 10, 10))[0]
    db.sale(sun1, 20, unit=D("10.00"), quantity=2)
    for w in (63, 62):
        sun2 = db.week(w, 2002, (None, 10, 10, 10, 10, 10, 10))[0]
        db.sale(sun2, 20, channel="catalog", unit=D("5.00"), quantity=4)
    assert distinct(db.run(spark)) == [row(10, *PLAIN)]


@pytest.mark.obligation("O3")
def test_weekly_totals_take_the_weeks_days_of_any_year(spark):
    # Week 10's Sunday falls in 2000 (its other days in 2001) and week 63's Saturday in 2003 (its
    # other days in 2002); every day has a sale of 10. Week 10 is still a 2001 week and 63 a 2002
    # week, and their Sunday and Saturday totals count those days: every ratio is 1.00. Totals taken
    # only over 2001 and 2002 days would leave the Sunday and Saturday ratios null.
    db = Db()
    db.pair(10, first_year=[2000] + [2001] * 6, second_year=[2002] * 6 + [2003])
    assert distinct(db.run(spark)) == [row(10, *PLAIN)]


@pytest.mark.obligation("O4")
def test_first_year_weeks_2001_second_year_weeks_2002(spark):
    # Week 10 (2001) pairs with 63 (2002). Week 20 (2001) has a partner 73 whose days are all in
    # 2003: not a second-year week. Week 30's days are all in 2000: not a first-year week, although
    # its partner 83 is in 2002. Only week 10 is reported.
    db = Db()
    db.pair(10)
    db.pair(20, second_year=2003)
    db.pair(30, first_year=2000)
    assert distinct(db.run(spark)) == [row(10, *PLAIN)]


@pytest.mark.obligation("O5")
def test_paired_with_the_week_53_later(spark):
    # Week 10 (2001, sales of 10); week 63 (2002, sales of 10) and week 62 (2002, sales of 20):
    # week 10 pairs with 63 (ratios 1.00), not with 62 (0.50).
    db = Db()
    db.week(10, 2001)
    db.week(63, 2002)
    db.week(62, 2002, (20,) * 7)
    assert distinct(db.run(spark)) == [row(10, *PLAIN)]


@pytest.mark.obligation("O6")
def test_ratio_is_first_year_over_second_year_rounded_half_up(spark):
    # Sunday 25 / 10 = 2.50; Monday 1 / 8 = 0.125 -> 0.13 (half up); Tuesday 2 / 3 = 0.666... -> 0.67;
    # the other days 10 / 10 = 1.00.
    db = Db()
    db.pair(10, first=(25, 1, 2, 10, 10, 10, 10), second=(10, 8, 3, 10, 10, 10, 10))
    assert distinct(db.run(spark)) == [row(10, "2.50", "0.13", "0.67", "1.00", "1.00", "1.00", "1.00")]


@pytest.mark.obligation("O7")
def test_weekday_without_first_year_sales_has_a_null_ratio(spark):
    # Week 10 has no Monday sale: its Monday total is null and so is the Monday ratio (not 0.00).
    db = Db()
    db.pair(10, first=(10, None, 10, 10, 10, 10, 10))
    assert distinct(db.run(spark)) == [row(10, "1.00", None, "1.00", "1.00", "1.00", "1.00", "1.00")]


@pytest.mark.obligation("O7")
def test_weekday_without_second_year_sales_has_a_null_ratio(spark):
    # Week 63 (and its twin) has no Tuesday sale: the Tuesday ratio is null (no division by zero).
    db = Db()
    db.pair(10, second=(10, 10, None, 10, 10, 10, 10))
    assert distinct(db.run(spark)) == [row(10, "1.00", "1.00", None, "1.00", "1.00", "1.00", "1.00")]


@pytest.mark.obligation("O8")
def test_a_week_repeats_once_per_pair_of_days(spark):
    # Week 10 has 7 days in 2001 and week 63 7 days in 2002: 7 x 7 = 49 rows. Week 20 has 3 days
    # in 2000 and 4 in 2001, week 73 7 days in 2002: 4 x 7 = 28 rows.
    db = Db()
    db.pair(10)
    db.pair(20, first_year=[2000] * 3 + [2001] * 4)
    assert Counter(r[0] for r in rows(db.run(spark))) == {10: 49, 20: 28}


@pytest.mark.obligation("O9")
def test_columns_carry_the_reference_names(spark):
    db = Db()
    db.pair(10)
    days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    assert names(db.run(spark)) == ["d_week_seq1"] + [f"round(({d}_sales1 / {d}_sales2), 2)" for d in days]


@pytest.mark.obligation("O10")
def test_ratios_are_decimal_20_2(spark):
    db = Db()
    db.pair(10)
    assert field_types(db.run(spark))[1:] == ["decimal(20,2)"] * 7


@pytest.mark.obligation("O11")
def test_week_is_an_int_in_first_position(spark):
    db = Db()
    db.pair(10)
    out = db.run(spark)
    assert field_types(out)[0] == "int"
    assert {r[0] for r in rows(out)} == {10}


@pytest.mark.obligation("O12")
def test_ordered_by_first_year_week_ascending(spark):
    db = Db()
    for w in (30, 10, 20):
        db.pair(w)
    assert weeks_in_order(db.run(spark)) == [10, 20, 30]


@pytest.mark.obligation("O12")
def test_no_row_limit(spark):
    # Four weeks of 49 rows each: 196 rows, every week reported (a limit of 100 would stop in the
    # third week).
    db = Db()
    for w in (10, 20, 30, 40):
        db.pair(w)
    assert weeks_in_order(db.run(spark)) == [10, 20, 30, 40]
