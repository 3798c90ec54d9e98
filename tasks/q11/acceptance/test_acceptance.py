"""Acceptance tests for q11 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (the preferred-customer flags of customers whose web growth
2001 -> 2002 beats their store growth). Every customer gets its four yearly totals from one sale
per channel and year; a plain sale has no discount, every other money column of it holds half its
list price (sale's `mid`), and its ship-to customer is the billed one. Unless a test says otherwise, customer k's
flag is its own marker "F<k>", so the output flags name the customers who qualify. Results are read
as the values of the single output column, never by alias, except in the alias test."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, bag, column, names
from solution import solve

T = TaskTables(__file__)
Y2000, Y2001, Y2002, Y2003 = 1, 2, 3, 4
DATES = [{"d_date_sk": k, "d_year": y} for k, y in [(Y2000, 2000), (Y2001, 2001), (Y2002, 2002), (Y2003, 2003)]]
A, B, C, D, E = 1, 2, 3, 4, 5


def flag(k):
    return f"F{k}"


def customer(k, **attrs):
    row = {"c_customer_sk": k, "c_customer_id": f"C{k:03d}", "c_first_name": f"First{k}", "c_last_name": f"Last{k}",
           "c_preferred_cust_flag": flag(k), "c_birth_country": "PERU", "c_login": f"login{k}",
           "c_email_address": f"c{k}@mail.com"}
    row.update(attrs)
    return row


def sale(ch, cust, date, total=None, lst=None, disc=0, sales=None, ship=None, mid=True):
    """One sale of channel `ch` ("s" or "w"): (table, row). Extended list price `lst` (default
    `total`), extended discount `disc`; ship = the ship-to customer of a web sale, default the
    billed one. With `mid` (the default) every other money column of the row, the extended sales
    price included unless `sales` is given, holds the midpoint (lst + disc) / 2: a program that
    reads any of them for the list price or for the discount gets half of every total, so every
    growth ratio, sign and tie stays as it is, and only the tests of O1 and O2 (which pass
    mid=False and let the fill rule make the other money columns differ) see the substitution."""
    lst = total if lst is None else lst
    table, p, key = ("store_sales", "ss", "ss_customer_sk") if ch == "s" else ("web_sales", "ws", "ws_bill_customer_sk")
    row = {f"{p}_item_sk": 1, f"{p}_sold_date_sk": date, key: cust, f"{p}_quantity": 1,
           f"{p}_ext_list_price": lst, f"{p}_ext_discount_amt": disc}
    if ch == "w":
        row["ws_ship_customer_sk"] = cust if ship is None else ship
    if mid:
        half = Decimal(lst + disc) / 2
        row.update({c["name"]: half for c in T.tables[table] if c["type"].startswith("decimal") and c["name"] not in row})
    if sales is not None:
        row[f"{p}_ext_sales_price"] = sales
    return table, row


def four(cust, s, w):
    """The plain sales of a customer: s and w are the (2001, 2002) totals of each channel; a None
    total gives no sale."""
    out = []
    for ch, pair in (("s", s), ("w", w)):
        for date, total in zip((Y2001, Y2002), pair):
            if total is not None:
                out.append(sale(ch, cust, date, total))
    return out


def run(spark, sales, customers=None):
    by_table = {"store_sales": [], "web_sales": []}
    for table, row in sales:
        by_table[table].append(row)
    custs = customers if customers is not None else [customer(k) for k in range(1, 6)]
    return solve(spark, T.all(spark, customer=custs, date_dim=DATES, **by_table))


def flags(out):
    return [r[0] for r in bag(out)]


# A plain qualifying customer: store 1x, web 2x.
PLAIN_A = four(A, (10, 10), (10, 20))


@pytest.mark.obligation("O1")
def test_store_total_is_list_price_minus_discount(spark):
    # Web 10 -> 20 (2x) for A and B.
    # A's store: 2001 30 - 20 = 10, 2002 25 - 0 = 25: 2.5x, does not qualify (list prices alone: 30 -> 25).
    # B's store: 2001 10 - 0 = 10, 2002 40 - 25 = 15: 1.5x, qualifies (list prices alone: 10 -> 40).
    # The extended sales prices (A 25 and 8, B 10 and 15) in place of the list price give A 5 -> 8
    # and B 10 -> -10, so A qualifies too; in place of the discount, A 5 -> 17 and B a zero 2001
    # total, so no one does. The store's other money columns differ by the fill rule.
    sales = four(A, (None, None), (10, 20)) + four(B, (None, None), (10, 20)) + [
        sale("s", A, Y2001, lst=30, disc=20, sales=25, mid=False), sale("s", A, Y2002, lst=25, sales=8, mid=False),
        sale("s", B, Y2001, lst=10, sales=10, mid=False), sale("s", B, Y2002, lst=40, disc=25, sales=15, mid=False)]
    assert flags(run(spark, sales)) == [flag(B)]


@pytest.mark.obligation("O2")
def test_web_total_is_list_price_minus_discount(spark):
    # Store 10 -> 20 (2x) for A and B.
    # A's web: 2001 15 - 5 = 10, 2002 30 - 0 = 30: 3x, qualifies (list prices alone 15 -> 30).
    # B's web: 2001 10, 2002 10: 1x, does not. The extended sales prices (A 10 and 28, B 10 and 40)
    # less the discount give A 5 -> 28 and B 10 -> 40, both qualify; the list price less the sales
    # price instead of the discount gives A 5 -> 2 and B a zero 2001 total, no one qualifies. The
    # web's other money columns differ by the fill rule.
    sales = four(A, (10, 20), (None, None)) + four(B, (10, 20), (None, None)) + [
        sale("w", A, Y2001, lst=15, disc=5, sales=10, mid=False), sale("w", A, Y2002, lst=30, sales=28, mid=False),
        sale("w", B, Y2001, lst=10, sales=10, mid=False), sale("w", B, Y2002, lst=10, sales=40, mid=False)]
    assert flags(run(spark, sales)) == [flag(A)]


@pytest.mark.obligation("O3")
def test_web_sales_belong_to_the_billed_customer(spark):
    # A's 2002 web sale (20) is shipped to B: billed, A has web 2x against store 1x and qualifies;
    # B has no 2002 web total. Attributed to the ship-to customer, A has no 2002 web total and B
    # (store 3x, web 2x) does not qualify.
    sales = four(A, (10, 10), (10, None)) + four(B, (10, 30), (10, None)) + [sale("w", A, Y2002, 20, ship=B)]
    assert flags(run(spark, sales)) == [flag(A)]


@pytest.mark.obligation("O4")
def test_first_year_is_2001_and_second_year_2002(spark):
    # A: web 2001 10 -> 2002 20 (2x), store 1x: qualifies; its 2000 web sale (30) is in neither
    # year. B: web 10 -> 5 (0.5x, does not); its 2003 web sale (20) is in neither year.
    sales = PLAIN_A + four(B, (10, 10), (10, 5)) + [sale("w", A, Y2000, 30), sale("w", B, Y2003, 20)]
    assert flags(run(spark, sales)) == [flag(A)]


@pytest.mark.obligation("O5")
def test_2001_totals_must_be_positive(spark):
    # A qualifies. B's 2001 store total is 0 - 10 = -10, 2002 -5: 0.5x against web 2x; C's 2001
    # web total is -10, 2002 -30: 3x against store 1x; E's 2001 store total is 0. Without the
    # positivity rule B and C would qualify.
    sales = (PLAIN_A
             + four(B, (None, None), (10, 20)) + [sale("s", B, Y2001, lst=0, disc=10), sale("s", B, Y2002, lst=0, disc=5)]
             + four(C, (10, 10), (None, None)) + [sale("w", C, Y2001, lst=0, disc=10), sale("w", C, Y2002, lst=0, disc=30)]
             + four(E, (None, 10), (10, 20)) + [sale("s", E, Y2001, 0)])
    assert flags(run(spark, sales)) == [flag(A)]


@pytest.mark.obligation("O6")
def test_a_customer_must_have_all_four_totals(spark):
    # A has all four and qualifies. B has no 2002 store total, C no 2001 web total: B would
    # qualify if a missing store total counted as 0 (a growth of 0x).
    sales = PLAIN_A + four(B, (10, None), (10, 20)) + four(C, (10, 10), (None, 20))
    assert flags(run(spark, sales)) == [flag(A)]


@pytest.mark.obligation("O7")
def test_an_equal_growth_does_not_qualify(spark):
    # A qualifies. D: web 2x equals store 2x; E: web 20 / 10 equals store 30 / 15, both exactly 2.
    sales = PLAIN_A + four(D, (10, 20), (10, 20)) + four(E, (15, 30), (10, 20))
    assert flags(run(spark, sales)) == [flag(A)]


@pytest.mark.obligation("O8")
def test_customers_with_null_attributes_are_aligned(spark):
    # A has no login, B no email address, C no birth country; all three qualify (store 1x, web 2x).
    # D (store 1x, web 0.5x) does not.
    custs = [customer(A, c_login=None), customer(B, c_email_address=None), customer(C, c_birth_country=None),
             customer(D)]
    sales = PLAIN_A + four(B, (10, 10), (10, 20)) + four(C, (10, 10), (10, 20)) + four(D, (10, 10), (10, 5))
    assert flags(run(spark, sales, customers=custs)) == [flag(A), flag(B), flag(C)]


@pytest.mark.obligation("O9")
def test_one_row_per_qualifying_customer(spark):
    # A and B share the flag Y, C has N: all three qualify.
    custs = [customer(A, c_preferred_cust_flag="Y"), customer(B, c_preferred_cust_flag="Y"),
             customer(C, c_preferred_cust_flag="N")]
    sales = PLAIN_A + four(B, (10, 10), (10, 20)) + four(C, (10, 10), (10, 20))
    assert flags(run(spark, sales, customers=custs)) == ["N", "Y", "Y"]


@pytest.mark.obligation("O10")
def test_column_is_named_customer_preferred_cust_flag(spark):
    assert names(run(spark, PLAIN_A)) == ["customer_preferred_cust_flag"]


@pytest.mark.obligation("O11")
def test_ordered_by_flag_ascending_nulls_first(spark):
    custs = [customer(A, c_preferred_cust_flag="Y"), customer(B, c_preferred_cust_flag=None),
             customer(C, c_preferred_cust_flag="N"), customer(D, c_preferred_cust_flag="A")]
    sales = [s for k in (A, B, C, D) for s in four(k, (10, 10), (10, 20))]
    assert column(run(spark, sales, customers=custs), 0) == [None, "A", "N", "Y"]


@pytest.mark.obligation("O11")
def test_at_most_100_rows(spark):
    sales = [s for k in range(1, 106) for s in four(k, (10, 10), (10, 20))]
    assert run(spark, sales, customers=[customer(k) for k in range(1, 106)]).count() == 100
