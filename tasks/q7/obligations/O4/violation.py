"""Violation of O4 (the price averages are doubles) in the gold solution for q7: average store-sale figures per item for one demographic and promotion profile in 2000."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def solve(spark, tables) -> DataFrame:
    """Returns per i_item_id the averages of quantity, list price, coupon amount and sales price; first 100 by item id."""
    ss = tables["store_sales"]
    cd = tables["customer_demographics"]
    d = tables["date_dim"]
    i = tables["item"]
    p = tables["promotion"]
    joined = (
        ss.join(d, ss["ss_sold_date_sk"] == d["d_date_sk"])
        .join(i, ss["ss_item_sk"] == i["i_item_sk"])
        .join(cd, ss["ss_cdemo_sk"] == cd["cd_demo_sk"])
        .join(p, ss["ss_promo_sk"] == p["p_promo_sk"])
        .where(
            (F.col("cd_gender") == "M")
            & (F.col("cd_marital_status") == "S")
            & (F.col("cd_education_status") == "College")
            & ((F.col("p_channel_email") == "N") | (F.col("p_channel_event") == "N"))
            & (F.col("d_year") == 2000)
        )
    )
    out = joined.groupBy("i_item_id").agg(
        F.avg("ss_quantity").alias("agg1"),
        F.avg(F.col("ss_list_price").cast("double")).alias("agg2"),
        F.avg(F.col("ss_coupon_amt").cast("double")).alias("agg3"),
        F.avg(F.col("ss_sales_price").cast("double")).alias("agg4"),
    )
    return out.orderBy("i_item_id").limit(100)
