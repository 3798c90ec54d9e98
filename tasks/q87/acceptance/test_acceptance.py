"""Acceptance tests for q87 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (the distinct (last name, first name, sale date) combinations
of months 1200..1211 found in store sales but neither in catalog nor in web sales, counted).

The output is one row and one column; the count is read by position (row 0, column 0), never by
alias, except in the schema and alias tests. Every customer has both names unless the test is
about NULL names; every catalog or web sale is shipped to the customer it is billed to unless the
test is about the customer key; and a combination that must leave the store set occurs in both
catalog and web sales unless the test is about which channels remove it (O4 removes by web sales,
O8 by each channel alone). Each date key has its own calendar date."""
import datetime

import pytest

from lockin_acceptance import TaskTables, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
#: date key -> (calendar date, month sequence number)
MONTHS = {1: (datetime.date(1999, 12, 15), 1199), 2: (datetime.date(2000, 1, 15), 1200),
          3: (datetime.date(2000, 6, 15), 1205), 4: (datetime.date(2000, 6, 16), 1205),
          5: (datetime.date(2000, 12, 15), 1211), 6: (datetime.date(2001, 1, 15), 1212)}
M1199, M1200, M1205, M1205B, M1211, M1212 = 1, 2, 3, 4, 5, 6
DATES = [{"d_date_sk": k, "d_date": d, "d_month_seq": m} for k, (d, m) in MONTHS.items()]


def customers(*pairs, keys=None):
    """Customers 1.. (or the keys given) with the (last name, first name) pairs given."""
    keys = range(1, len(pairs) + 1) if keys is None else keys
    return [{"c_customer_sk": k, "c_last_name": last, "c_first_name": first} for k, (last, first) in zip(keys, pairs)]


def ss(customer, date=M1205):
    return ("store_sales", {"ss_item_sk": 1, "ss_sold_date_sk": date, "ss_customer_sk": customer})


def cs(customer, date=M1205, ship=None):
    """A catalog sale billed to `customer`, shipped to `ship` (the billed customer unless given)."""
    ship = customer if ship is None else ship
    return ("catalog_sales", {"cs_item_sk": 1, "cs_sold_date_sk": date, "cs_bill_customer_sk": customer,
                              "cs_ship_customer_sk": ship})


def ws(customer, date=M1205, ship=None):
    """A web sale billed to `customer`, shipped to `ship` (the billed customer unless given)."""
    ship = customer if ship is None else ship
    return ("web_sales", {"ws_item_sk": 1, "ws_sold_date_sk": date, "ws_bill_customer_sk": customer,
                          "ws_ship_customer_sk": ship})


def elsewhere(customer, date=M1205):
    """One catalog and one web sale of `customer` on `date`: its combination leaves the store set."""
    return [cs(customer, date), ws(customer, date)]


def run(spark, customer_rows, sales):
    by_table = {t: [r for (tt, r) in sales if tt == t] for t in ("store_sales", "catalog_sales", "web_sales")}
    return solve(spark, T.all(spark, date_dim=DATES, customer=customer_rows, **by_table))


def count_of(df):
    """The count: row 0, column 0 of the output."""
    return rows(df)[0][0]


@pytest.fixture(scope="module")
def plain(spark):
    """Two customers each buying in store only, on one date of month 1205: count 2."""
    return run(spark, customers(("Lee", "Ann"), ("Ray", "Bob")), [ss(1), ss(2)])


@pytest.mark.obligation("O1")
def test_one_row_one_column(plain):
    assert rows(plain) == [(2,)]


@pytest.mark.obligation("O1")
def test_no_store_only_combination_still_gives_one_row(spark):
    # No sale at all: the count is 0, still one row with one column.
    assert rows(run(spark, customers(("Lee", "Ann")), [])) == [(0,)]


@pytest.mark.obligation("O2")
def test_column_name(plain):
    assert names(plain)[0] == "count(1)"


@pytest.mark.obligation("O3")
def test_count_is_bigint(plain):
    assert field_types(plain)[0] == "bigint"


