"""Gold solution for q13: averages of 2001 store sales matching demographic and regional profiles."""
from decimal import Decimal

from pyspark.sql import DataFrame, functions as F


def _between(col: str, lo, hi):
    return F.col(col).between(F.lit(lo), F.lit(hi))


def solve(spark, tables) -> DataFrame:
    """Returns one row: avg(ss_quantity), avg(ss_ext_sales_price), avg(ss_ext_wholesale_cost), sum(ss_ext_wholesale_cost)."""
    ss = tables["store_sales"]
    store = tables["store"].select("s_store_sk")
    dates = tables["date_dim"].filter(F.col("d_year") == 2001).select("d_date_sk")
    cd = tables["customer_demographics"].select("cd_demo_sk", "cd_marital_status", "cd_education_status")
    hd = tables["household_demographics"].select("hd_demo_sk", "hd_dep_count")
    ca = tables["customer_address"].select("ca_address_sk", "ca_country", "ca_state")
    j = (ss.join(store, ss.ss_store_sk == store.s_store_sk)
         .join(dates, ss.ss_sold_date_sk == dates.d_date_sk)
         .join(cd, ss.ss_cdemo_sk == cd.cd_demo_sk)
         .join(hd, ss.ss_hdemo_sk == hd.hd_demo_sk)
         .join(ca, ss.ss_addr_sk == ca.ca_address_sk))
    demo = (
        ((F.col("cd_marital_status") == "M") & (F.col("cd_education_status") == "Advanced Degree")
         & _between("ss_sales_price", Decimal("100.00"), Decimal("150.00")) & (F.col("hd_dep_count") == 3))
        | ((F.col("cd_marital_status") == "S") & (F.col("cd_education_status") == "College")
           & _between("ss_sales_price", Decimal("50.00"), Decimal("100.00")) & (F.col("hd_dep_count") == 1))
        | ((F.col("cd_marital_status") == "W") & (F.col("cd_education_status") == "2 yr Degree")
           & _between("ss_sales_price", Decimal("150.00"), Decimal("200.00")) & (F.col("hd_dep_count") == 1)))
    us = F.col("ca_country") == "United States"
    region = (
        (us & F.col("ca_state").isin("TX", "OH", "TX") & _between("ss_net_profit", 100, 200))
        | (us & F.col("ca_state").isin("OR", "NM", "KY") & _between("ss_net_profit", 150, 300))
        | (us & F.col("ca_state").isin("VA", "TX", "MS") & _between("ss_net_profit", 50, 250)))
    return j.filter(demo & region).agg(
        F.avg("ss_quantity").alias("avg(ss_quantity)"),
        F.avg("ss_ext_sales_price").alias("avg(ss_ext_sales_price)"),
        F.avg("ss_ext_wholesale_cost").alias("avg(ss_ext_wholesale_cost)"),
        F.sum("ss_ext_wholesale_cost").alias("sum(ss_ext_wholesale_cost)"))
