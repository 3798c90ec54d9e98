"""Tests for q18 written from task.yaml: billing-demographics filters, 4-level rollup, exact decimal averages."""
from decimal import Decimal

import pytest
from pyspark.sql.types import DecimalType

from solution import solve

D = Decimal


@pytest.fixture(scope="module")
def tables(spark):
    mk = spark.createDataFrame
    date_dim = mk([(1, 1998), (2, 1999)], "d_date_sk int, d_year int")
    item = mk([(10, "ITEM_A"), (11, "ITEM_B")], "i_item_sk int, i_item_id string")
    cd = mk([(1, "F", "Unknown", 2), (2, "M", "Unknown", 5), (3, "F", "College", 1)],
            "cd_demo_sk int, cd_gender string, cd_education_status string, cd_dep_count int")
    customer = mk([(100, 3, 1000, 1, 1980), (101, 3, 1001, 5, 1970), (102, 1, 1002, 6, 1990)],
                  "c_customer_sk int, c_current_cdemo_sk int, c_current_addr_sk int, c_birth_month int, c_birth_year int")
    ca = mk([(1000, "United States", "MS", "County A"), (1001, "United States", "MS", "County A"),
             (1002, "United States", "TX", "County T")],
            "ca_address_sk int, ca_country string, ca_state string, ca_county string")
    cs = ("cs_sold_date_sk int, cs_item_sk int, cs_bill_cdemo_sk int, cs_bill_customer_sk int, cs_quantity int, "
          "cs_list_price decimal(7,2), cs_coupon_amt decimal(7,2), cs_sales_price decimal(7,2), cs_net_profit decimal(7,2)")
    catalog_sales = mk([
        (1, 10, 1, 100, 1, D("10.00"), D("0.00"), D("9.00"), D("1.00")),
        (1, 10, 1, 100, 2, D("20.00"), D("1.00"), D("18.00"), D("2.00")),
        (1, 11, 1, 100, 4, D("30.00"), D("0.00"), D("27.00"), D("3.00")),
        (1, 10, 2, 100, 9, D("99.00"), D("9.00"), D("99.00"), D("9.00")),   # male billing demographics
        (2, 10, 1, 100, 9, D("99.00"), D("9.00"), D("99.00"), D("9.00")),   # 1999
        (1, 10, 1, 101, 9, D("99.00"), D("9.00"), D("99.00"), D("9.00")),   # birth month 5
        (1, 10, 1, 102, 9, D("99.00"), D("9.00"), D("99.00"), D("9.00")),   # TX
    ], cs)
    return dict(date_dim=date_dim, item=item, customer_demographics=cd, customer=customer,
                customer_address=ca, catalog_sales=catalog_sales)


@pytest.fixture(scope="module")
def result(spark, tables):
    df = solve(spark, tables)
    return df, df.collect()


def test_columns_and_decimal_averages(result):
    df, _ = result
    assert df.columns == ["i_item_id", "ca_country", "ca_state", "ca_county"] + [f"agg{i}" for i in range(1, 8)]
    for i in range(1, 8):
        assert isinstance(df.schema[f"agg{i}"].dataType, DecimalType), f"agg{i}"


def test_detail_row_averages(result):
    _, rows = result
    a = [r for r in rows if r["i_item_id"] == "ITEM_A" and r["ca_county"] == "County A"]
    assert len(a) == 1
    r = a[0]
    assert r["agg1"] == D("1.5")
    assert r["agg2"] == D("15")
    assert r["agg3"] == D("0.5")
    assert r["agg4"] == D("13.5")
    assert r["agg5"] == D("1.5")
    assert r["agg6"] == D("1980")
    assert r["agg7"] == D("2")


def test_rollup_levels(result):
    _, rows = result
    # ITEM_A and ITEM_B each: detail, (item,country,state), (item,country), (item); plus grand total
    assert len(rows) == 2 * 4 + 1
    grand = [r for r in rows if r["i_item_id"] is None]
    assert len(grand) == 1
    assert abs(grand[0]["agg1"] - D("2.333333")) < D("0.000001")
    item_only = [r for r in rows if r["i_item_id"] == "ITEM_A" and r["ca_country"] is None]
    assert len(item_only) == 1 and item_only[0]["agg2"] == D("15")
