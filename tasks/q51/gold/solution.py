"""Gold solution for q51: item/date rows where the carried-forward web running total exceeds the store one."""
from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F


def _running(sales, date_dim, date_key, item_key, price):
    """Per (item_sk, d_date): running sum (ROWS unbounded preceding..current) of the daily sales price total."""
    daily = (
        sales.join(date_dim, sales[date_key] == date_dim["d_date_sk"])
        .where(F.col("d_month_seq").between(1200, 1200 + 11))
        .where(F.col(item_key).isNotNull())
        .groupBy(F.col(item_key).alias("item_sk"), F.col("d_date"))
        .agg(F.sum(price).alias("_daily"))
    )
    w = Window.partitionBy("item_sk").orderBy("d_date").rowsBetween(Window.unboundedPreceding, Window.currentRow)
    return daily.select("item_sk", "d_date", F.sum("_daily").over(w).alias("cume_sales"))


def solve(spark, tables) -> DataFrame:
    """Returns (item_sk, d_date, web_sales, store_sales, web_cumulative, store_cumulative) where
    web_cumulative > store_cumulative, ordered by item_sk, d_date; first 100 rows."""
    d = tables["date_dim"]
    web = _running(tables["web_sales"], d, "ws_sold_date_sk", "ws_item_sk", "ws_sales_price").alias("web")
    store = _running(tables["store_sales"], d, "ss_sold_date_sk", "ss_item_sk", "ss_sales_price").alias("store")
    x = web.join(
        store,
        (F.col("web.item_sk") == F.col("store.item_sk")) & (F.col("web.d_date") == F.col("store.d_date")),
        "full_outer",
    ).select(
        F.when(F.col("web.item_sk").isNotNull(), F.col("web.item_sk")).otherwise(F.col("store.item_sk")).alias("item_sk"),
        F.when(F.col("web.d_date").isNotNull(), F.col("web.d_date")).otherwise(F.col("store.d_date")).alias("d_date"),
        F.col("web.cume_sales").alias("web_sales"),
        F.col("store.cume_sales").alias("store_sales"),
    )
    w = Window.partitionBy("item_sk").orderBy("d_date").rowsBetween(Window.unboundedPreceding, Window.currentRow)
    y = x.select(
        "item_sk", "d_date", "web_sales", "store_sales",
        F.max("web_sales").over(w).alias("web_cumulative"),
        F.max("store_sales").over(w).alias("store_cumulative"),
    )
    return (
        y.where(F.col("web_cumulative") > F.col("store_cumulative"))
        .orderBy(F.col("item_sk").asc(), F.col("d_date").asc())
        .limit(100)
    )
