"""Acceptance tests for q4 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (customers whose catalog growth 2001 -> 2002 beats both their
store and their web growth). Every customer gets its six yearly totals from one sale per channel
and year; a plain sale's extended list and sales prices both equal the yearly total it gives
((total - 0 - 0 + total) / 2), its unit prices equal its extended ones (quantity 1) and its ship-to
customer is the billed one, so only the obligation under test decides who qualifies. Results are
read as the customer ids of the first output column, never by alias, except in the schema and
alias tests."""
import pytest

from lockin_acceptance import TaskTables, column, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
Y2000, Y2001, Y2002, Y2003 = 1, 2, 3, 4
DATES = [{"d_date_sk": k, "d_year": y} for k, y in [(Y2000, 2000), (Y2001, 2001), (Y2002, 2002), (Y2003, 2003)]]
#: channel -> (table, column prefix, billed customer column, ship-to customer column)
CHANNELS = {
    "s": ("store_sales", "ss", "ss_customer_sk", None),
    "c": ("catalog_sales", "cs", "cs_bill_customer_sk", "cs_ship_customer_sk"),
    "w": ("web_sales", "ws", "ws_bill_customer_sk", "ws_ship_customer_sk"),
}
A, B, C, D, E = 1, 2, 3, 4, 5


def cid(k):
    return f"C{k:03d}"


def customer(k):
    return {"c_customer_sk": k, "c_customer_id": cid(k), "c_first_name": f"First{k}", "c_last_name": f"Last{k}",
            "c_preferred_cust_flag": "Y", "c_birth_country": "PERU", "c_login": f"login{k}",
            "c_email_address": f"c{k}@mail.com"}


def sale(ch, cust, date, total=None, ext=None, unit=None, ship=None):
    """One sale of channel `ch` ("s", "c", "w"): (table, row).
    ext = (list, wholesale, discount, sales) extended amounts, default (total, 0, 0, total);
    unit = the unit prices' yearly total (unit list = unit sales = unit, unit wholesale 0), default
    the extended amounts (quantity 1); ship = the ship-to customer (catalog, web), default the billed one."""
    table, p, bill, ship_col = CHANNELS[ch]
    lst, whl, dsc, sls = ext if ext is not None else (total, 0, 0, total)
    ul, uw, us = (unit, 0, unit) if unit is not None else (lst, whl, sls)
    row = {f"{p}_item_sk": 1, f"{p}_sold_date_sk": date, bill: cust, f"{p}_quantity": 1,
           f"{p}_ext_list_price": lst, f"{p}_ext_wholesale_cost": whl, f"{p}_ext_discount_amt": dsc,
           f"{p}_ext_sales_price": sls, f"{p}_list_price": ul, f"{p}_wholesale_cost": uw, f"{p}_sales_price": us}
    if ship_col:
        row[ship_col] = cust if ship is None else ship
    return table, row


def six(cust, s, c, w):
    """The six plain sales of a customer: s, c, w are the (2001, 2002) totals of each channel;
    a None total gives no sale."""
    out = []
    for ch, pair in (("s", s), ("c", c), ("w", w)):
        for date, total in zip((Y2001, Y2002), pair):
            if total is not None:
                out.append(sale(ch, cust, date, total))
    return out


def run(spark, sales, customers=range(1, 6)):
    by_table = {"store_sales": [], "catalog_sales": [], "web_sales": []}
    for table, row in sales:
        by_table[table].append(row)
    custs = [customer(k) for k in customers]
    return solve(spark, T.all(spark, customer=custs, date_dim=DATES, **by_table))


def ids(out):
    return sorted(column(out, 0))


# A plain qualifying customer: store 1x, catalog 2x, web 1x.
PLAIN_A = six(A, (10, 10), (10, 20), (10, 10))


