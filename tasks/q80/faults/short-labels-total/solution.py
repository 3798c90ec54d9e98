"""q80: sales, returns and profit per store, catalog page and web site over 30 days, with
channel subtotals and a grand total."""
from datetime import date

from pyspark.sql import functions as F

WINDOW_START = date(2000, 8, 23)
WINDOW_END = date(2000, 9, 22)  # 2000-08-23 + 30 days

# channel name, sales table, returns table, entity table, and the columns each one uses
CHANNELS = [
    {"name": "store", "sales": "store_sales", "returns": "store_returns", "entity": "store",
     "s": {"date": "ss_sold_date_sk", "item": "ss_item_sk", "num": "ss_ticket_number", "ent": "ss_store_sk",
           "promo": "ss_promo_sk", "amount": "ss_ext_sales_price", "profit": "ss_net_profit"},
     "r": {"item": "sr_item_sk", "num": "sr_ticket_number", "amount": "sr_return_amt", "loss": "sr_net_loss"},
     "e": {"key": "s_store_sk", "id": "s_store_id"}, "prefix": "store"},
    {"name": "catalog", "sales": "catalog_sales", "returns": "catalog_returns", "entity": "catalog_page",
     "s": {"date": "cs_sold_date_sk", "item": "cs_item_sk", "num": "cs_order_number", "ent": "cs_catalog_page_sk",
           "promo": "cs_promo_sk", "amount": "cs_ext_sales_price", "profit": "cs_net_profit"},
     "r": {"item": "cr_item_sk", "num": "cr_order_number", "amount": "cr_return_amount", "loss": "cr_net_loss"},
     "e": {"key": "cp_catalog_page_sk", "id": "cp_catalog_page_id"}, "prefix": "catalog_page"},
    {"name": "web", "sales": "web_sales", "returns": "web_returns", "entity": "web_site",
     "s": {"date": "ws_sold_date_sk", "item": "ws_item_sk", "num": "ws_order_number", "ent": "ws_web_site_sk",
           "promo": "ws_promo_sk", "amount": "ws_ext_sales_price", "profit": "ws_net_profit"},
     "r": {"item": "wr_item_sk", "num": "wr_order_number", "amount": "wr_return_amt", "loss": "wr_net_loss"},
     "e": {"key": "web_site_sk", "id": "web_site_id"}, "prefix": "web_site"},
]


def channel_rows(tables, ch):
    s, r, e = ch["s"], ch["r"], ch["e"]
    days = (tables["date_dim"]
            .where((F.col("d_date") >= F.lit(WINDOW_START)) & (F.col("d_date") <= F.lit(WINDOW_END)))
            .select(F.col("d_date_sk").alias("_day")))
    items = tables["item"].where(F.col("i_current_price") > 50).select(F.col("i_item_sk").alias("_item"))
    promos = tables["promotion"].where(F.col("p_channel_tv") == "N").select(F.col("p_promo_sk").alias("_promo"))
    lines = tables[ch["sales"]].select(
        F.col(s["date"]).alias("_day"), F.col(s["item"]).alias("_item"), F.col(s["num"]).alias("_num"),
        F.col(s["ent"]).alias("_ent"), F.col(s["promo"]).alias("_promo"),
        F.col(s["amount"]).alias("_amount"), F.col(s["profit"]).alias("_profit"))
    rets = tables[ch["returns"]].select(
        F.col(r["item"]).alias("_item"), F.col(r["num"]).alias("_num"),
        F.col(r["amount"]).alias("_ret"), F.col(r["loss"]).alias("_loss"))
    ents = tables[ch["entity"]].select(F.col(e["key"]).alias("_ent"), F.col(e["id"]).alias("_bid"))
    kept = (lines.join(days, "_day").join(items, "_item").join(promos, "_promo")
            .join(rets, ["_item", "_num"], "left")
            .join(ents, "_ent"))
    per_entity = kept.groupBy("_bid").agg(
        F.sum("_amount").alias("sales"),
        F.sum(F.coalesce("_ret", F.lit(0))).alias("returns"),
        F.sum(F.col("_profit") - F.coalesce("_loss", F.lit(0))).alias("profit"))
    return per_entity.select(
        F.lit(ch["name"]).alias("channel"),
        F.concat(F.lit(ch["prefix"]), F.col("_bid")).alias("id"),
        "sales", "returns", "profit")


def solve(spark, tables):
    union = None
    for ch in CHANNELS:
        part = channel_rows(tables, ch)
        union = part if union is None else union.unionByName(part)
    totals = union.rollup("channel", "id").agg(
        F.sum("sales").alias("sales"), F.sum("returns").alias("returns"), F.sum("profit").alias("profit"))
    # label the rollup rows so they can be told apart from the entity rows
    labelled = totals.select(
        F.coalesce("channel", F.lit("TOTAL")).alias("channel"),
        F.coalesce("id", F.lit("TOTAL")).alias("id"),
        "sales", "returns", "profit")
    return labelled.orderBy("channel", "id").limit(100)
