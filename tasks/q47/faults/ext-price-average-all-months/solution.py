"""1999 store/brand months whose sales deviate more than 10% from the brand's average monthly sales."""
from decimal import Decimal

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

KEYS = ["i_category", "i_brand", "s_store_name", "s_company_name"]


def solve(spark, tables) -> DataFrame:
    ss = tables["store_sales"]
    item = tables["item"]
    store = tables["store"]
    dd = tables["date_dim"]

    # December 1998 .. January 2000, so that January and December 1999 have neighbours.
    in_window = (dd["d_year"] == 1999) | ((dd["d_year"] == 1998) & (dd["d_moy"] == 12)) | (
        (dd["d_year"] == 2000) & (dd["d_moy"] == 1))
    months = dd.where(in_window).select("d_date_sk", "d_year", "d_moy")

    joined = (
        ss.join(item, ss["ss_item_sk"] == item["i_item_sk"])
        .join(months, ss["ss_sold_date_sk"] == months["d_date_sk"])
        .join(store, ss["ss_store_sk"] == store["s_store_sk"])
    )
    monthly = joined.groupBy(*KEYS, "d_year", "d_moy").agg(F.sum("ss_ext_sales_price").alias("sum_sales"))

    brand_store = Window.partitionBy(*KEYS)
    timeline = Window.partitionBy(*KEYS).orderBy("d_year", "d_moy")
    enriched = (
        monthly.withColumn("avg_monthly_sales", F.avg("sum_sales").over(brand_store))
        .withColumn("psum", F.lag("sum_sales").over(timeline))
        .withColumn("nsum", F.lead("sum_sales").over(timeline))
    )

    deviation = F.abs(F.col("sum_sales") - F.col("avg_monthly_sales")) / F.col("avg_monthly_sales")
    flagged = enriched.where(
        (F.col("d_year") == 1999)
        & F.col("psum").isNotNull()
        & F.col("nsum").isNotNull()
        & (F.col("avg_monthly_sales") > 0)
        & (deviation > F.lit(Decimal("0.1")))
    )
    result = flagged.select(*KEYS, "d_year", "d_moy", "avg_monthly_sales", "sum_sales", "psum", "nsum")
    return result.orderBy(F.col("sum_sales") - F.col("avg_monthly_sales"), F.col("s_store_name")).limit(100)
