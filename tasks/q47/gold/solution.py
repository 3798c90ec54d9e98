"""Gold solution for q47: 1999 store brand months deviating >10% from the yearly monthly average."""
from decimal import Decimal

from pyspark.sql import DataFrame, Window, functions as F

GROUP = ["i_category", "i_brand", "s_store_name", "s_company_name"]


def _monthly(tables) -> DataFrame:
    """v1: monthly sums of ss_sales_price with the yearly average of monthly sums and a chronological rank."""
    ss = tables["store_sales"]
    item = tables["item"].select("i_item_sk", "i_category", "i_brand")
    store = tables["store"].select("s_store_sk", "s_store_name", "s_company_name")
    dates = tables["date_dim"].filter(
        (F.col("d_year") == 1999) | ((F.col("d_year") == 1998) & (F.col("d_moy") == 12))
        | ((F.col("d_year") == 2000) & (F.col("d_moy") == 1))).select("d_date_sk", "d_year", "d_moy")
    j = (ss.join(item, ss.ss_item_sk == item.i_item_sk)
         .join(dates, ss.ss_sold_date_sk == dates.d_date_sk)
         .join(store, ss.ss_store_sk == store.s_store_sk))
    v1 = j.groupBy(*GROUP, "d_year", "d_moy").agg(F.sum("ss_sales_price").alias("sum_sales"))
    year_w = Window.partitionBy(*GROUP, "d_year")
    rank_w = Window.partitionBy(*GROUP).orderBy("d_year", "d_moy")
    return v1.withColumn("avg_monthly_sales", F.avg("sum_sales").over(year_w)) \
             .withColumn("rn", F.rank().over(rank_w))


def solve(spark, tables) -> DataFrame:
    """Returns the ten v2 columns for qualifying 1999 months, ordered by deviation then store name, first 100."""
    v1 = _monthly(tables)
    lag = v1.select(*[F.col(c).alias(f"lag_{c}") for c in GROUP], F.col("rn").alias("lag_rn"),
                    F.col("sum_sales").alias("psum"))
    lead = v1.select(*[F.col(c).alias(f"lead_{c}") for c in GROUP], F.col("rn").alias("lead_rn"),
                     F.col("sum_sales").alias("nsum"))
    cond_lag = [v1[c] == lag[f"lag_{c}"] for c in GROUP] + [v1["rn"] == lag["lag_rn"] + 1]
    cond_lead = [v1[c] == lead[f"lead_{c}"] for c in GROUP] + [v1["rn"] == lead["lead_rn"] - 1]
    v2 = v1.join(lag, cond_lag).join(lead, cond_lead).select(
        *GROUP, "d_year", "d_moy", "avg_monthly_sales", "sum_sales", "psum", "nsum")
    dev = F.when(F.col("avg_monthly_sales") > 0,
                 F.abs(F.col("sum_sales") - F.col("avg_monthly_sales")) / F.col("avg_monthly_sales"))
    out = v2.filter((F.col("d_year") == 1999) & (F.col("avg_monthly_sales") > 0) & (dev > F.lit(Decimal("0.1"))))
    return out.orderBy(F.col("sum_sales") - F.col("avg_monthly_sales"), F.col("s_store_name")).limit(100)