@pytest.mark.obligation("O1")
def test_total_is_half_of_list_minus_wholesale_minus_discount_plus_sales(spark):
    # Store and web grow 10 -> 20 (2x) for A and B.
    # A's catalog: 2001 (30 - 8 - 4 + 2) / 2 = 10, 2002 (20 - 2 - 3 + 35) / 2 = 25: 2.5x, qualifies.
    # B's catalog: 2001 (4 - 1 - 1 + 18) / 2 = 10, 2002 (30 - 3 - 3 + 0) / 2 = 12: 1.2x, does not.
    # Halving only the sales price (list - wholesale - discount + sales / 2) gives A 19 -> 32.5
    # (1.71x) and B 11 -> 24 (2.18x); adding the discount gives A 14 -> 28 (2x) and B 11 -> 15.
    sales = six(A, (10, 20), (None, None), (10, 20)) + six(B, (10, 20), (None, None), (10, 20)) + [
        sale("c", A, Y2001, ext=(30, 8, 4, 2)), sale("c", A, Y2002, ext=(20, 2, 3, 35)),
        sale("c", B, Y2001, ext=(4, 1, 1, 18)), sale("c", B, Y2002, ext=(30, 3, 3, 0)),
    ]
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O2")
def test_store_totals_use_the_extended_columns(spark):
    # Catalog 10 -> 20 (2x) for A and B; web 10 -> 10 for A, 10 -> 20 (2x) for B, so B never qualifies.
    # A's store: extended 10 -> 15 (1.5x, qualifies); its unit prices give 5 -> 15 (3x).
    # B's store: extended 10 -> 30 (3x); its unit prices give 10 -> 10 (1x).
    sales = six(A, (None, None), (10, 20), (10, 10)) + six(B, (None, None), (10, 20), (10, 20)) + [
        sale("s", A, Y2001, 10, unit=5), sale("s", A, Y2002, 15, unit=15),
        sale("s", B, Y2001, 10, unit=10), sale("s", B, Y2002, 30, unit=10),
    ]
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O3")
def test_catalog_totals_use_the_extended_columns(spark):
    # Store and web 10 -> 10 for A and B.
    # A's catalog: extended 10 -> 15 (1.5x, qualifies); unit prices 10 -> 5 (0.5x).
    # B's catalog: extended 10 -> 8 (0.8x, does not); unit prices 10 -> 20 (2x).
    sales = six(A, (10, 10), (None, None), (10, 10)) + six(B, (10, 10), (None, None), (10, 10)) + [
        sale("c", A, Y2001, 10, unit=10), sale("c", A, Y2002, 15, unit=5),
        sale("c", B, Y2001, 10, unit=10), sale("c", B, Y2002, 8, unit=20),
    ]
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O3")
def test_web_totals_use_the_extended_columns(spark):
    # Catalog 10 -> 20 (2x) for A and B; store 10 -> 10 for A, 10 -> 20 (2x) for B, so B never qualifies.
    # A's web: extended 10 -> 15 (1.5x, qualifies); unit prices 10 -> 30 (3x).
    # B's web: extended 10 -> 30 (3x); unit prices 10 -> 10 (1x).
    sales = six(A, (10, 10), (10, 20), (None, None)) + six(B, (10, 20), (10, 20), (None, None)) + [
        sale("w", A, Y2001, 10, unit=10), sale("w", A, Y2002, 15, unit=30),
        sale("w", B, Y2001, 10, unit=10), sale("w", B, Y2002, 30, unit=10),
    ]
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O4")
def test_catalog_sales_belong_to_the_billed_customer(spark):
    # A's 2002 catalog sale (20) is shipped to B: billed, A has 10 -> 20 (2x) against store and
    # web 1x and qualifies; B has no 2002 catalog total. Attributed to the ship-to customer, A
    # has no 2002 catalog total and B (store 3x) does not qualify.
    sales = six(A, (10, 10), (10, None), (10, 10)) + six(B, (10, 30), (10, None), (10, 10)) + [
        sale("c", A, Y2002, 20, ship=B)]
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O4")
def test_web_sales_belong_to_the_billed_customer(spark):
    # A's 2002 web sale (20) is shipped to B: billed, A has web 2x against catalog 3x and store 1x
    # and qualifies; B has no 2002 web total. Attributed to the ship-to customer, A has no 2002
    # web total and B (store 3x, catalog 2x) does not qualify.
    sales = six(A, (10, 10), (10, 30), (10, None)) + six(B, (10, 30), (10, 20), (10, None)) + [
        sale("w", A, Y2002, 20, ship=B)]
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O5")
def test_a_customer_must_have_all_six_totals(spark):
    # A has all six and qualifies. B has no 2002 web total, C no 2002 store total: both would
    # qualify if a missing total counted as 0 (a growth of 0x).
    sales = PLAIN_A + six(B, (10, 10), (10, 20), (10, None)) + six(C, (10, None), (10, 20), (10, 10))
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O6")
def test_first_year_is_2001_and_second_year_2002(spark):
    # A: catalog 2001 10 -> 2002 20 (2x), store and web 1x: qualifies; its 2000 catalog sale (30)
    # is in neither year. B: catalog 10 -> 10 in 2001 -> 2002 (does not); its 2003 catalog sale
    # (20) is in neither year.
    sales = PLAIN_A + six(B, (10, 10), (10, 10), (10, 10)) + [sale("c", A, Y2000, 30), sale("c", B, Y2003, 20)]
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O7")
def test_2001_totals_must_be_positive(spark):
    # A qualifies. B's 2001 store total is -10 ((0 - 20 - 0 + 0) / 2), 2002 -5: 0.5x; C's 2001
    # catalog total is -10, 2002 -30: 3x; D's 2001 web total is -10, 2002 -10: 1x; E's 2001 store
    # total is 0. Without the positivity rule B, C and D would qualify.
    neg = {-10: (0, 20, 0, 0), -5: (0, 10, 0, 0), -30: (0, 60, 0, 0), 0: (0, 0, 0, 0)}
    sales = (PLAIN_A
             + six(B, (None, None), (10, 20), (10, 10)) + [sale("s", B, Y2001, ext=neg[-10]), sale("s", B, Y2002, ext=neg[-5])]
             + six(C, (10, 10), (None, None), (10, 10)) + [sale("c", C, Y2001, ext=neg[-10]), sale("c", C, Y2002, ext=neg[-30])]
             + six(D, (10, 10), (10, 20), (None, None)) + [sale("w", D, Y2001, ext=neg[-10]), sale("w", D, Y2002, ext=neg[-10])]
             + six(E, (None, 10), (10, 20), (10, 10)) + [sale("s", E, Y2001, ext=neg[0])])
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O8")
def test_catalog_growth_beats_both_store_and_web(spark):
    # A: store 1.5x, catalog 2x, web 1.5x: qualifies. B: catalog 2x beats store 1x but not web 3x.
    # C: catalog 2x beats web 1x but not store 3x.
    sales = six(A, (10, 15), (10, 20), (10, 15)) + six(B, (10, 10), (10, 20), (10, 30)) + six(C, (10, 30), (10, 20), (10, 10))
    assert ids(run(spark, sales)) == [cid(A)]


