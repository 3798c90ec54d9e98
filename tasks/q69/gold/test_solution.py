"""Tests for q69 written from task.yaml: store-only customers per demographic profile."""
import pytest

from solution import solve

CD = ("cd_demo_sk int, cd_gender string, cd_marital_status string, cd_education_status string, "
      "cd_purchase_estimate int, cd_credit_rating string, cd_dep_count int")


@pytest.fixture(scope="module")
def tables(spark):
    customer = spark.createDataFrame([(1, 1, 1), (2, 1, 1), (3, 1, 1), (4, 2, 1), (5, 1, 2)],
                                     "c_customer_sk int, c_current_addr_sk int, c_current_cdemo_sk int")
    ca = spark.createDataFrame([(1, "KY"), (2, "TX")], "ca_address_sk int, ca_state string")
    cd = spark.createDataFrame([(1, "F", "M", "College", 500, "Good", 1), (2, "M", "S", "Primary", 100, "Low", 0)], CD)
    date_dim = spark.createDataFrame([(1, 2001, 5), (2, 2001, 8)], "d_date_sk int, d_year int, d_moy int")
    # 1: store twice, no web/catalog -> in (once); 2: store + web in period -> out;
    # 3: store + catalog shipped to them -> out; 4: wrong state; 5: store + web outside the period -> in
    ss = spark.createDataFrame([(1, 1), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5)], "ss_sold_date_sk int, ss_customer_sk int")
    ws = spark.createDataFrame([(1, 2), (2, 5), (1, None)], "ws_sold_date_sk int, ws_bill_customer_sk int")
    cs = spark.createDataFrame([(1, 3), (1, None)], "cs_sold_date_sk int, cs_ship_customer_sk int")
    return {"customer": customer, "customer_address": ca, "customer_demographics": cd, "date_dim": date_dim,
            "store_sales": ss, "web_sales": ws, "catalog_sales": cs}


@pytest.fixture(scope="module")
def result(spark, tables):
    return solve(spark, tables)


def test_columns(result):
    assert result.columns == ["cd_gender", "cd_marital_status", "cd_education_status", "cnt1",
                              "cd_purchase_estimate", "cnt2", "cd_credit_rating", "cnt3"]


def test_profiles_and_counts(result):
    rows = [tuple(r) for r in result.collect()]
    assert rows == [("F", "M", "College", 1, 500, 1, "Good", 1), ("M", "S", "Primary", 1, 100, 1, "Low", 1)]
