"""Gold solution for q36: gross margin over ROLLUP(i_category, i_class), ranked within the hierarchy."""
from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F


def solve(spark, tables) -> DataFrame:
    """Returns (gross_margin, i_category, i_class, lochierarchy, rank_within_parent); first 100 rows,
    coarsest level first."""
    ss = tables["store_sales"]
    d = tables["date_dim"]
    i = tables["item"]
    s = tables["store"]
    j = (
        ss.join(d, d["d_date_sk"] == ss["ss_sold_date_sk"])
        .join(i, i["i_item_sk"] == ss["ss_item_sk"])
        .join(s, s["s_store_sk"] == ss["ss_store_sk"])
        .where(F.col("d_year") == 2001)
        .where(F.col("s_state").isin("TN", "TN", "TN", "TN", "TN", "TN", "TN", "TN"))
    )
    g = j.rollup("i_category", "i_class").agg(
        (F.sum("ss_net_profit") / F.sum("ss_ext_sales_price")).alias("gross_margin"),
        (F.grouping("i_category") + F.grouping("i_class")).alias("lochierarchy"),
        F.grouping("i_class").alias("_g_class"),
    )
    parent = F.when(F.col("_g_class") == 0, F.col("i_category"))
    w = Window.partitionBy(F.col("lochierarchy"), parent).orderBy(F.col("gross_margin").asc())
    out = g.select(
        "gross_margin", "i_category", "i_class", "lochierarchy", F.rank().over(w).alias("rank_within_parent")
    )
    return out.orderBy(
        F.col("lochierarchy").desc(),
        F.when(F.col("lochierarchy") == 0, F.col("i_category")).asc(),
        F.col("rank_within_parent").asc(),
    ).limit(100)
