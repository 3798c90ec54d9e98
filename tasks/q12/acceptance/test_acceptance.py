"""Acceptance tests for q12 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (web revenue per item of Sports, Books and Home over
1999-02-22..1999-03-24, and its percentage of the class's revenue). Values are read in the
declared output order (the four named item columns by name, revenue and ratio by position),
except in the schema, alias and type tests. Every ratio below divides evenly, so it is exact."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["i_item_desc", "i_category", "i_class", "i_current_price", None, None]
IN_WINDOW, START, END, BEFORE, AFTER = 1, 2, 3, 4, 5
DATES = [
    {"d_date_sk": IN_WINDOW, "d_date": "1999-03-01"},
    {"d_date_sk": START, "d_date": "1999-02-22"},
    {"d_date_sk": END, "d_date": "1999-03-24"},
    {"d_date_sk": BEFORE, "d_date": "1999-02-21"},
    {"d_date_sk": AFTER, "d_date": "1999-03-25"},
]


def item(sk, item_id, desc, category="Books", cls="fiction", price="9.99"):
    return {"i_item_sk": sk, "i_item_id": item_id, "i_item_desc": desc, "i_category": category, "i_class": cls,
            "i_current_price": price}


def sale(item_sk, price, date_sk=IN_WINDOW):
    """A web sale of `item_sk` on `date_sk` with extended sales price `price`."""
    return {"ws_item_sk": item_sk, "ws_sold_date_sk": date_sk, "ws_ext_sales_price": price}


def run(spark, items, sales):
    return solve(spark, T.all(spark, item=items, web_sales=sales, date_dim=DATES))


def row(desc, category, cls, price, revenue, ratio):
    return (desc, category, cls, Decimal(price), Decimal(revenue), Decimal(ratio))


@pytest.fixture(scope="module")
def plain(spark):
    """Two Books items of one class in the window: nothing to filter, join or break."""
    return run(spark, [item(1, "A", "a"), item(2, "B", "b")], [sale(1, "1.00"), sale(2, "3.00")])


@pytest.mark.obligation("O1")
def test_first_four_columns_are_the_item_columns_in_order(plain):
    assert names(plain)[:4] == ["i_item_desc", "i_category", "i_class", "i_current_price"]


@pytest.mark.obligation("O2")
def test_fifth_column_is_named_itemrevenue(plain):
    assert names(plain)[4] == "itemrevenue"


@pytest.mark.obligation("O3")
def test_sixth_column_is_named_revenueratio(plain):
    assert names(plain)[5] == "revenueratio"


@pytest.mark.obligation("O4")
def test_item_revenue_is_decimal_17_2(plain):
    assert field_types(plain)[4] == "decimal(17,2)"


@pytest.mark.obligation("O5")
def test_ratio_is_decimal_38_17(plain):
    assert field_types(plain)[5] == "decimal(38,17)"


@pytest.mark.obligation("O6")
def test_only_sports_books_and_home(spark):
    # One item per category, each its own class: the Music item is left out, the others are 100 %.
    items = [item(1, "A", "a", "Sports", "s"), item(2, "B", "b", "Books", "b"), item(3, "C", "c", "Home", "h"),
             item(4, "D", "d", "Music", "m")]
    out = run(spark, items, [sale(1, "1.00"), sale(2, "2.00"), sale(3, "4.00"), sale(4, "8.00")])
    assert declared_bag(out, DECLARED) == [
        row("a", "Sports", "s", "9.99", "1.00", "100"),
        row("b", "Books", "b", "9.99", "2.00", "100"),
        row("c", "Home", "h", "9.99", "4.00", "100"),
    ]


@pytest.mark.obligation("O7")
def test_window_includes_both_ends_and_nothing_outside(spark):
    # Sales on 1999-02-22 (1), 1999-03-24 (2), 1999-02-21 (4) and 1999-03-25 (8): 1 + 2 = 3.
    sales = [sale(1, "1.00", START), sale(1, "2.00", END), sale(1, "4.00", BEFORE), sale(1, "8.00", AFTER)]
    out = run(spark, [item(1, "A", "a")], sales)
    assert declared_bag(out, DECLARED) == [row("a", "Books", "fiction", "9.99", "3.00", "100")]


@pytest.mark.obligation("O8")
def test_sales_without_a_matching_date_or_item_are_dropped(spark):
    # A sale with no date key (2), one whose date key matches no date (4) and one whose item
    # matches no item (8) are dropped: 1.
    sales = [sale(1, "1.00"), sale(1, "2.00", None), sale(1, "4.00", 99), sale(77, "8.00")]
    out = run(spark, [item(1, "A", "a")], sales)
    assert declared_bag(out, DECLARED) == [row("a", "Books", "fiction", "9.99", "1.00", "100")]


@pytest.mark.obligation("O9")
def test_items_with_equal_attributes_but_different_ids_are_two_rows(spark):
    # Items A and B have the same description, category, class and price: two rows, 1 and 3 of 4.
    out = run(spark, [item(1, "A", "same"), item(2, "B", "same")], [sale(1, "1.00"), sale(2, "3.00")])
    assert declared_bag(out, DECLARED) == [
        row("same", "Books", "fiction", "9.99", "1.00", "25"),
        row("same", "Books", "fiction", "9.99", "3.00", "75"),
    ]


@pytest.mark.obligation("O10")
def test_ratio_is_the_share_of_the_class_across_categories(spark):
    # Class fiction holds two Books items (10, 30) and one Sports item (60): its total is 100, so
    # 10 %, 30 % and 60 %. Class poetry (Books) holds one item: 100 %. (Per category and class:
    # 25, 75, 100, 100; per category: 10/90, 30/90, 60/60 for fiction.)
    items = [item(1, "A", "x"), item(2, "B", "y"), item(3, "C", "w", category="Sports"),
             item(4, "D", "z", cls="poetry")]
    out = run(spark, items, [sale(1, "10.00"), sale(2, "30.00"), sale(3, "60.00"), sale(4, "50.00")])
    assert declared_bag(out, DECLARED) == [
        row("w", "Sports", "fiction", "9.99", "60.00", "60"),
        row("x", "Books", "fiction", "9.99", "10.00", "10"),
        row("y", "Books", "fiction", "9.99", "30.00", "30"),
        row("z", "Books", "poetry", "9.99", "50.00", "100"),
    ]


@pytest.mark.obligation("O13")
def test_item_revenue_is_the_sum_of_the_extended_sales_price(spark):
    # Item A has two web sales (4.00 and 6.00), B one of 30.00, C (Sports, class golf) one of
    # 12.50: revenues 10.00, 30.00 and 12.50. In this test every other money column of web_sales
    # differs from ws_ext_sales_price (TaskTables varies the family of a column O13 names), so
    # summing the list price, the unit sales price or net paid changes every revenue. Each class
    # sits in one category, so the ratio's partition (O10) does not decide anything here: 25 and 75
    # of fiction's 40, 100 of golf's 12.50.
    items = [item(1, "A", "x"), item(2, "B", "y"), item(3, "C", "z", "Sports", "golf")]
    out = run(spark, items, [sale(1, "4.00"), sale(1, "6.00"), sale(2, "30.00"), sale(3, "12.50")])
    assert declared_bag(out, DECLARED) == [
        row("x", "Books", "fiction", "9.99", "10.00", "25"),
        row("y", "Books", "fiction", "9.99", "30.00", "75"),
        row("z", "Sports", "golf", "9.99", "12.50", "100"),
    ]


@pytest.mark.obligation("O11")
def test_order_category_class_item_id_description_ratio(spark):
    # Books/art (D) first; then Books/fiction by item id, A (zzz) before B (aaa); then Sports.
    items = [item(1, "B", "aaa"), item(2, "A", "zzz"), item(3, "C", "mmm", "Sports", "ball"), item(4, "D", "ccc", cls="art")]
    out = run(spark, items, [sale(1, "1.00"), sale(2, "1.00"), sale(3, "1.00"), sale(4, "1.00")])
    assert [r[0] for r in declared_rows(out, DECLARED)] == ["ccc", "zzz", "aaa", "mmm"]


@pytest.mark.obligation("O12")
def test_first_100_rows(spark):
    # 105 Books/fiction items I001..I105 with descriptions d001..d105 (same order as the ids):
    # the first 100 are I001..I100.
    items = [item(k, f"I{k:03d}", f"d{k:03d}") for k in range(1, 106)]
    out = run(spark, items, [sale(k, "1.00") for k in range(1, 106)])
    assert sorted(r[0] for r in declared_rows(out, DECLARED)) == [f"d{k:03d}" for k in range(1, 101)]
