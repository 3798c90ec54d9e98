from decimal import Decimal

from pyspark.sql import types as T

from solution import solve

PRICE = T.DecimalType(7, 2)
CUSTOMER = T.StructType([T.StructField("c_customer_sk", T.IntegerType())] + [
    T.StructField(c, T.StringType()) for c in ("c_customer_id", "c_first_name", "c_last_name", "c_preferred_cust_flag",
                                               "c_birth_country", "c_login", "c_email_address")])
DATES = T.StructType([T.StructField("d_date_sk", T.IntegerType()), T.StructField("d_year", T.IntegerType())])
STORE = T.StructType([T.StructField("ss_sold_date_sk", T.IntegerType()), T.StructField("ss_customer_sk", T.IntegerType()),
                      T.StructField("ss_ext_list_price", PRICE), T.StructField("ss_ext_discount_amt", PRICE),
                      T.StructField("ss_ext_sales_price", PRICE)])
WEB = T.StructType([T.StructField("ws_sold_date_sk", T.IntegerType()), T.StructField("ws_bill_customer_sk", T.IntegerType()),
                    T.StructField("ws_ship_customer_sk", T.IntegerType()), T.StructField("ws_ext_list_price", PRICE),
                    T.StructField("ws_ext_discount_amt", PRICE), T.StructField("ws_ext_sales_price", PRICE)])
DATE_KEY = {2000: 10, 2001: 11, 2002: 12}


def store_sale(customer, year, list_price, discount=0):
    lp, d = Decimal(list_price), Decimal(discount)
    return (DATE_KEY[year], customer, lp, d, lp - d)


def web_sale(customer, year, list_price, discount=0):
    lp, d = Decimal(list_price), Decimal(discount)
    return (DATE_KEY[year], customer, customer, lp, d, lp - d)


def run(spark, flags, store, web):
    people = [(k, f"CUST{k}", f"Name{k}", f"Surname{k}", flag, "FRANCE", f"login{k}", f"mail{k}@example.org")
              for k, flag in flags.items()]
    tables = {
        "customer": spark.createDataFrame(people, CUSTOMER),
        "date_dim": spark.createDataFrame([(v, y) for y, v in DATE_KEY.items()], DATES),
        "store_sales": spark.createDataFrame(store, STORE),
        "web_sales": spark.createDataFrame(web, WEB),
    }
    return solve(spark, tables)


def flags_of(df):
    return [r[0] for r in df.collect()]


def steady_store(customer):
    return [store_sale(customer, 2001, 100), store_sale(customer, 2002, 100)]


def doubled_web(customer):
    return [web_sale(customer, 2001, 50), web_sale(customer, 2002, 100)]


def test_output_column(spark):
    out = run(spark, {1: "Y"}, steady_store(1), doubled_web(1))
    assert out.columns == ["customer_preferred_cust_flag"]


def test_web_growth_must_beat_store_growth(spark):
    # 1: web 2x, store 1x -> kept. 2: store 3x -> dropped. 3: web 2x, store 2x -> not faster, dropped.
    store = steady_store(1) + [store_sale(2, 2001, 100), store_sale(2, 2002, 300),
                               store_sale(3, 2001, 100), store_sale(3, 2002, 200)]
    web = doubled_web(1) + doubled_web(2) + doubled_web(3)
    assert flags_of(run(spark, {1: "Y", 2: "N", 3: "E"}, store, web)) == ["Y"]


def test_customer_without_2002_store_spending(spark):
    # No store sale in 2002: store spending fell to 0 while web spending doubled.
    store = [store_sale(1, 2001, 100)]
    assert flags_of(run(spark, {1: "Y"}, store, doubled_web(1))) == ["Y"]


def test_flags_sorted_ascending(spark):
    flags = {1: "N", 2: "Y", 3: "A"}
    store = [s for k in flags for s in steady_store(k)]
    web = [w for k in flags for w in doubled_web(k)]
    assert flags_of(run(spark, flags, store, web)) == ["A", "N", "Y"]


def test_missing_flag_sorts_last(spark):
    flags = {1: None, 2: "N"}
    store = [s for k in flags for s in steady_store(k)]
    web = [w for k in flags for w in doubled_web(k)]
    assert flags_of(run(spark, flags, store, web)) == ["N", None]


def test_2001_totals_must_be_positive(spark):
    # 2's 2001 store total is 10 - 10 = 0.
    store = steady_store(1) + [store_sale(2, 2001, 10, 10), store_sale(2, 2002, 50)]
    web = doubled_web(1) + doubled_web(2)
    assert flags_of(run(spark, {1: "Y", 2: "N"}, store, web)) == ["Y"]


def test_store_total_is_list_price_minus_discount(spark):
    # 1: store 120 - 20 = 100 -> 100 (1x), web 2x: kept. 2: store 100 - 50 = 50 -> 150 (3x): dropped.
    store = [store_sale(1, 2001, 120, 20), store_sale(1, 2002, 100), store_sale(2, 2001, 100, 50), store_sale(2, 2002, 150)]
    web = doubled_web(1) + doubled_web(2)
    assert flags_of(run(spark, {1: "Y", 2: "N"}, store, web)) == ["Y"]


def test_only_2001_and_2002_count(spark):
    # A 2000 web sale of 500 is outside both years.
    web = doubled_web(1) + [web_sale(1, 2000, 500)]
    assert flags_of(run(spark, {1: "Y"}, steady_store(1), web)) == ["Y"]
