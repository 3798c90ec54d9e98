"""Gold solution for q33: May 1998 GMT-5 sales of Electronics manufacturers over three channels."""
from pyspark.sql import DataFrame, functions as F

#: (sales table, item key, sold date key, address key, extended sales price)
CHANNELS = [("store_sales", "ss_item_sk", "ss_sold_date_sk", "ss_addr_sk", "ss_ext_sales_price"),
            ("catalog_sales", "cs_item_sk", "cs_sold_date_sk", "cs_bill_addr_sk", "cs_ext_sales_price"),
            ("web_sales", "ws_item_sk", "ws_sold_date_sk", "ws_bill_addr_sk", "ws_ext_sales_price")]


def _channel_total(tables, table: str, item_key: str, date_key: str, addr_key: str, price: str) -> DataFrame:
    """Per manufacturer id: sum of the channel's ext_sales_price (decimal(17,2))."""
    makers = tables["item"].filter(F.col("i_category").isin("Electronics")) \
        .select(F.col("i_manufact_id").alias("maker_id"))
    item = tables["item"].select("i_item_sk", "i_manufact_id") \
        .join(makers, F.col("i_manufact_id") == makers["maker_id"], "left_semi")
    dates = tables["date_dim"].filter((F.col("d_year") == 1998) & (F.col("d_moy") == 5)).select("d_date_sk")
    addr = tables["customer_address"].filter(F.col("ca_gmt_offset") == -5).select("ca_address_sk")
    sales = tables[table]
    j = (sales.join(item, sales[item_key] == item["i_item_sk"])
         .join(dates, sales[date_key] == dates["d_date_sk"])
         .join(addr, sales[addr_key] == addr["ca_address_sk"]))
    return j.groupBy("i_manufact_id").agg(F.sum(price).alias("total_sales"))


def solve(spark, tables) -> DataFrame:
    """Returns i_manufact_id, total_sales (decimal(27,2)), ordered by total_sales, first 100."""
    parts = [_channel_total(tables, *c) for c in CHANNELS]
    tmp = parts[0].unionAll(parts[1]).unionAll(parts[2])
    out = tmp.groupBy("i_manufact_id").agg(F.sum("total_sales").alias("total_sales"))
    return out.orderBy(F.col("total_sales")).limit(100)
