"""Customers whose catalog spending grew faster (2001 -> 2002) than their store and web spending."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

CUSTOMER_COLUMNS = ["c_customer_id", "c_first_name", "c_last_name", "c_preferred_cust_flag",
                    "c_birth_country", "c_login", "c_email_address"]
OUTPUT_NAMES = ["customer_id", "customer_first_name", "customer_last_name", "customer_preferred_cust_flag",
                "customer_birth_country", "customer_login", "customer_email_address"]


def _channel_rows(tables, table, channel, customer_key, prefix):
    """One row per sale: channel tag, customer key, sold date key and the spending amount."""
    sales = tables[table]
    spend = (
        (F.col(f"{prefix}_list_price") - F.col(f"{prefix}_ext_wholesale_cost") - F.col(f"{prefix}_ext_discount_amt"))
        + F.col(f"{prefix}_ext_sales_price")
    ) / 2
    return sales.select(
        F.lit(channel).alias("channel"),
        F.col(customer_key).alias("cust_sk"),
        F.col(f"{prefix}_sold_date_sk").alias("date_sk"),
        spend.alias("spend"),
    )


def solve(spark, tables) -> DataFrame:
    all_sales = (
        _channel_rows(tables, "store_sales", "s", "ss_customer_sk", "ss")
        .unionByName(_channel_rows(tables, "catalog_sales", "c", "cs_bill_customer_sk", "cs"))
        .unionByName(_channel_rows(tables, "web_sales", "w", "ws_bill_customer_sk", "ws"))
    )
    years = tables["date_dim"].where(F.col("d_year").isin(2001, 2002)).select("d_date_sk", "d_year")
    customers = tables["customer"].select("c_customer_sk", *CUSTOMER_COLUMNS)
    enriched = (
        all_sales.join(years, all_sales.date_sk == years.d_date_sk)
        .join(customers, all_sales.cust_sk == customers.c_customer_sk)
    )

    def total(channel, year):
        hit = (F.col("channel") == channel) & (F.col("d_year") == year)
        return F.sum(F.when(hit, F.col("spend"))).alias(f"{channel}{year}")

    per_customer = enriched.groupBy(*CUSTOMER_COLUMNS).agg(
        *[total(ch, y) for ch in ("s", "c", "w") for y in (2001, 2002)]
    )
    growing = (
        per_customer.where((F.col("s2001") > 0) & (F.col("c2001") > 0) & (F.col("w2001") > 0))
        .where(F.col("s2002").isNotNull() & F.col("c2002").isNotNull() & F.col("w2002").isNotNull())
        .withColumn("store_growth", F.col("s2002") / F.col("s2001"))
        .withColumn("catalog_growth", F.col("c2002") / F.col("c2001"))
        .withColumn("web_growth", F.col("w2002") / F.col("w2001"))
        .where((F.col("catalog_growth") >= F.col("store_growth")) & (F.col("catalog_growth") >= F.col("web_growth")))
    )
    result = growing.select(*[F.col(src).alias(dst) for src, dst in zip(CUSTOMER_COLUMNS, OUTPUT_NAMES)])
    return result.orderBy(*OUTPUT_NAMES).limit(100)
