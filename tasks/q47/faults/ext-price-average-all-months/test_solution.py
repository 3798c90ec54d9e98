from decimal import Decimal

from pyspark.sql import types as T

from solution import solve

SALES = T.StructType([
    T.StructField("ss_sold_date_sk", T.IntegerType()),
    T.StructField("ss_item_sk", T.IntegerType()),
    T.StructField("ss_store_sk", T.IntegerType()),
    T.StructField("ss_quantity", T.IntegerType()),
    T.StructField("ss_sales_price", T.DecimalType(7, 2)),
    T.StructField("ss_ext_sales_price", T.DecimalType(7, 2)),
])
ITEM = T.StructType([
    T.StructField("i_item_sk", T.IntegerType()),
    T.StructField("i_category", T.StringType()),
    T.StructField("i_brand", T.StringType()),
])
STORE = T.StructType([
    T.StructField("s_store_sk", T.IntegerType()),
    T.StructField("s_store_name", T.StringType()),
    T.StructField("s_company_name", T.StringType()),
])
DATE = T.StructType([
    T.StructField("d_date_sk", T.IntegerType()),
    T.StructField("d_year", T.IntegerType()),
    T.StructField("d_moy", T.IntegerType()),
])

ALL_MONTHS = [(1998, 11), (1998, 12)] + [(1999, m) for m in range(1, 13)] + [(2000, 1), (2000, 2)]


def date_key(y, m):
    return y * 100 + m


def line(y, m, price, qty=1, store=1, item=1):
    """One sale; the extended price is quantity x unit price."""
    p = Decimal(price)
    return (date_key(y, m), item, store, qty, p, p * qty)


def build(spark, sales):
    return {
        "store_sales": spark.createDataFrame(sales, SALES),
        "item": spark.createDataFrame([(1, "Music", "brandA")], ITEM),
        "store": spark.createDataFrame([(1, "ought", "Unknown"), (2, "able", "Unknown")], STORE),
        "date_dim": spark.createDataFrame([(date_key(y, m), y, m) for y, m in ALL_MONTHS], DATE),
    }


def year_of(base, special=None, edge=None, store=1):
    """A sale of `base` in every month of 1999 (with {month: price} overrides), and `edge` in
    December 1998 and January 2000 when given."""
    special = special or {}
    sales = [line(1999, m, special.get(m, base), store=store) for m in range(1, 13)]
    if edge is not None:
        sales += [line(1998, 12, edge, store=store), line(2000, 1, edge, store=store)]
    return sales


def test_output_columns(spark):
    out = solve(spark, build(spark, year_of("100.00", {6: "220.00"}, edge="110.00")))
    assert out.columns == ["i_category", "i_brand", "s_store_name", "s_company_name", "d_year", "d_moy",
                           "avg_monthly_sales", "sum_sales", "psum", "nsum"]


def test_monthly_sales_are_the_extended_price(spark):
    # March 2 x 50, April 1 x 100, May 4 x 100: monthly sales 100, 100, 400, average 200.
    sales = [line(1999, 3, "50.00", qty=2), line(1999, 4, "100.00"), line(1999, 5, "100.00", qty=4)]
    rows = solve(spark, build(spark, sales)).collect()
    assert [(r.d_moy, r.sum_sales, r.avg_monthly_sales, r.psum, r.nsum) for r in rows] == [
        (4, Decimal("100.00"), Decimal("200.000000"), Decimal("100.00"), Decimal("400.00"))]


def test_average_is_over_all_months_of_the_brand(spark):
    # 1999 at 100 with June at 130, December 1998 and January 2000 at 400: average 2030 / 14 = 145.
    rows = solve(spark, build(spark, year_of("100.00", {6: "130.00"}, edge="400.00"))).collect()
    assert {r.avg_monthly_sales for r in rows} == {Decimal("145.000000")}
    assert len(rows) == 12


def test_only_1999_months_are_reported(spark):
    rows = solve(spark, build(spark, year_of("100.00", {6: "220.00"}, edge="110.00"))).collect()
    assert [(r.d_year, r.d_moy) for r in rows] == [(1999, 6)]


def test_january_neighbours_cross_the_year_boundary(spark):
    # January 160, the rest of 1999 at 100: average 105; December 1998 and January 2000 at 105.
    rows = solve(spark, build(spark, year_of("100.00", {1: "160.00"}, edge="105.00"))).collect()
    assert [(r.d_moy, r.sum_sales, r.psum, r.nsum) for r in rows] == [
        (1, Decimal("160.00"), Decimal("105.00"), Decimal("100.00"))]


def test_month_below_the_average_is_reported(spark):
    # June 40, the rest at 100: average 95; only June is more than 10% away.
    rows = solve(spark, build(spark, year_of("100.00", {6: "40.00"}, edge="95.00"))).collect()
    assert [(r.d_moy, r.sum_sales, r.avg_monthly_sales) for r in rows] == [(6, Decimal("40.00"), Decimal("95.000000"))]


def test_largest_drop_comes_first(spark):
    # Store "ought": June 40 (average 95, 55 below); store "able": June 10 (average 92.5, 82.5 below).
    sales = year_of("100.00", {6: "40.00"}, edge="95.00", store=1) + year_of("100.00", {6: "10.00"}, edge="92.50", store=2)
    rows = solve(spark, build(spark, sales)).collect()
    assert [(r.s_store_name, r.d_moy) for r in rows] == [("able", 6), ("ought", 6)]
