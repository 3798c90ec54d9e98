"""Preferred-customer flags of the customers whose web spending grew faster than their store spending."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

KEYS = ["c_customer_id", "c_first_name", "c_last_name", "c_preferred_cust_flag", "c_birth_country", "c_login", "c_email_address"]


def _yearly(tables, table, customer_col, date_col, list_col, discount_col, tag):
    """Per customer: the channel's 2001 and 2002 totals of list price minus discount (0 when none)."""
    years = tables["date_dim"].where(F.col("d_year").isin(2001, 2002)).select("d_date_sk", "d_year")
    people = tables["customer"].select("c_customer_sk", *KEYS)
    sales = (tables[table].join(years, F.col(date_col) == F.col("d_date_sk"))
             .join(people, F.col(customer_col) == F.col("c_customer_sk")))
    amount = F.col(list_col) - F.col(discount_col)
    return sales.groupBy(*KEYS).agg(
        F.coalesce(F.sum(F.when(F.col("d_year") == 2001, amount)), F.lit(0)).alias(f"{tag}_2001"),
        F.coalesce(F.sum(F.when(F.col("d_year") == 2002, amount)), F.lit(0)).alias(f"{tag}_2002"),
    )


def solve(spark, tables) -> DataFrame:
    store = _yearly(tables, "store_sales", "ss_customer_sk", "ss_sold_date_sk", "ss_ext_list_price", "ss_ext_discount_amt", "store")
    web = _yearly(tables, "web_sales", "ws_bill_customer_sk", "ws_sold_date_sk", "ws_ext_list_price", "ws_ext_discount_amt", "web")
    both = store.join(web.select(F.col("c_customer_id").alias("web_customer_id"), "web_2001", "web_2002"),
                      F.col("c_customer_id") == F.col("web_customer_id"))
    growing = (both.where((F.col("store_2001") > 0) & (F.col("web_2001") > 0))
               .where(F.col("web_2002") / F.col("web_2001") > F.col("store_2002") / F.col("store_2001")))
    flags = growing.select(F.col("c_preferred_cust_flag").alias("customer_preferred_cust_flag"))
    return flags.orderBy(F.col("customer_preferred_cust_flag").asc_nulls_last()).limit(100)
