"""Demographic profiles of KY / GA / NM customers who bought in a store in April-June 2001 but
neither on the web nor through the catalog in that period."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

STATES = ("KY", "GA", "NM")
PROFILE = ["cd_gender", "cd_marital_status", "cd_education_status", "cd_purchase_estimate", "cd_credit_rating"]


def _period_buyers(sales: DataFrame, period: DataFrame, date_key: str, customer_key: str) -> DataFrame:
    """Distinct customer keys with at least one sale dated in the period."""
    return (
        sales.join(period, sales[date_key] == period["d_date_sk"])
        .select(F.col(customer_key).alias("buyer"))
        .where(F.col("buyer").isNotNull())
        .distinct()
    )


def solve(spark, tables) -> DataFrame:
    period = tables["date_dim"].where(
        (F.col("d_year") == 2001) & (F.col("d_moy") >= 4) & (F.col("d_moy") <= 6)
    ).select("d_date_sk")

    store_buyers = _period_buyers(tables["store_sales"], period, "ss_sold_date_sk", "ss_customer_sk")
    web_buyers = _period_buyers(tables["web_sales"], period, "ws_sold_date_sk", "ws_bill_customer_sk")
    catalog_buyers = _period_buyers(tables["catalog_sales"], period, "cs_sold_date_sk", "cs_bill_customer_sk")

    customers = tables["customer"]
    store_only = (
        customers.join(store_buyers, customers["c_customer_sk"] == store_buyers["buyer"], "left_semi")
        .join(web_buyers, customers["c_customer_sk"] == web_buyers["buyer"], "left_anti")
        .join(catalog_buyers, customers["c_customer_sk"] == catalog_buyers["buyer"], "left_anti")
    )

    addresses = tables["customer_address"].where(F.col("ca_state").isin(*STATES))
    demographics = tables["customer_demographics"]
    located = (
        store_only.join(addresses, store_only["c_current_addr_sk"] == addresses["ca_address_sk"])
        .join(demographics, store_only["c_current_cdemo_sk"] == demographics["cd_demo_sk"])
    )

    counted = located.groupBy(*PROFILE).agg(F.count("*").alias("cnt"))
    return counted.orderBy(*[F.col(c).asc() for c in PROFILE]).limit(100)
