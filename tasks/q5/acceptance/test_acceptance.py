"""Acceptance tests for q5 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (sales, returns and profit net of return losses per store,
catalog page and web site over 2000-08-23 .. 2000-09-06, rolled up by channel).

Values are read by the declared output names (channel, id, sales, returns, profit), falling back
to positions, never by a guessed alias. Tests of the window, the measures, the joins and the grain
look at the detail rows only (an id that starts with store, catalog_page or web_site), so another
roll-up marker does not fail them. Every entity of those fixtures has a sale and a return in the
window (only the outer-semantics test has an entity with one side), so combining sales and returns
with an inner join fails that test alone. A fixture row names only the amount the task sums (the
extended sales price, the return amount): the other money columns of its table copy it (net
profit, net paid, net loss …), so reading another one changes nothing, except in the tests of the
measure obligations, where they differ (O2: the sales tables' columns, O3: the returns tables')
and only that measure is asserted; O4's test names net profit and net loss and asserts only
profit. Every web order has one line unless the test is about the web join, and business ids
equal the surrogate keys written as text unless the test is about the grain."""
import re
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECL = ["channel", "id", "sales", "returns", "profit"]
PREFIXES = ("store", "catalog_page", "web_site")
BEFORE, START, MID, END, AFTER = 1, 2, 3, 4, 5
DATES = [
    {"d_date_sk": BEFORE, "d_date": "2000-08-22"},
    {"d_date_sk": START, "d_date": "2000-08-23"},
    {"d_date_sk": MID, "d_date": "2000-08-30"},
    {"d_date_sk": END, "d_date": "2000-09-06"},
    {"d_date_sk": AFTER, "d_date": "2000-09-07"},
]
STORES = [{"s_store_sk": k, "s_store_id": str(k)} for k in (1, 2)]
PAGES = [{"cp_catalog_page_sk": 1, "cp_catalog_page_id": "1"}]
SITES = [{"web_site_sk": k, "web_site_id": str(k)} for k in (1, 2)]


def ss(store, amount, date=MID, **named):
    """A store sale of `amount` (ss_ext_sales_price). Its other money columns are not named, so
    they copy the amount (net profit, net paid …) unless the running test's obligation names the
    family (then they differ from it) or `named` gives them (e.g. ss_net_profit)."""
    return ("store_sales", {"ss_item_sk": 1, "ss_store_sk": store, "ss_sold_date_sk": date, "ss_ext_sales_price": amount,
                            **named})


def sr(store, amount, date=MID, **named):
    """A store return of `amount` (sr_return_amt); its net loss copies it unless named."""
    return ("store_returns", {"sr_item_sk": 1, "sr_store_sk": store, "sr_returned_date_sk": date, "sr_return_amt": amount,
                              **named})


def cs(page, amount, date=MID, **named):
    return ("catalog_sales", {"cs_item_sk": 1, "cs_catalog_page_sk": page, "cs_sold_date_sk": date,
                              "cs_ext_sales_price": amount, **named})


def cr(page, amount, date=MID, **named):
    return ("catalog_returns", {"cr_item_sk": 1, "cr_catalog_page_sk": page, "cr_returned_date_sk": date,
                                "cr_return_amount": amount, **named})


def ws(site, item, order, amount, date=MID, **named):
    return ("web_sales", {"ws_item_sk": item, "ws_order_number": order, "ws_web_site_sk": site, "ws_sold_date_sk": date,
                          "ws_ext_sales_price": amount, **named})


def wr(item, order, amount, date=MID, **named):
    return ("web_returns", {"wr_item_sk": item, "wr_order_number": order, "wr_returned_date_sk": date,
                            "wr_return_amt": amount, **named})


def run(spark, facts, stores=STORES, pages=PAGES, sites=SITES):
    names_ = ["store_sales", "store_returns", "catalog_sales", "catalog_returns", "web_sales", "web_returns"]
    by_table = {t: [r for (tt, r) in facts if tt == t] for t in names_}
    return solve(spark, T.all(spark, date_dim=DATES, store=stores, catalog_page=pages, web_site=sites, **by_table))


def details(df):
    """The detail rows (an entity id), by declared name, sorted."""
    return [r for r in declared_bag(df, DECL) if isinstance(r[1], str) and r[1].startswith(PREFIXES)]


