import datetime
from decimal import Decimal

from pyspark.sql import types as T

from solution import solve

M = T.DecimalType(7, 2)
I = T.IntegerType()
S = T.StringType()


def schema(*cols):
    return T.StructType([T.StructField(n, t) for n, t in cols])


SCHEMAS = {
    "date_dim": schema(("d_date_sk", I), ("d_date", T.DateType())),
    "store": schema(("s_store_sk", I), ("s_store_id", S)),
    "catalog_page": schema(("cp_catalog_page_sk", I), ("cp_catalog_page_id", S)),
    "web_site": schema(("web_site_sk", I), ("web_site_id", S)),
    "store_sales": schema(("ss_sold_date_sk", I), ("ss_store_sk", I), ("ss_ext_sales_price", M), ("ss_net_paid", M), ("ss_net_profit", M)),
    "store_returns": schema(("sr_returned_date_sk", I), ("sr_store_sk", I), ("sr_return_amt", M), ("sr_return_amt_inc_tax", M), ("sr_net_loss", M)),
    "catalog_sales": schema(("cs_sold_date_sk", I), ("cs_catalog_page_sk", I), ("cs_ext_sales_price", M), ("cs_net_profit", M)),
    "catalog_returns": schema(("cr_returned_date_sk", I), ("cr_catalog_page_sk", I), ("cr_return_amount", M), ("cr_net_loss", M)),
    "web_sales": schema(("ws_sold_date_sk", I), ("ws_web_site_sk", I), ("ws_item_sk", I), ("ws_order_number", I), ("ws_ext_sales_price", M), ("ws_net_profit", M)),
    "web_returns": schema(("wr_returned_date_sk", I), ("wr_item_sk", I), ("wr_order_number", I), ("wr_return_amt", M), ("wr_net_loss", M)),
}
DAYS = {1: datetime.date(2000, 8, 22), 2: datetime.date(2000, 8, 23), 3: datetime.date(2000, 8, 30),
        4: datetime.date(2000, 9, 6), 5: datetime.date(2000, 9, 7)}
MID = 3


def money(*values):
    return tuple(Decimal(v) for v in values)


def make(spark, **rows):
    data = {
        "date_dim": list(DAYS.items()),
        "store": [(1, "AAAAAAAABAAAAAAA"), (2, "AAAAAAAACAAAAAAA")],
        "catalog_page": [(1, "AAAAAAAABAAAAAAA")],
        "web_site": [(1, "AAAAAAAABAAAAAAA")],
    }
    data.update(rows)
    return {name: spark.createDataFrame(data.get(name, []), sch) for name, sch in SCHEMAS.items()}


def detail_rows(df):
    return [r for r in df.collect() if r["id"] is not None]


def test_output_columns(spark):
    out = solve(spark, make(spark, store_sales=[(MID, 1, *money("50.00", "50.00", "5.00"))],
                            store_returns=[(MID, 1, *money("10.00", "10.00", "2.00"))]))
    assert out.columns == ["channel", "id", "sales", "returns", "profit"]


def test_store_sales_total(spark):
    out = solve(spark, make(spark, store_sales=[(MID, 1, *money("100.00", "95.00", "20.00"))],
                            store_returns=[(MID, 1, *money("30.00", "33.00", "5.00"))]))
    store = [r for r in detail_rows(out) if r["channel"] == "store channel"]
    assert [(r["id"], r["sales"]) for r in store] == [("storeAAAAAAAABAAAAAAA", Decimal("20.00"))]


def test_entity_needs_sales_and_returns(spark):
    out = solve(spark, make(spark,
                            store_sales=[(MID, 1, *money("100.00", "100.00", "20.00")), (MID, 2, *money("80.00", "80.00", "10.00"))],
                            store_returns=[(MID, 2, *money("30.00", "30.00", "5.00"))]))
    assert [r["id"] for r in detail_rows(out)] == ["storeAAAAAAAACAAAAAAA"]


def test_channel_labels_and_ids(spark):
    out = solve(spark, make(spark,
                            store_sales=[(MID, 1, *money("10.00", "10.00", "1.00"))],
                            store_returns=[(MID, 1, *money("1.00", "1.00", "1.00"))],
                            catalog_sales=[(MID, 1, *money("10.00", "1.00"))],
                            catalog_returns=[(MID, 1, *money("1.00", "1.00"))],
                            web_sales=[(MID, 1, 7, 70, *money("10.00", "1.00"))],
                            web_returns=[(MID, 7, 70, *money("1.00", "1.00"))]))
    assert sorted((r["channel"], r["id"]) for r in detail_rows(out)) == [
        ("catalog channel", "catalog_pageAAAAAAAABAAAAAAA"),
        ("store channel", "storeAAAAAAAABAAAAAAA"),
        ("web channel", "web_siteAAAAAAAABAAAAAAA"),
    ]


def test_window_is_inclusive(spark):
    sales = [(day, 1, *money(price, "1.00")) for day, price in ((1, "1000.00"), (2, "10.00"), (4, "20.00"), (5, "2000.00"))]
    out = solve(spark, make(spark, catalog_sales=sales, catalog_returns=[(MID, 1, *money("5.00", "1.00"))]))
    [row] = detail_rows(out)
    assert row["sales"] == Decimal("30.00")


def test_rollup_rows_come_first(spark):
    out = solve(spark, make(spark, catalog_sales=[(MID, 1, *money("40.00", "8.00"))],
                            catalog_returns=[(MID, 1, *money("10.00", "3.00"))]))
    assert [tuple(r) for r in out.collect()] == [
        (None, None, Decimal("40.00"), Decimal("10.00"), Decimal("5.00")),
        ("catalog channel", None, Decimal("40.00"), Decimal("10.00"), Decimal("5.00")),
        ("catalog channel", "catalog_pageAAAAAAAABAAAAAAA", Decimal("40.00"), Decimal("10.00"), Decimal("5.00")),
    ]


def test_profit_is_net_profit_minus_net_loss(spark):
    out = solve(spark, make(spark, store_sales=[(MID, 1, *money("100.00", "100.00", "20.00"))],
                            store_returns=[(MID, 1, *money("30.00", "30.00", "5.00"))]))
    [row] = detail_rows(out)
    assert row["profit"] == Decimal("15.00")


def test_web_return_counted_at_its_site(spark):
    out = solve(spark, make(spark, web_sales=[(MID, 1, 7, 70, *money("60.00", "6.00"))],
                            web_returns=[(MID, 7, 70, *money("25.00", "2.00")), (MID, 8, 80, *money("99.00", "9.00"))]))
    [row] = detail_rows(out)
    assert (row["sales"], row["returns"], row["profit"]) == (Decimal("60.00"), Decimal("25.00"), Decimal("4.00"))
