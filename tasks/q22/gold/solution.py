"""Gold solution for q22: average quantity on hand over one year, rolled up product > brand > class > category."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def solve(spark, tables) -> DataFrame:
    """Returns the rollup of avg(inv_quantity_on_hand) by (product name, brand, class, category); the 100 lowest."""
    inv = tables["inventory"]
    d = tables["date_dim"]
    i = tables["item"]
    w = tables["warehouse"]
    joined = (
        inv.join(d, inv["inv_date_sk"] == d["d_date_sk"])
        .join(i, inv["inv_item_sk"] == i["i_item_sk"])
        .join(w, inv["inv_warehouse_sk"] == w["w_warehouse_sk"])
        .where(F.col("d_month_seq").between(1200, 1200 + 11))
    )
    out = joined.rollup("i_product_name", "i_brand", "i_class", "i_category").agg(
        F.avg("inv_quantity_on_hand").alias("qoh")
    )
    return out.orderBy("qoh", "i_product_name", "i_brand", "i_class", "i_category").limit(100)
