"""Gold solution for q17: quantity statistics of 2001Q1 store sales returned and re-bought by catalog."""
from pyspark.sql import DataFrame, functions as F


def _dates(tables, quarters, name: str) -> DataFrame:
    return tables["date_dim"].filter(F.col("d_quarter_name").isin(*quarters)).select(F.col("d_date_sk").alias(name))


def _stats(col: str, prefix: str, stdev_is_cov: bool = False, count_prefix: str = None):
    """count, ave, stdev, cov columns of one quantity (names per the reference report)."""
    cp = count_prefix or prefix
    avg, sd = F.avg(col), F.stddev_samp(col)
    return [
        F.count(col).alias(f"{cp}_quantitycount"),
        avg.alias(f"{cp}_quantityave"),
        (sd / avg if stdev_is_cov else sd).alias(f"{cp}_quantitystdev"),
        (sd / avg).alias(f"{prefix}_quantitycov"),
    ]


def solve(spark, tables) -> DataFrame:
    """Returns i_item_id, i_item_desc, s_state and 12 statistics, ordered, first 100."""
    ss, sr, cs = tables["store_sales"], tables["store_returns"], tables["catalog_sales"]
    d1 = _dates(tables, ["2001Q1"], "d1_sk")
    d2 = _dates(tables, ["2001Q1", "2001Q2", "2001Q3"], "d2_sk")
    d3 = _dates(tables, ["2001Q1", "2001Q2", "2001Q3"], "d3_sk")
    store = tables["store"].select("s_store_sk", "s_state")
    item = tables["item"].select("i_item_sk", "i_item_id", "i_item_desc")
    j = (ss.join(d1, ss.ss_sold_date_sk == d1.d1_sk)
         .join(item, item.i_item_sk == ss.ss_item_sk)
         .join(store, store.s_store_sk == ss.ss_store_sk)
         .join(sr, (ss.ss_customer_sk == sr.sr_customer_sk) & (ss.ss_item_sk == sr.sr_item_sk)
               & (ss.ss_ticket_number == sr.sr_ticket_number))
         .join(d2, sr.sr_returned_date_sk == d2.d2_sk)
         .join(cs, (sr.sr_customer_sk == cs.cs_bill_customer_sk) & (sr.sr_item_sk == cs.cs_item_sk))
         .join(d3, cs.cs_sold_date_sk == d3.d3_sk))
    stats = (_stats("ss_quantity", "store_sales")
             + _stats("sr_return_quantity", "store_returns", count_prefix="as_store_returns")
             + _stats("cs_quantity", "catalog_sales", stdev_is_cov=True))
    keys = ["i_item_id", "i_item_desc", "s_state"]
    return j.groupBy(*keys).agg(*stats).orderBy(*keys).limit(100)
