"""Acceptance tests for q3 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read by column position in the declared output
order (year, brand id, brand, total), never by alias, except in the schema and alias tests."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, bag, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
NOV_2000, OCT_2000, NOV_2001 = 1, 2, 3
DATES = [
    {"d_date_sk": NOV_2000, "d_year": 2000, "d_moy": 11},
    {"d_date_sk": OCT_2000, "d_year": 2000, "d_moy": 10},
    {"d_date_sk": NOV_2001, "d_year": 2001, "d_moy": 11},
]
ITEMS = [
    {"i_item_sk": 10, "i_brand_id": 7, "i_brand": "brand7", "i_manufact_id": 128},
    {"i_item_sk": 11, "i_brand_id": 8, "i_brand": "brand8", "i_manufact_id": 128},
    {"i_item_sk": 12, "i_brand_id": 9, "i_brand": "brand9", "i_manufact_id": 5},
]


def sale(date_sk, item_sk, price):
    return {"ss_sold_date_sk": date_sk, "ss_item_sk": item_sk, "ss_ext_sales_price": price}


def run(spark, sales, items=ITEMS, dates=DATES):
    return solve(spark, T.all(spark, date_dim=dates, item=items, store_sales=sales))


@pytest.fixture(scope="module")
def plain(spark):
    """Two brands of manufacturer 128, November 2000: nothing to filter, join or break."""
    return run(spark, [sale(NOV_2000, 10, "10.00"), sale(NOV_2000, 10, "5.50"), sale(NOV_2000, 11, "20.00")])


@pytest.mark.obligation("O1")
def test_first_column_is_d_year_an_int(plain):
    assert names(plain)[0] == "d_year"
    assert field_types(plain)[0] == "int"


@pytest.mark.obligation("O2")
def test_second_column_is_named_brand_id(plain):
    assert names(plain)[1] == "brand_id"


@pytest.mark.obligation("O3")
def test_third_column_is_named_brand(plain):
    assert names(plain)[2] == "brand"


@pytest.mark.obligation("O4")
def test_fourth_column_is_named_sum_agg(plain):
    assert names(plain)[3] == "sum_agg"


@pytest.mark.obligation("O5")
def test_total_is_decimal_17_2(plain):
    assert field_types(plain)[3] == "decimal(17,2)"


@pytest.mark.obligation("O6")
def test_sales_without_a_matching_date_are_dropped(spark):
    # ss_sold_date_sk NULL and 99 match no date_dim row: an inner join drops them.
    out = run(spark, [sale(NOV_2000, 10, "1.00"), sale(None, 10, "2.00"), sale(99, 10, "4.00")])
    assert bag(out) == [(2000, 7, "brand7", Decimal("1.00"))]


@pytest.mark.obligation("O7")
def test_sales_without_a_matching_item_are_dropped(spark):
    # ss_item_sk 99 matches no item row: an inner join drops it.
    out = run(spark, [sale(NOV_2000, 10, "1.00"), sale(NOV_2000, 99, "2.00")])
    assert bag(out) == [(2000, 7, "brand7", Decimal("1.00"))]


@pytest.mark.obligation("O8")
def test_only_manufacturer_128_is_counted(spark):
    out = run(spark, [sale(NOV_2000, 10, "1.00"), sale(NOV_2000, 12, "50.00")])
    assert bag(out) == [(2000, 7, "brand7", Decimal("1.00"))]


@pytest.mark.obligation("O9")
def test_only_november_is_counted(spark):
    out = run(spark, [sale(NOV_2000, 10, "1.00"), sale(OCT_2000, 10, "30.00")])
    assert bag(out) == [(2000, 7, "brand7", Decimal("1.00"))]


@pytest.mark.obligation("O9")
def test_november_of_every_year_is_counted(spark):
    out = run(spark, [sale(NOV_2000, 10, "1.00"), sale(NOV_2001, 10, "3.00")])
    assert bag(out) == [(2000, 7, "brand7", Decimal("1.00")), (2001, 7, "brand7", Decimal("3.00"))]


@pytest.mark.obligation("O10")
def test_one_row_per_brand_name_and_brand_id(spark):
    # Two brand names share brand id 7: they are two groups.
    items = ITEMS + [{"i_item_sk": 13, "i_brand_id": 7, "i_brand": "brand7b", "i_manufact_id": 128}]
    out = run(spark, [sale(NOV_2000, 10, "1.00"), sale(NOV_2000, 13, "2.00")], items=items)
    assert bag(out) == [(2000, 7, "brand7", Decimal("1.00")), (2000, 7, "brand7b", Decimal("2.00"))]


@pytest.mark.obligation("O13")
def test_total_is_the_sum_of_the_extended_sales_price(spark):
    # Every other money column of these sales differs from ss_ext_sales_price (TaskTables varies
    # the columns of O13's family), so summing another one changes both totals.
    out = run(spark, [sale(NOV_2000, 10, "10.00"), sale(NOV_2000, 10, "5.50"), sale(NOV_2000, 11, "20.00")])
    assert bag(out) == [(2000, 7, "brand7", Decimal("15.50")), (2000, 8, "brand8", Decimal("20.00"))]


@pytest.mark.obligation("O11")
def test_order_year_then_total_descending_then_brand_id(spark):
    items = [{"i_item_sk": k, "i_brand_id": b, "i_brand": f"b{b}", "i_manufact_id": 128} for k, b in [(20, 3), (21, 1), (22, 2), (23, 4)]]
    sales = [sale(NOV_2001, 20, "9.00"), sale(NOV_2000, 21, "1.00"), sale(NOV_2000, 22, "5.00"),
             sale(NOV_2000, 20, "5.00"), sale(NOV_2000, 23, "7.00")]
    out = run(spark, sales, items=items)
    assert rows(out) == [
        (2000, 4, "b4", Decimal("7.00")),
        (2000, 2, "b2", Decimal("5.00")),  # tie on the total: brand id ascending
        (2000, 3, "b3", Decimal("5.00")),
        (2000, 1, "b1", Decimal("1.00")),
        (2001, 3, "b3", Decimal("9.00")),
    ]


@pytest.mark.obligation("O12")
def test_at_most_100_rows(spark):
    items = [{"i_item_sk": 100 + k, "i_brand_id": k, "i_brand": f"b{k}", "i_manufact_id": 128} for k in range(105)]
    out = run(spark, [sale(NOV_2000, 100 + k, "1.00") for k in range(105)], items=items)
    assert out.count() == 100
