"""Tests for q2 written from task.yaml: pooled web+catalog weekday totals, 2001 vs 53 weeks later."""
from decimal import Decimal as D

import pytest

from solution import solve

DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]


@pytest.fixture(scope="module")
def tables(spark):
    # week 100 has two 2001 days (Sunday, Monday); week 153 has two 2002 days; week 101 (2001) has no partner.
    dates = [(1, 100, 2001, "Sunday"), (2, 100, 2001, "Monday"), (3, 153, 2002, "Sunday"),
             (4, 153, 2002, "Monday"), (5, 101, 2001, "Sunday"), (6, 152, 2002, "Sunday")]
    date_dim = spark.createDataFrame(dates, "d_date_sk int, d_week_seq int, d_year int, d_day_name string")
    web = spark.createDataFrame(
        [(1, D("10.00")), (2, D("5.00")), (3, D("10.00")), (4, D("15.00")), (5, D("7.00")), (None, D("99.00"))],
        "ws_sold_date_sk int, ws_ext_sales_price decimal(7,2)")
    cat = spark.createDataFrame(
        [(1, D("10.00")), (6, D("3.00"))], "cs_sold_date_sk int, cs_ext_sales_price decimal(7,2)")
    return {"web_sales": web, "catalog_sales": cat, "date_dim": date_dim}


@pytest.fixture(scope="module")
def result(spark, tables):
    return solve(spark, tables)


def test_schema_has_week_and_seven_decimal_ratios(result):
    fields = result.schema.fields
    assert len(fields) == 8
    assert fields[0].dataType.simpleString() == "int"
    for f in fields[1:]:
        assert f.dataType.simpleString().startswith("decimal(") and f.dataType.scale == 2


def test_ratios_pool_both_channels_and_round(result):
    rows = {tuple(r) for r in result.collect()}
    # Sunday: (10 web + 10 catalog) / 10 = 2.00; Monday: 5 / 15 = 0.33; other days have no sales -> null.
    assert rows == {(100, D("2.00"), D("0.33"), None, None, None, None, None)}


def test_only_weeks_with_a_partner_53_weeks_later(result):
    weeks = {r[0] for r in result.collect()}
    assert weeks == {100}


def test_ordered_by_week(result):
    weeks = [r[0] for r in result.collect()]
    assert weeks == sorted(weeks)
