"""Violation of O6 (a left join keeps sales whose date key matches no date) in the gold solution for q3: November store sales per year and brand for manufacturer 128."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def solve(spark, tables) -> DataFrame:
    """Returns one row per (year, brand) with the total extended sales price, top 100 by year, total desc, brand id."""
    date_dim = tables["date_dim"]
    store_sales = tables["store_sales"]
    item = tables["item"]
    sales = (
        store_sales.join(date_dim, store_sales["ss_sold_date_sk"] == date_dim["d_date_sk"], "left")
        .join(item, store_sales["ss_item_sk"] == item["i_item_sk"])
        .where((F.col("i_manufact_id") == 128) & ((F.col("d_moy") == 11) | F.col("d_date_sk").isNull()))
    )
    totals = sales.groupBy("d_year", "i_brand", "i_brand_id").agg(F.sum("ss_ext_sales_price").alias("sum_agg"))
    out = totals.select(
        F.col("d_year"),
        F.col("i_brand_id").alias("brand_id"),
        F.col("i_brand").alias("brand"),
        F.col("sum_agg"),
    )
    return out.orderBy(F.col("d_year").asc(), F.col("sum_agg").desc(), F.col("brand_id").asc()).limit(100)
