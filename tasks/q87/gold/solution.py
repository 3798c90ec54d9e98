"""Gold solution for q87: count of store (last name, first name, date) tuples absent from catalog and web."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def _tuples(sales, date_key, customer_key, date_dim, customer):
    """Distinct (c_last_name, c_first_name, d_date) of one channel's sales in months 1200..1211."""
    return (
        sales.join(date_dim, sales[date_key] == date_dim["d_date_sk"])
        .join(customer, sales[customer_key] == customer["c_customer_sk"])
        .where(F.col("d_month_seq").between(1200, 1200 + 11))
        .select("c_last_name", "c_first_name", "d_date")
        .distinct()
    )


def solve(spark, tables) -> DataFrame:
    """Returns one row, one bigint column count(1): |store - catalog - web| under set (EXCEPT) semantics."""
    d, c = tables["date_dim"], tables["customer"]
    store = _tuples(tables["store_sales"], "ss_sold_date_sk", "ss_customer_sk", d, c)
    catalog = _tuples(tables["catalog_sales"], "cs_sold_date_sk", "cs_bill_customer_sk", d, c)
    web = _tuples(tables["web_sales"], "ws_sold_date_sk", "ws_bill_customer_sk", d, c)
    cool = store.subtract(catalog).subtract(web)
    return cool.agg(F.count(F.lit(1)).alias("count(1)"))
