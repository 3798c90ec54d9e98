"""Tests for q35 written from task.yaml: customers with store and (web or catalog) purchases in 2002 Q1-Q3."""
import pytest

from solution import solve

CD = ("cd_demo_sk int, cd_gender string, cd_marital_status string, cd_education_status string, "
      "cd_purchase_estimate int, cd_credit_rating string, cd_dep_count int, cd_dep_employed_count int, "
      "cd_dep_college_count int")


@pytest.fixture(scope="module")
def tables(spark):
    customer = spark.createDataFrame([(1, 1, 1), (2, 1, 1), (3, 1, 1), (4, 1, 1)],
                                     "c_customer_sk int, c_current_addr_sk int, c_current_cdemo_sk int")
    ca = spark.createDataFrame([(1, "TN")], "ca_address_sk int, ca_state string")
    cd = spark.createDataFrame([(1, "F", "M", "College", 500, "Good", 2, 1, 0)], CD)
    date_dim = spark.createDataFrame([(1, 2002, 1), (2, 2002, 4)], "d_date_sk int, d_year int, d_qoy int")
    # customer 1: two store sales + web -> counted once; 2: store + catalog shipped to them;
    # 3: store + catalog only billed to them (shipped elsewhere) -> out; 4: store only in Q4 -> out
    ss = spark.createDataFrame([(1, 1), (1, 1), (1, 2), (1, 3), (2, 4)], "ss_sold_date_sk int, ss_customer_sk int")
    ws = spark.createDataFrame([(1, 1), (1, None)], "ws_sold_date_sk int, ws_bill_customer_sk int")
    cs = spark.createDataFrame([(1, 2, 9), (1, 9, 3), (1, 4, 4)],
                               "cs_sold_date_sk int, cs_ship_customer_sk int, cs_bill_customer_sk int")
    return {"customer": customer, "customer_address": ca, "customer_demographics": cd, "date_dim": date_dim,
            "store_sales": ss, "web_sales": ws, "catalog_sales": cs}


@pytest.fixture(scope="module")
def result(spark, tables):
    return solve(spark, tables)


def test_seventeen_columns_in_order(result):
    cols = result.columns
    assert len(cols) == 17
    assert cols[:4] == ["ca_state", "cd_gender", "cd_marital_status", "cnt1"]
    assert cols[7:9] == ["cd_dep_employed_count", "cnt2"]
    assert cols[12:14] == ["cd_dep_college_count", "cnt3"]


def test_counts_each_customer_once(result):
    rows = result.collect()
    assert len(rows) == 1
    r = rows[0]
    assert (r[0], r[1], r[2], r[3], r[8], r[13]) == ("TN", "F", "M", 2, 2, 2)


def test_dependent_statistics(result):
    r = result.collect()[0]
    assert (r[4], r[5]) == (2, 2) and r[6] == pytest.approx(2.0)
    assert (r[7], r[9], r[10]) == (1, 1, 1) and r[11] == pytest.approx(1.0)
    assert (r[12], r[14], r[15]) == (0, 0, 0) and r[16] == pytest.approx(0.0)
