import datetime
from decimal import Decimal as D

import pytest
from pyspark.sql.types import DateType, DecimalType, IntegerType, StructField, StructType

from solution import solve

MONEY = DecimalType(7, 2)


def st(*fields):
    return StructType([StructField(n, t) for n, t in fields])


SCHEMAS = {
    "date_dim": st(("d_date_sk", IntegerType()), ("d_date", DateType())),
    "store": st(("s_store_sk", IntegerType()),),
    "web_page": st(("wp_web_page_sk", IntegerType()),),
    "store_sales": st(("ss_sold_date_sk", IntegerType()), ("ss_store_sk", IntegerType()),
                      ("ss_ext_sales_price", MONEY), ("ss_net_profit", MONEY)),
    "store_returns": st(("sr_returned_date_sk", IntegerType()), ("sr_store_sk", IntegerType()),
                        ("sr_return_amt", MONEY), ("sr_net_loss", MONEY)),
    "catalog_sales": st(("cs_sold_date_sk", IntegerType()), ("cs_call_center_sk", IntegerType()),
                        ("cs_ext_sales_price", MONEY), ("cs_net_profit", MONEY)),
    "catalog_returns": st(("cr_returned_date_sk", IntegerType()), ("cr_call_center_sk", IntegerType()),
                          ("cr_return_amount", MONEY), ("cr_net_loss", MONEY)),
    "web_sales": st(("ws_sold_date_sk", IntegerType()), ("ws_web_page_sk", IntegerType()),
                    ("ws_ext_sales_price", MONEY), ("ws_net_profit", MONEY)),
    "web_returns": st(("wr_returned_date_sk", IntegerType()), ("wr_web_page_sk", IntegerType()),
                      ("wr_return_amt", MONEY), ("wr_net_loss", MONEY)),
}
DAYS = [(1, datetime.date(2000, 8, 3)), (2, datetime.date(2000, 8, 20)), (3, datetime.date(2000, 9, 2)),
        (4, datetime.date(2000, 9, 3))]


def money(rows):
    return [tuple(D(v) if isinstance(v, str) else v for v in r) for r in rows]


def run(spark, **facts):
    data = {"date_dim": DAYS, "store": [(1,), (2,)], "web_page": [(1,), (2,)]}
    tables = {}
    for name, schema in SCHEMAS.items():
        rows = data.get(name, money(facts.get(name, [])))
        tables[name] = spark.createDataFrame(rows, schema)
    return solve(spark, tables).collect()


EVERY_CHANNEL = dict(
    store_sales=[(2, 1, "100.00", "20.00")], store_returns=[(2, 1, "10.00", "4.00")],
    catalog_sales=[(2, 1, "200.00", "30.00"), (2, 2, "50.00", "5.00")], catalog_returns=[(2, 1, "15.00", "6.00")],
    web_sales=[(2, 1, "80.00", "8.00")], web_returns=[(2, 1, "5.00", "1.00")],
)


def test_output_columns(spark):
    rows = run(spark, **EVERY_CHANNEL)
    assert list(rows[0].asDict()) == ["channel", "id", "sales", "returns", "profit"]


def test_catalog_is_one_row_with_the_period_returns(spark):
    rows = run(spark, **EVERY_CHANNEL)
    catalog = [(r["id"], r["sales"], r["returns"], r["profit"]) for r in rows if r["channel"] == "catalog channel"]
    # the catalog row and the catalog subtotal
    assert catalog == [(None, D("250.00"), D("15.00"), D("29.00"))] * 2


def test_ids_are_the_store_and_page_keys(spark):
    rows = run(spark, **EVERY_CHANNEL)
    ids = sorted((r["channel"], r["id"]) for r in rows if r["channel"] in ("store channel", "web channel") and r["id"] is not None)
    assert ids == [("store channel", "1"), ("web channel", "1")]


def test_store_profit_net_of_return_loss(spark):
    rows = run(spark, store_sales=[(2, 1, "100.00", "20.00"), (2, 2, "40.00", "9.00")],
               store_returns=[(2, 1, "10.00", "4.00")])
    stores = sorted((r["sales"], r["returns"], r["profit"]) for r in rows if r["channel"] == "store channel" and r["id"] is not None)
    assert stores == [(D("40.00"), D("0.00"), D("9.00")), (D("100.00"), D("10.00"), D("16.00"))]


def test_period_is_30_days_inclusive(spark):
    rows = run(spark, store_sales=[(1, 1, "1.00", "0.00"), (3, 1, "2.00", "0.00"), (4, 1, "4.00", "0.00")])
    total = [r["sales"] for r in rows if r["channel"] == "store channel" and r["id"] is None]
    assert total == [D("3.00")]


def test_channel_labels(spark):
    rows = run(spark, **EVERY_CHANNEL)
    assert {r["channel"] for r in rows if r["channel"] is not None} == {"store channel", "catalog channel", "web channel"}


def test_rollup_subtotals_and_grand_total(spark):
    rows = run(spark, store_sales=[(2, 1, "100.00", "20.00"), (2, 2, "40.00", "9.00")],
               web_sales=[(2, 1, "80.00", "8.00")])
    grand = [r["sales"] for r in rows if r["channel"] is None and r["id"] is None]
    store_subtotal = [r["sales"] for r in rows if r["channel"] == "store channel" and r["id"] is None]
    assert grand == [D("220.00")]
    assert store_subtotal == [D("140.00")]


def test_rows_ordered_by_channel(spark):
    rows = run(spark, **EVERY_CHANNEL)
    channels = [r["channel"] for r in rows]
    assert channels[0] is None
    assert channels[1:] == sorted(channels[1:])
