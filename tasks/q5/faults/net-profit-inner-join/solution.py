"""Sales, returns and profit per store, catalog page and web site for 2000-08-23 .. 2000-09-06,
with a subtotal per channel and a grand total."""
import datetime

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

FIRST_DAY = datetime.date(2000, 8, 23)
LAST_DAY = datetime.date(2000, 9, 6)


def _in_window(date_dim):
    return date_dim.where((F.col("d_date") >= F.lit(FIRST_DAY)) & (F.col("d_date") <= F.lit(LAST_DAY))).select("d_date_sk")


def _channel(sales_part, returns_part, label, prefix):
    """Per entity id: the sales side joined to the returns side, as output rows of one channel."""
    both = sales_part.join(returns_part, "entity_id")
    return both.select(
        F.lit(label).alias("channel"),
        F.concat(F.lit(prefix), F.col("entity_id")).alias("id"),
        F.col("sales"),
        F.col("returns"),
        (F.col("gross_profit") - F.col("loss")).alias("profit"),
    )


def solve(spark, tables) -> DataFrame:
    window = _in_window(tables["date_dim"])

    store = tables["store"]
    ss = tables["store_sales"].join(window, F.col("ss_sold_date_sk") == F.col("d_date_sk"))
    store_sales = (ss.join(store, F.col("ss_store_sk") == F.col("s_store_sk"))
                   .groupBy(F.col("s_store_id").alias("entity_id"))
                   .agg(F.sum("ss_net_profit").alias("sales"), F.sum("ss_net_profit").alias("gross_profit")))
    sr = tables["store_returns"].join(window, F.col("sr_returned_date_sk") == F.col("d_date_sk"))
    store_returns = (sr.join(store, F.col("sr_store_sk") == F.col("s_store_sk"))
                     .groupBy(F.col("s_store_id").alias("entity_id"))
                     .agg(F.sum("sr_return_amt").alias("returns"), F.sum("sr_net_loss").alias("loss")))

    page = tables["catalog_page"]
    cs = tables["catalog_sales"].join(window, F.col("cs_sold_date_sk") == F.col("d_date_sk"))
    catalog_sales = (cs.join(page, F.col("cs_catalog_page_sk") == F.col("cp_catalog_page_sk"))
                     .groupBy(F.col("cp_catalog_page_id").alias("entity_id"))
                     .agg(F.sum("cs_ext_sales_price").alias("sales"), F.sum("cs_net_profit").alias("gross_profit")))
    cr = tables["catalog_returns"].join(window, F.col("cr_returned_date_sk") == F.col("d_date_sk"))
    catalog_returns = (cr.join(page, F.col("cr_catalog_page_sk") == F.col("cp_catalog_page_sk"))
                       .groupBy(F.col("cp_catalog_page_id").alias("entity_id"))
                       .agg(F.sum("cr_return_amount").alias("returns"), F.sum("cr_net_loss").alias("loss")))

    site = tables["web_site"]
    ws_all = tables["web_sales"]
    ws = ws_all.join(window, F.col("ws_sold_date_sk") == F.col("d_date_sk"))
    web_sales = (ws.join(site, F.col("ws_web_site_sk") == F.col("web_site_sk"))
                 .groupBy(F.col("web_site_id").alias("entity_id"))
                 .agg(F.sum("ws_ext_sales_price").alias("sales"), F.sum("ws_net_profit").alias("gross_profit")))
    wr = tables["web_returns"].join(window, F.col("wr_returned_date_sk") == F.col("d_date_sk"))
    wr_sites = wr.join(ws_all.select("ws_item_sk", "ws_order_number", "ws_web_site_sk"),
                       (F.col("wr_item_sk") == F.col("ws_item_sk")) & (F.col("wr_order_number") == F.col("ws_order_number")),
                       "left")
    web_returns = (wr_sites.join(site, F.col("ws_web_site_sk") == F.col("web_site_sk"))
                   .groupBy(F.col("web_site_id").alias("entity_id"))
                   .agg(F.sum("wr_return_amt").alias("returns"), F.sum("wr_net_loss").alias("loss")))

    detail = (_channel(store_sales, store_returns, "store channel", "store")
              .unionByName(_channel(catalog_sales, catalog_returns, "catalog channel", "catalog_page"))
              .unionByName(_channel(web_sales, web_returns, "web channel", "web_site")))
    rolled = detail.rollup("channel", "id").agg(
        F.sum("sales").alias("sales"), F.sum("returns").alias("returns"), F.sum("profit").alias("profit"))
    return rolled.orderBy("channel", "id").limit(100)
