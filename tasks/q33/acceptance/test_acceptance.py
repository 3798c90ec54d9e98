"""Acceptance tests for q33 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (per manufacturer that makes at least one Electronics item, the
extended sales price of all its items sold in May 1998 to GMT-5 addresses, over store, catalog
and web sales). Values are read in the declared output order (manufacturer id, total) by
declared name or position, never by alias, except in the schema and type tests.

Every fixture keeps the parts the other obligations decide plain: every item is an Electronics
item (except in the O8 test), every sale of a manufacturer includes a store sale (except in the
O6 test), a sale's other decimal columns equal its extended sales price (except in the O4 test),
and a catalog or web sale's ship address is its bill address (except in the O3 test)."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["i_manufact_id", "total_sales"]
MAY_1998, APR_1998, MAY_1999 = 1, 2, 3
DATES = [
    {"d_date_sk": MAY_1998, "d_year": 1998, "d_moy": 5},
    {"d_date_sk": APR_1998, "d_year": 1998, "d_moy": 4},
    {"d_date_sk": MAY_1999, "d_year": 1999, "d_moy": 5},
]
# Address keys unlike every item and date key of the fixtures, so that reading another key
# column for the address finds no address. NOWHERE matches no customer_address row.
GMT5, GMT6, NOWHERE = 51, 52, 99
ADDRESSES = [{"ca_address_sk": GMT5, "ca_gmt_offset": "-5.00"}, {"ca_address_sk": GMT6, "ca_gmt_offset": "-6.00"}]
# Item k (1..3) is an Electronics item of manufacturer k.
ITEMS = [{"i_item_sk": k, "i_manufact_id": k, "i_category": "Electronics"} for k in (1, 2, 3)]
#: channel -> (table, column prefix, bill address column, ship address column or None)
CHANNELS = {
    "store": ("store_sales", "ss", "ss_addr_sk", None),
    "catalog": ("catalog_sales", "cs", "cs_bill_addr_sk", "cs_ship_addr_sk"),
    "web": ("web_sales", "ws", "ws_bill_addr_sk", "ws_ship_addr_sk"),
}


def sale(channel, item, price, date=MAY_1998, addr=GMT5, ship=None, other=None):
    """One sale of `item` in `channel` at extended sales price `price`; every other decimal
    column of the sale equals `other` (default: `price`); the ship address equals `addr` unless
    `ship` is given (catalog and web)."""
    table, p, bill_col, ship_col = CHANNELS[channel]
    o = price if other is None else other
    row = {c["name"]: o for c in T.tables[table] if c["type"].startswith("decimal")}
    row.update({f"{p}_sold_date_sk": date, f"{p}_item_sk": item, bill_col: addr, f"{p}_ext_sales_price": price})
    if ship_col:
        row[ship_col] = addr if ship is None else ship
    return channel, row


def run(spark, sales, items=ITEMS):
    by_table = {t: [] for t, _, _, _ in CHANNELS.values()}
    for channel, row in sales:
        by_table[CHANNELS[channel][0]].append(row)
    return solve(spark, T.all(spark, date_dim=DATES, customer_address=ADDRESSES, item=items, **by_table))


def result(out):
    return declared_bag(out, DECLARED)


def dec(x):
    return Decimal(x)


@pytest.fixture(scope="module")
def plain(spark):
    """Two manufacturers, sales in every channel, nothing to filter."""
    return run(spark, [sale("store", 1, "1.00"), sale("catalog", 1, "2.00"), sale("web", 1, "4.00"),
                       sale("store", 2, "8.00")])


@pytest.mark.obligation("O1")
def test_only_sales_of_may_1998_count(spark):
    # April 1998 and May 1999 sales are left out in every channel: 1 + 10 + 100.
    out = run(spark, [sale("store", 1, "1.00"), sale("store", 1, "2.00", date=APR_1998),
                      sale("catalog", 1, "10.00"), sale("catalog", 1, "20.00", date=MAY_1999),
                      sale("web", 1, "100.00"), sale("web", 1, "200.00", date=APR_1998)])
    assert result(out) == [(1, dec("111.00"))]


@pytest.mark.obligation("O2")
def test_only_addresses_at_gmt_minus_5_count(spark):
    # Sales to a GMT-6 address are left out in every channel: 1 + 10 + 100.
    out = run(spark, [sale("store", 1, "1.00"), sale("store", 1, "2.00", addr=GMT6),
                      sale("catalog", 1, "10.00"), sale("catalog", 1, "20.00", addr=GMT6),
                      sale("web", 1, "100.00"), sale("web", 1, "200.00", addr=GMT6)])
    assert result(out) == [(1, dec("111.00"))]


@pytest.mark.obligation("O3")
def test_catalog_and_web_sales_use_the_bill_address(spark):
    # Catalog and web: the sale billed to GMT-5 and shipped to an unknown address counts (10, 100);
    # the one billed to an unknown address and shipped to GMT-5 does not (20, 200). 1 + 10 + 100.
    out = run(spark, [sale("store", 1, "1.00"),
                      sale("catalog", 1, "10.00", addr=GMT5, ship=NOWHERE),
                      sale("catalog", 1, "20.00", addr=NOWHERE, ship=GMT5),
                      sale("web", 1, "100.00", addr=GMT5, ship=NOWHERE),
                      sale("web", 1, "200.00", addr=NOWHERE, ship=GMT5)])
    assert result(out) == [(1, dec("111.00"))]


@pytest.mark.obligation("O4")
def test_the_extended_sales_price_is_summed(spark):
    # Every other price column of the sale differs from the extended sales price.
    out = run(spark, [sale("store", 1, "1.00", other="0.50"), sale("catalog", 1, "10.00", other="3.00"),
                      sale("web", 1, "100.00", other="7.00"), sale("store", 2, "40.00", other="9.00")])
    assert result(out) == [(1, dec("111.00")), (2, dec("40.00"))]


@pytest.mark.obligation("O5")
def test_one_row_per_manufacturer_id(spark):
    # Manufacturer 1 has two items of different brands (1 and 4): one row, 10 + 5 + 20.
    items = [
        {"i_item_sk": 1, "i_manufact_id": 1, "i_brand_id": 1, "i_category": "Electronics"},
        {"i_item_sk": 4, "i_manufact_id": 1, "i_brand_id": 2, "i_category": "Electronics"},
        {"i_item_sk": 2, "i_manufact_id": 2, "i_brand_id": 3, "i_category": "Electronics"},
    ]
    out = run(spark, [sale("store", 1, "10.00"), sale("store", 4, "5.00"), sale("catalog", 4, "20.00"),
                      sale("store", 2, "7.00")], items=items)
    assert result(out) == [(1, dec("35.00")), (2, dec("7.00"))]


@pytest.mark.obligation("O6")
def test_channel_totals_are_added_and_single_channel_makers_appear(spark):
    # Manufacturer 1 sells in all three channels (1 + 2 + 4); 2 only by catalog; 3 only on the web.
    out = run(spark, [sale("store", 1, "1.00"), sale("catalog", 1, "2.00"), sale("web", 1, "4.00"),
                      sale("catalog", 2, "10.00"), sale("web", 3, "100.00")])
    assert result(out) == [(1, dec("7.00")), (2, dec("10.00")), (3, dec("100.00"))]


@pytest.mark.obligation("O7")
def test_columns_are_i_manufact_id_an_int_and_total_sales(plain):
    assert names(plain) == ["i_manufact_id", "total_sales"]
    assert field_types(plain)[0] == "int"


@pytest.mark.obligation("O8")
def test_every_item_of_an_electronics_manufacturer_counts(spark):
    # Manufacturer 1 makes an Electronics item (1) and a Books item (5): both count, 10 + 5 + 20.
    # Manufacturer 9 makes only Books (item 6): it does not qualify.
    items = [
        {"i_item_sk": 1, "i_manufact_id": 1, "i_category": "Electronics"},
        {"i_item_sk": 5, "i_manufact_id": 1, "i_category": "Books"},
        {"i_item_sk": 6, "i_manufact_id": 9, "i_category": "Books"},
    ]
    out = run(spark, [sale("store", 1, "10.00"), sale("store", 5, "5.00"), sale("catalog", 5, "20.00"),
                      sale("store", 6, "99.00")], items=items)
    assert result(out) == [(1, dec("35.00"))]


@pytest.mark.obligation("O9")
def test_total_sales_is_decimal_27_2(plain):
    lower = names(plain)
    position = lower.index("total_sales") if "total_sales" in lower else 1
    assert field_types(plain)[position] == "decimal(27,2)"


@pytest.mark.obligation("O10")
def test_rows_are_ordered_by_total_ascending(spark):
    out = run(spark, [sale("store", 1, "30.00"), sale("store", 2, "10.00"), sale("store", 3, "15.00"),
                      sale("catalog", 3, "5.00")])
    assert declared_rows(out, DECLARED) == [(2, dec("10.00")), (3, dec("20.00")), (1, dec("30.00"))]


@pytest.mark.obligation("O11")
def test_at_most_100_rows(spark):
    items = [{"i_item_sk": 100 + k, "i_manufact_id": 100 + k, "i_category": "Electronics"} for k in range(105)]
    out = run(spark, [sale("store", 100 + k, "1.00") for k in range(105)], items=items)
    assert out.count() == 100
