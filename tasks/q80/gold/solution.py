"""Gold solution for q80: 30-day sales, returns and profit per channel entity, rolled up by channel and id."""
import datetime

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

START = datetime.date(2000, 8, 23)
END = START + datetime.timedelta(days=30)


def _channel(sales, returns, entity, keys, cols, entity_id, label, prefix, date_dim, item, promotion):
    """Per-entity totals for one channel, as (channel, id, sales, returns, profit).

    keys: (sales item col, sales number col, returns item col, returns number col);
    cols: (sold date key, entity key in sales, entity key in entity table, item key, promo key,
    ext sales price, net profit, return amount, net loss).
    """
    s_item, s_num, r_item, r_num = keys
    sold_date, s_ent, e_key, s_itm, s_promo, ext, profit, ret_amt, loss = cols
    r = returns.select(r_item, r_num, ret_amt, loss)
    joined = (
        sales.join(r, (sales[s_item] == r[r_item]) & (sales[s_num] == r[r_num]), "left")
        .join(date_dim, F.col(sold_date) == date_dim["d_date_sk"])
        .join(entity, F.col(s_ent) == entity[e_key])
        .join(item, F.col(s_itm) == item["i_item_sk"])
        .join(promotion, F.col(s_promo) == promotion["p_promo_sk"])
        .where(F.col("d_date").between(F.lit(START), F.lit(END)))
        .where(F.col("i_current_price") > 50)
        .where(F.col("p_channel_tv") == "N")
    )
    agg = joined.groupBy(entity_id).agg(
        F.sum(ext).alias("sales"),
        F.sum(F.coalesce(F.col(ret_amt), F.lit(0))).alias("returns"),
        F.sum(F.col(profit) - F.coalesce(F.col(loss), F.lit(0))).alias("profit"),
    )
    return agg.select(
        F.lit(label).alias("channel"),
        F.concat(F.lit(prefix), F.col(entity_id)).alias("id"),
        "sales",
        "returns",
        "profit",
    )


def solve(spark, tables) -> DataFrame:
    """Returns (channel, id, sales, returns, profit): entity rows, channel subtotals and a grand total
    (rollup NULLs), ordered by channel, id; first 100 rows."""
    d, i, p = tables["date_dim"], tables["item"], tables["promotion"]
    ssr = _channel(
        tables["store_sales"], tables["store_returns"], tables["store"],
        ("ss_item_sk", "ss_ticket_number", "sr_item_sk", "sr_ticket_number"),
        ("ss_sold_date_sk", "ss_store_sk", "s_store_sk", "ss_item_sk", "ss_promo_sk",
         "ss_ext_sales_price", "ss_net_profit", "sr_return_amt", "sr_net_loss"),
        "s_store_id", "store channel", "store", d, i, p,
    )
    csr = _channel(
        tables["catalog_sales"], tables["catalog_returns"], tables["catalog_page"],
        ("cs_item_sk", "cs_order_number", "cr_item_sk", "cr_order_number"),
        ("cs_sold_date_sk", "cs_catalog_page_sk", "cp_catalog_page_sk", "cs_item_sk", "cs_promo_sk",
         "cs_ext_sales_price", "cs_net_profit", "cr_return_amount", "cr_net_loss"),
        "cp_catalog_page_id", "catalog channel", "catalog_page", d, i, p,
    )
    wsr = _channel(
        tables["web_sales"], tables["web_returns"], tables["web_site"],
        ("ws_item_sk", "ws_order_number", "wr_item_sk", "wr_order_number"),
        ("ws_sold_date_sk", "ws_web_site_sk", "web_site_sk", "ws_item_sk", "ws_promo_sk",
         "ws_ext_sales_price", "ws_net_profit", "wr_return_amt", "wr_net_loss"),
        "web_site_id", "web channel", "web_site", d, i, p,
    )
    x = ssr.unionAll(csr).unionAll(wsr)
    out = x.rollup("channel", "id").agg(
        F.sum("sales").alias("sales"),
        F.sum("returns").alias("returns"),
        F.sum("profit").alias("profit"),
    )
    return out.orderBy(F.col("channel").asc(), F.col("id").asc()).limit(100)
