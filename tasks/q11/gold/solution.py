"""Gold solution for q11: preferred flags of customers whose web growth 2001->2002 beats their store growth."""
from pyspark.sql import DataFrame, functions as F

ATTRS = [
    ("c_customer_id", "customer_id"), ("c_first_name", "customer_first_name"),
    ("c_last_name", "customer_last_name"), ("c_preferred_cust_flag", "customer_preferred_cust_flag"),
    ("c_birth_country", "customer_birth_country"), ("c_login", "customer_login"),
    ("c_email_address", "customer_email_address"),
]
CHANNELS = {  # table, prefix, customer key, list price, discount (named in full, as the task names them)
    "s": ("store_sales", "ss", "ss_customer_sk", "ss_ext_list_price", "ss_ext_discount_amt"),
    "w": ("web_sales", "ws", "ws_bill_customer_sk", "ws_ext_list_price", "ws_ext_discount_amt"),
}


def _year_total(tables, channel: str) -> DataFrame:
    """Per customer (attributes) and year: sum of (ext_list_price - ext_discount_amt)."""
    table, p, cust_key, list_price, discount = CHANNELS[channel]
    sales, cust = tables[table], tables["customer"]
    dates = tables["date_dim"].select("d_date_sk", "d_year")
    j = (sales.join(cust, sales[cust_key] == cust["c_customer_sk"])
         .join(dates, sales[f"{p}_sold_date_sk"] == dates["d_date_sk"]))
    g = j.groupBy(*[F.col(src).alias(dst) for src, dst in ATTRS], F.col("d_year").alias("dyear"))
    return g.agg(F.sum(F.col(list_price) - F.col(discount)).alias("year_total"))


def _pick(total: DataFrame, year: int, tag: str) -> DataFrame:
    return total.filter(F.col("dyear") == year).select(
        *[F.col(dst).alias(f"{tag}_{dst}") for _, dst in ATTRS], F.col("year_total").alias(f"{tag}_total"))


def solve(spark, tables) -> DataFrame:
    """Returns customer_preferred_cust_flag, one row per qualifying customer, ordered, first 100."""
    st, wt = _year_total(tables, "s"), _year_total(tables, "w")
    s1, s2, w1, w2 = _pick(st, 2001, "s1"), _pick(st, 2002, "s2"), _pick(wt, 2001, "w1"), _pick(wt, 2002, "w2")
    key = "s1_customer_id"
    j = (s1.join(s2, s2["s2_customer_id"] == s1[key])
         .join(w2, w2["w2_customer_id"] == s1[key])
         .join(w1, w1["w1_customer_id"] == s1[key]))
    j = j.filter((F.col("s1_total") > 0) & (F.col("w1_total") > 0))
    w_ratio = F.when(F.col("w1_total") > 0, F.col("w2_total") / F.col("w1_total"))
    s_ratio = F.when(F.col("s1_total") > 0, F.col("s2_total") / F.col("s1_total"))
    out = j.filter(w_ratio > s_ratio).select(F.col("s2_customer_preferred_cust_flag").alias("customer_preferred_cust_flag"))
    return out.orderBy("customer_preferred_cust_flag").limit(100)
