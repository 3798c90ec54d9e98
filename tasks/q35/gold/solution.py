"""Gold solution for q35: dependent-count statistics of store + (web or catalog) customers in 2002 Q1-Q3."""
from pyspark.sql import DataFrame, functions as F


def _buyers(tables, table: str, date_col: str, cust_col: str) -> DataFrame:
    """Customer keys (column buyer_sk) with a sale in 2002 quarters 1-3 in `table`."""
    dates = tables["date_dim"].filter((F.col("d_year") == 2002) & (F.col("d_qoy") < 4)).select("d_date_sk")
    sales = tables[table]
    return sales.join(dates, sales[date_col] == dates["d_date_sk"]).select(F.col(cust_col).alias("buyer_sk"))


def solve(spark, tables) -> DataFrame:
    """Returns the 17 columns (state, gender, marital status, counts and dependent statistics), ordered, first 100."""
    c = tables["customer"].select("c_customer_sk", "c_current_addr_sk", "c_current_cdemo_sk")
    ca = tables["customer_address"].select("ca_address_sk", "ca_state")
    cd = tables["customer_demographics"]
    store = _buyers(tables, "store_sales", "ss_sold_date_sk", "ss_customer_sk")
    other = _buyers(tables, "web_sales", "ws_sold_date_sk", "ws_bill_customer_sk") \
        .unionAll(_buyers(tables, "catalog_sales", "cs_sold_date_sk", "cs_ship_customer_sk"))
    c = c.join(store, c.c_customer_sk == store.buyer_sk, "left_semi") \
        .join(other, c.c_customer_sk == other.buyer_sk, "left_semi")
    j = c.join(ca, c.c_current_addr_sk == ca.ca_address_sk).join(cd, cd.cd_demo_sk == c.c_current_cdemo_sk)
    keys = ["ca_state", "cd_gender", "cd_marital_status", "cd_dep_count", "cd_dep_employed_count", "cd_dep_college_count"]
    n = F.count(F.lit(1))

    def stats(col):
        return [F.min(col).alias(f"min({col})"), F.max(col).alias(f"max({col})"), F.avg(col).alias(f"avg({col})")]

    g = j.groupBy(*keys).agg(
        n.alias("cnt1"), *stats("cd_dep_count"), n.alias("cnt2"), *stats("cd_dep_employed_count"),
        n.alias("cnt3"), *stats("cd_dep_college_count"))
    g = g.orderBy(*keys).limit(100)
    return g.select(
        "ca_state", "cd_gender", "cd_marital_status", "cnt1",
        "min(cd_dep_count)", "max(cd_dep_count)", "avg(cd_dep_count)",
        "cd_dep_employed_count", "cnt2",
        "min(cd_dep_employed_count)", "max(cd_dep_employed_count)", "avg(cd_dep_employed_count)",
        "cd_dep_college_count", "cnt3",
        "min(cd_dep_college_count)", "max(cd_dep_college_count)", "avg(cd_dep_college_count)")
