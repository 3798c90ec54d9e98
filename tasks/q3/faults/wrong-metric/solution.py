"""November store sales per year and brand for the items of manufacturer 128."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def solve(spark, tables) -> DataFrame:
    dates = tables["date_dim"].where(F.col("d_moy") == 11).select("d_date_sk", "d_year")
    items = tables["item"].where(F.col("i_manufact_id") == 128).select("i_item_sk", "i_brand_id", "i_brand")
    sales = tables["store_sales"].select("ss_sold_date_sk", "ss_item_sk", "ss_ext_list_price")

    joined = sales.join(dates, sales.ss_sold_date_sk == dates.d_date_sk).join(items, sales.ss_item_sk == items.i_item_sk)
    totals = joined.groupBy("d_year", "i_brand_id", "i_brand").agg(F.sum("ss_ext_list_price").alias("sum_agg"))
    result = totals.select(
        F.col("d_year"),
        F.col("i_brand_id").alias("brand_id"),
        F.col("i_brand").alias("brand"),
        F.col("sum_agg"),
    )
    return result.orderBy(F.col("d_year").asc(), F.col("sum_agg").desc(), F.col("brand_id").asc()).limit(100)
