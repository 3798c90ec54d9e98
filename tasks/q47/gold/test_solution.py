"""Tests for q47 written from task.yaml: monthly brand sales per store deviating from the yearly average."""
from decimal import Decimal as D

import pytest

from solution import solve


@pytest.fixture(scope="module")
def tables(spark):
    item = spark.createDataFrame([(1, "Books", "brandA")], "i_item_sk int, i_category string, i_brand string")
    store = spark.createDataFrame([(1, "ese", "Unknown")], "s_store_sk int, s_store_name string, s_company_name string")
    # months: Dec 1998 (key 1298), Jan..Mar 1999 (1901..1903), Jan 2000 (2001)
    date_dim = spark.createDataFrame([(1298, 1998, 12), (1901, 1999, 1), (1902, 1999, 2), (1903, 1999, 3),
                                      (2001, 2000, 1), (1511, 1995, 11)], "d_date_sk int, d_year int, d_moy int")
    # ss_ext_sales_price = 10 x ss_sales_price so a wrong price column would change every value
    rows = [(1298, 50), (1901, 100), (1902, 100), (1903, 400), (2001, 70), (1511, 999)]
    ss = spark.createDataFrame(
        [(d, 1, 1, D(p), D(p) * 10) for d, p in rows],
        "ss_sold_date_sk int, ss_item_sk int, ss_store_sk int, ss_sales_price decimal(7,2), "
        "ss_ext_sales_price decimal(7,2)")
    return {"item": item, "store": store, "date_dim": date_dim, "store_sales": ss}


@pytest.fixture(scope="module")
def result(spark, tables):
    return solve(spark, tables)


def test_columns(result):
    assert result.columns == ["i_category", "i_brand", "s_store_name", "s_company_name", "d_year", "d_moy",
                              "avg_monthly_sales", "sum_sales", "psum", "nsum"]


def test_deviating_months_with_neighbours(result):
    # 1999 monthly sales 100, 100, 400 -> average 200; all three deviate by > 10%.
    rows = sorted((r["d_moy"], r["sum_sales"], r["psum"], r["nsum"]) for r in result.collect())
    assert rows == [(1, D("100.00"), D("50.00"), D("100.00")),
                    (2, D("100.00"), D("100.00"), D("400.00")),
                    (3, D("400.00"), D("100.00"), D("70.00"))]


def test_average_is_the_yearly_mean(result):
    assert {r["avg_monthly_sales"] for r in result.collect()} == {D("200")}
