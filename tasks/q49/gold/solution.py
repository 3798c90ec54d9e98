"""Gold solution for q49: per-channel items ranked in the top 10 by return or currency ratio, December 2001."""
from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql.types import DecimalType

D154 = DecimalType(15, 4)


def _channel(label, sales, returns, date_dim, on, sold_date, item, qty, net_paid, net_profit, ret_qty, ret_amt):
    """Top-10-by-either-ratio items of one channel as (channel, item, return_ratio, return_rank, currency_rank)."""
    j = (
        sales.join(returns, on(sales, returns), "left")
        .join(date_dim, sales[sold_date] == date_dim["d_date_sk"])
        .where(F.col(ret_amt) > 10000)
        .where(F.col(net_profit) > 1)
        .where(F.col(net_paid) > 0)
        .where(F.col(qty) > 0)
        .where((F.col("d_year") == 2001) & (F.col("d_moy") == 12))
    )
    per_item = j.groupBy(F.col(item).alias("item")).agg(
        (
            F.sum(F.coalesce(F.col(ret_qty), F.lit(0))).cast(D154)
            / F.sum(F.coalesce(F.col(qty), F.lit(0))).cast(D154)
        ).alias("return_ratio"),
        (
            F.sum(F.coalesce(F.col(ret_amt), F.lit(0))).cast(D154)
            / F.sum(F.coalesce(F.col(net_paid), F.lit(0))).cast(D154)
        ).alias("currency_ratio"),
    )
    ranked = per_item.select(
        "item",
        "return_ratio",
        "currency_ratio",
        F.rank().over(Window.orderBy(F.col("return_ratio").asc())).alias("return_rank"),
        F.rank().over(Window.orderBy(F.col("currency_ratio").asc())).alias("currency_rank"),
    )
    return ranked.where((F.col("return_rank") <= 10) | (F.col("currency_rank") <= 10)).select(
        F.lit(label).alias("channel"), "item", "return_ratio", "return_rank", "currency_rank"
    )


def solve(spark, tables) -> DataFrame:
    """Returns (channel, item, return_ratio, return_rank, currency_rank), the union (distinct) of the three
    channels, ordered by channel, return_rank, currency_rank; first 100 rows."""
    d = tables["date_dim"]
    web = _channel(
        "web", tables["web_sales"], tables["web_returns"], d,
        lambda s, r: (s["ws_order_number"] == r["wr_order_number"]) & (s["ws_item_sk"] == r["wr_item_sk"]),
        "ws_sold_date_sk", "ws_item_sk", "ws_quantity", "ws_net_paid", "ws_net_profit", "wr_return_quantity", "wr_return_amt",
    )
    catalog = _channel(
        "catalog", tables["catalog_sales"], tables["catalog_returns"], d,
        lambda s, r: (s["cs_order_number"] == r["cr_order_number"]) & (s["cs_item_sk"] == r["cr_item_sk"]),
        "cs_sold_date_sk", "cs_item_sk", "cs_quantity", "cs_net_paid", "cs_net_profit", "cr_return_quantity", "cr_return_amount",
    )
    store = _channel(
        "store", tables["store_sales"], tables["store_returns"], d,
        lambda s, r: (s["ss_ticket_number"] == r["sr_ticket_number"]) & (s["ss_item_sk"] == r["sr_item_sk"]),
        "ss_sold_date_sk", "ss_item_sk", "ss_quantity", "ss_net_paid", "ss_net_profit", "sr_return_quantity", "sr_return_amt",
    )
    out = web.union(catalog).distinct().union(store).distinct()
    return out.orderBy(F.col("channel").asc(), F.col("return_rank").asc(), F.col("currency_rank").asc()).limit(100)