@pytest.mark.obligation("O8")
def test_an_equal_growth_does_not_qualify(spark):
    # A qualifies. D: catalog 2x equals store 2x (web 1x); E: catalog 2x equals web 2x (store 1x).
    # The ratios 30 / 15 and 20 / 10 are both exactly 2.
    sales = PLAIN_A + six(D, (15, 30), (10, 20), (10, 10)) + six(E, (10, 10), (10, 20), (15, 30))
    assert ids(run(spark, sales)) == [cid(A)]


EXPECTED_NAMES = ["customer_id", "customer_first_name", "customer_last_name", "customer_preferred_cust_flag",
                  "customer_birth_country", "customer_login", "customer_email_address"]


@pytest.mark.obligation("O9")
def test_columns_are_named_with_the_customer_prefix(spark):
    assert sorted(names(run(spark, PLAIN_A))) == sorted(EXPECTED_NAMES)


@pytest.mark.obligation("O10")
def test_seven_string_columns_in_the_stated_order(spark):
    out = run(spark, PLAIN_A)
    assert rows(out) == [(cid(A), "First1", "Last1", "Y", "PERU", "login1", "c1@mail.com")]
    assert field_types(out) == ["string"] * 7


@pytest.mark.obligation("O11")
def test_ordered_by_customer_id_ascending(spark):
    sales = [s for k in (D, B, E, A, C) for s in six(k, (10, 10), (10, 20), (10, 10))]
    assert column(run(spark, sales), 0) == [cid(k) for k in (A, B, C, D, E)]


@pytest.mark.obligation("O12")
def test_at_most_100_rows(spark):
    sales = [s for k in range(1, 106) for s in six(k, (10, 10), (10, 20), (10, 10))]
    assert run(spark, sales, customers=range(1, 106)).count() == 100
