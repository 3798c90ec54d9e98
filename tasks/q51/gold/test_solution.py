"""Tests for q51 written from task.yaml: daily running totals, full outer alignment, carried-forward maxima."""
import datetime
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType

from solution import solve

D = Decimal
DAY = [datetime.date(2000, 1, d) for d in range(1, 6)]


@pytest.fixture(scope="module")
def rows(spark):
    mk = spark.createDataFrame
    date_dim = mk([(i + 1, DAY[i], 1200) for i in range(5)] + [(9, datetime.date(2001, 1, 1), 1212)],
                  "d_date_sk int, d_date date, d_month_seq int")
    web_sales = mk([(1, 7, D("5.00")), (1, 7, D("1.00")), (3, 7, D("10.00")), (9, 7, D("500.00"))],
                   "ws_sold_date_sk int, ws_item_sk int, ws_sales_price decimal(7,2)")
    store_sales = mk([(2, 7, D("8.00")), (4, 7, D("1.00")), (1, None, D("99.00"))],
                     "ss_sold_date_sk int, ss_item_sk int, ss_sales_price decimal(7,2)")
    df = solve(spark, dict(date_dim=date_dim, web_sales=web_sales, store_sales=store_sales))
    return df, df.collect()


def test_columns(rows):
    df, _ = rows
    assert df.columns == ["item_sk", "d_date", "web_sales", "store_sales", "web_cumulative", "store_cumulative"]
    assert isinstance(df.schema["web_cumulative"].dataType, DecimalType)


def test_rows_where_web_leads(rows):
    _, got = rows
    # day1: web 6, store none -> store_cumulative NULL, dropped
    # day2: store 8 (web carried 6) -> 6 > 8 false; day3: web 16 > 8 true; day4: store 9, web carried 16 > 9 true
    assert [(r["item_sk"], r["d_date"]) for r in got] == [(7, DAY[2]), (7, DAY[3])]
    d3, d4 = got
    assert (d3["web_sales"], d3["store_sales"], d3["web_cumulative"], d3["store_cumulative"]) == (D("16.00"), None, D("16.00"), D("8.00"))
    assert (d4["web_sales"], d4["store_sales"], d4["web_cumulative"], d4["store_cumulative"]) == (None, D("9.00"), D("16.00"), D("9.00"))
