"""Acceptance tests for q77 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (channel, id,
sales, returns, profit) with `declared_rows`/`declared_bag`, never by alias, except in the schema
and type tests. Outside the label and rollup tests a channel label is read as the channel it names
(store, catalog or web) and an id as the integer it names; a rolled-up value (NULL or a
placeholder) reads as None."""
import datetime
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["channel", "id", "sales", "returns", "profit"]
D = Decimal
START, END, BEFORE, AFTER, MID = 1, 2, 3, 4, 5
DATES = [
    {"d_date_sk": START, "d_date": datetime.date(2000, 8, 3)},
    {"d_date_sk": END, "d_date": datetime.date(2000, 9, 2)},
    {"d_date_sk": BEFORE, "d_date": datetime.date(2000, 8, 2)},
    {"d_date_sk": AFTER, "d_date": datetime.date(2000, 9, 3)},
    {"d_date_sk": MID, "d_date": datetime.date(2000, 8, 15)},
]
STORES = [{"s_store_sk": k, "s_store_id": f"S{k:04d}"} for k in range(1, 71)]
PAGES = [{"wp_web_page_sk": k, "wp_web_page_id": f"P{k:04d}"} for k in range(1, 71)]


def ss(store, sales, profit="0.00", date=MID):
    return {"ss_item_sk": 1, "ss_sold_date_sk": date, "ss_store_sk": store, "ss_ext_sales_price": sales, "ss_net_profit": profit}


def sr(store, amount, loss=None, date=MID, inc_tax=None):
    return {"sr_item_sk": 1, "sr_returned_date_sk": date, "sr_store_sk": store, "sr_return_amt": amount, "sr_net_loss": loss,
            "sr_return_amt_inc_tax": inc_tax}


def cs(center, sales, profit="0.00", date=MID):
    return {"cs_item_sk": 1, "cs_sold_date_sk": date, "cs_call_center_sk": center, "cs_ext_sales_price": sales, "cs_net_profit": profit}


def cr(center, amount, loss=None, date=MID):
    return {"cr_item_sk": 1, "cr_returned_date_sk": date, "cr_call_center_sk": center, "cr_return_amount": amount, "cr_net_loss": loss}


def ws(page, sales, profit="0.00", date=MID):
    return {"ws_item_sk": 1, "ws_sold_date_sk": date, "ws_web_page_sk": page, "ws_ext_sales_price": sales, "ws_net_profit": profit}


def wr(page, amount, loss=None, date=MID):
    return {"wr_item_sk": 1, "wr_returned_date_sk": date, "wr_web_page_sk": page, "wr_return_amt": amount, "wr_net_loss": loss}


def run(spark, **rows):
    return solve(spark, T.all(spark, date_dim=DATES, store=STORES, web_page=PAGES, **rows))


def channel_of(label):
    """The channel a label names (store, catalog or web), or None for a rolled-up channel."""
    return next((ch for ch in ("store", "catalog", "web") if label is not None and ch in str(label).lower()), None)


def id_of(value):
    """The integer an id names, or None for a rolled-up id (NULL or a placeholder such as 0 or '')."""
    if value is None or not str(value).isdigit() or int(value) <= 0:
        return None
    return int(value)


def got(df):
    """Every row with channel and id normalized, sorted."""
    out = [(channel_of(r[0]), id_of(r[1])) + tuple(r[2:]) for r in declared_rows(df, DECLARED)]
    return sorted(out, key=lambda t: tuple((v is not None, v if v is not None else 0) for v in t[:2]) + tuple(
        (v is not None, v if v is not None else 0) for v in t[2:]))


def entities(df):
    """The entity rows (a real channel and a real id), sorted."""
    return [r for r in got(df) if r[0] is not None and r[1] is not None]


