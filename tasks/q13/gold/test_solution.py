"""Tests for q13 written from task.yaml: one row of averages over qualifying 2001 store sales."""
from decimal import Decimal as D

import pytest

from solution import solve


@pytest.fixture(scope="module")
def tables(spark):
    ss_ddl = ("ss_sold_date_sk int, ss_store_sk int, ss_cdemo_sk int, ss_hdemo_sk int, ss_addr_sk int, "
              "ss_quantity int, ss_sales_price decimal(7,2), ss_ext_sales_price decimal(7,2), "
              "ss_ext_wholesale_cost decimal(7,2), ss_net_profit decimal(7,2)")
    ss = spark.createDataFrame([
        # demo 1 (M/Advanced/dep 3), price at the lower bound, OH with profit at the upper bound -> in
        (1, 1, 1, 1, 1, 10, D("100.00"), D("1000.00"), D("500.00"), D("200.00")),
        # demo 2 (S/College/dep 1), price 75, KY with profit 150 -> in
        (1, 1, 2, 2, 2, 20, D("75.00"), D("1500.00"), D("700.00"), D("150.00")),
        # demo 1 but price 150.01 -> out
        (1, 1, 1, 1, 1, 99, D("150.01"), D("9999.00"), D("9999.00"), D("150.00")),
        # qualifying profile but year 2000 -> out
        (2, 1, 1, 1, 1, 99, D("120.00"), D("9999.00"), D("9999.00"), D("150.00")),
        # qualifying profile but unknown store -> out
        (1, 9, 1, 1, 1, 99, D("120.00"), D("9999.00"), D("9999.00"), D("150.00")),
        # demo 2 with a TX address: profit 120 is outside 150-300 (KY group) but TX needs 100-200 -> in
        (1, 1, 2, 2, 3, 30, D("60.00"), D("500.00"), D("300.00"), D("120.00")),
    ], ss_ddl)
    store = spark.createDataFrame([(1,)], "s_store_sk int")
    date_dim = spark.createDataFrame([(1, 2001), (2, 2000)], "d_date_sk int, d_year int")
    cd = spark.createDataFrame([(1, "M", "Advanced Degree"), (2, "S", "College")],
                               "cd_demo_sk int, cd_marital_status string, cd_education_status string")
    hd = spark.createDataFrame([(1, 3), (2, 1)], "hd_demo_sk int, hd_dep_count int")
    ca = spark.createDataFrame([(1, "United States", "OH"), (2, "United States", "KY"), (3, "United States", "TX")],
                               "ca_address_sk int, ca_country string, ca_state string")
    return {"store_sales": ss, "store": store, "date_dim": date_dim, "customer_demographics": cd,
            "household_demographics": hd, "customer_address": ca}


@pytest.fixture(scope="module")
def row(spark, tables):
    rows = solve(spark, tables).collect()
    assert len(rows) == 1
    return rows[0]


def test_four_columns(spark, tables):
    assert len(solve(spark, tables).columns) == 4


def test_averages_and_sum(row):
    assert row[0] == pytest.approx(20.0)
    assert row[1] == D("1000.000000")
    assert row[2] == D("500.000000")
    assert row[3] == D("1500.00")


def test_decimal_measures_stay_decimal(spark, tables):
    types = [f.dataType.simpleString() for f in solve(spark, tables).schema.fields]
    assert types[0] == "double"
    assert all(t.startswith("decimal(") for t in types[1:])
