"""Gold solution for q94: distinct order count, shipping cost and net profit of unreturned multi-warehouse IL web orders."""
import datetime

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

START = datetime.date(1999, 2, 1)
END = START + datetime.timedelta(days=60)


def solve(spark, tables) -> DataFrame:
    """Returns one row with the columns 'order count ', 'total shipping cost ', 'total net profit '."""
    ws1 = tables["web_sales"].alias("ws1")
    ws2 = tables["web_sales"].select(
        F.col("ws_order_number").alias("ws2_order_number"), F.col("ws_warehouse_sk").alias("ws2_warehouse_sk")
    )
    wr1 = tables["web_returns"].select(F.col("wr_order_number"))
    d, ca, web = tables["date_dim"], tables["customer_address"], tables["web_site"]
    j = (
        ws1.join(d, F.col("ws1.ws_ship_date_sk") == d["d_date_sk"])
        .join(ca, F.col("ws1.ws_ship_addr_sk") == ca["ca_address_sk"])
        .join(web, F.col("ws1.ws_web_site_sk") == web["web_site_sk"])
        .where(F.col("d_date").between(F.lit(START), F.lit(END)))
        .where(F.col("ca_state") == "IL")
        .where(F.col("web_company_name") == "pri")
    )
    j = j.join(
        ws2,
        (F.col("ws1.ws_order_number") == ws2["ws2_order_number"])
        & (F.col("ws1.ws_warehouse_sk") != ws2["ws2_warehouse_sk"]),
        "left_semi",
    )
    j = j.join(wr1, F.col("ws1.ws_order_number") == wr1["wr_order_number"], "left_anti")
    out = j.agg(
        F.countDistinct(F.col("ws1.ws_order_number")).alias("order count "),
        F.sum(F.col("ws1.ws_ext_ship_cost")).alias("total shipping cost "),
        F.sum(F.col("ws1.ws_net_profit")).alias("total net profit "),
    )
    return out.orderBy(F.col("order count ")).limit(100)
