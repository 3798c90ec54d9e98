"""Violation of O6 (Home items are left out) in the gold solution for q98: store sales revenue per item in three categories over a 31-day window, with its share of the class."""
import datetime

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F


def solve(spark, tables) -> DataFrame:
    """Returns per item (id, description, category, class, current price) the revenue and its percentage of the class revenue."""
    sales = tables["store_sales"]
    item = tables["item"]
    date_dim = tables["date_dim"]
    start = datetime.date(1999, 2, 22)
    end = start + datetime.timedelta(days=30)  # 1999-03-24, inclusive
    joined = (
        sales.join(item, sales["ss_item_sk"] == item["i_item_sk"])
        .join(date_dim, sales["ss_sold_date_sk"] == date_dim["d_date_sk"])
        .where(F.col("i_category").isin("Sports", "Books"))
        .where(F.col("d_date").between(F.lit(start), F.lit(end)))
    )
    per_item = joined.groupBy("i_item_id", "i_item_desc", "i_category", "i_class", "i_current_price").agg(
        F.sum("ss_ext_sales_price").alias("itemrevenue")
    )
    class_total = F.sum("itemrevenue").over(Window.partitionBy("i_class"))
    out = per_item.select(
        "i_item_id",
        "i_item_desc",
        "i_category",
        "i_class",
        "i_current_price",
        "itemrevenue",
        (F.col("itemrevenue") * F.lit(100) / class_total).alias("revenueratio"),
    )
    ordered = out.orderBy("i_category", "i_class", "i_item_id", "i_item_desc", "revenueratio")
    return ordered.drop("i_item_id")
