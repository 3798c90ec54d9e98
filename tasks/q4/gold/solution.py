"""Gold solution for q4: customers whose catalog growth 2001->2002 beats their store and web growth."""
from pyspark.sql import DataFrame, functions as F

#: Output names of the customer attributes (source column -> output name).
ATTRS = [
    ("c_customer_id", "customer_id"), ("c_first_name", "customer_first_name"),
    ("c_last_name", "customer_last_name"), ("c_preferred_cust_flag", "customer_preferred_cust_flag"),
    ("c_birth_country", "customer_birth_country"), ("c_login", "customer_login"),
    ("c_email_address", "customer_email_address"),
]
#: channel code -> (sales table, customer key column, sold date key column,
#: (extended list price, extended wholesale cost, extended discount amount, extended sales price))
CHANNELS = {
    "s": ("store_sales", "ss_customer_sk", "ss_sold_date_sk",
          ("ss_ext_list_price", "ss_ext_wholesale_cost", "ss_ext_discount_amt", "ss_ext_sales_price")),
    "c": ("catalog_sales", "cs_bill_customer_sk", "cs_sold_date_sk",
          ("cs_ext_list_price", "cs_ext_wholesale_cost", "cs_ext_discount_amt", "cs_ext_sales_price")),
    "w": ("web_sales", "ws_bill_customer_sk", "ws_sold_date_sk",
          ("ws_ext_list_price", "ws_ext_wholesale_cost", "ws_ext_discount_amt", "ws_ext_sales_price")),
}


def _year_total(tables, channel: str) -> DataFrame:
    """Per customer (attributes) and year: sum of ((ext_list - ext_wholesale - ext_discount) + ext_sales) / 2."""
    table, cust_key, date_key, (ext_list, ext_wholesale, ext_discount, ext_sales) = CHANNELS[channel]
    sales = tables[table]
    cust = tables["customer"]
    dates = tables["date_dim"].select("d_date_sk", "d_year")
    j = (sales.join(cust, sales[cust_key] == cust["c_customer_sk"])
         .join(dates, sales[date_key] == dates["d_date_sk"]))
    amount = ((F.col(ext_list) - F.col(ext_wholesale) - F.col(ext_discount)) + F.col(ext_sales)) / 2
    g = j.groupBy(*[F.col(src).alias(dst) for src, dst in ATTRS], F.col("d_year").alias("dyear"))
    return g.agg(F.sum(amount).alias("year_total"))


def _pick(total: DataFrame, year: int, tag: str) -> DataFrame:
    """One (channel, year) slice, columns prefixed with `tag`."""
    return total.filter(F.col("dyear") == year).select(
        *[F.col(dst).alias(f"{tag}_{dst}") for _, dst in ATTRS], F.col("year_total").alias(f"{tag}_total"))


def _ratio(first: str, second: str):
    """CASE WHEN first > 0 THEN second / first ELSE NULL END, in exact decimals."""
    return F.when(F.col(first) > 0, F.col(second) / F.col(first))


def solve(spark, tables) -> DataFrame:
    """Returns the seven customer_* columns of qualifying customers, ordered, first 100."""
    totals = {ch: _year_total(tables, ch) for ch in CHANNELS}
    s1, s2 = _pick(totals["s"], 2001, "s1"), _pick(totals["s"], 2002, "s2")
    c1, c2 = _pick(totals["c"], 2001, "c1"), _pick(totals["c"], 2002, "c2")
    w1, w2 = _pick(totals["w"], 2001, "w1"), _pick(totals["w"], 2002, "w2")
    key = "s1_customer_id"
    j = (s1.join(s2, s2["s2_customer_id"] == s1[key])
         .join(c2, c2["c2_customer_id"] == s1[key])
         .join(c1, c1["c1_customer_id"] == s1[key])
         .join(w1, w1["w1_customer_id"] == s1[key])
         .join(w2, w2["w2_customer_id"] == s1[key]))
    j = j.filter((F.col("s1_total") > 0) & (F.col("c1_total") > 0) & (F.col("w1_total") > 0))
    c_ratio = _ratio("c1_total", "c2_total")
    j = j.filter((c_ratio > _ratio("s1_total", "s2_total")) & (c_ratio > _ratio("w1_total", "w2_total")))
    out = j.select(*[F.col(f"s2_{dst}").alias(dst) for _, dst in ATTRS])
    return out.orderBy(*[F.col(dst) for _, dst in ATTRS]).limit(100)