@pytest.fixture(scope="module")
def allc(spark):
    """Store 1, call center 1 and web page 1, each with a sale and a return in the period."""
    return run(spark, store_sales=[ss(1, "10.00", "3.00")], store_returns=[sr(1, "1.00", "0.50")],
               catalog_sales=[cs(1, "20.00", "4.00")], catalog_returns=[cr(1, "2.00", "0.25")],
               web_sales=[ws(1, "30.00", "5.00")], web_returns=[wr(1, "3.00", "0.75")])


@pytest.mark.obligation("O1")
def test_output_columns_in_order(allc):
    assert names(allc) == DECLARED


@pytest.mark.obligation("O2")
def test_sales_and_returns_in_the_30_days_both_ends_inclusive(spark):
    out = run(spark,
              store_sales=[ss(1, "1.00", "1.00", BEFORE), ss(1, "10.00", "1.00", START), ss(1, "20.00", "1.00", MID),
                           ss(1, "40.00", "1.00", END), ss(1, "80.00", "1.00", AFTER), ss(1, "160.00", "1.00", None)],
              store_returns=[sr(1, "1.00", date=BEFORE), sr(1, "2.00", date=START), sr(1, "4.00", date=END),
                             sr(1, "8.00", date=AFTER), sr(1, "16.00", date=None)])
    assert entities(out) == [("store", 1, D("70.00"), D("6.00"), D("3.00"))]


@pytest.mark.obligation("O3")
def test_catalog_rows_per_call_center_including_missing_center(spark):
    # No catalog returns: the period total is NULL, so returns and profit are NULL on every catalog row.
    out = run(spark, catalog_sales=[cs(1, "100.00", "10.00"), cs(1, "1.00", "1.00"), cs(2, "50.00", "5.00"),
                                    cs(None, "25.00", "2.00")])
    assert [r for r in got(out) if r[0] == "catalog"] == [
        ("catalog", None, D("25.00"), None, None),   # the sales lines without a call center
        ("catalog", None, D("176.00"), None, None),  # the channel subtotal
        ("catalog", 1, D("101.00"), None, None),
        ("catalog", 2, D("50.00"), None, None),
    ]


@pytest.mark.obligation("O4")
def test_the_call_center_row_carries_the_period_returns_total(spark):
    # Returns of centers 1 and 2 and one without a center: the period total 17.00, loss 7.00, is on
    # call center 1's row (profit 10.00 - 7.00), not its own returns (10.00, loss 4.00). One call
    # center with sales, so the catalog rows (its row and the channel subtotal) read the same
    # whatever the catalog grain (O3): every catalog row is (100.00, 17.00, 3.00).
    out = run(spark, catalog_sales=[cs(1, "60.00", "6.00"), cs(1, "40.00", "4.00")],
              catalog_returns=[cr(1, "10.00", "4.00"), cr(2, "6.00", "2.00"), cr(None, "1.00", "1.00")])
    catalog = [r[2:] for r in got(out) if r[0] == "catalog"]
    assert catalog and set(catalog) == {(D("100.00"), D("17.00"), D("3.00"))}


@pytest.mark.obligation("O5")
def test_stores_and_pages_without_returns_keep_returns_0(spark):
    out = run(spark, store_sales=[ss(1, "10.00", "3.00"), ss(2, "20.00", "5.00")], store_returns=[sr(1, "4.00")],
              web_sales=[ws(1, "30.00", "7.00"), ws(2, "40.00", "1.00")], web_returns=[wr(2, "2.00")])
    assert entities(out) == [("store", 1, D("10.00"), D("4.00"), D("3.00")),
                             ("store", 2, D("20.00"), D("0"), D("5.00")),
                             ("web", 1, D("30.00"), D("0"), D("7.00")),
                             ("web", 2, D("40.00"), D("2.00"), D("1.00"))]


