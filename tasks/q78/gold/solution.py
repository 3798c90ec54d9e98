"""Gold solution for q78: unreturned store purchases in 2000 versus the same customers' web and catalog purchases."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def _channel(sales, returns, date_dim, on, sold_date, item, customer, qty, wc, sp, prefix):
    """Per (year, item, customer) totals of unreturned lines of one channel, columns prefixed by `prefix`."""
    unreturned = sales.join(returns, on(sales, returns), "left_anti")
    return (
        unreturned.join(date_dim, unreturned[sold_date] == date_dim["d_date_sk"])
        .groupBy(
            F.col("d_year").alias(f"{prefix}_sold_year"),
            F.col(item).alias(f"{prefix}_item_sk"),
            F.col(customer).alias(f"{prefix}_customer_sk"),
        )
        .agg(
            F.sum(qty).alias(f"{prefix}_qty"),
            F.sum(wc).alias(f"{prefix}_wc"),
            F.sum(sp).alias(f"{prefix}_sp"),
        )
    )


def solve(spark, tables) -> DataFrame:
    """Returns the 7 ratio/total columns for store (year 2000, item, customer) groups that also bought
    unreturned through web and catalog; first 100 rows in the stated order."""
    d = tables["date_dim"]
    ws = _channel(
        tables["web_sales"], tables["web_returns"], d,
        lambda s, r: (r["wr_order_number"] == s["ws_order_number"]) & (s["ws_item_sk"] == r["wr_item_sk"]),
        "ws_sold_date_sk", "ws_item_sk", "ws_bill_customer_sk", "ws_quantity", "ws_wholesale_cost", "ws_sales_price", "ws",
    )
    cs = _channel(
        tables["catalog_sales"], tables["catalog_returns"], d,
        lambda s, r: (r["cr_order_number"] == s["cs_order_number"]) & (s["cs_item_sk"] == r["cr_item_sk"]),
        "cs_sold_date_sk", "cs_item_sk", "cs_bill_customer_sk", "cs_quantity", "cs_wholesale_cost", "cs_sales_price", "cs",
    )
    ss = _channel(
        tables["store_sales"], tables["store_returns"], d,
        lambda s, r: (r["sr_ticket_number"] == s["ss_ticket_number"]) & (s["ss_item_sk"] == r["sr_item_sk"]),
        "ss_sold_date_sk", "ss_item_sk", "ss_customer_sk", "ss_quantity", "ss_wholesale_cost", "ss_sales_price", "ss",
    )
    j = ss.join(
        ws,
        (ws["ws_sold_year"] == ss["ss_sold_year"]) & (ws["ws_item_sk"] == ss["ss_item_sk"]) & (ws["ws_customer_sk"] == ss["ss_customer_sk"]),
        "left",
    ).join(
        cs,
        (cs["cs_sold_year"] == ss["ss_sold_year"]) & (cs["cs_item_sk"] == ss["ss_item_sk"]) & (cs["cs_customer_sk"] == ss["ss_customer_sk"]),
        "left",
    )
    j = j.where(
        (F.coalesce(F.col("ws_qty"), F.lit(0)) > 0)
        & (F.coalesce(F.col("cs_qty"), F.lit(0)) > 0)
        & (F.col("ss_sold_year") == 2000)
    )
    ratio = F.round(F.col("ss_qty") / F.coalesce(F.col("ws_qty") + F.col("cs_qty"), F.lit(1)), 2)
    out = j.select(
        ratio.alias("ratio"),
        F.col("ss_qty").alias("store_qty"),
        F.col("ss_wc").alias("store_wholesale_cost"),
        F.col("ss_sp").alias("store_sales_price"),
        (F.coalesce(F.col("ws_qty"), F.lit(0)) + F.coalesce(F.col("cs_qty"), F.lit(0))).alias("other_chan_qty"),
        (F.coalesce(F.col("ws_wc"), F.lit(0)) + F.coalesce(F.col("cs_wc"), F.lit(0))).alias("other_chan_wholesale_cost"),
        (F.coalesce(F.col("ws_sp"), F.lit(0)) + F.coalesce(F.col("cs_sp"), F.lit(0))).alias("other_chan_sales_price"),
    )
    return out.orderBy(
        F.col("ratio").asc(),
        F.col("store_qty").desc(),
        F.col("store_wholesale_cost").desc(),
        F.col("store_sales_price").desc(),
        F.col("other_chan_qty").asc(),
        F.col("other_chan_wholesale_cost").asc(),
        F.col("other_chan_sales_price").asc(),
    ).limit(100)
