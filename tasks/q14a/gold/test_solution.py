"""Tests for q14a written from task.yaml: cross-channel item groups in November 2001, rolled up."""
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
    # items 1 and 2 share triple (1,1,1) sold in all channels; item 3 triple (2,2,2) only in store.
    item = spark.createDataFrame([(1, 1, 1, 1), (2, 1, 1, 1), (3, 2, 2, 2), (4, 3, 3, 3)], ITEM)
    # date 1: Nov 2001; date 2: March 1999; date 3: Nov 2002 (outside everything)
    date_dim = spark.createDataFrame([(1, 2001, 11), (2, 1999, 3), (3, 2002, 11)], "d_date_sk int, d_year int, d_moy int")
    store = sales(spark, "ss", [
        (2, 1, 1, "1.00"), (2, 3, 1, "1.00"),            # history
        (1, 2, 10, "100.00"), (1, 2, 5, "100.00"),      # Nov 2001, item 2 (cross item via shared triple)
        (1, 3, 50, "100.00"),                            # not a cross item
        (3, 1, 50, "100.00"),                            # wrong month/year
    ])
    catalog = sales(spark, "cs", [(2, 2, 1, "1.00"), (1, 1, 30, "100.00")])
    web = sales(spark, "ws", [(2, 1, 1, "1.00"), (1, 1, 1, "1.00")])
    return {"item": item, "date_dim": date_dim, "store_sales": store, "catalog_sales": catalog, "web_sales": web}


@pytest.fixture(scope="module")
def result(spark, tables):
    return solve(spark, tables)


def test_six_columns_keys_named(result):
    assert result.columns[:4] == ["channel", "i_brand_id", "i_class_id", "i_category_id"]
    assert len(result.columns) == 6


def test_detail_rows_above_average(result):
    # average over all 1999-2001 rows = 9505 / 9 = 1056.1; the web November group (1.00) is below it.
    detail = {tuple(r[:4]): (r[4], r[5]) for r in result.collect() if r[3] is not None}
    assert detail == {("store", 1, 1, 1): (D("1500.00"), 2), ("catalog", 1, 1, 1): (D("3000.00"), 1)}


def test_rollup_has_grand_total(result):
    totals = [r for r in result.collect() if r[0] is None]
    assert len(totals) == 1
    assert (totals[0][4], totals[0][5]) == (D("4500.00"), 3)


def test_rollup_row_count(result):
    # 2 detail rows, each channel has class, brand and channel subtotals (3 each), plus grand total
    assert result.count() == 2 + 2 * 3 + 1