def d(x):
    return Decimal(x)


def entity(id_):
    """The business id in an output id, with the channel prefix and any separator after it taken
    off (the prefix's spelling is O8's; the tests of the measures and the grain must not fail on it)."""
    return re.sub(r"^(store|catalog_page|web_site)[_ \-:]?", "", id_)


def by_entity(rows, *positions):
    """(channel, business id, the values at `positions`) of each detail row."""
    return sorted((r[0], entity(r[1])) + tuple(r[p] for p in positions) for r in rows)


@pytest.fixture(scope="module")
def plain(spark):
    """Store 1 sells 100.00 and takes back 30.00 mid-window (net profit and net loss copy them)."""
    return run(spark, [ss(1, "100.00"), sr(1, "30.00")])


@pytest.mark.obligation("O1")
def test_window_includes_both_ends(spark):
    # Sales and returns the day before the start, on the start, on the end (start + 14 days)
    # and the day after: only the start and end days count. Net profit and net loss copy the
    # amounts, so profit = 300.00 - 30.00.
    facts = [ss(1, "1000.00", BEFORE), ss(1, "100.00", START), ss(1, "200.00", END), ss(1, "4000.00", AFTER),
             sr(1, "1000.00", BEFORE), sr(1, "10.00", START), sr(1, "20.00", END), sr(1, "4000.00", AFTER)]
    assert details(run(spark, facts)) == [("store channel", "store1", d("300.00"), d("30.00"), d("270.00"))]


@pytest.mark.obligation("O2")
def test_sales_are_the_extended_sales_price(spark):
    # One entity per channel, each with a sale and a return. The sales tables' other money
    # columns (net paid, net profit, list price …) differ from the extended sales price in this
    # test, so summing any of them changes the sales value. Only sales is asserted.
    facts = [ss(1, "100.00"), sr(1, "30.00"), cs(1, "200.00"), cr(1, "20.00"),
             ws(1, 1, 1, "400.00"), wr(1, 1, "40.00")]
    assert by_entity(details(run(spark, facts)), 2) == [
        ("catalog channel", "1", d("200.00")),
        ("store channel", "1", d("100.00")),
        ("web channel", "1", d("400.00")),
    ]


@pytest.mark.obligation("O3")
def test_returns_are_the_return_amount(spark):
    # One entity per channel, each with a sale and a return. The returns tables' other money
    # columns (amount with tax, net loss, fee …) differ from the return amount in this test, so
    # summing any of them changes the returns value. Only returns is asserted.
    facts = [ss(1, "100.00"), sr(1, "30.00"), cs(1, "200.00"), cr(1, "20.00"),
             ws(1, 1, 1, "400.00"), wr(1, 1, "40.00")]
    assert by_entity(details(run(spark, facts)), 3) == [
        ("catalog channel", "1", d("20.00")),
        ("store channel", "1", d("30.00")),
        ("web channel", "1", d("40.00")),
    ]


@pytest.mark.obligation("O4")
def test_profit_is_net_profit_minus_net_loss(spark):
    # 20.00 + 6.00 of net profit, 12.00 of net loss on returns of 30.00: profit 14.00 (net
    # profit alone: 26.00; minus the return amount: -4.00). Only profit is asserted.
    facts = [ss(1, "100.00", ss_net_profit="20.00"), ss(1, "50.00", ss_net_profit="6.00"),
             sr(1, "30.00", sr_net_loss="12.00")]
    assert by_entity(details(run(spark, facts)), 4) == [("store channel", "1", d("14.00"))]


@pytest.mark.obligation("O5")
def test_web_return_reaches_its_site_through_item_and_order(spark):
    # Order 1 has two lines (items 1 and 2) at site 1; item 1 is returned once. A return of
    # (item 9, order 9) matches no sale: no web site, it drops out. Net profit and net loss
    # copy the amounts: profit = 150.00 - 30.00.
    facts = [ws(1, 1, 1, "100.00"), ws(1, 2, 1, "50.00"), wr(1, 1, "30.00"), wr(9, 9, "70.00")]
    assert details(run(spark, facts)) == [("web channel", "web_site1", d("150.00"), d("30.00"), d("120.00"))]


