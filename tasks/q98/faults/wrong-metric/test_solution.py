import datetime
from decimal import Decimal

from pyspark.sql import types as T

from solution import solve

SALES_SCHEMA = T.StructType([
    T.StructField("ss_sold_date_sk", T.IntegerType()),
    T.StructField("ss_item_sk", T.IntegerType()),
    T.StructField("ss_ext_sales_price", T.DecimalType(7, 2)),
    T.StructField("ss_ext_list_price", T.DecimalType(7, 2)),
])
ITEM_SCHEMA = T.StructType([
    T.StructField("i_item_sk", T.IntegerType()),
    T.StructField("i_item_id", T.StringType()),
    T.StructField("i_item_desc", T.StringType()),
    T.StructField("i_current_price", T.DecimalType(7, 2)),
    T.StructField("i_class", T.StringType()),
    T.StructField("i_category", T.StringType()),
])
DATE_SCHEMA = T.StructType([T.StructField("d_date_sk", T.IntegerType()), T.StructField("d_date", T.DateType())])

DAYS = [
    (10, datetime.date(1999, 2, 21)),
    (11, datetime.date(1999, 2, 22)),
    (12, datetime.date(1999, 3, 1)),
    (13, datetime.date(1999, 3, 24)),
    (14, datetime.date(1999, 3, 25)),
]


def make_tables(spark, items, sales):
    """sales: (date_sk, item_sk, list price); the sales price is the list price less 10 %."""
    rows = [(d, i, (Decimal(p) * Decimal("0.9")).quantize(Decimal("0.01")), Decimal(p)) for d, i, p in sales]
    return {
        "store_sales": spark.createDataFrame(rows, SALES_SCHEMA),
        "item": spark.createDataFrame(items, ITEM_SCHEMA),
        "date_dim": spark.createDataFrame(DAYS, DATE_SCHEMA),
    }


ITEMS = [
    (1, "AAAA", "novel", Decimal("12.00"), "fiction", "Books"),
    (2, "BBBB", "thriller", Decimal("9.00"), "fiction", "Books"),
    (3, "CCCC", "atlas", Decimal("30.00"), "reference", "Books"),
    (4, "DDDD", "football", Decimal("25.00"), "ball", "Sports"),
    (5, "EEEE", "lamp", Decimal("40.00"), "lighting", "Home"),
    (6, "FFFF", "guitar", Decimal("200.00"), "strings", "Music"),
]


def test_output_columns_and_types(spark):
    out = solve(spark, make_tables(spark, ITEMS, [(12, 1, "10.00")]))
    assert out.columns == ["i_item_desc", "i_category", "i_class", "i_current_price", "itemrevenue", "revenueratio"]
    types = dict((f.name, f.dataType) for f in out.schema.fields)
    assert isinstance(types["itemrevenue"], T.DecimalType)
    assert isinstance(types["revenueratio"], T.DecimalType)


def test_item_revenue_is_summed_per_item(spark):
    sales = [(12, 1, "10.00"), (12, 1, "20.00"), (11, 2, "5.00")]
    out = solve(spark, make_tables(spark, ITEMS, sales))
    revenue = {r["i_item_desc"]: r["itemrevenue"] for r in out.collect()}
    assert revenue == {"novel": Decimal("30.00"), "thriller": Decimal("5.00")}


def test_ratio_is_share_of_class(spark):
    sales = [(12, 1, "30.00"), (12, 2, "10.00"), (12, 3, "60.00")]
    out = solve(spark, make_tables(spark, ITEMS, sales))
    ratio = {r["i_item_desc"]: r["revenueratio"] for r in out.collect()}
    assert ratio["novel"] == Decimal("75")
    assert ratio["thriller"] == Decimal("25")
    assert ratio["atlas"] == Decimal("100")


def test_only_sports_books_home(spark):
    sales = [(12, 1, "10.00"), (12, 4, "10.00"), (12, 5, "10.00"), (12, 6, "10.00")]
    out = solve(spark, make_tables(spark, ITEMS, sales))
    assert sorted(r["i_category"] for r in out.collect()) == ["Books", "Home", "Sports"]


def test_date_window_is_inclusive(spark):
    sales = [(10, 1, "10.00"), (11, 2, "10.00"), (13, 3, "10.00"), (14, 4, "10.00")]
    out = solve(spark, make_tables(spark, ITEMS, sales))
    assert sorted(r["i_item_desc"] for r in out.collect()) == ["atlas", "thriller"]


def test_sorted_by_category_then_class(spark):
    sales = [(12, 5, "1.00"), (12, 4, "1.00"), (12, 3, "1.00"), (12, 1, "1.00")]
    out = solve(spark, make_tables(spark, ITEMS, sales))
    assert [(r["i_category"], r["i_class"]) for r in out.collect()] == [
        ("Books", "fiction"), ("Books", "reference"), ("Home", "lighting"), ("Sports", "ball"),
    ]
