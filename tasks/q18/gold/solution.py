"""Gold solution for q18: averaged catalog purchases rolled up over item, country, state and county."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import DecimalType

DEC = DecimalType(12, 2)


def solve(spark, tables) -> DataFrame:
    """Returns (i_item_id, ca_country, ca_state, ca_county, agg1..agg7) with decimal(16,6) averages over a
    4-level rollup; first 100 rows by country, state, county, item."""
    cs = tables["catalog_sales"]
    cd1 = tables["customer_demographics"].alias("cd1")
    cd2 = tables["customer_demographics"].select(F.col("cd_demo_sk").alias("cd2_demo_sk"))
    c = tables["customer"]
    ca = tables["customer_address"]
    d = tables["date_dim"]
    i = tables["item"]
    j = (
        cs.join(d, cs["cs_sold_date_sk"] == d["d_date_sk"])
        .join(i, cs["cs_item_sk"] == i["i_item_sk"])
        .join(cd1, cs["cs_bill_cdemo_sk"] == F.col("cd1.cd_demo_sk"))
        .join(c, cs["cs_bill_customer_sk"] == c["c_customer_sk"])
        .join(cd2, c["c_current_cdemo_sk"] == cd2["cd2_demo_sk"])
        .join(ca, c["c_current_addr_sk"] == ca["ca_address_sk"])
        .where(F.col("cd1.cd_gender") == "F")
        .where(F.col("cd1.cd_education_status") == "Unknown")
        .where(F.col("c_birth_month").isin(1, 6, 8, 9, 12, 2))
        .where(F.col("d_year") == 1998)
        .where(F.col("ca_state").isin("MS", "IN", "ND", "OK", "NM", "VA", "MS"))
    )
    out = j.rollup("i_item_id", "ca_country", "ca_state", "ca_county").agg(
        F.avg(F.col("cs_quantity").cast(DEC)).alias("agg1"),
        F.avg(F.col("cs_list_price").cast(DEC)).alias("agg2"),
        F.avg(F.col("cs_coupon_amt").cast(DEC)).alias("agg3"),
        F.avg(F.col("cs_sales_price").cast(DEC)).alias("agg4"),
        F.avg(F.col("cs_net_profit").cast(DEC)).alias("agg5"),
        F.avg(F.col("c_birth_year").cast(DEC)).alias("agg6"),
        F.avg(F.col("cd1.cd_dep_count").cast(DEC)).alias("agg7"),
    )
    return out.orderBy(
        F.col("ca_country").asc(), F.col("ca_state").asc(), F.col("ca_county").asc(), F.col("i_item_id").asc()
    ).limit(100)
