"""Acceptance tests for q14b (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (store groups of cross-channel items, the week of 2000-12-11
against the week of 1999-12-11, each kept above the 1999-2001 average sale value).

The output repeats its column names, so values are read by position in the declared order (this
year's channel, brand, class, category, sales, number of sales, then last year's six); tests other
than the label (O4), schema (O8), name (O9) and type (O10) tests skip the two channel labels. A
candidate with fewer than twelve columns, whose blocks share the key columns (O8's and O9's
concern, e.g. channel, brand, class, category, then ty_ and ly_ sales and counts), is read the same
way: this year's figures at positions 1-5, last year's sales and count in its last two columns,
last year's keys those of the match (`last_year`), so the layout fails the schema tests only.
Every sale has quantity 1 unless the test is about quantity; every average below is worked out by
hand over all 1999-2001 sale rows of the three channels (both weeks' sales included), and the
store rows alone give the same verdicts (so another average fails O2's test only)."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
Y1999, TY, TY2, LY, LY2, NEXT, Y1998 = 1, 2, 3, 4, 5, 6, 7
DATES = [
    {"d_date_sk": Y1999, "d_year": 1999, "d_moy": 6, "d_dom": 1, "d_week_seq": 20},
    {"d_date_sk": TY, "d_year": 2000, "d_moy": 12, "d_dom": 11, "d_week_seq": 100},
    {"d_date_sk": TY2, "d_year": 2000, "d_moy": 12, "d_dom": 13, "d_week_seq": 100},
    {"d_date_sk": LY, "d_year": 1999, "d_moy": 12, "d_dom": 11, "d_week_seq": 48},
    {"d_date_sk": LY2, "d_year": 1999, "d_moy": 12, "d_dom": 9, "d_week_seq": 48},
    {"d_date_sk": NEXT, "d_year": 2000, "d_moy": 12, "d_dom": 20, "d_week_seq": 101},
    {"d_date_sk": Y1998, "d_year": 1998, "d_moy": 6, "d_dom": 1, "d_week_seq": 1},
]
#: item key -> (brand id, class id, category id); items 10 and 11 share one combination
COMBOS = {10: (1, 1, 1), 11: (1, 1, 1), 12: (1, 2, 1), 13: (2, 1, 1), 14: (1, 1, 2), 20: (5, 5, 5)}
ITEMS = [{"i_item_sk": k, "i_brand_id": b, "i_class_id": c, "i_category_id": g} for k, (b, c, g) in COMBOS.items()]
PREFIX = {"store_sales": "ss", "catalog_sales": "cs", "web_sales": "ws"}
NAMES = ["channel", "i_brand_id", "i_class_id", "i_category_id", "sales", "number_sales"] * 2


def sale(table, date, item, price, quantity=1):
    """One sale row of `table` (store_sales, catalog_sales or web_sales)."""
    p = PREFIX[table]
    return (table, {f"{p}_sold_date_sk": date, f"{p}_item_sk": item, f"{p}_quantity": quantity, f"{p}_list_price": price})


def ss(date, item, price, quantity=1):
    return sale("store_sales", date, item, price, quantity)


def cs(date, item, price, quantity=1):
    return sale("catalog_sales", date, item, price, quantity)


def ws(date, item, price, quantity=1):
    return sale("web_sales", date, item, price, quantity)


def cross(item, price="1.00"):
    """One 1999 sale of `item` in each channel (value `price` each): its combination is cross-channel."""
    return [ss(Y1999, item, price), cs(Y1999, item, price), ws(Y1999, item, price)]


def run(spark, sales, items=ITEMS, vary=()):
    by_table = {t: [r for (tt, r) in sales if tt == t] for t in PREFIX}
    return solve(spark, T.all(spark, vary=vary, date_dim=DATES, item=items, **by_table))


#: the list price columns: with `vary`, every other money column of a sale differs from its list
#: price (TaskTables), so a value computed from another price column changes
LIST_PRICES = ("ss_list_price", "cs_list_price", "ws_list_price")


def last_year(r):
    """Last year's (brand, class, category, sales, number of sales) of an output row: positions 7-11 of
    the declared order; in a row of fewer than twelve columns (blocks merged on their keys), this
    year's keys and the last two columns."""
    return tuple(r[7:12]) if len(r) >= 12 else tuple(r[1:4]) + tuple(r[-2:])


