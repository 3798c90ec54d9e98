"""Gold solution for q70: net profit over ROLLUP(s_state, s_county) for qualifying states, ranked within the hierarchy."""
from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F


def solve(spark, tables) -> DataFrame:
    """Returns (total_sum, s_state, s_county, lochierarchy, rank_within_parent); first 100 rows,
    coarsest level first."""
    ss = tables["store_sales"]
    d = tables["date_dim"]
    s = tables["store"]

    def base():
        return (
            ss.join(d, d["d_date_sk"] == ss["ss_sold_date_sk"])
            .join(s, s["s_store_sk"] == ss["ss_store_sk"])
            .where(F.col("d_month_seq").between(1200, 1200 + 11))
        )

    per_state = base().groupBy("s_state").agg(F.sum("ss_net_profit").alias("_state_profit"))
    ranked = per_state.select(
        F.col("s_state").alias("_q_state"),
        F.rank().over(Window.partitionBy("s_state").orderBy(F.col("_state_profit").desc())).alias("ranking"),
    )
    qualifying = ranked.where(F.col("ranking") <= 5).select("_q_state")
    j = base().join(qualifying, F.col("s_state") == F.col("_q_state"), "left_semi")
    g = j.rollup("s_state", "s_county").agg(
        F.sum("ss_net_profit").alias("total_sum"),
        (F.grouping("s_state") + F.grouping("s_county")).alias("lochierarchy"),
        F.grouping("s_county").alias("_g_county"),
    )
    parent = F.when(F.col("_g_county") == 0, F.col("s_state"))
    w = Window.partitionBy(F.col("lochierarchy"), parent).orderBy(F.col("total_sum").desc())
    out = g.select("total_sum", "s_state", "s_county", "lochierarchy", F.rank().over(w).alias("rank_within_parent"))
    return out.orderBy(
        F.col("lochierarchy").desc(),
        F.when(F.col("lochierarchy") == 0, F.col("s_state")).asc(),
        F.col("rank_within_parent").asc(),
    ).limit(100)
