import pytest
from pyspark.sql.types import IntegerType, StringType, StructField, StructType

from solution import solve


def schema(*cols):
    return StructType([StructField(name, typ) for name, typ in cols])


CUSTOMER = schema(("c_customer_sk", IntegerType()), ("c_current_cdemo_sk", IntegerType()), ("c_current_addr_sk", IntegerType()))
ADDRESS = schema(("ca_address_sk", IntegerType()), ("ca_state", StringType()))
DEMO = schema(("cd_demo_sk", IntegerType()), ("cd_gender", StringType()), ("cd_marital_status", StringType()),
              ("cd_education_status", StringType()), ("cd_purchase_estimate", IntegerType()),
              ("cd_credit_rating", StringType()))
DATE = schema(("d_date_sk", IntegerType()), ("d_year", IntegerType()), ("d_moy", IntegerType()))
STORE = schema(("ss_sold_date_sk", IntegerType()), ("ss_customer_sk", IntegerType()))
WEB = schema(("ws_sold_date_sk", IntegerType()), ("ws_bill_customer_sk", IntegerType()), ("ws_ship_customer_sk", IntegerType()))
CATALOG = schema(("cs_sold_date_sk", IntegerType()), ("cs_bill_customer_sk", IntegerType()), ("cs_ship_customer_sk", IntegerType()))

DATES = [(1, 2001, 3), (2, 2001, 5), (3, 2000, 5), (4, 2001, 6)]
ADDRESSES = [(1, "KY"), (2, "GA"), (3, "NM"), (4, "TX")]
DEMOS = [(d, "F" if d % 2 else "M", "S", "College", 1000 * d, "Good") for d in range(1, 7)]


def run(spark, customers, store, web=(), catalog=()):
    tables = {
        "customer": spark.createDataFrame(customers, CUSTOMER),
        "customer_address": spark.createDataFrame(ADDRESSES, ADDRESS),
        "customer_demographics": spark.createDataFrame(DEMOS, DEMO),
        "date_dim": spark.createDataFrame(DATES, DATE),
        "store_sales": spark.createDataFrame(list(store), STORE),
        "web_sales": spark.createDataFrame(list(web), WEB),
        "catalog_sales": spark.createDataFrame(list(catalog), CATALOG),
    }
    return solve(spark, tables).collect()


def estimates(rows):
    return sorted(r["cd_purchase_estimate"] for r in rows)


def test_output_columns(spark):
    rows = run(spark, [(1, 1, 1)], [(2, 1)])
    assert list(rows[0].asDict()) == ["cd_gender", "cd_marital_status", "cd_education_status",
                                      "cd_purchase_estimate", "cd_credit_rating", "cnt"]


def test_customer_counted_once_per_profile(spark):
    # customers 1 and 2 share demographics 1; customer 1 bought three times in the period
    rows = run(spark, [(1, 1, 1), (2, 1, 2)], [(2, 1), (2, 1), (4, 1), (2, 2)])
    assert [(r["cd_purchase_estimate"], r["cnt"]) for r in rows] == [(1000, 2)]


def test_only_ky_ga_nm(spark):
    customers = [(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4)]
    rows = run(spark, customers, [(2, c) for c in range(1, 5)])
    assert estimates(rows) == [1000, 2000, 3000]


def test_store_sale_must_be_april_to_june_2001(spark):
    customers = [(1, 1, 1), (2, 2, 1), (3, 3, 1)]
    rows = run(spark, customers, [(1, 1), (2, 2), (3, 3)])
    assert estimates(rows) == [2000]


def test_web_buyer_in_period_is_excluded(spark):
    customers = [(1, 1, 1), (2, 2, 1), (3, 3, 1)]
    web = [(2, 2, None), (1, 3, None)]  # customer 2 in May 2001, customer 3 in March (outside)
    rows = run(spark, customers, [(2, 1), (2, 2), (2, 3)], web=web)
    assert estimates(rows) == [1000, 3000]


def test_catalog_buyer_in_period_is_excluded(spark):
    customers = [(1, 1, 1), (2, 2, 1)]
    catalog = [(4, 2, None)]  # billed to customer 2 in June 2001
    rows = run(spark, customers, [(2, 1), (2, 2)], catalog=catalog)
    assert estimates(rows) == [1000]


def test_sorted_by_profile(spark):
    customers = [(1, 5, 1), (2, 2, 1), (3, 3, 1), (4, 4, 1)]
    rows = run(spark, customers, [(2, c) for c in range(1, 5)])
    assert [(r["cd_gender"], r["cd_purchase_estimate"]) for r in rows] == [("F", 3000), ("F", 5000), ("M", 2000), ("M", 4000)]
