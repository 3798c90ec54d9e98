from decimal import Decimal

from pyspark.sql import types as T

from solution import solve

ITEM = T.StructType([
    T.StructField("i_item_sk", T.IntegerType()),
    T.StructField("i_manufact_id", T.IntegerType()),
    T.StructField("i_category", T.StringType()),
])
DATE = T.StructType([
    T.StructField("d_date_sk", T.IntegerType()),
    T.StructField("d_year", T.IntegerType()),
    T.StructField("d_moy", T.IntegerType()),
])
ADDRESS = T.StructType([
    T.StructField("ca_address_sk", T.IntegerType()),
    T.StructField("ca_gmt_offset", T.DecimalType(5, 2)),
])


def sales_schema(prefix, addr_col):
    return T.StructType([
        T.StructField(f"{prefix}_item_sk", T.IntegerType()),
        T.StructField(f"{prefix}_sold_date_sk", T.IntegerType()),
        T.StructField(addr_col, T.IntegerType()),
        T.StructField(f"{prefix}_ext_sales_price", T.DecimalType(7, 2)),
    ])


def make_tables(spark, store=(), catalog=(), web=(), items=None, dates=None, addresses=None):
    """Sales rows are (item, date, address, amount as a string)."""
    items = items if items is not None else [(1, 100, "Electronics"), (2, 200, "Electronics"), (3, 300, "Electronics")]
    dates = dates if dates is not None else [(10, 1998, 5), (11, 1998, 6), (12, 1999, 5)]
    addresses = addresses if addresses is not None else [(1, Decimal("-5.00")), (2, Decimal("-6.00"))]

    def sales(rows, prefix, addr_col):
        return spark.createDataFrame([(i, d, a, Decimal(x)) for i, d, a, x in rows], sales_schema(prefix, addr_col))

    return {
        "item": spark.createDataFrame(items, ITEM),
        "date_dim": spark.createDataFrame(dates, DATE),
        "customer_address": spark.createDataFrame(addresses, ADDRESS),
        "store_sales": sales(store, "ss", "ss_addr_sk"),
        "catalog_sales": sales(catalog, "cs", "cs_bill_addr_sk"),
        "web_sales": sales(web, "ws", "ws_bill_addr_sk"),
    }


def test_output_columns_and_types(spark):
    out = solve(spark, make_tables(spark, store=[(1, 10, 1, "5.00")]))
    assert out.columns == ["i_manufact_id", "total_sales"]
    assert dict(out.dtypes) == {"i_manufact_id": "int", "total_sales": "decimal(17,2)"}


def test_total_adds_all_three_channels(spark):
    tables = make_tables(
        spark,
        store=[(1, 10, 1, "10.00")],
        catalog=[(1, 10, 1, "20.00")],
        web=[(1, 10, 1, "5.00"), (2, 10, 1, "3.00")],
    )
    rows = solve(spark, tables).collect()
    assert [(r.i_manufact_id, r.total_sales) for r in rows] == [(200, Decimal("3.00")), (100, Decimal("35.00"))]


def test_only_may_1998_counts(spark):
    tables = make_tables(spark, store=[(1, 10, 1, "10.00"), (1, 11, 1, "40.00")], catalog=[(1, 12, 1, "80.00")])
    rows = solve(spark, tables).collect()
    assert [(r.i_manufact_id, r.total_sales) for r in rows] == [(100, Decimal("10.00"))]


def test_only_gmt_minus_5_customers_count(spark):
    tables = make_tables(spark, store=[(1, 10, 1, "10.00")], web=[(1, 10, 2, "7.00")])
    rows = solve(spark, tables).collect()
    assert [(r.i_manufact_id, r.total_sales) for r in rows] == [(100, Decimal("10.00"))]


def test_manufacturer_without_electronics_is_left_out(spark):
    items = [(1, 100, "Electronics"), (4, 400, "Books")]
    tables = make_tables(spark, store=[(1, 10, 1, "10.00"), (4, 10, 1, "60.00")], items=items)
    rows = solve(spark, tables).collect()
    assert [r.i_manufact_id for r in rows] == [100]


def test_smallest_total_first(spark):
    tables = make_tables(spark, store=[(1, 10, 1, "30.00"), (2, 10, 1, "10.00"), (3, 10, 1, "20.00")])
    rows = solve(spark, tables).collect()
    assert [r.i_manufact_id for r in rows] == [200, 300, 100]
