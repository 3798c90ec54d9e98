"""Store sales of cross-channel item groups: the week of 2000-12-11 against the week of 1999-12-11."""
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

GROUP = ["i_brand_id", "i_class_id", "i_category_id"]


def _sold(tables, table: str, prefix: str) -> DataFrame:
    return tables[table].select(
        F.col(f"{prefix}_sold_date_sk").alias("date_sk"),
        F.col(f"{prefix}_item_sk").alias("item_sk"),
        F.col(f"{prefix}_quantity").alias("qty"),
        F.col(f"{prefix}_list_price").alias("price"),
    )


def solve(spark, tables) -> DataFrame:
    date_dim = tables["date_dim"]
    item = tables["item"].select("i_item_sk", *GROUP)
    years = date_dim.where(F.col("d_year").between(1999, 2001)).select("d_date_sk")
    store = _sold(tables, "store_sales", "ss")
    catalog = _sold(tables, "catalog_sales", "cs")
    web = _sold(tables, "web_sales", "ws")

    def combos(sales: DataFrame) -> DataFrame:
        return (sales.join(years, sales["date_sk"] == years["d_date_sk"])
                .join(item, F.col("item_sk") == F.col("i_item_sk"))
                .select(*GROUP).distinct())

    shared = combos(store).join(combos(catalog), GROUP).join(combos(web), GROUP)
    cross = item.join(shared, GROUP).select(F.col("i_item_sk").alias("cross_item"))

    everything = store.unionByName(catalog).unionByName(web)
    average = (everything.join(years, everything["date_sk"] == years["d_date_sk"])
               .agg(F.avg(F.col("qty") * F.col("price")).alias("average_sale")))

    def week_groups(year: int, prefix: str) -> DataFrame:
        # the reference day of the comparison: December 11th of the year
        day = date_dim.where((F.col("d_year") == year) & (F.col("d_moy") == 12) & (F.col("d_dom") == 11)).select("d_date_sk")
        groups = (store.join(day, store["date_sk"] == day["d_date_sk"])
                  .join(cross, F.col("item_sk") == F.col("cross_item"), "left_semi")
                  .join(item, F.col("item_sk") == F.col("i_item_sk"))
                  .groupBy(*GROUP)
                  .agg(F.sum(F.col("qty") * F.col("price")).alias(f"{prefix}_sales"),
                       F.count("*").alias(f"{prefix}_number_sales")))
        return groups.crossJoin(average).where(F.col(f"{prefix}_sales") > F.col("average_sale")).drop("average_sale")

    this_year = week_groups(2000, "ty")
    last_year = week_groups(1999, "ly")
    report = this_year.join(last_year, GROUP).select(
        F.lit("store").alias("channel"), *GROUP, "ty_sales", "ty_number_sales", "ly_sales", "ly_number_sales")
    return report.orderBy("channel", *GROUP).limit(100)
