"""Acceptance tests for q98 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (the four named
item columns by name, revenue and ratio by position), except in the schema and alias tests."""
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
    return {"i_item_sk": sk, "i_item_id": item_id, "i_item_desc": desc, "i_category": category, "i_class": cls, "i_current_price": price}


def sale(item_sk, price, date_sk=IN_WINDOW):
    return {"ss_item_sk": item_sk, "ss_sold_date_sk": date_sk, "ss_ext_sales_price": price}


def run(spark, items, sales, dates=DATES):
    return solve(spark, T.all(spark, item=items, store_sales=sales, date_dim=dates))


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
    items = [item(1, "A", "a", "Sports", "s"), item(2, "B", "b", "Books", "b"), item(3, "C", "c", "Home", "h"), item(4, "D", "d", "Music", "m")]
    out = run(spark, items, [sale(1, "1.00"), sale(2, "2.00"), sale(3, "4.00"), sale(4, "8.00")])
    assert declared_bag(out, DECLARED) == [
        row("a", "Sports", "s", "9.99", "1.00", "100"),
        row("b", "Books", "b", "9.99", "2.00", "100"),
        row("c", "Home", "h", "9.99", "4.00", "100"),
    ]


@pytest.mark.obligation("O7")
def test_window_includes_both_ends_and_nothing_outside(spark):
    sales = [sale(1, "1.00", START), sale(1, "2.00", END), sale(1, "4.00", BEFORE), sale(1, "8.00", AFTER)]
    out = run(spark, [item(1, "A", "a")], sales)
    assert declared_bag(out, DECLARED) == [row("a", "Books", "fiction", "9.99", "3.00", "100")]


@pytest.mark.obligation("O8")
def test_sales_without_a_matching_date_or_item_are_dropped(spark):
    sales = [sale(1, "1.00"), sale(1, "2.00", None), sale(1, "4.00", 99), sale(77, "8.00")]
    out = run(spark, [item(1, "A", "a")], sales)
    assert declared_bag(out, DECLARED) == [row("a", "Books", "fiction", "9.99", "1.00", "100")]


@pytest.mark.obligation("O9")
def test_items_with_equal_attributes_but_different_ids_are_two_rows(spark):
    out = run(spark, [item(1, "A", "same"), item(2, "B", "same")], [sale(1, "1.00"), sale(2, "3.00")])
    assert declared_bag(out, DECLARED) == [
        row("same", "Books", "fiction", "9.99", "1.00", "25"),
        row("same", "Books", "fiction", "9.99", "3.00", "75"),
    ]


@pytest.mark.obligation("O10")
def test_ratio_is_the_share_of_the_class_not_the_category(spark):
    items = [item(1, "A", "x", cls="fiction"), item(2, "B", "y", cls="fiction"), item(3, "C", "z", cls="poetry")]
    out = run(spark, items, [sale(1, "10.00"), sale(2, "30.00"), sale(3, "60.00")])
    assert declared_bag(out, DECLARED) == [
        row("x", "Books", "fiction", "9.99", "10.00", "25"),
        row("y", "Books", "fiction", "9.99", "30.00", "75"),
        row("z", "Books", "poetry", "9.99", "60.00", "100"),
    ]


@pytest.mark.obligation("O13")
def test_item_revenue_is_the_sum_of_the_extended_sales_price(spark):
    # Every other money column of these sales differs from ss_ext_sales_price (TaskTables varies
    # the columns of O13's family), so summing another one changes every revenue.
    # Each class is in a category of its own, so the ratio's partition (O10) plays no part here.
    items = [item(1, "A", "x"), item(2, "B", "y"), item(3, "C", "z", "Sports", "golf")]
    out = run(spark, items, [sale(1, "4.00"), sale(1, "6.00"), sale(2, "30.00"), sale(3, "12.50")])
    assert declared_bag(out, DECLARED) == [
        row("x", "Books", "fiction", "9.99", "10.00", "25"),
        row("y", "Books", "fiction", "9.99", "30.00", "75"),
        row("z", "Sports", "golf", "9.99", "12.50", "100"),
    ]


@pytest.mark.obligation("O11")
def test_order_category_class_item_id_description_ratio(spark):
    items = [item(1, "B", "aaa"), item(2, "A", "zzz"), item(3, "C", "mmm", "Sports", "ball"), item(4, "D", "ccc", cls="art")]
    out = run(spark, items, [sale(1, "1.00"), sale(2, "1.00"), sale(3, "1.00"), sale(4, "1.00")])
    assert [r[0] for r in declared_rows(out, DECLARED)] == ["ccc", "zzz", "aaa", "mmm"]


@pytest.mark.obligation("O12")
def test_every_row_is_returned(spark):
    items = [item(k, f"I{k:03d}", f"d{k}") for k in range(1, 106)]
    out = run(spark, items, [sale(k, "1.00") for k in range(1, 106)])
    assert out.count() == 105