@pytest.mark.obligation("O6")
def test_profit_is_net_profit_minus_return_loss(spark):
    # Store 1: profit 20 + 10, returns 5 + 1 (with tax 9 + 9), losses 2 + 0.50: returns 6, profit 27.50.
    # Web page 1: profit 8, return 3, loss 1.25: profit 6.75.
    out = run(spark, store_sales=[ss(1, "50.00", "20.00"), ss(1, "60.00", "10.00")],
              store_returns=[sr(1, "5.00", "2.00", inc_tax="9.00"), sr(1, "1.00", "0.50", inc_tax="9.00")],
              web_sales=[ws(1, "70.00", "8.00")], web_returns=[wr(1, "3.00", "1.25")])
    assert entities(out) == [("store", 1, D("110.00"), D("6.00"), D("27.50")),
                             ("web", 1, D("70.00"), D("3.00"), D("6.75"))]


@pytest.mark.obligation("O7")
def test_id_is_an_int(allc):
    assert field_types(allc)[1] == "int"


@pytest.mark.obligation("O7")
def test_id_is_the_store_and_web_page_surrogate_key(spark):
    # Stores 1 and 2 and web pages 1 and 3, each with a sale and a return: the entity ids are those
    # keys, as ints (channel read through channel_of, rolled-up rows and placeholders left out).
    out = run(spark, store_sales=[ss(1, "1.00"), ss(2, "2.00")], store_returns=[sr(1, "1.00"), sr(2, "1.00")],
              web_sales=[ws(1, "4.00"), ws(3, "8.00")], web_returns=[wr(1, "1.00"), wr(3, "1.00")])
    ids = {(channel_of(r[0]), r[1]) for r in declared_rows(out, DECLARED) if r[1] not in (None, 0, "", "0")}
    assert ids == {("store", 1), ("store", 2), ("web", 1), ("web", 3)}


@pytest.mark.obligation("O8")
def test_channel_labels(allc):
    assert sorted({r[0] for r in declared_rows(allc, DECLARED) if r[0]}) == [
        "catalog channel", "store channel", "web channel"]


@pytest.mark.obligation("O9")
def test_rollup_rows_carry_null_channel_and_id(allc):
    dims = [r[:2] for r in declared_rows(allc, DECLARED)]
    assert sorted({(channel_of(c) or "", i) for c, i in dims if i is None}) == [
        ("", None), ("catalog", None), ("store", None), ("web", None)]
    assert (None, None) in dims


@pytest.mark.obligation("O10")
def test_money_types(allc):
    assert field_types(allc)[2:5] == ["decimal(27,2)", "decimal(27,2)", "decimal(28,2)"]


@pytest.mark.obligation("O11")
def test_order_channel_then_id_nulls_first(spark):
    # Catalog rows are left out of the sequence: which catalog rows exist is the grain's (O3; a
    # catalog channel aggregated into one row has a row, with NULL totals, even without catalog sales).
    out = run(spark, store_sales=[ss(2, "1.00"), ss(1, "2.00")], store_returns=[sr(1, "1.00"), sr(2, "1.00")],
              web_sales=[ws(3, "4.00"), ws(1, "8.00")], web_returns=[wr(1, "1.00"), wr(3, "1.00")])
    keys = [(channel_of(r[0]), id_of(r[1])) for r in declared_rows(out, DECLARED)]
    assert [k for k in keys if k[0] != "catalog"] == [
        (None, None), ("store", None), ("store", 1), ("store", 2), ("web", None), ("web", 1), ("web", 3)]


@pytest.mark.obligation("O11")
def test_at_most_100_rows(spark):
    # 60 stores and 50 pages, each with a return: 110 entity rows, 2 subtotals, 1 grand total.
    out = run(spark, store_sales=[ss(k, "1.00") for k in range(1, 61)], store_returns=[sr(k, "1.00") for k in range(1, 61)],
              web_sales=[ws(k, "1.00") for k in range(1, 51)], web_returns=[wr(k, "1.00") for k in range(1, 51)])
    assert out.count() == 100