def figures(df):
    """The rows without the two channel labels, sorted: (brand, class, category, sales, n) this year then last year."""
    return sorted(tuple(r[1:6]) + last_year(r) for r in rows(df))


def pair(keys, ty_sales, ty_n, ly_sales, ly_n):
    """An expected figures row for one group matched in both weeks."""
    return tuple(keys) + (Decimal(ty_sales), ty_n) + tuple(keys) + (Decimal(ly_sales), ly_n)


@pytest.fixture(scope="module")
def plain(spark):
    """One cross-channel item sold 10 in this year's week and 12 in last year's: average (3 + 22) / 5 = 5."""
    return run(spark, cross(10) + [ss(TY, 10, "10.00"), ss(LY, 10, "12.00")])


@pytest.mark.obligation("O1")
def test_cross_items_sold_in_all_three_channels(spark):
    # Combination (5,5,5) of item 20 sold in store and catalog in 1999 but never on the web: not cross-channel.
    # Item 11 never sold before the weeks but shares (1,1,1) with item 10, sold in all three: cross-channel.
    # Average (5 x 1 + 5 x 10) / 10 = 5.5; store rows alone (2 + 50) / 7 = 7.4.
    sales = cross(10) + [ss(Y1999, 20, "1.00"), cs(Y1999, 20, "1.00")]
    sales += [ss(TY, 10, "10.00"), ss(TY, 11, "10.00"), ss(TY, 20, "10.00"), ss(LY, 10, "10.00"), ss(LY, 20, "10.00")]
    assert figures(run(spark, sales)) == [pair((1, 1, 1), "20.00", 2, "10.00", 1)]


@pytest.mark.obligation("O2")
def test_average_is_one_mean_over_the_three_channels(spark):
    # Store rows 5 (1999), 3 and 3 (the weeks); catalog 1; web 1. One mean over the five rows: 13 / 5 = 2.6 < 3,
    # kept in both weeks. The store rows alone (11 / 3 = 3.67) would drop both.
    sales = [ss(Y1999, 10, "5.00"), cs(Y1999, 10, "1.00"), ws(Y1999, 10, "1.00"), ss(TY, 10, "3.00"), ss(LY, 10, "3.00")]
    assert figures(run(spark, sales)) == [pair((1, 1, 1), "3.00", 1, "3.00", 1)]


@pytest.mark.obligation("O2")
def test_average_covers_only_1999_to_2001(spark):
    # A 1998 sale of 100 is outside the average: (3 + 4 + 4) / 5 = 2.2 < 4, kept. With it (111 / 6 = 18.5) dropped.
    sales = cross(10) + [ss(Y1998, 11, "100.00"), ss(TY, 10, "4.00"), ss(LY, 10, "4.00")]
    assert figures(run(spark, sales)) == [pair((1, 1, 1), "4.00", 1, "4.00", 1)]


@pytest.mark.obligation("O3")
def test_each_period_is_the_whole_week_of_the_day(spark):
    # This year's week: 2000-12-13 (same week as 2000-12-11, which has no sale) counts, 2000-12-20 (next week)
    # does not. Last year's week: 1999-12-09 and 1999-12-11 both count. Average (3 + 40) / 7 = 6.1.
    sales = cross(10) + [ss(TY2, 10, "10.00"), ss(NEXT, 10, "10.00"), ss(LY2, 10, "10.00"), ss(LY, 10, "10.00")]
    assert figures(run(spark, sales)) == [pair((1, 1, 1), "10.00", 1, "20.00", 2)]


@pytest.mark.obligation("O4")
def test_only_store_sales_labelled_store(spark):
    # The group sells 10 in every channel in both weeks; only the store sales are reported.
    # Average (3 + 60) / 9 = 7; store rows alone (1 + 20) / 3 = 7.
    sales = cross(10)
    for day in (TY, LY):
        sales += [ss(day, 10, "10.00"), cs(day, 10, "10.00"), ws(day, 10, "10.00")]
    out = run(spark, sales)
    # Both blocks' labels (a candidate without last year's label column shows this year's only: O8's concern).
    assert [(r[0], r[6] if len(r) >= 12 else r[0]) for r in rows(out)] == [("store", "store")]
    assert figures(out) == [pair((1, 1, 1), "10.00", 1, "10.00", 1)]


