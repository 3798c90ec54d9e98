"""Gold solution for q69: demographics of KY/GA/NM customers who bought only in stores in April-June 2001."""
from pyspark.sql import DataFrame, functions as F


def _buyers(tables, table: str, date_col: str, cust_col: str) -> DataFrame:
    """Customer keys (column buyer_sk) with a sale in 2001 months 4-6 in `table`."""
    dates = tables["date_dim"].filter((F.col("d_year") == 2001) & F.col("d_moy").between(4, 6)).select("d_date_sk")
    sales = tables[table]
    return sales.join(dates, sales[date_col] == dates["d_date_sk"]).select(F.col(cust_col).alias("buyer_sk"))


def solve(spark, tables) -> DataFrame:
    """Returns cd_gender, cd_marital_status, cd_education_status, cnt1, cd_purchase_estimate, cnt2,
    cd_credit_rating, cnt3, ordered by the five attributes, first 100."""
    c = tables["customer"].select("c_customer_sk", "c_current_addr_sk", "c_current_cdemo_sk")
    ca = tables["customer_address"].filter(F.col("ca_state").isin("KY", "GA", "NM")).select("ca_address_sk")
    cd = tables["customer_demographics"]
    store = _buyers(tables, "store_sales", "ss_sold_date_sk", "ss_customer_sk")
    web = _buyers(tables, "web_sales", "ws_sold_date_sk", "ws_bill_customer_sk")
    cat = _buyers(tables, "catalog_sales", "cs_sold_date_sk", "cs_ship_customer_sk")
    c = (c.join(store, c.c_customer_sk == store.buyer_sk, "left_semi")
         .join(web, c.c_customer_sk == web.buyer_sk, "left_anti")
         .join(cat, c.c_customer_sk == cat.buyer_sk, "left_anti"))
    j = c.join(ca, c.c_current_addr_sk == ca.ca_address_sk).join(cd, cd.cd_demo_sk == c.c_current_cdemo_sk)
    keys = ["cd_gender", "cd_marital_status", "cd_education_status", "cd_purchase_estimate", "cd_credit_rating"]
    n = F.count(F.lit(1))
    g = j.groupBy(*keys).agg(n.alias("cnt1"), n.alias("cnt2"), n.alias("cnt3"))
    out = g.select("cd_gender", "cd_marital_status", "cd_education_status", "cnt1",
                   "cd_purchase_estimate", "cnt2", "cd_credit_rating", "cnt3")
    return out.orderBy(*keys).limit(100)
