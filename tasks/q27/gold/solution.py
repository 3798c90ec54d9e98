"""Gold solution for q27: store sales averages for TN, rolled up by item and state with a grouping flag."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def solve(spark, tables) -> DataFrame:
    """Returns (i_item_id, s_state, g_state, agg1..agg4) over ROLLUP(i_item_id, s_state); first 100 rows."""
    ss = tables["store_sales"]
    cd = tables["customer_demographics"]
    d = tables["date_dim"]
    s = tables["store"]
    i = tables["item"]
    j = (
        ss.join(d, ss["ss_sold_date_sk"] == d["d_date_sk"])
        .join(i, ss["ss_item_sk"] == i["i_item_sk"])
        .join(s, ss["ss_store_sk"] == s["s_store_sk"])
        .join(cd, ss["ss_cdemo_sk"] == cd["cd_demo_sk"])
        .where((F.col("cd_gender") == "M") & (F.col("cd_marital_status") == "S") & (F.col("cd_education_status") == "College"))
        .where(F.col("d_year") == 2002)
        .where(F.col("s_state").isin("TN", "TN", "TN", "TN", "TN", "TN"))
    )
    out = j.rollup("i_item_id", "s_state").agg(
        F.grouping("s_state").alias("g_state"),
        F.avg("ss_quantity").alias("agg1"),
        F.avg("ss_list_price").alias("agg2"),
        F.avg("ss_coupon_amt").alias("agg3"),
        F.avg("ss_sales_price").alias("agg4"),
    )
    out = out.select("i_item_id", "s_state", "g_state", "agg1", "agg2", "agg3", "agg4")
    return out.orderBy(F.col("i_item_id").asc(), F.col("s_state").asc()).limit(100)
