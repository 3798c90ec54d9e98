"""Tests for q87 written from task.yaml: distinct (last, first, date) tuples by name, store tuples absent from catalog and web."""
import datetime

import pytest

from solution import solve

D1 = datetime.date(2001, 1, 5)
D2 = datetime.date(2001, 1, 6)
D3 = datetime.date(2001, 1, 7)
OUT = datetime.date(2002, 1, 5)


def _tables(spark, store, catalog, web):
    mk = spark.createDataFrame
    date_dim = mk([(1, D1, 1200), (2, D2, 1205), (3, D3, 1211), (4, OUT, 1212)],
                  "d_date_sk int, d_date date, d_month_seq int")
    customer = mk([(1, "Ann", "Lee"), (2, "Bob", "Ray"), (3, "Ann", "Lee"), (4, "Cy", "Fox")],
                  "c_customer_sk int, c_first_name string, c_last_name string")
    return dict(
        date_dim=date_dim,
        customer=customer,
        store_sales=mk(store, "ss_sold_date_sk int, ss_customer_sk int"),
        catalog_sales=mk(catalog, "cs_sold_date_sk int, cs_bill_customer_sk int"),
        web_sales=mk(web, "ws_sold_date_sk int, ws_bill_customer_sk int"),
    )


def _count(spark, tables):
    df = solve(spark, tables)
    rows = df.collect()
    assert len(df.columns) == 1
    assert len(rows) == 1
    return rows[0][0]


def test_counts_store_only_tuples(spark):
    store = [(1, 1), (1, 1), (2, 2), (3, 4), (4, 4)]
    catalog = [(2, 2)]
    web = [(3, 4)]
    # store tuples: (Lee,Ann,D1) (Ray,Bob,D2) (Fox,Cy,D3); D2 in catalog, D3 in web; OUT month excluded
    assert _count(spark, _tables(spark, store, catalog, web)) == 1


def test_customers_matched_by_name_not_key(spark):
    # customers 1 and 3 share the name Ann Lee: the catalog purchase by 3 removes the store tuple of 1
    assert _count(spark, _tables(spark, [(1, 1), (2, 2)], [(1, 3)], [])) == 1


def test_duplicates_counted_once(spark):
    assert _count(spark, _tables(spark, [(1, 1), (1, 1), (1, 3)], [], [])) == 1
