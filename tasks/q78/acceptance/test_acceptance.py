"""Acceptance tests for q78 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (by the declared
names), except in the schema and type tests.

Fixture rules that keep one violation from failing another obligation's test: every sale line has
wholesale cost 1.00 and sales price 2.00, its extended columns equal them and its ship customer
equals its bill customer (only O6's and O3's tests tell them apart); returns appear in O2's test
only; other years in O4's and O5's tests only; every ratio is a whole or half number (no rounding
decides it) except in O7's test."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["ratio", "store_qty", "store_wholesale_cost", "store_sales_price",
            "other_chan_qty", "other_chan_wholesale_cost", "other_chan_sales_price"]
Y2000, Y1999 = 1, 2
DATES = [{"d_date_sk": Y2000, "d_year": 2000}, {"d_date_sk": Y1999, "d_year": 1999}]


def store(item, qty, cust=1, date=Y2000, wc="1.00", sp="2.00", ticket=None, ext_wc=None, ext_sp=None):
    """A store sale line; extended wholesale cost and sales price equal the per-unit ones unless given."""
    return {"ss_item_sk": item, "ss_customer_sk": cust, "ss_sold_date_sk": date, "ss_quantity": qty,
            "ss_wholesale_cost": wc, "ss_sales_price": sp, "ss_ticket_number": ticket,
            "ss_ext_wholesale_cost": ext_wc or wc, "ss_ext_sales_price": ext_sp or sp}


def web(item, qty, cust=1, date=Y2000, wc="1.00", sp="2.00", order=None, ship=None, ext_wc=None, ext_sp=None):
    """A web sale line billed to `cust` (shipped to `ship`, else to `cust`)."""
    return {"ws_item_sk": item, "ws_bill_customer_sk": cust, "ws_ship_customer_sk": ship or cust,
            "ws_sold_date_sk": date, "ws_quantity": qty, "ws_wholesale_cost": wc, "ws_sales_price": sp,
            "ws_order_number": order, "ws_ext_wholesale_cost": ext_wc or wc, "ws_ext_sales_price": ext_sp or sp}


def catalog(item, qty, cust=1, date=Y2000, wc="1.00", sp="2.00", order=None, ship=None, ext_wc=None, ext_sp=None):
    """A catalog sale line billed to `cust` (shipped to `ship`, else to `cust`)."""
    return {"cs_item_sk": item, "cs_bill_customer_sk": cust, "cs_ship_customer_sk": ship or cust,
            "cs_sold_date_sk": date, "cs_quantity": qty, "cs_wholesale_cost": wc, "cs_sales_price": sp,
            "cs_order_number": order, "cs_ext_wholesale_cost": ext_wc or wc, "cs_ext_sales_price": ext_sp or sp}


def run(spark, stores, webs, catalogs, store_returns=(), web_returns=(), catalog_returns=()):
    return solve(spark, T.all(spark, date_dim=DATES, store_sales=stores, web_sales=webs, catalog_sales=catalogs,
                              store_returns=list(store_returns), web_returns=list(web_returns),
                              catalog_returns=list(catalog_returns)))


def out_row(ratio, store_qty, store_wc, store_sp, other_qty, other_wc, other_sp):
    """An expected output row; money values given as strings."""
    return (ratio, store_qty, Decimal(store_wc), Decimal(store_sp), other_qty, Decimal(other_wc), Decimal(other_sp))


def type_of(df, name, position):
    """The Spark type of the output column named `name`, or of the column at `position` when no column has that name."""
    return dict(zip(names(df), field_types(df))).get(name, field_types(df)[position])


@pytest.fixture(scope="module")
def plain(spark):
    """One item bought by one customer in 2000 in all three channels: store 2, web 1, catalog 1."""
    return run(spark, [store(1, 2)], [web(1, 1)], [catalog(1, 1)])


@pytest.mark.obligation("O1")
def test_columns_are_the_declared_seven_in_order(plain):
    assert names(plain) == DECLARED


@pytest.mark.obligation("O2")
def test_returned_lines_are_dropped_by_number_and_item(spark):
    # In each channel: the item-1 line of order 10/20/30 stays (only item 2 of that order came back);
    # the item-1 line of order 11/21/31 was returned. Store 4, web 1, catalog 3.
    stores = [store(1, 4, ticket=10), store(2, 1, ticket=10), store(1, 8, ticket=11)]
    webs = [web(1, 1, order=20), web(2, 1, order=20), web(1, 5, order=21)]
    catalogs = [catalog(1, 3, order=30), catalog(2, 1, order=30), catalog(1, 5, order=31)]
    out = run(spark, stores, webs, catalogs,
              store_returns=[{"sr_ticket_number": 10, "sr_item_sk": 2}, {"sr_ticket_number": 11, "sr_item_sk": 1}],
              web_returns=[{"wr_order_number": 20, "wr_item_sk": 2}, {"wr_order_number": 21, "wr_item_sk": 1}],
              catalog_returns=[{"cr_order_number": 30, "cr_item_sk": 2}, {"cr_order_number": 31, "cr_item_sk": 1}])
    assert declared_bag(out, DECLARED) == [out_row(1.0, 4, "1.00", "2.00", 4, "2.00", "4.00")]


@pytest.mark.obligation("O3")
def test_one_row_per_item_and_customer_by_bill_customer(spark):
    # Item 1: customer 11 (store 2; web and catalog billed to 11, shipped to 9) and customer 12 (store 4, web 2,
    # catalog 2). No customer key equals a quantity, so grouping by another int column of the sale (the
    # quantity) instead of the bill customer matches no store total.
    stores = [store(1, 2, cust=11), store(1, 4, cust=12)]
    webs = [web(1, 1, cust=11, ship=9), web(1, 2, cust=12)]
    catalogs = [catalog(1, 1, cust=11, ship=9), catalog(1, 2, cust=12)]
    out = run(spark, stores, webs, catalogs)
    assert declared_bag(out, DECLARED) == [out_row(1.0, 2, "1.00", "2.00", 2, "2.00", "4.00"),
                                          out_row(1.0, 4, "1.00", "2.00", 4, "2.00", "4.00")]


@pytest.mark.obligation("O4")
def test_store_totals_match_web_and_catalog_on_year_item_and_customer(spark):
    # Store 2000 item 1 customer 1: 2. Web of the same year, item and customer: 1; its 1999 web purchase (5),
    # customer 2's (7) and item 2's (6) do not match. Catalog: 1.
    webs = [web(1, 1), web(1, 5, date=Y1999), web(1, 7, cust=2), web(2, 6)]
    out = run(spark, [store(1, 2)], webs, [catalog(1, 1)])
    assert declared_bag(out, DECLARED) == [out_row(1.0, 2, "1.00", "2.00", 2, "2.00", "4.00")]


@pytest.mark.obligation("O5")
def test_store_year_2000_and_both_other_channels_bought(spark):
    # Item 1: all three channels in 2000, kept. Item 2: no catalog. Item 3: no web. Item 4: web quantity 0.
    # Item 5: all three channels, but in 1999.
    stores = [store(k, 2) for k in (1, 2, 3, 4)] + [store(5, 2, date=Y1999)]
    webs = [web(1, 1), web(2, 1), web(4, 0), web(5, 1, date=Y1999)]
    catalogs = [catalog(1, 1), catalog(3, 1), catalog(4, 1), catalog(5, 1, date=Y1999)]
    out = run(spark, stores, webs, catalogs)
    assert declared_bag(out, DECLARED) == [out_row(1.0, 2, "1.00", "2.00", 2, "2.00", "4.00")]


@pytest.mark.obligation("O6")
def test_totals_sum_the_per_unit_columns(spark):
    # Each line: wholesale cost 1.50 (extended 9.00), sales price 2.25 (extended 8.00).
    money = {"wc": "1.50", "sp": "2.25", "ext_wc": "9.00", "ext_sp": "8.00"}
    out = run(spark, [store(1, 2, **money), store(1, 2, **money)], [web(1, 3, **money)], [catalog(1, 1, **money)])
    assert declared_bag(out, DECLARED) == [out_row(1.0, 4, "3.00", "4.50", 4, "3.00", "4.50")]


@pytest.mark.obligation("O7")
def test_ratio_is_store_over_web_plus_catalog_rounded_to_two_places(spark):
    # Item 1: 4 / (1 + 2) = 1.333... -> 1.33. Item 2: 2 / (1 + 2) = 0.666... -> 0.67.
    out = run(spark, [store(1, 4), store(2, 2)], [web(1, 1), web(2, 1)], [catalog(1, 2), catalog(2, 2)])
    assert sorted(r[0] for r in declared_rows(out, DECLARED)) == [0.67, 1.33]
    assert type_of(out, "ratio", 0) == "double"


@pytest.mark.obligation("O8")
def test_quantities_are_bigint(plain):
    assert type_of(plain, "store_qty", 1) == "bigint"
    assert type_of(plain, "other_chan_qty", 4) == "bigint"


@pytest.mark.obligation("O9")
def test_money_columns_are_decimal_17_2_and_18_2(plain):
    assert type_of(plain, "store_wholesale_cost", 2) == "decimal(17,2)"
    assert type_of(plain, "store_sales_price", 3) == "decimal(17,2)"
    assert type_of(plain, "other_chan_wholesale_cost", 5) == "decimal(18,2)"
    assert type_of(plain, "other_chan_sales_price", 6) == "decimal(18,2)"


@pytest.mark.obligation("O10")
def test_rows_sorted_by_ratio_then_store_desc_then_other_asc(spark):
    # Items given out of order. Ratio 0.5 (item 1) first, 2.0 (item 5) last; among ratio 1.0: store qty 3
    # before 2; with store qty 3, wholesale cost 5.00 (items 4, 6) before 1.00 (item 3); items 4 and 6 tie
    # on the store columns, other-channel wholesale cost 2.00 (item 4) before 4.00 (item 6).
    stores = [store(5, 4), store(3, 3), store(6, 3, wc="5.00"), store(2, 2), store(4, 3, wc="5.00"), store(1, 1)]
    webs = [web(5, 1), web(3, 2), web(6, 1, wc="3.00"), web(2, 1), web(4, 1), web(1, 1)]
    catalogs = [catalog(5, 1), catalog(3, 1), catalog(6, 2), catalog(2, 1), catalog(4, 2), catalog(1, 1)]
    out = run(spark, stores, webs, catalogs)
    assert declared_rows(out, DECLARED) == [
        out_row(0.5, 1, "1.00", "2.00", 2, "2.00", "4.00"),
        out_row(1.0, 3, "5.00", "2.00", 3, "2.00", "4.00"),
        out_row(1.0, 3, "5.00", "2.00", 3, "4.00", "4.00"),
        out_row(1.0, 3, "1.00", "2.00", 3, "2.00", "4.00"),
        out_row(1.0, 2, "1.00", "2.00", 2, "2.00", "4.00"),
        out_row(2.0, 4, "1.00", "2.00", 2, "2.00", "4.00"),
    ]


@pytest.mark.obligation("O10")
def test_limit_keeps_the_first_100_by_the_sort(spark):
    # Items 2..106, each store k, web 1, catalog k - 1: every ratio is 1.0, so store qty descending decides:
    # the first 100 are store qty 106 down to 7.
    items = range(2, 107)
    out = run(spark, [store(k, k) for k in items], [web(k, 1) for k in items], [catalog(k, k - 1) for k in items])
    assert [r[1] for r in declared_rows(out, DECLARED)] == list(range(106, 6, -1))
