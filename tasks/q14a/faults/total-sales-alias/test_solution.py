from decimal import Decimal

from pyspark.sql import types as T

from solution import solve


def sales_schema(p):
    return T.StructType([
        T.StructField(f"{p}_sold_date_sk", T.IntegerType()),
        T.StructField(f"{p}_item_sk", T.IntegerType()),
        T.StructField(f"{p}_quantity", T.IntegerType()),
        T.StructField(f"{p}_list_price", T.DecimalType(7, 2)),
    ])


ITEM = T.StructType([T.StructField("i_item_sk", T.IntegerType()), T.StructField("i_brand_id", T.IntegerType()),
                     T.StructField("i_class_id", T.IntegerType()), T.StructField("i_category_id", T.IntegerType())])
DATE = T.StructType([T.StructField("d_date_sk", T.IntegerType()), T.StructField("d_year", T.IntegerType()),
                     T.StructField("d_moy", T.IntegerType())])

# 1: March 2000, 2: November 2001, 3: October 2001, 4: November 2000
DATES = [(1, 2000, 3), (2, 2001, 11), (3, 2001, 10), (4, 2000, 11)]
# items 100 and 101 share brand 1 / class 10 / category 5
ITEMS = [(100, 1, 10, 5), (101, 1, 10, 5), (200, 2, 20, 6), (300, 3, 30, 7)]


def make_tables(spark, store=(), catalog=(), web=()):
    def frame(rows, p):
        return spark.createDataFrame([(d, i, q, Decimal(price)) for d, i, q, price in rows], sales_schema(p))

    return {"store_sales": frame(store, "ss"), "catalog_sales": frame(catalog, "cs"), "web_sales": frame(web, "ws"),
            "item": spark.createDataFrame(ITEMS, ITEM), "date_dim": spark.createDataFrame(DATES, DATE)}


def history(*items):
    """One March 2000 sale (1 x 2.00) of each item in every channel: their combinations are cross-channel."""
    rows = [(1, i, 1, "2.00") for i in items]
    return {"store": list(rows), "catalog": list(rows), "web": list(rows)}


def details(rows):
    return [r for r in rows if r.i_category_id is not None]


def every_channel(spark):
    h = history(100)
    return solve(spark, make_tables(spark, store=h["store"] + [(2, 100, 1, "10.00")],
                                    catalog=h["catalog"] + [(2, 100, 1, "10.00")],
                                    web=h["web"] + [(2, 100, 1, "10.00")])).collect()


def test_output_columns(spark):
    h = history(100)
    out = solve(spark, make_tables(spark, store=h["store"] + [(2, 100, 1, "10.00")], catalog=h["catalog"], web=h["web"]))
    assert out.columns == ["channel", "i_brand_id", "i_class_id", "i_category_id", "total_sales", "number_sales"]


def test_sales_value_and_count_of_a_group(spark):
    # November 2001 in store: 3 x 4.00 (item 100) and 1 x 6.00 (item 101), one group.
    # Average (2 + 2 + 2 + 12 + 6) / 5 = 4.80 < 18.
    h = history(100)
    rows = solve(spark, make_tables(spark, store=h["store"] + [(2, 100, 3, "4.00"), (2, 101, 1, "6.00")],
                                    catalog=h["catalog"], web=h["web"])).collect()
    (row,) = details(rows)
    assert (row.channel, row.i_brand_id, row.total_sales, row.number_sales) == ("store", 1, Decimal("18.00"), 2)


def test_only_cross_channel_items(spark):
    # Item 300 sold in store and catalog but never on the web: its November sale is not reported.
    h = history(100)
    rows = solve(spark, make_tables(spark, store=h["store"] + [(1, 300, 1, "2.00"), (2, 100, 1, "10.00"), (2, 300, 1, "10.00")],
                                    catalog=h["catalog"] + [(1, 300, 1, "2.00")], web=h["web"])).collect()
    assert {(r.channel, r.i_brand_id) for r in details(rows)} == {("store", 1)}


def test_only_november_2001(spark):
    h = history(100, 200)
    store = h["store"] + [(2, 100, 1, "10.00"), (3, 200, 1, "10.00"), (4, 200, 1, "10.00")]
    rows = solve(spark, make_tables(spark, store=store, catalog=h["catalog"], web=h["web"])).collect()
    assert {(r.channel, r.i_brand_id) for r in details(rows)} == {("store", 1)}


def test_channel_labels(spark):
    assert {r.channel for r in details(every_channel(spark))} == {"store", "catalog", "web"}


def test_subtotals_follow_their_details(spark):
    keys = [(r.channel, r.i_brand_id, r.i_class_id, r.i_category_id) for r in every_channel(spark)]
    assert keys[0] == ("catalog", 1, 10, 5)
    assert keys[1] == ("catalog", 1, 10, None)
    assert keys[-1] == (None, None, None, None)


def test_rollup_has_channel_subtotals_and_one_grand_total(spark):
    keys = [(r.channel, r.i_brand_id, r.i_class_id, r.i_category_id) for r in every_channel(spark)]
    assert keys.count((None, None, None, None)) == 1
    assert [k for k in keys if k[1] is None and k[0] is not None] == [("catalog", None, None, None), ("store", None, None, None), ("web", None, None, None)]
