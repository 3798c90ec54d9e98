"""Cross-channel item groups that sold above the 1999-2001 average in November 2001, rolled up."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

KEYS = ["channel", "i_brand_id", "i_class_id", "i_category_id"]
SOURCES = [("store", "store_sales", "ss"), ("catalog", "catalog_sales", "cs"), ("web", "web_sales", "ws")]


def all_channel_sales(tables) -> DataFrame:
    """Every sale of the three channels as (channel, date_sk, item_sk, quantity, list_price)."""
    frames = []
    for label, table, p in SOURCES:
        frames.append(tables[table].select(
            F.lit(label).alias("channel"),
            F.col(p + "_sold_date_sk").alias("date_sk"),
            F.col(p + "_item_sk").alias("item_sk"),
            F.col(p + "_quantity").alias("quantity"),
            F.col(p + "_list_price").alias("list_price"),
        ))
    out = frames[0]
    for f in frames[1:]:
        out = out.unionByName(f)
    return out


def solve(spark, tables) -> DataFrame:
    dates = tables["date_dim"].select("d_date_sk", "d_year", "d_moy")
    items = tables["item"].select("i_item_sk", "i_brand_id", "i_class_id", "i_category_id")
    sales = all_channel_sales(tables).join(dates, F.col("date_sk") == F.col("d_date_sk"))
    three_years = sales.where((F.col("d_year") >= 1999) & (F.col("d_year") <= 2001))

    # brand/class/category combinations sold in every channel during 1999-2001, and their items
    combos = (three_years.join(items, F.col("item_sk") == F.col("i_item_sk"))
              .groupBy("i_brand_id", "i_class_id", "i_category_id")
              .agg(F.countDistinct("channel").alias("channels"))
              .where(F.col("channels") == 3)
              .drop("channels"))
    cross_items = items.join(combos, ["i_brand_id", "i_class_id", "i_category_id"]).select(F.col("i_item_sk").alias("cross_sk"))

    # average value of one sale over all three channels, 1999-2001
    threshold = three_years.agg(F.avg(F.col("quantity") * F.col("list_price")).alias("avg_sale"))

    november = (sales.where((F.col("d_year") == 2001) & (F.col("d_moy") == 11))
                .join(cross_items, F.col("item_sk") == F.col("cross_sk"), "left_semi")
                .join(items, F.col("item_sk") == F.col("i_item_sk")))
    per_group = november.groupBy(*KEYS).agg(
        F.sum(F.col("quantity") * F.col("list_price")).alias("sales"),
        F.count(F.lit(1)).alias("number_sales"))
    above = per_group.crossJoin(threshold).where(F.col("sales") > F.col("avg_sale")).drop("avg_sale")

    report = above.rollup(*KEYS).agg(
        F.sum("sales").alias("total_sales"),
        F.sum("number_sales").alias("number_sales"))
    # subtotal rows come after the rows they summarise, the grand total last
    return report.orderBy(*[F.col(k).asc_nulls_last() for k in KEYS]).limit(100)
