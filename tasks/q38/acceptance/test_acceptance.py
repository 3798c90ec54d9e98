"""Acceptance tests for q38 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (the distinct (last name, first name, sale date) combinations
of months 1200..1211 found in store, catalog and web sales alike, counted).

The output is one row and one column; the count is read by position (row 0, column 0), never by
alias, except in the schema and alias tests. Every customer has both names unless the test is
about NULL names, and every catalog or web sale is shipped to the customer it is billed to unless
the test is about the customer key, so a violation of another obligation does not change the
count. Each date key has its own calendar date. Date keys (101..), item keys (77) and customer
keys (1..) never coincide, and every other text column of a customer is its own (c_customer_id
C1, c_login login1, ...), so reading another column for a customer key or a name changes the count."""
import datetime

import pytest

from lockin_acceptance import TaskTables, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
#: date key -> (calendar date, month sequence number)
MONTHS = {101: (datetime.date(1999, 12, 15), 1199), 102: (datetime.date(2000, 1, 15), 1200),
          103: (datetime.date(2000, 6, 15), 1205), 104: (datetime.date(2000, 6, 16), 1205),
          105: (datetime.date(2000, 12, 15), 1211), 106: (datetime.date(2001, 1, 15), 1212)}
M1199, M1200, M1205, M1205B, M1211, M1212 = 101, 102, 103, 104, 105, 106
ITEM = 77
#: the customer's text columns other than the names, each given a value of the customer's own
OTHER_TEXT = [c["name"] for c in T.tables["customer"]
              if c["type"] == "string" and c["name"] not in ("c_last_name", "c_first_name")]
DATES = [{"d_date_sk": k, "d_date": d, "d_month_seq": m} for k, (d, m) in MONTHS.items()]


def customers(*pairs):
    """Customers 1.. with the (last name, first name) pairs given; their other text columns differ
    from customer to customer."""
    return [{"c_customer_sk": k, "c_last_name": last, "c_first_name": first,
             **{c: f"{c[2:]}{k}" for c in OTHER_TEXT}} for k, (last, first) in enumerate(pairs, start=1)]


def ss(customer, date=M1205):
    return ("store_sales", {"ss_item_sk": ITEM, "ss_sold_date_sk": date, "ss_customer_sk": customer})


def cs(customer, date=M1205, ship=None):
    """A catalog sale billed to `customer`, shipped to `ship` (the billed customer unless given)."""
    ship = customer if ship is None else ship
    return ("catalog_sales", {"cs_item_sk": ITEM, "cs_sold_date_sk": date, "cs_bill_customer_sk": customer,
                              "cs_ship_customer_sk": ship})


def ws(customer, date=M1205, ship=None):
    """A web sale billed to `customer`, shipped to `ship` (the billed customer unless given)."""
    ship = customer if ship is None else ship
    return ("web_sales", {"ws_item_sk": ITEM, "ws_sold_date_sk": date, "ws_bill_customer_sk": customer,
                          "ws_ship_customer_sk": ship})


def everywhere(customer, date=M1205):
    """One sale of `customer` on `date` in each of the three channels."""
    return [ss(customer, date), cs(customer, date), ws(customer, date)]


def run(spark, customer_rows, sales):
    by_table = {t: [r for (tt, r) in sales if tt == t] for t in ("store_sales", "catalog_sales", "web_sales")}
    return solve(spark, T.all(spark, date_dim=DATES, customer=customer_rows, **by_table))


def count_of(df):
    """The count: row 0, column 0 of the output."""
    return rows(df)[0][0]


@pytest.fixture(scope="module")
def plain(spark):
    """Two customers each buying in all three channels on one date of month 1205: count 2."""
    return run(spark, customers(("Lee", "Ann"), ("Ray", "Bob")), everywhere(1) + everywhere(2))


@pytest.mark.obligation("O1")
def test_one_row_one_column(plain):
    assert rows(plain) == [(2,)]


@pytest.mark.obligation("O1")
def test_no_combination_in_all_channels_still_gives_one_row(spark):
    # No sale at all: the count is 0, still one row with one column.
    assert rows(run(spark, customers(("Lee", "Ann")), [])) == [(0,)]


@pytest.mark.obligation("O2")
def test_column_name(plain):
    assert names(plain)[0] == "count(1)"


