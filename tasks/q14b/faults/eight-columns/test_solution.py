from decimal import Decimal

from pyspark.sql import types as T

from solution import solve

DATE = T.StructType([T.StructField(n, T.IntegerType()) for n in ("d_date_sk", "d_year", "d_moy", "d_dom", "d_week_seq")])
ITEM = T.StructType([T.StructField(n, T.IntegerType()) for n in ("i_item_sk", "i_brand_id", "i_class_id", "i_category_id")])

HISTORY, TY_DAY, TY_WEEK, LY_DAY, LY_WEEK = 1, 2, 3, 4, 5
DATES = [
    (HISTORY, 1999, 6, 1, 20),
    (TY_DAY, 2000, 12, 11, 100),
    (TY_WEEK, 2000, 12, 13, 100),
    (LY_DAY, 1999, 12, 11, 48),
    (LY_WEEK, 1999, 12, 9, 48),
]
# items 100 and 101 share brand 1 / class 10 / category 5
ITEMS = [(100, 1, 10, 5), (101, 1, 10, 5), (200, 2, 20, 6), (300, 3, 30, 7)]


def sales_schema(p):
    return T.StructType([
        T.StructField(f"{p}_sold_date_sk", T.IntegerType()),
        T.StructField(f"{p}_item_sk", T.IntegerType()),
        T.StructField(f"{p}_quantity", T.IntegerType()),
        T.StructField(f"{p}_list_price", T.DecimalType(7, 2)),
    ])


def build(spark, store, catalog, web):
    def frame(rows, p):
        return spark.createDataFrame([(d, i, q, Decimal(v)) for d, i, q, v in rows], sales_schema(p))

    return {"store_sales": frame(store, "ss"), "catalog_sales": frame(catalog, "cs"), "web_sales": frame(web, "ws"),
            "item": spark.createDataFrame(ITEMS, ITEM), "date_dim": spark.createDataFrame(DATES, DATE)}


def history(*items):
    """A 1999 sale (1 x 2.00) of each item in each channel, so the items count as cross-channel."""
    return [(HISTORY, i, 1, "2.00") for i in items]


def brands(rows):
    return {r.i_brand_id for r in rows}


def test_output_columns(spark):
    store = history(100) + [(TY_DAY, 100, 1, "10.00"), (LY_DAY, 100, 1, "10.00")]
    out = solve(spark, build(spark, store, history(100), history(100)))
    assert out.columns == ["channel", "i_brand_id", "i_class_id", "i_category_id",
                           "ty_sales", "ty_number_sales", "ly_sales", "ly_number_sales"]


def test_this_year_next_to_last_year(spark):
    # This year 2 x 3.00 + 1 x 4.00 = 10.00 in 2 sales; last year 12.00 in 1 sale. Average 28 / 6 = 4.67.
    store = history(100) + [(TY_DAY, 100, 2, "3.00"), (TY_DAY, 101, 1, "4.00"), (LY_DAY, 100, 1, "12.00")]
    (row,) = solve(spark, build(spark, store, history(100), history(100))).collect()
    assert (row.ty_sales, row.ty_number_sales, row.ly_sales, row.ly_number_sales) == (Decimal("10.00"), 2, Decimal("12.00"), 1)


def test_only_cross_channel_items(spark):
    # Item 300 sold in store and catalog in 1999 but never on the web.
    store = history(100, 300) + [(TY_DAY, 100, 1, "10.00"), (LY_DAY, 100, 1, "10.00"),
                                 (TY_DAY, 300, 1, "10.00"), (LY_DAY, 300, 1, "10.00")]
    rows = solve(spark, build(spark, store, history(100, 300), history(100))).collect()
    assert brands(rows) == {1}


def test_only_december_11th_counts(spark):
    # Item 200 sold on 2000-12-13 and 1999-12-09, not on the 11th: not compared.
    store = history(100, 200) + [(TY_DAY, 100, 1, "10.00"), (LY_DAY, 100, 1, "10.00"),
                                 (TY_WEEK, 200, 1, "10.00"), (LY_WEEK, 200, 1, "10.00")]
    rows = solve(spark, build(spark, store, history(100, 200), history(100, 200))).collect()
    assert brands(rows) == {1}


def test_groups_below_the_average_are_dropped(spark):
    # Average (6 x 2 + 10 + 10 + 1 + 1) / 10 = 3.40: item 200's 1.00 per year is below it.
    store = history(100, 200) + [(TY_DAY, 100, 1, "10.00"), (LY_DAY, 100, 1, "10.00"),
                                 (TY_DAY, 200, 1, "1.00"), (LY_DAY, 200, 1, "1.00")]
    rows = solve(spark, build(spark, store, history(100, 200), history(100, 200))).collect()
    assert brands(rows) == {1}


def test_only_groups_sold_in_both_years(spark):
    store = history(100, 200) + [(TY_DAY, 100, 1, "10.00"), (LY_DAY, 100, 1, "10.00"), (TY_DAY, 200, 1, "10.00")]
    rows = solve(spark, build(spark, store, history(100, 200), history(100, 200))).collect()
    assert brands(rows) == {1}


def test_store_rows_ordered_by_brand(spark):
    store = history(100, 200) + [(TY_DAY, 200, 1, "10.00"), (LY_DAY, 200, 1, "10.00"),
                                 (TY_DAY, 100, 1, "10.00"), (LY_DAY, 100, 1, "10.00")]
    rows = solve(spark, build(spark, store, history(100, 200), history(100, 200))).collect()
    assert [(r.channel, r.i_brand_id) for r in rows] == [("store", 1), ("store", 2)]
