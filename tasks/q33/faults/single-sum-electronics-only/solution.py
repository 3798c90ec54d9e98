"""Manufacturers of Electronics items: their May 1998 sales to GMT-5 customers over every channel."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def _channel_rows(df: DataFrame, item_col: str, date_col: str, addr_col: str, amount_col: str) -> DataFrame:
    """One channel's sales in a common shape: item, date, customer address, amount."""
    return df.select(
        F.col(item_col).alias("item_sk"),
        F.col(date_col).alias("date_sk"),
        F.col(addr_col).alias("addr_sk"),
        F.col(amount_col).alias("amount"),
    )


def solve(spark, tables) -> DataFrame:
    all_sales = (
        _channel_rows(tables["store_sales"], "ss_item_sk", "ss_sold_date_sk", "ss_addr_sk", "ss_ext_sales_price")
        .unionByName(_channel_rows(tables["catalog_sales"], "cs_item_sk", "cs_sold_date_sk", "cs_bill_addr_sk", "cs_ext_sales_price"))
        .unionByName(_channel_rows(tables["web_sales"], "ws_item_sk", "ws_sold_date_sk", "ws_bill_addr_sk", "ws_ext_sales_price"))
    )

    may_1998 = tables["date_dim"].where((F.col("d_year") == 1998) & (F.col("d_moy") == 5)).select("d_date_sk")
    gmt_minus_5 = tables["customer_address"].where(F.col("ca_gmt_offset") == -5).select("ca_address_sk")
    electronics = tables["item"].where(F.col("i_category") == "Electronics").select("i_item_sk", "i_manufact_id")

    matched = (
        all_sales.join(may_1998, all_sales["date_sk"] == may_1998["d_date_sk"])
        .join(gmt_minus_5, all_sales["addr_sk"] == gmt_minus_5["ca_address_sk"])
        .join(electronics, all_sales["item_sk"] == electronics["i_item_sk"])
    )
    per_maker = matched.groupBy("i_manufact_id").agg(F.sum("amount").alias("total_sales"))
    return per_maker.orderBy(F.col("total_sales").asc()).limit(100)
