"""Tests for q17 written from task.yaml: statistics of store sales returned and re-bought via catalog."""
import pytest

from solution import solve


@pytest.fixture(scope="module")
def tables(spark):
    date_dim = spark.createDataFrame([(1, "2001Q1"), (2, "2001Q2"), (3, "2001Q4"), (4, "2000Q4")],
                                     "d_date_sk int, d_quarter_name string")
    item = spark.createDataFrame([(1, "ITEM1", "desc one")], "i_item_sk int, i_item_id string, i_item_desc string")
    store = spark.createDataFrame([(1, "TN")], "s_store_sk int, s_state string")
    ss = spark.createDataFrame([
        (1, 1, 1, 7, 100, 2), (1, 1, 1, 7, 101, 4),   # two qualifying store sales of customer 7
        (4, 1, 1, 7, 102, 9),                        # sold outside 2001Q1
    ], "ss_sold_date_sk int, ss_item_sk int, ss_store_sk int, ss_customer_sk int, ss_ticket_number bigint, "
       "ss_quantity int")
    sr = spark.createDataFrame([
        (2, 1, 7, 100, 1), (2, 1, 7, 101, 3), (2, 1, 7, 102, 5),
    ], "sr_returned_date_sk int, sr_item_sk int, sr_customer_sk int, sr_ticket_number bigint, sr_return_quantity int")
    cs = spark.createDataFrame([(1, 1, 7, 10), (3, 1, 7, 99)],
                               "cs_sold_date_sk int, cs_item_sk int, cs_bill_customer_sk int, cs_quantity int")
    return {"date_dim": date_dim, "item": item, "store": store, "store_sales": ss, "store_returns": sr,
            "catalog_sales": cs}


@pytest.fixture(scope="module")
def row(spark, tables):
    rows = solve(spark, tables).collect()
    assert len(rows) == 1
    return rows[0]


def test_fifteen_columns_with_named_ones(spark, tables):
    cols = solve(spark, tables).columns
    assert len(cols) == 15
    assert cols[:7] == ["i_item_id", "i_item_desc", "s_state", "store_sales_quantitycount",
                        "store_sales_quantityave", "store_sales_quantitystdev", "store_sales_quantitycov"]
    assert cols[10:] == ["store_returns_quantitycov", "catalog_sales_quantitycount", "catalog_sales_quantityave",
                         "catalog_sales_quantitystdev", "catalog_sales_quantitycov"]


def test_store_sale_statistics(row):
    assert tuple(row[:5]) == ("ITEM1", "desc one", "TN", 2, 3.0)
    assert row[5] == pytest.approx(2 ** 0.5)          # sample stddev of 2 and 4
    assert row[6] == pytest.approx(2 ** 0.5 / 3.0)


def test_return_statistics(row):
    assert row[7] == 2 and row[8] == pytest.approx(2.0)
    assert row[9] == pytest.approx(2 ** 0.5)
    assert row[10] == pytest.approx(2 ** 0.5 / 2.0)


def test_catalog_stdev_column_holds_the_ratio(row):
    # one catalog quantity per matched return: stddev_samp of identical values is 0
    assert row[11] == 2 and row[12] == pytest.approx(10.0)
    assert row[13] == pytest.approx(row[14])
