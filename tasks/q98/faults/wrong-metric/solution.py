"""Item revenue for Sports, Books and Home between 1999-02-22 and 1999-03-24, with each item's
percentage of its class's revenue."""
from datetime import date

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

CATEGORIES = ["Sports", "Books", "Home"]
FIRST_DAY = date(1999, 2, 22)
LAST_DAY = date(1999, 3, 24)


def solve(spark, tables) -> DataFrame:
    window_days = (
        tables["date_dim"]
        .filter((F.col("d_date") >= F.lit(FIRST_DAY)) & (F.col("d_date") <= F.lit(LAST_DAY)))
        .select("d_date_sk")
    )
    wanted_items = (
        tables["item"]
        .filter(F.col("i_category").isin(CATEGORIES))
        .select("i_item_sk", "i_item_id", "i_item_desc", "i_category", "i_class", "i_current_price")
    )
    lines = tables["store_sales"].select("ss_item_sk", "ss_sold_date_sk", "ss_ext_list_price")

    in_scope = (
        lines.join(window_days, lines["ss_sold_date_sk"] == window_days["d_date_sk"], "inner")
        .join(wanted_items, lines["ss_item_sk"] == wanted_items["i_item_sk"], "inner")
    )

    revenue_per_item = in_scope.groupBy(
        "i_item_id", "i_item_desc", "i_category", "i_class", "i_current_price"
    ).agg(F.sum("ss_ext_list_price").alias("itemrevenue"))

    by_class = Window.partitionBy("i_class")
    with_share = revenue_per_item.withColumn(
        "revenueratio", F.col("itemrevenue") * 100 / F.sum("itemrevenue").over(by_class)
    )

    return (
        with_share.orderBy("i_category", "i_class", "i_item_id", "i_item_desc", "revenueratio")
        .select("i_item_desc", "i_category", "i_class", "i_current_price", "itemrevenue", "revenueratio")
    )
