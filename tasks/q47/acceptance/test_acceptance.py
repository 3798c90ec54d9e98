"""Acceptance tests for q47 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (per category, brand, store name and company, the 1999 months
whose sales deviate more than 10% from the group's 1999 monthly average, with the sales of the
months ranked just before and after). Values are read in the declared output order by declared
name or position, never by alias, except in the schema and type tests.

Fixture conventions: one sale per month; a sale's other decimal columns equal its unit sales
price (except in the O1 test); every group's December 1998 and January 2000 sales equal its 1999
average (so that an average over all considered months is the same number) and every yearly
average is exact (so that a double average reads the same), except where the obligation under
test changes this."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)

DECLARED = ["i_category", "i_brand", "s_store_name", "s_company_name", "d_year", "d_moy", "avg_monthly_sales",
            "sum_sales", "psum", "nsum"]
MONTHS = [(1998, 11), (1998, 12)] + [(1999, m) for m in range(1, 13)] + [(2000, 1), (2000, 2)]
DATES = [{"d_date_sk": y * 100 + m, "d_year": y, "d_moy": m} for y, m in MONTHS]
# Store 4 is a second history row of store 1 (same name and company); store 5 has store 1's name
# under another company.
STORES = [{"s_store_sk": 1, "s_store_name": "ought", "s_company_name": "able"},
          {"s_store_sk": 2, "s_store_name": "ese", "s_company_name": "able"},
          {"s_store_sk": 3, "s_store_name": "able", "s_company_name": "able"},
          {"s_store_sk": 4, "s_store_name": "ought", "s_company_name": "able"},
          {"s_store_sk": 5, "s_store_name": "ought", "s_company_name": "pri"}]
# Items 1 and 2 share category and brand.
ITEMS = [{"i_item_sk": 1, "i_category": "Books", "i_brand": "b1"},
         {"i_item_sk": 2, "i_category": "Books", "i_brand": "b1"}]


def sales(months, item=1, store=1, other=None):
    """One sale per (year, month) -> unit sales price; every other decimal column equals `other`
    (default: the unit sales price)."""
    out = []
    for (y, m), price in months.items():
        row = {c["name"]: (price if other is None else other) for c in T.tables["store_sales"]
               if c["type"].startswith("decimal")}
        row.update({"ss_sold_date_sk": y * 100 + m, "ss_item_sk": item, "ss_store_sk": store, "ss_quantity": 1,
                    "ss_sales_price": price})
        out.append(row)
    return out


def year(base, june, edge):
    """December 1998 = edge, every month of 1999 = base except June, January 2000 = edge."""
    months = {(1998, 12): edge, (2000, 1): edge}
    months.update({(1999, m): (june if m == 6 else base) for m in range(1, 13)})
    return {k: str(v) for k, v in months.items()}


def run(spark, rows, items=ITEMS):
    return solve(spark, T.all(spark, item=items, store=STORES, date_dim=DATES, store_sales=rows))


def d(x):
    return Decimal(str(x))


def row(store, company, moy, avg, s, p, n, brand="b1"):
    return ("Books", brand, store, company, 1999, moy, d(avg), d(s), d(p), d(n))


# Base 100, June 220: average 110; only June deviates (|100 - 110| / 110 < 0.1).
PLAIN = year(100, 220, 110)


@pytest.fixture(scope="module")
def plain(spark):
    return run(spark, sales(PLAIN))


@pytest.mark.obligation("O1")
def test_monthly_sales_sum_the_unit_sales_price(spark):
    # Every other price column is 100 in every month: only the unit price has June's peak.
    out = run(spark, sales(PLAIN, other="100.00"))
    assert declared_bag(out, DECLARED) == [row("ought", "able", 6, 110, 220, 100, 100)]


@pytest.mark.obligation("O2")
def test_december_1998_and_january_2000_are_neighbours(spark):
    # 1999: January and December 130, February to November 94 (average 100, only January and
    # December deviate); December 1998 and January 2000 (100 each) are their neighbours.
    # November 1998 and February 2000 (500) are not considered.
    months = year(94, 94, 100)
    months.update({(1999, 1): "130", (1999, 12): "130", (1998, 11): "500", (2000, 2): "500"})
    out = run(spark, sales(months))
    assert declared_bag(out, DECLARED) == [row("ought", "able", 1, 100, 130, 100, 94),
                                           row("ought", "able", 12, 100, 130, 94, 100)]


@pytest.mark.obligation("O3")
def test_groups_are_category_brand_store_name_and_company(spark):
    # Store 1 sells item 1 at 100 every month (December 1998 and January 2000: 110); in June,
    # store 4 (store 1's other history row) sells item 2 (same brand) at 120: one group whose June
    # is 220. Store 5 (same name, other company) is a group of its own.
    store1 = year(100, 100, 110)
    out = run(spark, sales(store1) + sales({(1999, 6): "120"}, item=2, store=4) + sales(PLAIN, store=5))
    assert declared_bag(out, DECLARED) == [row("ought", "able", 6, 110, 220, 100, 100),
                                           row("ought", "pri", 6, 110, 220, 100, 100)]


@pytest.mark.obligation("O4")
def test_average_is_over_the_months_of_the_year(spark):
    # 1999: base 100, June 130: average 102.5, only June deviates. December 1998 and January 2000
    # sell 400: over all 14 months the average would be 145.
    out = run(spark, sales(year(100, 130, 400)))
    assert declared_bag(out, DECLARED) == [row("ought", "able", 6, "102.5", 130, 100, 100)]


@pytest.mark.obligation("O5")
def test_neighbours_are_the_ranked_months_and_both_are_required(spark):
    # Sales only in March (100), May (300), August (200) 1999: average 200. May's neighbours are
    # March and August; March (no previous month) and August (no next month) are not reported.
    out = run(spark, sales({(1999, 3): "100", (1999, 5): "300", (1999, 8): "200"}))
    assert declared_bag(out, DECLARED) == [row("ought", "able", 5, 200, 300, 100, 200)]


@pytest.mark.obligation("O6")
def test_deviation_is_absolute_and_strictly_above_ten_percent(spark):
    # 1999: January 90, February 110 (exactly 10% off: left out), March 60 (40% below: kept),
    # April 140 (40% above: kept), May 100; average 100. Edges 100.
    months = {(1998, 12): "100", (1999, 1): "90", (1999, 2): "110", (1999, 3): "60", (1999, 4): "140",
              (1999, 5): "100", (2000, 1): "100"}
    out = run(spark, sales(months))
    assert declared_bag(out, DECLARED) == [row("ought", "able", 3, 100, 60, 110, 140),
                                           row("ought", "able", 4, 100, 140, 60, 100)]


@pytest.mark.obligation("O7")
def test_columns_in_declared_order(plain):
    assert names(plain) == DECLARED


@pytest.mark.obligation("O8")
def test_average_is_decimal_21_6_and_sums_decimal_17_2(plain):
    lower = names(plain)
    types = dict(zip(lower, field_types(plain)))
    by_position = field_types(plain)
    def t(name, pos):
        return types.get(name, by_position[pos])
    assert [t("avg_monthly_sales", 6), t("sum_sales", 7), t("psum", 8), t("nsum", 9)] == \
        ["decimal(21,6)", "decimal(17,2)", "decimal(17,2)", "decimal(17,2)"]


@pytest.mark.obligation("O10")
def test_order_by_deviation_then_store_name(spark):
    # June minus average: "ese" +110 (base 120, June 240, average 130) and "ought" +110 (base 100,
    # June 220, average 110), a tie broken by store name; "able" +220 (base 200, June 440, average 220).
    out = run(spark, sales(year(200, 440, 220), store=3) + sales(year(120, 240, 130), store=2) + sales(PLAIN, store=1))
    assert [(r[2], r[5]) for r in declared_rows(out, DECLARED)] == [("ese", 6), ("ought", 6), ("able", 6)]


@pytest.mark.obligation("O11")
def test_at_most_100_rows(spark):
    items = [{"i_item_sk": 100 + k, "i_category": "Books", "i_brand": f"b{k}"} for k in range(105)]
    rows_ = []
    for k in range(105):
        rows_ += sales({(1999, 3): "100", (1999, 5): "300", (1999, 8): "200"}, item=100 + k)
    out = run(spark, rows_, items=items)
    assert out.count() == 100
