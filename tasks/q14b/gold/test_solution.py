"""Tests for q14b written from task.yaml: this year's week vs last year's week for store groups."""
from decimal import Decimal as D

import pytest

from solution import solve

ITEM = "i_item_sk int, i_brand_id int, i_class_id int, i_category_id int"


def sales(spark, p, rows):
    """rows: (sold_date_sk, item_sk, quantity, list_price)"""
    return spark.createDataFrame(
        [(d, i, q, D(lp)) for d, i, q, lp in rows],
        f"{p}_sold_date_sk int, {p}_item_sk int, {p}_quantity int, {p}_list_price decimal(7,2)")


@pytest.fixture(scope="module")
def tables(spark):
    item = spark.createDataFrame([(1, 1, 1, 1), (2, 2, 2, 2)], ITEM)
    # 10: 2000-12-11 (week 500), 11: 2000-12-12 (week 500), 20: 1999-12-11 (week 448), 30: 1999-03-01
    date_dim = spark.createDataFrame(
        [(10, 2000, 12, 11, 500), (11, 2000, 12, 12, 500), (20, 1999, 12, 11, 448), (30, 1999, 3, 1, 400)],
        "d_date_sk int, d_year int, d_moy int, d_dom int, d_week_seq int")
    store = sales(spark, "ss", [
        (30, 1, 1, "1.00"), (30, 2, 1, "1.00"),
        (10, 1, 2, "100.00"), (11, 1, 1, "100.00"),   # this year's week, group (1,1,1): 300.00 over 2 rows
        (20, 1, 4, "50.00"),                          # last year's week: 200.00
        (10, 2, 9, "100.00"),                         # group (2,2,2) only this year (and not cross-channel)
    ])
    catalog = sales(spark, "cs", [(30, 1, 1, "1.00")])
    web = sales(spark, "ws", [(30, 1, 1, "1.00")])
    return {"item": item, "date_dim": date_dim, "store_sales": store, "catalog_sales": catalog, "web_sales": web}


@pytest.fixture(scope="module")
def result(spark, tables):
    return solve(spark, tables)


def test_twelve_columns_this_year_then_last_year(result):
    assert len(result.columns) == 12
    assert result.columns[:4] == ["channel", "i_brand_id", "i_class_id", "i_category_id"]
    assert result.columns[6:10] == ["channel", "i_brand_id", "i_class_id", "i_category_id"]


def test_matched_group_values(result):
    rows = [tuple(r) for r in result.collect()]
    assert rows == [("store", 1, 1, 1, D("300.00"), 2, "store", 1, 1, 1, D("200.00"), 1)]
