"""Acceptance tests for q5 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (sales, returns and profit net of return losses per store,
catalog page and web site over 2000-08-23 .. 2000-09-06, rolled up by channel).

Values are read by the declared output names (channel, id, sales, returns, profit), falling back
to positions, never by a guessed alias. Tests of the window, the measures, the joins and the grain
look at the detail rows only (an id that starts with store, catalog_page or web_site), so another
roll-up marker does not fail them. Every entity of those fixtures has a sale and a return in the
window (only the outer-semantics test has an entity with one side), every other amount column
equals the one the task names unless the test is about it (a store return's net loss equals its
amount), every web order has one line unless
the test is about the web join, and business ids equal the surrogate keys written as text unless
the test is about the grain."""
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


def ss(store, amount, profit, date=MID, paid=None):
    """A store sale; its net paid equals the extended sales price unless `paid` is given."""
    return ("store_sales", {"ss_item_sk": 1, "ss_store_sk": store, "ss_sold_date_sk": date, "ss_ext_sales_price": amount,
                            "ss_net_paid": paid or amount, "ss_net_profit": profit})


def sr(store, amount, loss=None, date=MID, inc_tax=None):
    """A store return; its net loss and its amount with tax equal the return amount unless given."""
    return ("store_returns", {"sr_item_sk": 1, "sr_store_sk": store, "sr_returned_date_sk": date, "sr_return_amt": amount,
                              "sr_return_amt_inc_tax": inc_tax or amount, "sr_net_loss": loss or amount})


def cs(page, amount, profit, date=MID):
    return ("catalog_sales", {"cs_item_sk": 1, "cs_catalog_page_sk": page, "cs_sold_date_sk": date, "cs_ext_sales_price": amount,
                              "cs_net_paid": amount, "cs_net_profit": profit})


def cr(page, amount, loss, date=MID):
    return ("catalog_returns", {"cr_item_sk": 1, "cr_catalog_page_sk": page, "cr_returned_date_sk": date,
                                "cr_return_amount": amount, "cr_return_amt_inc_tax": amount, "cr_net_loss": loss})


def ws(site, item, order, amount, profit, date=MID):
    return ("web_sales", {"ws_item_sk": item, "ws_order_number": order, "ws_web_site_sk": site, "ws_sold_date_sk": date,
                          "ws_ext_sales_price": amount, "ws_net_paid": amount, "ws_net_profit": profit})


def wr(item, order, amount, loss, date=MID):
    return ("web_returns", {"wr_item_sk": item, "wr_order_number": order, "wr_returned_date_sk": date,
                            "wr_return_amt": amount, "wr_return_amt_inc_tax": amount, "wr_net_loss": loss})


def run(spark, facts, stores=STORES):
    names_ = ["store_sales", "store_returns", "catalog_sales", "catalog_returns", "web_sales", "web_returns"]
    by_table = {t: [r for (tt, r) in facts if tt == t] for t in names_}
    return solve(spark, T.all(spark, date_dim=DATES, store=stores, catalog_page=PAGES, web_site=SITES, **by_table))


def details(df):
    """The detail rows (an entity id), by declared name, sorted."""
    return [r for r in declared_bag(df, DECL) if isinstance(r[1], str) and r[1].startswith(PREFIXES)]


def d(x):
    return Decimal(x)


@pytest.fixture(scope="module")
def plain(spark):
    """Store 1 sells 100.00 (profit 20.00) and takes back 30.00 (loss 30.00) mid-window."""
    return run(spark, [ss(1, "100.00", "20.00"), sr(1, "30.00")])


@pytest.mark.obligation("O1")
def test_window_includes_both_ends(spark):
    # Sales and returns the day before the start, on the start, on the end (start + 14 days)
    # and the day after: only the start and end days count.
    facts = [ss(1, "1000.00", "100.00", BEFORE), ss(1, "100.00", "1.00", START), ss(1, "200.00", "1.00", END),
             ss(1, "4000.00", "400.00", AFTER),
             sr(1, "1000.00", date=BEFORE), sr(1, "10.00", date=START), sr(1, "20.00", date=END), sr(1, "4000.00", date=AFTER)]
    # profit: 1.00 + 1.00 of net profit minus 10.00 + 20.00 of net loss
    assert details(run(spark, facts)) == [("store channel", "store1", d("300.00"), d("30.00"), d("-28.00"))]


