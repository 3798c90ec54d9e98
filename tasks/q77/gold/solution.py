"""Gold solution for q77: 30-day sales, returns and profit per store, call center and web page, rolled up."""
import datetime

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

START = datetime.date(2000, 8, 3)
END = START + datetime.timedelta(days=30)


def _in_period(df, date_dim, date_key):
    """Joins df to date_dim on date_key and keeps dates in [START, END]."""
    return df.join(date_dim, df[date_key] == date_dim["d_date_sk"]).where(
        F.col("d_date").between(F.lit(START), F.lit(END))
    )


def solve(spark, tables) -> DataFrame:
    """Returns (channel, id, sales, returns, profit) with integer surrogate-key ids, channel subtotals and a
    grand total (rollup NULLs), ordered by channel, id; first 100 rows."""
    d = tables["date_dim"]
    store = tables["store"].select("s_store_sk")
    web_page = tables["web_page"].select("wp_web_page_sk")

    ss = (
        _in_period(tables["store_sales"], d, "ss_sold_date_sk")
        .join(store, F.col("ss_store_sk") == store["s_store_sk"])
        .groupBy("s_store_sk")
        .agg(F.sum("ss_ext_sales_price").alias("sales"), F.sum("ss_net_profit").alias("profit"))
    )
    sr = (
        _in_period(tables["store_returns"], d, "sr_returned_date_sk")
        .join(store, F.col("sr_store_sk") == store["s_store_sk"])
        .groupBy(F.col("s_store_sk").alias("sr_store"))
        .agg(F.sum("sr_return_amt").alias("returns"), F.sum("sr_net_loss").alias("profit_loss"))
    )
    cs = (
        _in_period(tables["catalog_sales"], d, "cs_sold_date_sk")
        .groupBy("cs_call_center_sk")
        .agg(F.sum("cs_ext_sales_price").alias("sales"), F.sum("cs_net_profit").alias("profit"))
    )
    cr = _in_period(tables["catalog_returns"], d, "cr_returned_date_sk").agg(
        F.sum("cr_return_amount").alias("returns"), F.sum("cr_net_loss").alias("profit_loss")
    )
    ws = (
        _in_period(tables["web_sales"], d, "ws_sold_date_sk")
        .join(web_page, F.col("ws_web_page_sk") == web_page["wp_web_page_sk"])
        .groupBy("wp_web_page_sk")
        .agg(F.sum("ws_ext_sales_price").alias("sales"), F.sum("ws_net_profit").alias("profit"))
    )
    wr = (
        _in_period(tables["web_returns"], d, "wr_returned_date_sk")
        .join(web_page, F.col("wr_web_page_sk") == web_page["wp_web_page_sk"])
        .groupBy(F.col("wp_web_page_sk").alias("wr_page"))
        .agg(F.sum("wr_return_amt").alias("returns"), F.sum("wr_net_loss").alias("profit_loss"))
    )

    store_rows = ss.join(sr, ss["s_store_sk"] == sr["sr_store"], "left").select(
        F.lit("store channel").alias("channel"),
        ss["s_store_sk"].alias("id"),
        ss["sales"],
        F.coalesce(sr["returns"], F.lit(0)).alias("returns"),
        (ss["profit"] - F.coalesce(sr["profit_loss"], F.lit(0))).alias("profit"),
    )
    catalog_rows = cs.crossJoin(cr).select(
        F.lit("catalog channel").alias("channel"),
        cs["cs_call_center_sk"].alias("id"),
        cs["sales"],
        cr["returns"],
        (cs["profit"] - cr["profit_loss"]).alias("profit"),
    )
    web_rows = ws.join(wr, ws["wp_web_page_sk"] == wr["wr_page"], "left").select(
        F.lit("web channel").alias("channel"),
        ws["wp_web_page_sk"].alias("id"),
        ws["sales"],
        F.coalesce(wr["returns"], F.lit(0)).alias("returns"),
        (ws["profit"] - F.coalesce(wr["profit_loss"], F.lit(0))).alias("profit"),
    )
    x = store_rows.unionAll(catalog_rows).unionAll(web_rows)
    out = x.rollup("channel", "id").agg(
        F.sum("sales").alias("sales"), F.sum("returns").alias("returns"), F.sum("profit").alias("profit")
    )
    return out.orderBy(F.col("channel").asc(), F.col("id").asc()).limit(100)
