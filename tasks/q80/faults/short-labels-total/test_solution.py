import datetime
from decimal import Decimal

from pyspark.sql.types import DateType, DecimalType, IntegerType, LongType, StringType, StructField, StructType

from solution import solve

AMT = DecimalType(7, 2)


def schema(*cols):
    return StructType([StructField(name, kind, True) for name, kind in cols])


def sales_schema(p, ent, num):
    return schema((p + "_sold_date_sk", IntegerType()), (p + "_item_sk", IntegerType()), (num, LongType()),
                  (ent, IntegerType()), (p + "_promo_sk", IntegerType()),
                  (p + "_ext_sales_price", AMT), (p + "_net_profit", AMT))


SCHEMAS = {
    "date_dim": schema(("d_date_sk", IntegerType()), ("d_date", DateType())),
    "item": schema(("i_item_sk", IntegerType()), ("i_current_price", AMT)),
    "promotion": schema(("p_promo_sk", IntegerType()), ("p_channel_tv", StringType())),
    "store": schema(("s_store_sk", IntegerType()), ("s_store_id", StringType())),
    "catalog_page": schema(("cp_catalog_page_sk", IntegerType()), ("cp_catalog_page_id", StringType())),
    "web_site": schema(("web_site_sk", IntegerType()), ("web_site_id", StringType())),
    "store_sales": sales_schema("ss", "ss_store_sk", "ss_ticket_number"),
    "catalog_sales": sales_schema("cs", "cs_catalog_page_sk", "cs_order_number"),
    "web_sales": sales_schema("ws", "ws_web_site_sk", "ws_order_number"),
    "store_returns": schema(("sr_item_sk", IntegerType()), ("sr_ticket_number", LongType()),
                            ("sr_return_amt", AMT), ("sr_net_loss", AMT)),
    "catalog_returns": schema(("cr_item_sk", IntegerType()), ("cr_order_number", LongType()),
                              ("cr_return_amount", AMT), ("cr_net_loss", AMT)),
    "web_returns": schema(("wr_item_sk", IntegerType()), ("wr_order_number", LongType()),
                          ("wr_return_amt", AMT), ("wr_net_loss", AMT)),
}

# day keys: 1 = the day before the window, 2 = first day, 3 = inside, 4 = last day, 5 = the day after
DAYS = [(1, datetime.date(2000, 8, 22)), (2, datetime.date(2000, 8, 23)), (3, datetime.date(2000, 9, 5)),
        (4, datetime.date(2000, 9, 22)), (5, datetime.date(2000, 9, 23))]
# item 1 costs 75, item 2 exactly 50, item 3 120
ITEMS = [(1, Decimal("75.00")), (2, Decimal("50.00")), (3, Decimal("120.00"))]
PROMOS = [(1, "N"), (2, "Y")]


def dec(row):
    return tuple(Decimal(v) if isinstance(v, str) else v for v in row)


def run(spark, **facts):
    base = {"date_dim": DAYS, "item": ITEMS, "promotion": PROMOS,
            "store": [(1, "S1"), (2, "S2")], "catalog_page": [(1, "P1")], "web_site": [(1, "W1")]}
    tables = {}
    for name, sch in SCHEMAS.items():
        rows = base[name] if name in base else [dec(r) for r in facts.get(name, [])]
        tables[name] = spark.createDataFrame(rows, sch)
    return solve(spark, tables).collect()


def line(day, amount, ticket, store=1, item=1, promo=1, profit="0.00"):
    return (day, item, ticket, store, promo, amount, profit)


ONE_EACH = dict(
    store_sales=[line(3, "10.00", 1), line(3, "20.00", 2, store=2)],
    catalog_sales=[line(3, "40.00", 1)],
    web_sales=[line(3, "80.00", 1)],
)


def by_id(rows, ident):
    return [r for r in rows if r["id"] == ident]


def test_output_columns(spark):
    rows = run(spark, **ONE_EACH)
    assert list(rows[0].asDict().keys()) == ["channel", "id", "sales", "returns", "profit"]


def test_entity_rows_carry_their_channel(spark):
    rows = run(spark, **ONE_EACH)
    assert [r["channel"] for r in by_id(rows, "storeS1")] == ["store"]
    assert [r["channel"] for r in by_id(rows, "catalog_pageP1")] == ["catalog"]
    assert [r["channel"] for r in by_id(rows, "web_siteW1")] == ["web"]


def test_no_null_keys(spark):
    rows = run(spark, **ONE_EACH)
    assert all(r["channel"] is not None and r["id"] is not None for r in rows)


def test_rollup_rows_in_order(spark):
    rows = run(spark, **ONE_EACH)
    got = [(r["channel"], r["id"], r["sales"]) for r in rows]
    assert got == [("TOTAL", "TOTAL", Decimal("150.00")),
                   ("catalog", "TOTAL", Decimal("40.00")), ("catalog", "catalog_pageP1", Decimal("40.00")),
                   ("store", "TOTAL", Decimal("30.00")), ("store", "storeS1", Decimal("10.00")),
                   ("store", "storeS2", Decimal("20.00")),
                   ("web", "TOTAL", Decimal("80.00")), ("web", "web_siteW1", Decimal("80.00"))]


def test_only_the_30_day_window(spark):
    rows = run(spark, store_sales=[line(1, "1.00", 1), line(2, "2.00", 2), line(3, "4.00", 3),
                                   line(4, "8.00", 4), line(5, "16.00", 5)])
    assert [r["sales"] for r in by_id(rows, "storeS1")] == [Decimal("14.00")]


def test_expensive_items_without_tv_promotion(spark):
    rows = run(spark, store_sales=[line(3, "5.00", 1), line(3, "7.00", 2, item=2), line(3, "11.00", 3, promo=2),
                                   line(3, "13.00", 4, item=3)])
    assert [r["sales"] for r in by_id(rows, "storeS1")] == [Decimal("18.00")]


def test_returns_reduce_profit(spark):
    rows = run(spark, store_sales=[line(3, "100.00", 1, profit="30.00"), line(3, "50.00", 2, profit="10.00")],
               store_returns=[(1, 1, "40.00", "12.00")])
    got = [(r["sales"], r["returns"], r["profit"]) for r in by_id(rows, "storeS1")]
    assert got == [(Decimal("150.00"), Decimal("40.00"), Decimal("28.00"))]
