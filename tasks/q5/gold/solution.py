"""Gold solution for q5: 14-day sales/returns/profit per store, catalog page and web site, rolled up by channel."""
import datetime

from pyspark.sql import DataFrame, functions as F
from pyspark.sql.types import DecimalType

START = datetime.date(2000, 8, 23)
END = START + datetime.timedelta(days=14)


def _zero():
    """cast(0 AS DECIMAL(7,2)) (built lazily: needs an active session)."""
    return F.lit(0).cast(DecimalType(7, 2))


def _rows(df: DataFrame, entity, date, sales, profit, ret, loss) -> DataFrame:
    """Normalises one sales or returns table to (entity_sk, date_sk, sales_price, profit, return_amt, net_loss)."""
    return df.select(entity.alias("entity_sk"), date.alias("date_sk"), sales.alias("sales_price"),
                     profit.alias("profit"), ret.alias("return_amt"), loss.alias("net_loss"))


def _per_entity(tables, rows: DataFrame, dim: DataFrame, dim_sk: str, dim_id: str) -> DataFrame:
    """Window-filtered sums per entity business id."""
    dates = tables["date_dim"].filter(F.col("d_date").between(F.lit(START), F.lit(END))).select("d_date_sk")
    j = rows.join(dates, rows["date_sk"] == dates["d_date_sk"]).join(dim, rows["entity_sk"] == dim[dim_sk])
    return j.groupBy(dim[dim_id].alias("entity_id")).agg(
        F.sum("sales_price").alias("sales"), F.sum("profit").alias("profit"),
        F.sum("return_amt").alias("returns"), F.sum("net_loss").alias("profit_loss"))


def _channel(per_entity: DataFrame, label: str, prefix: str) -> DataFrame:
    return per_entity.select(
        F.lit(label).alias("channel"), F.concat(F.lit(prefix), F.col("entity_id")).alias("id"),
        F.col("sales"), F.col("returns"), (F.col("profit") - F.col("profit_loss")).alias("profit"))


def solve(spark, tables) -> DataFrame:
    """Returns channel, id, sales, returns, profit with ROLLUP(channel, id) rows, ordered, first 100."""
    ZERO = _zero()
    ss, sr = tables["store_sales"], tables["store_returns"]
    store_rows = _rows(ss, ss.ss_store_sk, ss.ss_sold_date_sk, ss.ss_ext_sales_price, ss.ss_net_profit, ZERO, ZERO) \
        .unionAll(_rows(sr, sr.sr_store_sk, sr.sr_returned_date_sk, ZERO, ZERO, sr.sr_return_amt, sr.sr_net_loss))
    cs, cr = tables["catalog_sales"], tables["catalog_returns"]
    cat_rows = _rows(cs, cs.cs_catalog_page_sk, cs.cs_sold_date_sk, cs.cs_ext_sales_price, cs.cs_net_profit, ZERO, ZERO) \
        .unionAll(_rows(cr, cr.cr_catalog_page_sk, cr.cr_returned_date_sk, ZERO, ZERO, cr.cr_return_amount, cr.cr_net_loss))
    ws, wr = tables["web_sales"], tables["web_returns"]
    wr_ws = wr.join(ws, (wr.wr_item_sk == ws.ws_item_sk) & (wr.wr_order_number == ws.ws_order_number), "left")
    web_rows = _rows(ws, ws.ws_web_site_sk, ws.ws_sold_date_sk, ws.ws_ext_sales_price, ws.ws_net_profit, ZERO, ZERO) \
        .unionAll(_rows(wr_ws, F.col("ws_web_site_sk"), F.col("wr_returned_date_sk"), ZERO, ZERO,
                        F.col("wr_return_amt"), F.col("wr_net_loss")))
    ssr = _per_entity(tables, store_rows, tables["store"], "s_store_sk", "s_store_id")
    csr = _per_entity(tables, cat_rows, tables["catalog_page"], "cp_catalog_page_sk", "cp_catalog_page_id")
    wsr = _per_entity(tables, web_rows, tables["web_site"], "web_site_sk", "web_site_id")
    x = (_channel(ssr, "store channel", "store")
         .unionAll(_channel(csr, "catalog channel", "catalog_page"))
         .unionAll(_channel(wsr, "web channel", "web_site")))
    out = x.rollup("channel", "id").agg(
        F.sum("sales").alias("sales"), F.sum("returns").alias("returns"), F.sum("profit").alias("profit"))
    return out.orderBy(F.col("channel").asc(), F.col("id").asc()).limit(100)
