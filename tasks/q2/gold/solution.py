"""Gold solution for q2: day-of-week web+catalog sales ratios, 2001 weeks against the weeks 53 later."""
from pyspark.sql import DataFrame, functions as F

#: (d_day_name value, column prefix) in output order.
DAYS = [
    ("Sunday", "sun"), ("Monday", "mon"), ("Tuesday", "tue"), ("Wednesday", "wed"),
    ("Thursday", "thu"), ("Friday", "fri"), ("Saturday", "sat"),
]


def _weekly_totals(tables) -> DataFrame:
    """Pooled web+catalog extended sales price, one row per d_week_seq with seven weekday sums."""
    web = tables["web_sales"].select(
        F.col("ws_sold_date_sk").alias("sold_date_sk"), F.col("ws_ext_sales_price").alias("sales_price"))
    cat = tables["catalog_sales"].select(
        F.col("cs_sold_date_sk").alias("sold_date_sk"), F.col("cs_ext_sales_price").alias("sales_price"))
    pooled = web.unionAll(cat)
    dates = tables["date_dim"].select("d_date_sk", "d_week_seq", "d_day_name")
    joined = pooled.join(dates, pooled["sold_date_sk"] == dates["d_date_sk"])
    sums = [F.sum(F.when(F.col("d_day_name") == day, F.col("sales_price"))).alias(f"{p}_sales") for day, p in DAYS]
    return joined.groupBy("d_week_seq").agg(*sums)


def _year_weeks(tables, weekly: DataFrame, year: int, suffix: str) -> DataFrame:
    """Weekly totals joined to the date_dim days of `year` (day level: one row per matching day)."""
    days = tables["date_dim"].filter(F.col("d_year") == year).select(F.col("d_week_seq").alias("_day_week"))
    joined = weekly.join(days, weekly["d_week_seq"] == days["_day_week"])
    return joined.select(
        F.col("d_week_seq").alias(f"d_week_seq{suffix}"),
        *[F.col(f"{p}_sales").alias(f"{p}_sales{suffix}") for _, p in DAYS])


def solve(spark, tables) -> DataFrame:
    """Returns d_week_seq1 and seven rounded decimal ratios (first-year / second-year weekday totals)."""
    weekly = _weekly_totals(tables)
    y = _year_weeks(tables, weekly, 2001, "1")
    z = _year_weeks(tables, weekly, 2002, "2")
    pairs = y.join(z, y["d_week_seq1"] == z["d_week_seq2"] - 53)
    ratios = [
        F.round(F.col(f"{p}_sales1") / F.col(f"{p}_sales2"), 2).alias(f"round(({p}_sales1 / {p}_sales2), 2)")
        for _, p in DAYS
    ]
    return pairs.select(F.col("d_week_seq1"), *ratios).orderBy(F.col("d_week_seq1"))