@pytest.mark.obligation("O6")
def test_entity_with_one_side_only_is_reported_with_zero(spark):
    # Store 1 only sells, store 2 only takes back (net profit and net loss copy the amounts).
    facts = [ss(1, "100.00"), sr(2, "30.00")]
    assert details(run(spark, facts)) == [
        ("store channel", "store1", d("100.00"), d("0.00"), d("100.00")),
        ("store channel", "store2", d("0.00"), d("30.00"), d("-30.00")),
    ]


@pytest.mark.obligation("O7")
def test_one_row_per_business_id(spark):
    # In each channel, keys 3 and 4 are two versions of one entity (business ids AAAAX, PAGEX,
    # SITEX): one row each, summing both keys' sales and returns.
    stores = STORES + [{"s_store_sk": 3, "s_store_id": "AAAAX"}, {"s_store_sk": 4, "s_store_id": "AAAAX"}]
    pages = [{"cp_catalog_page_sk": k, "cp_catalog_page_id": "PAGEX"} for k in (3, 4)]
    sites = [{"web_site_sk": k, "web_site_id": "SITEX"} for k in (3, 4)]
    facts = [ss(3, "100.00"), sr(3, "10.00"), ss(4, "50.00"), sr(4, "20.00"),
             cs(3, "200.00"), cr(3, "10.00"), cs(4, "20.00"), cr(4, "5.00"),
             ws(3, 1, 1, "300.00"), wr(1, 1, "30.00"), ws(4, 2, 2, "30.00"), wr(2, 2, "3.00")]
    # The id's prefix is O8's: only the business id after it is asserted here.
    assert by_entity(details(run(spark, facts, stores=stores, pages=pages, sites=sites)), 2, 3, 4) == [
        ("catalog channel", "PAGEX", d("220.00"), d("15.00"), d("205.00")),
        ("store channel", "AAAAX", d("150.00"), d("30.00"), d("120.00")),
        ("web channel", "SITEX", d("330.00"), d("33.00"), d("297.00")),
    ]


@pytest.mark.obligation("O8")
def test_channel_labels_and_id_prefixes(spark):
    facts = [ss(1, "100.00"), sr(1, "30.00"), cs(1, "100.00"), cr(1, "30.00"), ws(1, 1, 1, "100.00"), wr(1, 1, "30.00")]
    out = details(run(spark, facts))
    assert [r[:2] for r in out] == [("catalog channel", "catalog_page1"), ("store channel", "store1"), ("web channel", "web_site1")]


@pytest.mark.obligation("O9")
def test_rolled_up_columns_are_null(plain):
    v = (d("100.00"), d("30.00"), d("70.00"))
    assert declared_bag(plain, DECL) == [(None, None) + v, ("store channel", None) + v, ("store channel", "store1") + v]


@pytest.mark.obligation("O10")
def test_measure_types(plain):
    types = dict(zip(names(plain), field_types(plain)))
    assert [types.get(n) for n in ("sales", "returns", "profit")] == ["decimal(27,2)", "decimal(27,2)", "decimal(28,2)"]


@pytest.mark.obligation("O11")
def test_column_names_and_order(plain):
    assert names(plain) == DECL


@pytest.mark.obligation("O12")
def test_order_channel_then_id_nulls_first(spark):
    # Sales: store1 100, store2 200, web_site1 400, web_site2 800 (each with a return), so every
    # row's sales value is distinct: grand 1500, store 300, web 1200.
    facts = [ss(1, "100.00"), sr(1, "1.00"), ss(2, "200.00"), sr(2, "1.00"),
             ws(1, 1, 1, "400.00"), wr(1, 1, "1.00"), ws(2, 2, 2, "800.00"), wr(2, 2, "1.00")]
    out = [r[2] for r in declared_rows(run(spark, facts), DECL)]
    assert out == [d("1500.00"), d("300.00"), d("100.00"), d("200.00"), d("1200.00"), d("400.00"), d("800.00")]


@pytest.mark.obligation("O12")
def test_at_most_100_rows(spark):
    stores = [{"s_store_sk": k, "s_store_id": str(k)} for k in range(1, 106)]
    facts = [f for k in range(1, 106) for f in (ss(k, "1.00"), sr(k, "1.00"))]
    assert run(spark, facts, stores=stores).count() == 100
