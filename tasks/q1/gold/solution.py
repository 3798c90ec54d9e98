"""Gold solution for q1: customers whose year-2000 store returns exceed 120% of their store's average."""
from decimal import Decimal

from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def solve(spark, tables) -> DataFrame:
    """Returns c_customer_id of customers returning more than 1.2 x their store's average (TN stores), first 100 by id."""
    store_returns = tables["store_returns"]
    date_dim = tables["date_dim"]
    store = tables["store"]
    customer = tables["customer"]
    # Total returned amount per (customer, store) in 2000.
    ctr = (
        store_returns.join(date_dim, store_returns["sr_returned_date_sk"] == date_dim["d_date_sk"])
        .where(F.col("d_year") == 2000)
        .groupBy(F.col("sr_customer_sk").alias("ctr_customer_sk"), F.col("sr_store_sk").alias("ctr_store_sk"))
        .agg(F.sum("sr_return_amt").alias("ctr_total_return"))
    )
    # The correlated subquery: the store's average total return, times 1.2 (an exact decimal).
    store_avg = ctr.groupBy(F.col("ctr_store_sk").alias("avg_store_sk")).agg(
        (F.avg("ctr_total_return") * F.lit(Decimal("1.2"))).alias("threshold")
    )
    above = ctr.join(store_avg, ctr["ctr_store_sk"] == store_avg["avg_store_sk"]).where(
        F.col("ctr_total_return") > F.col("threshold")
    )
    out = (
        above.join(store, store["s_store_sk"] == above["ctr_store_sk"])
        .where(F.col("s_state") == "TN")
        .join(customer, above["ctr_customer_sk"] == customer["c_customer_sk"])
        .select("c_customer_id")
    )
    return out.orderBy("c_customer_id").limit(100)