@pytest.mark.obligation("O3")
def test_count_is_bigint(plain):
    assert field_types(plain)[0] == "bigint"


@pytest.mark.obligation("O4")
def test_catalog_and_web_customers_are_the_billed_ones(spark):
    # Customer 1 (Lee, Ann) buys in store; in catalog and on the web the sales are billed to 1 and
    # shipped to 2 (Ray, Bob). The billed customer makes (Lee, Ann) a combination of all three
    # channels: count 1. The shipped-to customer would give (Ray, Bob) in catalog and web only: 0.
    sales = [ss(1), cs(1, ship=2), ws(1, ship=2)]
    assert count_of(run(spark, customers(("Lee", "Ann"), ("Ray", "Bob")), sales)) == 1


@pytest.mark.obligation("O5")
def test_months_1200_to_1211_inclusive(spark):
    # Customer 1 buys in all three channels in months 1199, 1200, 1211 and 1212 (one date each):
    # the bounds 1200 and 1211 count, 1199 and 1212 do not: 2.
    sales = everywhere(1, M1199) + everywhere(1, M1200) + everywhere(1, M1211) + everywhere(1, M1212)
    assert count_of(run(spark, customers(("Lee", "Ann")), sales)) == 2


@pytest.mark.obligation("O6")
def test_combinations_compare_names_not_customer_keys(spark):
    # Customers 1 and 2 are both (Lee, Ann): 1 buys in store, 2 in catalog and on the web, on the
    # same date. By name the combination is in all three channels: 1 (by customer key: 0).
    # On another date, 3 (Fox, Bo) buys in store and 4 (Kim, Bo) in catalog and on the web (same
    # first name only), 5 (Ray, Cy) in store and 6 (Ray, Di) in catalog and on the web (same last
    # name only): neither pair is one combination (a tuple with a name twice would count them).
    sales = [ss(1), cs(2), ws(2), ss(3, M1205B), cs(4, M1205B), ws(4, M1205B),
             ss(5, M1205B), cs(6, M1205B), ws(6, M1205B)]
    people = customers(("Lee", "Ann"), ("Lee", "Ann"), ("Fox", "Bo"), ("Kim", "Bo"), ("Ray", "Cy"), ("Ray", "Di"))
    assert count_of(run(spark, people, sales)) == 1


@pytest.mark.obligation("O7")
def test_repeated_purchases_count_once(spark):
    # Customer 1 buys twice in each channel on one date and once in each channel on another date:
    # two distinct combinations, 2 (multiplicities kept would give 2 + 1 = 3).
    sales = everywhere(1) + everywhere(1) + everywhere(1, M1205B)
    assert count_of(run(spark, customers(("Lee", "Ann")), sales)) == 2


@pytest.mark.obligation("O8")
def test_combination_must_occur_in_all_three_channels(spark):
    # Customer 1 buys in store and catalog, 2 in store and web, 3 in catalog and web, 4 in all
    # three, all on one date: only customer 4's combination counts: 1.
    sales = [ss(1), cs(1), ss(2), ws(2), cs(3), ws(3)] + everywhere(4)
    people = customers(("Lee", "Ann"), ("Ray", "Bob"), ("Fox", "Cy"), ("Kim", "Dee"))
    assert count_of(run(spark, people, sales)) == 1


@pytest.mark.obligation("O9")
def test_null_names_still_match_across_channels(spark):
    # Customer 1 has no last name, 2 no first name, 3 both names; each buys in all three channels
    # on one date. A set intersection compares NULL to NULL as equal: 3 (an equi-join on the
    # names would keep customer 3 alone: 1).
    people = customers((None, "Ann"), ("Ray", None), ("Fox", "Cy"))
    sales = everywhere(1) + everywhere(2) + everywhere(3)
    assert count_of(run(spark, people, sales)) == 3


@pytest.mark.obligation("O10")
def test_same_names_count_once_per_date(spark):
    # Customers 1 and 2 are both (Lee, Ann). 1 buys in all three channels, 2 in store, on the same
    # date; 1 buys in all three channels on another date too: one combination per date, 2 (one per
    # customer and date would give 3).
    sales = everywhere(1) + [ss(2)] + everywhere(1, M1205B)
    assert count_of(run(spark, customers(("Lee", "Ann"), ("Lee", "Ann")), sales)) == 2