@pytest.mark.obligation("O4")
def test_each_channel_takes_its_own_customer_key(spark):
    # Customers 11 (Lee, Ann), 12 (Ray, Bob), 3 (Fox, Cy) and 14 (Kim, Di). Store: Lee on date 4,
    # Fox and Kim on date 3. A web sale on date 4 is billed to Lee and shipped to Ray: the billed
    # customer removes (Lee, date 4). A catalog sale on date 3 is billed to Ray (no store
    # combination) and every other int column of it, its ship-to customer included, holds 3 (Fox):
    # the billed customer removes nothing. Left: Fox and Kim, 2.
    # The web's ship-to customer would keep Lee (3); any other int column of the catalog sale read
    # as its customer would remove Fox (1); the store's sale date key read as its customer (date 4
    # is no customer, date 3 is Fox) leaves only Fox (1), any other store int column no one (0).
    # Catalog alone removes nothing here, so a program that never subtracts the catalog (O8's
    # mistake) still gives 2.
    people = customers(("Lee", "Ann"), ("Ray", "Bob"), ("Fox", "Cy"), ("Kim", "Di"), keys=(11, 12, 3, 14))
    catalog_row = {c["name"]: 3 for c in T.tables["catalog_sales"] if c["type"] == "int"}
    catalog_row.update({"cs_bill_customer_sk": 12, "cs_sold_date_sk": M1205})
    sales = [ss(11, M1205B), ss(3), ss(14), ws(11, M1205B, ship=12), ("catalog_sales", catalog_row)]
    assert count_of(run(spark, people, sales)) == 2


@pytest.mark.obligation("O5")
def test_months_1200_to_1211_inclusive(spark):
    # Customer 1 buys in store in months 1199, 1200, 1211 and 1212 (one date each): the bounds
    # 1200 and 1211 count, 1199 and 1212 do not: 2.
    sales = [ss(1, M1199), ss(1, M1200), ss(1, M1211), ss(1, M1212)]
    assert count_of(run(spark, customers(("Lee", "Ann")), sales)) == 2


@pytest.mark.obligation("O6")
def test_combinations_compare_names_not_customer_keys(spark):
    # Customers 1 and 2 are both (Lee, Ann): 1 buys in store, 2 in catalog and on the web, on the
    # same date; 3 (Fox, Cy), 4 (Ray, Ann) and 5 (Lee, Bo) buy in store only. By name (Lee, Ann)
    # leaves the store set: 3 (by customer key it would stay: 4). Every name pair shares one name
    # with another, so a combination missing the last name, or the first, or reading another
    # column in its place, loses one of them (2).
    people = customers(("Lee", "Ann"), ("Lee", "Ann"), ("Fox", "Cy"), ("Ray", "Ann"), ("Lee", "Bo"))
    sales = [ss(1), ss(3), ss(4), ss(5)] + elsewhere(2)
    assert count_of(run(spark, people, sales)) == 3


@pytest.mark.obligation("O7")
def test_set_difference_of_distinct_combinations(spark):
    # Customer 1 buys three times in store on one date that also has one catalog and one web sale
    # (gone, however many store lines), and twice in store on another date (one combination): 1.
    # A difference of sale lines would give (3 - 1 - 1) + 2 = 3.
    sales = [ss(1), ss(1), ss(1)] + elsewhere(1) + [ss(1, M1205B), ss(1, M1205B)]
    assert count_of(run(spark, customers(("Lee", "Ann")), sales)) == 1


@pytest.mark.obligation("O8")
def test_either_channel_removes_a_combination(spark):
    # Customers 1..4 buy in store on one date; 1 also by catalog, 2 also on the web, 3 by both:
    # only 4 is left, 1.
    people = customers(("Lee", "Ann"), ("Ray", "Bob"), ("Fox", "Cy"), ("Kim", "Dee"))
    sales = [ss(1), ss(2), ss(3), ss(4), cs(1), ws(2)] + elsewhere(3)
    assert count_of(run(spark, people, sales)) == 1


@pytest.mark.obligation("O9")
def test_null_names_are_removed_like_any_other(spark):
    # Customer 1 has no last name, 2 no first name, 3 both names; all three buy in store on one
    # date, 1 and 2 also by catalog and on the web. A set difference compares NULL to NULL as
    # equal: only 3 is left, 1 (an anti-join on equal names would keep 1 and 2 too: 3).
    people = customers((None, "Ann"), ("Ray", None), ("Fox", "Cy"))
    sales = [ss(1), ss(2), ss(3)] + elsewhere(1) + elsewhere(2)
    assert count_of(run(spark, people, sales)) == 1


@pytest.mark.obligation("O10")
def test_same_names_count_once_per_date(spark):
    # Customers 1 and 2 are both (Lee, Ann) and buy in store on the same date; 1 buys in store on
    # another date too: one combination per date, 2 (one per customer and date would give 3).
    sales = [ss(1), ss(2), ss(1, M1205B)]
    assert count_of(run(spark, customers(("Lee", "Ann"), ("Lee", "Ann")), sales)) == 2
