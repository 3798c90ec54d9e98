"""Tests for q22 written from task.yaml: average quantity on hand, rolled up product > brand > class > category."""
import pytest
from pyspark.sql.types import DoubleType, IntegerType, StringType, StructField, StructType

from solution import solve

INV = StructType([
    StructField("inv_date_sk", IntegerType(), False), StructField("inv_item_sk", IntegerType(), False),
    StructField("inv_warehouse_sk", IntegerType(), False), StructField("inv_quantity_on_hand", IntegerType()),
])
DATE = StructType([StructField("d_date_sk", IntegerType(), False), StructField("d_month_seq", IntegerType())])
ITEM = StructType([
    StructField("i_item_sk", IntegerType(), False), StructField("i_brand", StringType()), StructField("i_class", StringType()),
    StructField("i_category", StringType()), StructField("i_product_name", StringType()),
])
WH = StructType([StructField("w_warehouse_sk", IntegerType(), False)])


def _tables(spark, inv):
    return {
        "inventory": spark.createDataFrame(inv, INV),
        "date_dim": spark.createDataFrame([(1, 1199), (2, 1200), (3, 1211), (4, 1212)], DATE),
        "item": spark.createDataFrame([(1, "b1", "c1", "cat1", "p1"), (2, "b1", "c1", "cat1", "p2")], ITEM),
        "warehouse": spark.createDataFrame([(1,)], WH),
    }


@pytest.fixture(scope="module")
def result(spark):
    inv = [
        (2, 1, 1, 10), (3, 1, 1, 20),       # p1: avg 15 (both ends of the month range)
        (2, 2, 1, 30),                      # p2: 30
        (1, 1, 1, 1000), (4, 2, 1, 1000),   # outside months 1200..1211
        (2, 1, 9, 1000),                    # unknown warehouse: not counted
    ]
    return solve(spark, _tables(spark, inv))


def test_stated_columns_first_and_average_is_double(result):
    assert result.columns[:4] == ["i_product_name", "i_brand", "i_class", "i_category"]
    assert len(result.columns) == 5
    assert isinstance(result.schema.fields[4].dataType, DoubleType)


def test_rollup_levels_and_averages_over_records(result):
    rows = {tuple(r[:4]): r[4] for r in result.collect()}
    assert rows[("p1", "b1", "c1", "cat1")] == pytest.approx(15.0)
    assert rows[("p2", "b1", "c1", "cat1")] == pytest.approx(30.0)
    assert rows[("p1", None, None, None)] == pytest.approx(15.0)
    assert rows[("p1", "b1", None, None)] == pytest.approx(15.0)
    # the grand total averages the three records (20), not the two product averages (22.5)
    assert rows[(None, None, None, None)] == pytest.approx(20.0)
    assert len(rows) == 2 * 4 + 1


def test_ordered_by_average_ascending(result):
    avgs = [r[4] for r in result.collect()]
    assert avgs == sorted(avgs)


def test_limit_100(spark):
    t = _tables(spark, [])
    t["item"] = spark.createDataFrame([(i, f"b{i}", "c", "cat", f"p{i}") for i in range(60)], ITEM)
    t["inventory"] = spark.createDataFrame([(2, i, 1, i) for i in range(60)], INV)
    assert solve(spark, t).count() == 100
