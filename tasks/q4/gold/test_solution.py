"""Tests for q4 written from task.yaml: catalog growth must beat store and web growth."""
from decimal import Decimal as D

import pytest

from solution import solve

CUSTOMER = ("c_customer_sk int, c_customer_id string, c_first_name string, c_last_name string, "
            "c_preferred_cust_flag string, c_birth_country string, c_login string, c_email_address string")


def sales_df(spark, p, cust_col, rows):
    ddl = (f"{p}_sold_date_sk int, {cust_col} int, {p}_ext_list_price decimal(7,2), {p}_ext_wholesale_cost decimal(7,2), "
           f"{p}_ext_discount_amt decimal(7,2), {p}_ext_sales_price decimal(7,2), {p}_list_price decimal(7,2), "
           f"{p}_wholesale_cost decimal(7,2), {p}_sales_price decimal(7,2)")
    return spark.createDataFrame(rows, ddl)


def sale(date, cust, amount, unit_noise):
    """A sale whose yearly-total contribution is `amount`: ((ext_list - wholesale - discount) + ext_sales) / 2.
    Unit-price columns carry unrelated values so that a formula using them gives different ratios."""
    a = D(amount)
    return (date, cust, a, D("0.00"), D("0.00"), a, D(unit_noise), D("1.00"), D("1.00"))


@pytest.fixture(scope="module")
def tables(spark):
    customer = spark.createDataFrame([
        (1, "AAAA", "Ann", "Lee", "Y", "PERU", None, "ann@x"),
        (2, "BBBB", "Bob", "Kim", "N", "CHAD", None, "bob@x"),
        (3, "CCCC", "Cy", "Ng", None, "FIJI", None, "cy@x"),
    ], CUSTOMER)
    date_dim = spark.createDataFrame([(1, 2001), (2, 2002), (3, 2000)], "d_date_sk int, d_year int")
    # Ann: store 100->200 (2x), catalog 100->300 (3x), web 100->150 (1.5x): qualifies.
    # Bob: store 100->400 (4x), catalog 100->300 (3x): catalog does not beat store.
    # Cy: qualifies on store/catalog but has no 2002 web total: excluded.
    store = sales_df(spark, "ss", "ss_customer_sk", [
        sale(1, 1, "100.00", "90.00"), sale(2, 1, "200.00", "10.00"),
        sale(1, 2, "100.00", "50.00"), sale(2, 2, "400.00", "50.00"),
        sale(1, 3, "100.00", "1.00"), sale(2, 3, "100.00", "1.00"),
    ])
    catalog = sales_df(spark, "cs", "cs_bill_customer_sk", [
        sale(1, 1, "100.00", "5.00"), sale(2, 1, "300.00", "5.00"),
        sale(1, 2, "100.00", "5.00"), sale(2, 2, "300.00", "5.00"),
        sale(1, 3, "100.00", "5.00"), sale(2, 3, "900.00", "5.00"),
    ])
    web = sales_df(spark, "ws", "ws_bill_customer_sk", [
        sale(1, 1, "100.00", "5.00"), sale(2, 1, "150.00", "5.00"),
        sale(1, 2, "100.00", "5.00"), sale(2, 2, "100.00", "5.00"),
        sale(1, 3, "100.00", "5.00"), sale(3, 3, "100.00", "5.00"),
    ])
    return {"customer": customer, "date_dim": date_dim, "store_sales": store, "catalog_sales": catalog,
            "web_sales": web}


@pytest.fixture(scope="module")
def rows(spark, tables):
    return [tuple(r) for r in solve(spark, tables).collect()]


def test_seven_string_columns(spark, tables):
    schema = solve(spark, tables).schema
    assert len(schema.fields) == 7
    assert all(f.dataType.simpleString() == "string" for f in schema.fields)


def test_only_customer_whose_catalog_growth_beats_both(rows):
    assert rows == [("AAAA", "Ann", "Lee", "Y", "PERU", None, "ann@x")]


def test_null_attributes_do_not_break_matching(rows):
    # Ann's login is null; she is matched on the customer id alone.
    assert rows[0][5] is None


def test_requires_all_six_totals(rows):
    assert all(r[0] != "CCCC" for r in rows)
