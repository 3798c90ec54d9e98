"""Tests for q33 written from task.yaml: manufacturer totals over three channels."""
from decimal import Decimal as D

import pytest

from solution import solve


def sales(spark, p, addr_col, rows):
    return spark.createDataFrame([(d, i, a, D(x)) for d, i, a, x in rows],
                                 f"{p}_sold_date_sk int, {p}_item_sk int, {addr_col} int, {p}_ext_sales_price decimal(7,2)")


@pytest.fixture(scope="module")
def tables(spark):
    # manufacturer 1 makes an Electronics item (1) and a Books item (2); manufacturer 2 only Books.
    item = spark.createDataFrame([(1, 1, "Electronics"), (2, 1, "Books"), (3, 2, "Books")],
                                 "i_item_sk int, i_manufact_id int, i_category string")
    date_dim = spark.createDataFrame([(1, 1998, 5), (2, 1998, 6)], "d_date_sk int, d_year int, d_moy int")
    ca = spark.createDataFrame([(1, D("-5.00")), (2, D("-6.00"))], "ca_address_sk int, ca_gmt_offset decimal(5,2)")
    store = sales(spark, "ss", "ss_addr_sk", [(1, 1, 1, "10.00"), (1, 2, 1, "5.00"), (1, 3, 1, "99.00"),
                                              (2, 1, 1, "77.00"), (1, 1, 2, "66.00")])
    catalog = sales(spark, "cs", "cs_bill_addr_sk", [(1, 1, 1, "20.00")])
    web = sales(spark, "ws", "ws_bill_addr_sk", [(1, 2, 1, "1.00")])
    return {"item": item, "date_dim": date_dim, "customer_address": ca, "store_sales": store,
            "catalog_sales": catalog, "web_sales": web}


@pytest.fixture(scope="module")
def result(spark, tables):
    return solve(spark, tables)


def test_columns(result):
    assert result.columns == ["i_manufact_id", "total_sales"]
    assert result.schema["total_sales"].dataType.simpleString().startswith("decimal(")


def test_all_items_of_a_qualifying_manufacturer_count(result):
    # 10 + 5 (store, incl. the Books item) + 20 (catalog) + 1 (web)
    assert [tuple(r) for r in result.collect()] == [(1, D("36.00"))]
