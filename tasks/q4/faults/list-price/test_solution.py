from decimal import Decimal

import pytest
from pyspark.sql import types as T

from solution import solve

MONEY = T.DecimalType(7, 2)
CUSTOMER = T.StructType([T.StructField("c_customer_sk", T.IntegerType())] + [
    T.StructField(name, T.StringType()) for name in ("c_customer_id", "c_first_name", "c_last_name", "c_preferred_cust_flag",
                                                     "c_birth_country", "c_login", "c_email_address")])
DATE = T.StructType([T.StructField("d_date_sk", T.IntegerType()), T.StructField("d_year", T.IntegerType())])


def sales_schema(prefix, customer_columns):
    fields = [T.StructField(f"{prefix}_sold_date_sk", T.IntegerType())]
    fields += [T.StructField(c, T.IntegerType()) for c in customer_columns]
    fields += [T.StructField(f"{prefix}_{c}", MONEY) for c in ("list_price", "wholesale_cost", "sales_price", "ext_list_price",
                                                                "ext_wholesale_cost", "ext_discount_amt", "ext_sales_price")]
    return T.StructType(fields)


CHANNELS = {
    "store_sales": ("ss", ["ss_customer_sk"]),
    "catalog_sales": ("cs", ["cs_bill_customer_sk", "cs_ship_customer_sk"]),
    "web_sales": ("ws", ["ws_bill_customer_sk", "ws_ship_customer_sk"]),
}
YEAR_KEY = {2000: 1, 2001: 2, 2002: 3}


def row(customer, year, amount, list_price=None, ext_list=None, ext_sales=None, shipped=True):
    """A sale whose spending is `amount` when list and sales prices agree; list_price / ext_list /
    ext_sales override the list price, the extended list price and the extended sales price."""
    amount = Decimal(str(amount))
    lp = Decimal(str(list_price)) if list_price is not None else amount
    el = Decimal(str(ext_list)) if ext_list is not None else amount
    es = Decimal(str(ext_sales)) if ext_sales is not None else amount
    zero = Decimal("0.00")
    return (customer, year, lp, zero, es, el, zero, zero, es)


def build(spark, store, catalog, web, customers=(1, 2, 3)):
    people = [(k, f"AAAA{k}", f"First{k}", f"Last{k}", "N", "CHILE", f"user{k}", f"user{k}@example.com") for k in customers]
    tables = {
        "customer": spark.createDataFrame(people, CUSTOMER),
        "date_dim": spark.createDataFrame([(v, y) for y, v in YEAR_KEY.items()], DATE),
    }
    for table, rows in (("store_sales", store), ("catalog_sales", catalog), ("web_sales", web)):
        prefix, keys = CHANNELS[table]
        data = [(YEAR_KEY[y], *([c] * len(keys)), *money) for (c, y, *money) in rows]
        tables[table] = spark.createDataFrame(data, sales_schema(prefix, keys))
    return tables


def ids(df):
    return [r[0] for r in df.collect()]


def test_output_columns(spark):
    store = [row(1, 2001, 10), row(1, 2002, 10)]
    catalog = [row(1, 2001, 10), row(1, 2002, 30)]
    web = [row(1, 2001, 10), row(1, 2002, 10)]
    out = solve(spark, build(spark, store, catalog, web))
    assert out.columns == ["customer_id", "customer_first_name", "customer_last_name", "customer_preferred_cust_flag",
                           "customer_birth_country", "customer_login", "customer_email_address"]


def test_growth_uses_the_list_price_of_store_sales(spark):
    # Customer 1's store spending is (list price - wholesale - discount + sales) / 2:
    # 2001 (10 + 10) / 2 = 10, 2002 (10 + 20) / 2 = 15: 1.5x, below catalog 2x.
    store = [row(1, 2001, 10, list_price=10, ext_list=20, ext_sales=10), row(1, 2002, 15, list_price=10, ext_list=40, ext_sales=20)]
    catalog = [row(1, 2001, 10), row(1, 2002, 20)]
    web = [row(1, 2001, 10), row(1, 2002, 10)]
    assert ids(solve(spark, build(spark, store, catalog, web))) == ["AAAA1"]


def test_growth_uses_the_list_price_of_catalog_sales(spark):
    # Catalog 2001 (10 + 10) / 2 = 10, 2002 (30 + 30) / 2 = 30: 3x, above store 2.5x and web 1x.
    store = [row(1, 2001, 10), row(1, 2002, 25)]
    catalog = [row(1, 2001, 10, list_price=10, ext_list=20, ext_sales=10), row(1, 2002, 30, list_price=30, ext_list=30, ext_sales=30)]
    web = [row(1, 2001, 10), row(1, 2002, 10)]
    assert ids(solve(spark, build(spark, store, catalog, web))) == ["AAAA1"]


def test_catalog_growth_must_beat_store_and_web(spark):
    # 1: catalog 2x, store 1x, web 1x -> kept. 2: catalog 1.5x < store 2x -> dropped.
    # 3: catalog 1.5x < web 3x -> dropped.
    store = [row(1, 2001, 10), row(1, 2002, 10), row(2, 2001, 10), row(2, 2002, 20), row(3, 2001, 10), row(3, 2002, 10)]
    catalog = [row(1, 2001, 10), row(1, 2002, 20), row(2, 2001, 10), row(2, 2002, 15), row(3, 2001, 10), row(3, 2002, 15)]
    web = [row(1, 2001, 10), row(1, 2002, 10), row(2, 2001, 10), row(2, 2002, 10), row(3, 2001, 10), row(3, 2002, 30)]
    assert ids(solve(spark, build(spark, store, catalog, web))) == ["AAAA1"]


def test_equal_growth_counts(spark):
    # Catalog 2x and store 2x: catalog growth is at least the store growth, web 1x.
    store = [row(1, 2001, 10), row(1, 2002, 20)]
    catalog = [row(1, 2001, 10), row(1, 2002, 20)]
    web = [row(1, 2001, 10), row(1, 2002, 10)]
    assert ids(solve(spark, build(spark, store, catalog, web))) == ["AAAA1"]


def test_customer_needs_every_channel_in_both_years(spark):
    # Customer 2 has no 2002 web sale.
    store = [row(k, y, 10) for k in (1, 2) for y in (2001, 2002)]
    catalog = [row(k, 2001, 10) for k in (1, 2)] + [row(k, 2002, 20) for k in (1, 2)]
    web = [row(1, 2001, 10), row(1, 2002, 10), row(2, 2001, 10)]
    assert ids(solve(spark, build(spark, store, catalog, web))) == ["AAAA1"]


def test_2001_spending_must_be_positive(spark):
    # Customer 2 spent nothing in stores in 2001.
    store = [row(1, 2001, 10), row(1, 2002, 10), row(2, 2001, 0), row(2, 2002, 10)]
    catalog = [row(k, 2001, 10) for k in (1, 2)] + [row(k, 2002, 20) for k in (1, 2)]
    web = [row(k, y, 10) for k in (1, 2) for y in (2001, 2002)]
    assert ids(solve(spark, build(spark, store, catalog, web))) == ["AAAA1"]


def test_sorted_by_customer_id(spark):
    store = [row(k, y, 10) for k in (3, 1, 2) for y in (2001, 2002)]
    catalog = [row(k, 2001, 10) for k in (3, 1, 2)] + [row(k, 2002, 20) for k in (3, 1, 2)]
    web = [row(k, y, 10) for k in (3, 1, 2) for y in (2001, 2002)]
    assert ids(solve(spark, build(spark, store, catalog, web))) == ["AAAA1", "AAAA2", "AAAA3"]
