"""Acceptance tests for q14a (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (November 2001 sales of cross-channel items, per channel and
brand/class/category group, kept above the 1999-2001 average sale value, rolled up).

Values are read by column position in the declared output order (channel, brand, class,
category, sales value, number of sales), never by alias, except in the schema tests. Tests of
the filters, joins and metrics look at the detail rows only (all four keys set), so a missing
roll-up or another null marker does not fail them; the roll-up and its markers have their own
tests. Every sale has quantity 1 and a sales price equal to its list price unless the test is
about the sales value (O5), and every average below is worked out by hand over all 1999-2001
sale rows of the three channels (November 2001 included)."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, bag, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
Y1999, NOV01, OCT01, NOV00, NOV98, JUN98 = 1, 2, 3, 4, 5, 6
DATES = [
    {"d_date_sk": Y1999, "d_year": 1999, "d_moy": 6},
    {"d_date_sk": NOV01, "d_year": 2001, "d_moy": 11},
    {"d_date_sk": OCT01, "d_year": 2001, "d_moy": 10},
    {"d_date_sk": NOV00, "d_year": 2000, "d_moy": 11},
    {"d_date_sk": NOV98, "d_year": 1998, "d_moy": 11},
    {"d_date_sk": JUN98, "d_year": 1998, "d_moy": 6},
]
#: item key -> (brand id, class id, category id); items 10 and 11 share one combination
COMBOS = {10: (1, 1, 1), 11: (1, 1, 1), 12: (1, 2, 1), 13: (2, 1, 1), 14: (1, 1, 2), 20: (5, 5, 5), 30: (6, 6, 6)}
ITEMS = [{"i_item_sk": k, "i_brand_id": b, "i_class_id": c, "i_category_id": g} for k, (b, c, g) in COMBOS.items()]
PREFIX = {"store_sales": "ss", "catalog_sales": "cs", "web_sales": "ws"}


def sale(table, date, item, price, quantity=1, sales_price=None):
    """One sale row of `table` (store_sales, catalog_sales or web_sales) at list price `price`; its
    sales price equals the list price unless given (only O5's test tells them apart)."""
    p = PREFIX[table]
    sales_price = price if sales_price is None else sales_price
    return (table, {f"{p}_sold_date_sk": date, f"{p}_item_sk": item, f"{p}_quantity": quantity,
                    f"{p}_list_price": price, f"{p}_sales_price": sales_price})


def ss(date, item, price, quantity=1, sales_price=None):
    return sale("store_sales", date, item, price, quantity, sales_price)


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


def details(df):
    """The detail rows (all four keys set), sorted: the kept groups before the roll-up."""
    return [r for r in bag(df) if all(k is not None for k in r[:4])]


def d(x):
    return Decimal(x)


@pytest.fixture(scope="module")
def plain(spark):
    """One cross-channel item sold once in November 2001 in store: average (1+1+1+10)/4 = 3.25 < 10."""
    return run(spark, cross(10) + [ss(NOV01, 10, "10.00")])


@pytest.fixture(scope="module")
def hierarchy(spark):
    """Five store groups and one web group of cross-channel items, every group 10.00 in November
    2001: average (12 x 1 + 6 x 10) / 18 = 4.00 < 10, all kept. Groups (1,1,1), (1,1,2), (1,2,1)
    and (2,1,1) differ from (1,1,1) in one key each."""
    sales = cross(10) + cross(12) + cross(13) + cross(14)
    sales += [ss(NOV01, 10, "10.00"), ss(NOV01, 12, "10.00"), ss(NOV01, 13, "10.00"), ss(NOV01, 14, "10.00"),
              ws(NOV01, 10, "10.00"), ws(NOV01, 14, "10.00")]
    return run(spark, sales)


@pytest.mark.obligation("O1")
def test_cross_items_sold_in_all_three_channels(spark):
    # Combination (5,5,5) of item 20 sold in store and catalog in 1999 but never on the web: not
    # cross-channel. Item 11 never sold before November 2001 but shares (1,1,1) with item 10,
    # which sold in all three: cross-channel. Average (5 x 1 + 3 x 10) / 8 = 4.375.
    sales = cross(10) + [ss(Y1999, 20, "1.00"), cs(Y1999, 20, "1.00")]
    sales += [ss(NOV01, 10, "10.00"), ss(NOV01, 11, "10.00"), ss(NOV01, 20, "10.00")]
    assert details(run(spark, sales)) == [("store", 1, 1, 1, d("20.00"), 2)]


@pytest.mark.obligation("O2")
def test_november_sales_of_other_items_do_not_count(spark):
    # Web sales in November 2001 of item 10 (cross-channel) and of item 30 (sold only on the web):
    # only item 10's group is reported. Average (3 x 1 + 2 x 10) / 5 = 4.60.
    sales = cross(10) + [ws(NOV01, 10, "10.00"), ws(NOV01, 30, "10.00")]
    assert details(run(spark, sales)) == [("web", 1, 1, 1, d("10.00"), 1)]


@pytest.mark.obligation("O3")
def test_average_is_one_mean_over_all_rows_of_the_three_channels(spark):
    # Store rows 1, 1, 1 (1999) and 3 (November 2001); catalog 5; web 5. One mean over the six
    # rows: 16 / 6 = 2.67 < 3, the store group is kept. The mean of the channel means,
    # (1.5 + 5 + 5) / 3 = 3.83, would drop it.
    sales = [ss(Y1999, 10, "1.00"), ss(Y1999, 10, "1.00"), ss(Y1999, 10, "1.00"), ss(NOV01, 10, "3.00"),
             cs(Y1999, 10, "5.00"), ws(Y1999, 10, "5.00")]
    assert details(run(spark, sales)) == [("store", 1, 1, 1, d("3.00"), 1)]


@pytest.mark.obligation("O3")
def test_average_covers_only_1999_to_2001(spark):
    # A June 1998 sale of 100 is outside the average: (1+1+1+4)/4 = 1.75 < 4, kept. With it the
    # average (107 / 5 = 21.4) would drop the group.
    sales = cross(10) + [ss(JUN98, 11, "100.00"), ss(NOV01, 10, "4.00")]
    assert details(run(spark, sales)) == [("store", 1, 1, 1, d("4.00"), 1)]


@pytest.mark.obligation("O4")
def test_only_november_2001_is_reported(spark):
    # Sales of item 10 in November 2001, November 2000, October 2001 and November 1998, 10 each.
    # Average over 1999-2001: (3 x 1 + 3 x 10) / 6 = 5.50. Only November 2001 is reported.
    sales = cross(10) + [ss(NOV01, 10, "10.00"), ss(NOV00, 10, "10.00"), ss(OCT01, 10, "10.00"), ss(NOV98, 10, "10.00")]
    assert details(run(spark, sales)) == [("store", 1, 1, 1, d("10.00"), 1)]


@pytest.mark.obligation("O5")
def test_sales_value_is_quantity_times_list_price_and_count_is_rows(spark):
    # November 2001: 3 x 2.00 (sales price 1.50) and 1 x 4.00 -> value 10.00, 2 sales. Average
    # (1+1+1+6+4)/5 = 2.60. (Without the quantity: 6.00; with the sales price: 8.50; every other
    # money column of the sales differs from the list price by about 1000 or more.)
    sales = cross(10) + [ss(NOV01, 10, "2.00", quantity=3, sales_price="1.50"), ss(NOV01, 11, "4.00")]
    assert details(run(spark, sales, vary=LIST_PRICES)) == [("store", 1, 1, 1, d("10.00"), 2)]


@pytest.mark.obligation("O6")
def test_group_equal_to_the_average_is_dropped(spark):
    # Store rows 1 (item 10, 1999), 5 (item 10) and 3 (item 12) in November 2001; catalog and
    # web 3 and 3 (items 10 and 12, 1999). Average 21 / 7 = 3.00 (each channel's mean is 3.00
    # too). Group (1,2,1) sells exactly 3.00: not greater, dropped; (1,1,1) sells 5.00, kept.
    sales = [ss(Y1999, 10, "1.00"), ss(NOV01, 10, "5.00"), ss(NOV01, 12, "3.00"),
             cs(Y1999, 10, "3.00"), cs(Y1999, 12, "3.00"), ws(Y1999, 10, "3.00"), ws(Y1999, 12, "3.00")]
    assert details(run(spark, sales)) == [("store", 1, 1, 1, d("5.00"), 1)]


@pytest.mark.obligation("O7")
def test_channel_labels(spark):
    # The same group sells 10 in each channel in November 2001: average (3 + 30) / 6 = 5.50.
    sales = cross(10) + [ss(NOV01, 10, "10.00"), cs(NOV01, 10, "10.00"), ws(NOV01, 10, "10.00")]
    out = details(run(spark, sales))
    assert sorted(r[0] for r in out) == ["catalog", "store", "web"]
    assert out == [(ch, 1, 1, 1, d("10.00"), 1) for ch in ("catalog", "store", "web")]


@pytest.mark.obligation("O8")
def test_rollup_adds_subtotals_and_a_grand_total(hierarchy):
    N = None
    expected = [
        ("store", 1, 1, 1, d("10.00"), 1), ("store", 1, 1, 2, d("10.00"), 1), ("store", 1, 2, 1, d("10.00"), 1),
        ("store", 2, 1, 1, d("10.00"), 1), ("web", 1, 1, 1, d("10.00"), 1), ("web", 1, 1, 2, d("10.00"), 1),
        ("store", 1, 1, N, d("20.00"), 2), ("store", 1, 2, N, d("10.00"), 1), ("store", 2, 1, N, d("10.00"), 1),
        ("web", 1, 1, N, d("20.00"), 2),
        ("store", 1, N, N, d("30.00"), 3), ("store", 2, N, N, d("10.00"), 1), ("web", 1, N, N, d("20.00"), 2),
        ("store", N, N, N, d("40.00"), 4), ("web", N, N, N, d("20.00"), 2),
        (N, N, N, N, d("60.00"), 6),
    ]
    assert bag(hierarchy) == sorted(expected, key=lambda r: tuple((0, 0) if v is None else (1, v) for v in r))


@pytest.mark.obligation("O9")
def test_rolled_up_keys_are_null_and_sort_first(plain):
    # Whatever roll-up rows there are carry NULL in the rolled-up keys and come before the detail
    # row, in the order grand total, channel, brand, class (NULL first under ascending order).
    N = None
    keys = [r[:4] for r in rows(plain)]
    assert keys[-1] == ("store", 1, 1, 1)
    levels = [(N, N, N, N), ("store", N, N, N), ("store", 1, N, N), ("store", 1, 1, N)]
    assert all(k in levels for k in keys[:-1])
    assert keys[:-1] == [k for k in levels if k in keys[:-1]]


@pytest.mark.obligation("O10")
def test_column_names(plain):
    assert names(plain) == ["channel", "i_brand_id", "i_class_id", "i_category_id", "sum(sales)", "sum(number_sales)"]


@pytest.mark.obligation("O11")
def test_measure_types(plain):
    assert field_types(plain)[4:] == ["decimal(38,2)", "bigint"]


@pytest.mark.obligation("O12")
def test_detail_rows_in_key_order(hierarchy):
    out = [r[:4] for r in rows(hierarchy) if all(k is not None for k in r[:4])]
    assert out == [("store", 1, 1, 1), ("store", 1, 1, 2), ("store", 1, 2, 1), ("store", 2, 1, 1),
                   ("web", 1, 1, 1), ("web", 1, 1, 2)]


@pytest.mark.obligation("O12")
def test_at_most_100_rows(spark):
    # 105 cross-channel items with brands 100..204, each sold twice (1 each) in store in November
    # 2001: every value is 1, the average 1.00, each group 2.00 > 1.00: 105 x 3 + 2 rows.
    items = [{"i_item_sk": 100 + k, "i_brand_id": 100 + k, "i_class_id": 1, "i_category_id": 1} for k in range(105)]
    sales = []
    for k in range(105):
        sales += cross(100 + k) + [ss(NOV01, 100 + k, "1.00"), ss(NOV01, 100 + k, "1.00")]
    assert run(spark, sales, items=items).count() == 100