@pytest.mark.obligation("O2")
def test_sales_are_the_extended_sales_price(spark):
    facts = [ss(1, "100.00", "20.00", paid="90.00"), sr(1, "30.00")]
    assert details(run(spark, facts)) == [("store channel", "store1", d("100.00"), d("30.00"), d("-10.00"))]


@pytest.mark.obligation("O3")
def test_returns_are_the_return_amount(spark):
    facts = [ss(1, "100.00", "20.00"), sr(1, "30.00", inc_tax="33.00")]
    assert details(run(spark, facts)) == [("store channel", "store1", d("100.00"), d("30.00"), d("-10.00"))]


@pytest.mark.obligation("O4")
def test_profit_is_net_profit_minus_net_loss(spark):
    # 20.00 + 6.00 of net profit, 12.00 of net loss on returns of 30.00: profit 14.00.
    facts = [ss(1, "100.00", "20.00"), ss(1, "50.00", "6.00"), sr(1, "30.00", "12.00")]
    assert details(run(spark, facts)) == [("store channel", "store1", d("150.00"), d("30.00"), d("14.00"))]


@pytest.mark.obligation("O5")
def test_web_return_reaches_its_site_through_item_and_order(spark):
    # Order 1 has two lines (items 1 and 2) at site 1; item 1 is returned once. A return of
    # (item 9, order 9) matches no sale: no web site, it drops out.
    facts = [ws(1, 1, 1, "100.00", "20.00"), ws(1, 2, 1, "50.00", "10.00"),
             wr(1, 1, "30.00", "5.00"), wr(9, 9, "70.00", "7.00")]
    assert details(run(spark, facts)) == [("web channel", "web_site1", d("150.00"), d("30.00"), d("25.00"))]


@pytest.mark.obligation("O6")
def test_entity_with_one_side_only_is_reported_with_zero(spark):
    # Store 1 only sells, store 2 only takes back.
    facts = [ss(1, "100.00", "20.00"), sr(2, "30.00")]
    assert details(run(spark, facts)) == [
        ("store channel", "store1", d("100.00"), d("0.00"), d("20.00")),
        ("store channel", "store2", d("0.00"), d("30.00"), d("-30.00")),
    ]


@pytest.mark.obligation("O7")
def test_one_row_per_business_id(spark):
    # Store keys 3 and 4 are two versions of the store with business id AAAAX: one row.
    stores = STORES + [{"s_store_sk": 3, "s_store_id": "AAAAX"}, {"s_store_sk": 4, "s_store_id": "AAAAX"}]
    facts = [ss(3, "100.00", "20.00"), sr(3, "10.00"), ss(4, "50.00", "10.00"), sr(4, "20.00")]
    assert details(run(spark, facts, stores=stores)) == [("store channel", "storeAAAAX", d("150.00"), d("30.00"), d("0.00"))]


@pytest.mark.obligation("O8")
def test_channel_labels_and_id_prefixes(spark):
    facts = [ss(1, "100.00", "20.00"), sr(1, "30.00"), cs(1, "100.00", "20.00"), cr(1, "30.00", "5.00"),
             ws(1, 1, 1, "100.00", "20.00"), wr(1, 1, "30.00", "5.00")]
    out = details(run(spark, facts))
    assert [r[:2] for r in out] == [("catalog channel", "catalog_page1"), ("store channel", "store1"), ("web channel", "web_site1")]


@pytest.mark.obligation("O9")
def test_rolled_up_columns_are_null(plain):
    v = (d("100.00"), d("30.00"), d("-10.00"))
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
    facts = [ss(1, "100.00", "1.00"), sr(1, "1.00"), ss(2, "200.00", "1.00"), sr(2, "1.00"),
             ws(1, 1, 1, "400.00", "1.00"), wr(1, 1, "1.00", "1.00"), ws(2, 2, 2, "800.00", "1.00"), wr(2, 2, "1.00", "1.00")]
    out = [r[2] for r in declared_rows(run(spark, facts), DECL)]
    assert out == [d("1500.00"), d("300.00"), d("100.00"), d("200.00"), d("1200.00"), d("400.00"), d("800.00")]


@pytest.mark.obligation("O12")
def test_at_most_100_rows(spark):
    stores = [{"s_store_sk": k, "s_store_id": str(k)} for k in range(1, 106)]
    facts = [f for k in range(1, 106) for f in (ss(k, "1.00", "1.00"), sr(k, "1.00"))]
    assert run(spark, facts, stores=stores).count() == 100
