"""Tests for q11 written from task.yaml: web growth must beat store growth; output the preferred flag."""
from decimal import Decimal as D

import pytest

from solution import solve

CUSTOMER = ("c_customer_sk int, c_customer_id string, c_first_name string, c_last_name string, "
            "c_preferred_cust_flag string, c_birth_country string, c_login string, c_email_address string")


def sales(spark, p, cust_col, rows):
    return spark.createDataFrame(
        [(d, c, D(lp), D(disc)) for d, c, lp, disc in rows],
        f"{p}_sold_date_sk int, {cust_col} int, {p}_ext_list_price decimal(7,2), {p}_ext_discount_amt decimal(7,2)")


@pytest.fixture(scope="module")
def tables(spark):
    customer = spark.createDataFrame([
        (1, "A", "Ann", "Lee", "Y", "PERU", None, None),
        (2, "B", "Bob", "Kim", "N", "CHAD", None, "b@x"),
        (3, "C", "Cy", "Ng", "Y", None, None, "c@x"),
        (4, "D", "Di", "Ox", "N", "PERU", None, "d@x"),
    ], CUSTOMER)
    date_dim = spark.createDataFrame([(1, 2001), (2, 2002)], "d_date_sk int, d_year int")
    # A: store 100->100, web 100->300 -> qualifies. B: store 100->500, web 100->200 -> no.
    # C: same growth as A -> qualifies. D: web 2001 total is 0 -> excluded.
    store = sales(spark, "ss", "ss_customer_sk", [
        (1, 1, "110.00", "10.00"), (2, 1, "100.00", "0.00"),
        (1, 2, "100.00", "0.00"), (2, 2, "500.00", "0.00"),
        (1, 3, "100.00", "0.00"), (2, 3, "100.00", "0.00"),
        (1, 4, "100.00", "0.00"), (2, 4, "100.00", "0.00"),
    ])
    web = sales(spark, "ws", "ws_bill_customer_sk", [
        (1, 1, "100.00", "0.00"), (2, 1, "350.00", "50.00"),
        (1, 2, "100.00", "0.00"), (2, 2, "200.00", "0.00"),
        (1, 3, "100.00", "0.00"), (2, 3, "300.00", "0.00"),
        (1, 4, "10.00", "10.00"), (2, 4, "300.00", "0.00"),
    ])
    return {"customer": customer, "date_dim": date_dim, "store_sales": store, "web_sales": web}


@pytest.fixture(scope="module")
def result(spark, tables):
    return solve(spark, tables)


def test_single_string_column(result):
    assert len(result.schema.fields) == 1
    assert result.schema.fields[0].dataType.simpleString() == "string"


def test_one_row_per_qualifying_customer(result):
    assert sorted(r[0] for r in result.collect()) == ["Y", "Y"]


def test_customers_with_null_attributes_still_match(result):
    # A has null login and email; C has a null birth country: both qualify.
    assert result.count() == 2
