"""Gold solution for q14b: store groups of cross-channel items, week of 2000-12-11 against the week of 1999-12-11."""
from pyspark.sql import DataFrame, functions as F

#: channel -> (sales table, item key, sold date key, quantity, list price), every column named in full
CHANNELS = {
    "store": ("store_sales", "ss_item_sk", "ss_sold_date_sk", "ss_quantity", "ss_list_price"),
    "catalog": ("catalog_sales", "cs_item_sk", "cs_sold_date_sk", "cs_quantity", "cs_list_price"),
    "web": ("web_sales", "ws_item_sk", "ws_sold_date_sk", "ws_quantity", "ws_list_price"),
}


def _years(tables, lo: int, hi: int) -> DataFrame:
    return tables["date_dim"].filter(F.col("d_year").between(lo, hi)).select("d_date_sk")


def cross_items(tables) -> DataFrame:
    """Item keys (column ss_item_sk) of items whose (brand, class, category) sold in all three channels in 1999-2001."""
    combos = None
    for table, item_sk, date_sk, _, _ in CHANNELS.values():
        sales = tables[table].select(item_sk, date_sk)
        item = tables["item"].select("i_item_sk", "i_brand_id", "i_class_id", "i_category_id")
        dates = _years(tables, 1999, 2001)
        c = (sales.join(item, sales[item_sk] == item["i_item_sk"])
             .join(dates, sales[date_sk] == dates["d_date_sk"])
             .select(F.col("i_brand_id").alias("brand_id"), F.col("i_class_id").alias("class_id"),
                     F.col("i_category_id").alias("category_id")))
        combos = c if combos is None else combos.intersect(c)
    item = tables["item"].select("i_item_sk", "i_brand_id", "i_class_id", "i_category_id")
    j = item.join(combos, (item["i_brand_id"] == combos["brand_id"]) & (item["i_class_id"] == combos["class_id"])
                  & (item["i_category_id"] == combos["category_id"]))
    return j.select(F.col("i_item_sk").alias("ss_item_sk"))


def average_sales(tables) -> DataFrame:
    """One row, column average_sales: mean of quantity * list_price over all 1999-2001 sale rows of the three channels."""
    parts = None
    for table, _, date_sk, quantity, list_price in CHANNELS.values():
        sales = tables[table]
        dates = _years(tables, 1999, 2001)
        x = sales.join(dates, sales[date_sk] == dates["d_date_sk"]).select(
            F.col(quantity).alias("quantity"), F.col(list_price).alias("list_price"))
        parts = x if parts is None else parts.unionAll(x)
    return parts.agg(F.avg(F.col("quantity") * F.col("list_price")).alias("average_sales"))


def channel_groups(tables, channel: str, dates: DataFrame, crossing: DataFrame, avg: DataFrame) -> DataFrame:
    """One channel's (brand, class, category) groups over `dates` for cross items, kept when sales > average."""
    table, item_sk, date_sk, quantity, list_price = CHANNELS[channel]
    members = crossing.select(F.col("ss_item_sk").alias("cross_item_sk"))
    sales = tables[table].join(members, F.col(item_sk) == members["cross_item_sk"], "left_semi")
    item = tables["item"].select("i_item_sk", "i_brand_id", "i_class_id", "i_category_id")
    j = (sales.join(item, sales[item_sk] == item["i_item_sk"])
         .join(dates, sales[date_sk] == dates["d_date_sk"]))
    g = j.groupBy("i_brand_id", "i_class_id", "i_category_id").agg(
        F.sum(F.col(quantity) * F.col(list_price)).alias("sales"),
        F.count(F.lit(1)).alias("number_sales"))
    g = g.crossJoin(avg).filter(F.col("sales") > F.col("average_sales"))
    return g.select(F.lit(channel).alias("channel"), "i_brand_id", "i_class_id", "i_category_id", "sales", "number_sales")


def _week_of(tables, year: int, moy: int, dom: int) -> DataFrame:
    """The date keys of the week (d_week_seq) containing the given day."""
    dd = tables["date_dim"]
    target = dd.filter((F.col("d_year") == year) & (F.col("d_moy") == moy) & (F.col("d_dom") == dom)) \
        .select(F.col("d_week_seq").alias("target_week"))
    return dd.join(target, dd["d_week_seq"] == target["target_week"]).select("d_date_sk")


COLS = ["channel", "i_brand_id", "i_class_id", "i_category_id", "sales", "number_sales"]


def solve(spark, tables) -> DataFrame:
    """Returns this year's six columns followed by last year's six (same names), ordered, first 100."""
    crossing, avg = cross_items(tables), average_sales(tables)
    ty = channel_groups(tables, "store", _week_of(tables, 2000, 12, 11), crossing, avg).alias("ty")
    ly = channel_groups(tables, "store", _week_of(tables, 1999, 12, 11), crossing, avg).alias("ly")
    j = ty.join(ly, (F.col("ty.i_brand_id") == F.col("ly.i_brand_id"))
                & (F.col("ty.i_class_id") == F.col("ly.i_class_id"))
                & (F.col("ty.i_category_id") == F.col("ly.i_category_id")))
    ordered = j.orderBy(F.col("ty.channel"), F.col("ty.i_brand_id"), F.col("ty.i_class_id"),
                        F.col("ty.i_category_id")).limit(100)
    return ordered.select(*[F.col(f"ty.{c}") for c in COLS], *[F.col(f"ly.{c}") for c in COLS])