@pytest.mark.obligation("O5")
def test_sales_value_is_quantity_times_list_price_and_count_is_rows(spark):
    # This year: 3 x 2.00 and 1 x 4.00 -> 10.00 in 2 sales; last year: 2 x 5.00 -> 10.00 in 1 sale.
    # Average (3 + 6 + 4 + 10) / 6 = 3.83; store rows alone 21 / 4 = 5.25. Every other money column of
    # the sales differs from the list price by about 1000 or more.
    sales = cross(10) + [ss(TY, 10, "2.00", quantity=3), ss(TY, 11, "4.00"), ss(LY, 10, "5.00", quantity=2)]
    assert figures(run(spark, sales, vary=LIST_PRICES)) == [pair((1, 1, 1), "10.00", 2, "10.00", 1)]


@pytest.mark.obligation("O6")
def test_group_equal_to_the_average_is_dropped(spark):
    # Store: 1 and 1 (item 10, 1999), 5 (item 10) and 3 (item 12) in each week; catalog and web 3 and 3
    # (items 10 and 12, 1999). Average 30 / 10 = 3.00 (store rows alone 18 / 6 = 3.00 too).
    # Group (1,2,1) sells exactly 3.00 in each week: not greater, dropped; (1,1,1) sells 5.00, kept.
    sales = [ss(Y1999, 10, "1.00"), ss(Y1999, 10, "1.00"),
             cs(Y1999, 10, "3.00"), cs(Y1999, 12, "3.00"), ws(Y1999, 10, "3.00"), ws(Y1999, 12, "3.00")]
    for day in (TY, LY):
        sales += [ss(day, 10, "5.00"), ss(day, 12, "3.00")]
    assert figures(run(spark, sales)) == [pair((1, 1, 1), "5.00", 1, "5.00", 1)]


@pytest.mark.obligation("O7")
def test_only_groups_present_in_both_weeks(spark):
    # (1,1,1) sells in both weeks; (1,2,1), one class away, only this year. Average (6 + 30) / 9 = 4.
    sales = cross(10) + cross(12) + [ss(TY, 10, "10.00"), ss(TY, 12, "10.00"), ss(LY, 10, "10.00")]
    assert figures(run(spark, sales)) == [pair((1, 1, 1), "10.00", 1, "10.00", 1)]


@pytest.mark.obligation("O8")
def test_twelve_columns_this_year_then_last_year(plain):
    assert len(plain.columns) == 12
    assert [tuple(r[4:6]) + tuple(r[10:12]) for r in rows(plain)] == [(Decimal("10.00"), 1, Decimal("12.00"), 1)]


@pytest.mark.obligation("O9")
def test_both_blocks_carry_the_same_unprefixed_names(plain):
    # The first twelve names: a thirteenth column is O8's concern, not this test's.
    assert names(plain)[:12] == NAMES


@pytest.mark.obligation("O10")
def test_sales_decimal_28_2_and_counts_bigint(plain):
    # Last year's sales and count at positions 10 and 11, or in the last two columns of a candidate
    # with fewer than twelve columns (O8's concern).
    types = field_types(plain)
    last = (types[10], types[11]) if len(types) >= 12 else tuple(types[-2:])
    assert (types[4], types[5]) + last == ("decimal(28,2)", "bigint", "decimal(28,2)", "bigint")


@pytest.mark.obligation("O11")
def test_rows_sorted_by_brand_class_category(spark):
    # Four groups, items given out of order, each 10 in both weeks: average (12 + 80) / 20 = 4.6.
    sales = []
    for item in (13, 12, 14, 10):
        sales += cross(item) + [ss(TY, item, "10.00"), ss(LY, item, "10.00")]
    got = [tuple(r[1:4]) for r in rows(run(spark, sales))]
    assert got == [(1, 1, 1), (1, 1, 2), (1, 2, 1), (2, 1, 1)]


@pytest.mark.obligation("O11")
def test_limit_keeps_the_first_100_groups(spark):
    # 105 cross-channel items with brands 100..204, each sold twice (1 each) in both weeks: every value is 1,
    # the average 1.00, each group 2.00 > 1.00. The first 100 groups by brand are kept.
    items = [{"i_item_sk": 100 + k, "i_brand_id": 100 + k, "i_class_id": 1, "i_category_id": 1} for k in range(105)]
    sales = []
    for k in range(105):
        sales += cross(100 + k) + [ss(day, 100 + k, "1.00") for day in (TY, TY, LY, LY)]
    got = [r[1] for r in rows(run(spark, sales, items=items))]
    assert got == list(range(100, 200))
