"""Sales, returns and profit per store, catalog and web page for the 30 days from 2000-08-03,
with a subtotal per channel and a grand total."""
from datetime import date, timedelta

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

FROM_DAY = date(2000, 8, 3)
TO_DAY = FROM_DAY + timedelta(days=30)


def _dated(facts: DataFrame, dates: DataFrame, key: str) -> DataFrame:
    window = dates.where(F.col("d_date").between(F.lit(FROM_DAY), F.lit(TO_DAY))).select("d_date_sk")
    return facts.join(window, facts[key] == window["d_date_sk"], "inner")


def _entity_channel(sales, returns, label, sales_cols, return_cols):
    """Per-entity sales and returns of one channel, left-joined so entities without returns keep 0."""
    s_key, s_amount, s_profit = sales_cols
    r_key, r_amount, r_loss = return_cols
    sold = sales.groupBy(F.col(s_key).alias("entity")).agg(
        F.sum(s_amount).alias("s_total"), F.sum(s_profit).alias("p_total")
    )
    returned = returns.groupBy(F.col(r_key).alias("r_entity")).agg(
        F.sum(r_amount).alias("r_total"), F.sum(r_loss).alias("l_total")
    )
    return sold.join(returned, sold["entity"] == returned["r_entity"], "left").select(
        F.lit(label).alias("channel"),
        F.col("entity").cast("string").alias("id"),
        F.col("s_total").alias("sales"),
        F.coalesce(F.col("r_total"), F.lit(0)).alias("returns"),
        (F.col("p_total") - F.coalesce(F.col("l_total"), F.lit(0))).alias("profit"),
    )


def solve(spark, tables) -> DataFrame:
    dates = tables["date_dim"]
    stores = tables["store"].select("s_store_sk")
    pages = tables["web_page"].select("wp_web_page_sk")

    store_sales = _dated(tables["store_sales"], dates, "ss_sold_date_sk").join(
        stores, F.col("ss_store_sk") == F.col("s_store_sk"))
    store_returns = _dated(tables["store_returns"], dates, "sr_returned_date_sk").join(
        stores, F.col("sr_store_sk") == F.col("s_store_sk"))
    store_part = _entity_channel(store_sales, store_returns, "store channel",
                                 ("s_store_sk", "ss_ext_sales_price", "ss_net_profit"),
                                 ("s_store_sk", "sr_return_amt", "sr_net_loss"))

    web_sales = _dated(tables["web_sales"], dates, "ws_sold_date_sk").join(
        pages, F.col("ws_web_page_sk") == F.col("wp_web_page_sk"))
    web_returns = _dated(tables["web_returns"], dates, "wr_returned_date_sk").join(
        pages, F.col("wr_web_page_sk") == F.col("wp_web_page_sk"))
    web_part = _entity_channel(web_sales, web_returns, "web channel",
                               ("wp_web_page_sk", "ws_ext_sales_price", "ws_net_profit"),
                               ("wp_web_page_sk", "wr_return_amt", "wr_net_loss"))

    # Catalog returns only exist as one total for the period, so the catalog channel is one row:
    # the period's catalog sales with the period's returns and losses.
    catalog_sold = _dated(tables["catalog_sales"], dates, "cs_sold_date_sk").agg(
        F.sum("cs_ext_sales_price").alias("s_total"), F.sum("cs_net_profit").alias("p_total"))
    catalog_returned = _dated(tables["catalog_returns"], dates, "cr_returned_date_sk").agg(
        F.sum("cr_return_amount").alias("r_total"), F.sum("cr_net_loss").alias("l_total"))
    catalog_part = catalog_sold.crossJoin(catalog_returned).select(
        F.lit("catalog channel").alias("channel"),
        F.lit(None).cast("string").alias("id"),
        F.col("s_total").alias("sales"),
        F.col("r_total").alias("returns"),
        (F.col("p_total") - F.col("l_total")).alias("profit"),
    )

    stacked = store_part.unionByName(catalog_part).unionByName(web_part)
    rolled = stacked.rollup("channel", "id").agg(
        F.sum("sales").alias("sales"), F.sum("returns").alias("returns"), F.sum("profit").alias("profit"))
    return rolled.orderBy("channel", "id").limit(100)
