"""Acceptance tests for q49 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (channel, item,
return_ratio, return_rank, currency_rank) with `declared_rows`/`declared_bag`, never by alias,
except in the schema and type tests. Only the channel-label test reads the channel text as it
is: elsewhere a label is read as the channel it names (web, catalog or store)."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["channel", "item", "return_ratio", "return_rank", "currency_rank"]
D = Decimal
DEC2001, NOV2001, DEC2000, JAN2002 = 1, 2, 3, 4
DATES = [
    {"d_date_sk": DEC2001, "d_year": 2001, "d_moy": 12},
    {"d_date_sk": NOV2001, "d_year": 2001, "d_moy": 11},
    {"d_date_sk": DEC2000, "d_year": 2000, "d_moy": 12},
    {"d_date_sk": JAN2002, "d_year": 2002, "d_moy": 1},
]
# Per channel: (sales table, returns table, sale columns, return columns) with the columns
# date, item, order/ticket, quantity, net paid, net profit, ext sales price / item, order/ticket,
# returned quantity, returned amount.
CHANNELS = {
    "web": ("web_sales", "web_returns",
            ("ws_sold_date_sk", "ws_item_sk", "ws_order_number", "ws_quantity", "ws_net_paid", "ws_net_profit",
             "ws_ext_sales_price"),
            ("wr_item_sk", "wr_order_number", "wr_return_quantity", "wr_return_amt")),
    "catalog": ("catalog_sales", "catalog_returns",
                ("cs_sold_date_sk", "cs_item_sk", "cs_order_number", "cs_quantity", "cs_net_paid", "cs_net_profit",
                 "cs_ext_sales_price"),
                ("cr_item_sk", "cr_order_number", "cr_return_quantity", "cr_return_amount")),
    "store": ("store_sales", "store_returns",
              ("ss_sold_date_sk", "ss_item_sk", "ss_ticket_number", "ss_quantity", "ss_net_paid", "ss_net_profit",
               "ss_ext_sales_price"),
              ("sr_item_sk", "sr_ticket_number", "sr_return_quantity", "sr_return_amt")),
}


def line(channel, order, item, qty=4, ret_qty=1, ret_amt="20000.00", paid="40000.00", profit="5.00", date=DEC2001,
         ext=None, returned=True):
    """One sale line of `channel` (order/ticket `order`) and, when `returned`, its return of the same
    order and item. The extended sales price equals the net paid unless `ext` says otherwise."""
    _, _, s, r = CHANNELS[channel]
    sale = dict(zip(s, (date, item, order, qty, paid, profit, paid if ext is None else ext)))
    ret = dict(zip(r, (item, order, ret_qty, ret_amt))) if returned else None
    return channel, sale, ret


def run(spark, lines, extra_returns=(), vary=()):
    data = {"date_dim": DATES}
    for name, (sales, returns, _, _) in CHANNELS.items():
        data[sales] = [s for ch, s, _ in lines if ch == name]
        data[returns] = [r for ch, _, r in lines if ch == name and r is not None]
        data[returns] += [r for ch, r in extra_returns if ch == name]
    return solve(spark, T.all(spark, vary=vary, **data))


def channel_of(label):
    """The channel a label names (web, catalog or store), whatever its exact text."""
    return next((ch for ch in CHANNELS if ch in str(label).lower()), label)


def got(df):
    """The rows (channel read as the channel it names), sorted."""
    return sorted((channel_of(r[0]),) + tuple(r[1:]) for r in declared_bag(df, DECLARED))


def items(df):
    return [(channel_of(r[0]), r[1]) for r in declared_bag(df, DECLARED)]


@pytest.fixture(scope="module")
def three(spark):
    """One qualifying line per channel: item 1 on the web, 2 in the catalog, 3 in the store."""
    return run(spark, [line("web", 1, 1), line("catalog", 1, 2), line("store", 1, 3)])


@pytest.mark.obligation("O1")
def test_output_columns_in_order(three):
    assert names(three) == DECLARED


@pytest.mark.obligation("O2")
def test_channel_labels(three):
    assert sorted(r[0] for r in declared_rows(three, DECLARED)) == ["catalog", "store", "web"]


@pytest.mark.obligation("O3")
def test_return_matches_sale_on_order_and_item(spark):
    # Order 100 has lines of items 1 and 2; only item 2 was returned (amount 20000): item 1 has no return.
    out = run(spark, [line("web", 100, 1, returned=False), line("web", 100, 2, qty=4, ret_qty=2)])
    assert got(out) == [("web", 2, D("0.5"), 1, 1)]


@pytest.mark.obligation("O3")
def test_only_returns_above_10000(spark):
    # In every channel: item 1 returned for exactly 10000 (dropped), item 2 for 10000.01 (kept),
    # item 3 not returned (dropped). Any other amount column of the returns holds another value
    # (above 10000 for item 1), so reading it in place of the return amount keeps item 1.
    lines = []
    for n, ch in enumerate(CHANNELS):
        lines += [line(ch, 10 * n + 1, 1, ret_amt="10000.00"), line(ch, 10 * n + 2, 2, ret_amt="10000.01"),
                  line(ch, 10 * n + 3, 3, returned=False)]
    out = run(spark, lines)
    assert got(out) == [(ch, 2, D("0.25"), 1, 1) for ch in ("catalog", "store", "web")]


@pytest.mark.obligation("O4")
def test_net_profit_above_1_in_every_channel(spark):
    lines = []
    for n, ch in enumerate(CHANNELS):
        lines += [line(ch, 10 * n + 1, 1, profit="1.00"), line(ch, 10 * n + 2, 2, profit="1.01"),
                  line(ch, 10 * n + 3, 3, profit="-3.00")]
    assert items(run(spark, lines)) == [("catalog", 2), ("store", 2), ("web", 2)]


@pytest.mark.obligation("O4")
def test_net_paid_above_0(spark):
    out = run(spark, [line("catalog", 1, 1, paid="0.00"), line("catalog", 2, 2, paid="0.01"),
                      line("catalog", 3, 3, paid="-5.00")])
    assert items(out) == [("catalog", 2)]


@pytest.mark.obligation("O4")
def test_quantity_above_0(spark):
    out = run(spark, [line("web", 1, 1, qty=0), line("web", 2, 2, qty=1), line("web", 3, 3, qty=-2)])
    assert items(out) == [("web", 2)]


@pytest.mark.obligation("O4")
def test_only_december_2001(spark):
    out = run(spark, [line("store", 1, 1, date=DEC2001), line("store", 2, 2, date=NOV2001),
                      line("store", 3, 3, date=DEC2000), line("store", 4, 4, date=JAN2002),
                      line("store", 5, 5, date=None)])
    assert items(out) == [("store", 1)]


@pytest.mark.obligation("O5")
def test_return_ratio_is_a_ratio_of_sums(spark):
    # Item 1: lines (4 sold, 3 returned) and (12 sold, 1 returned): 4/16 = 0.25 (the mean of the
    # line ratios would be 5/12).
    out = run(spark, [line("web", 1, 1, qty=4, ret_qty=3), line("web", 2, 1, qty=12, ret_qty=1)])
    assert got(out) == [("web", 1, D("0.25"), 1, 1)]


@pytest.mark.obligation("O5")
def test_currency_ratio_divides_by_net_paid(spark):
    # Item 1: 10500 / net paid 13000 = 0.8077 (over the extended sales price 26000 it would be 0.4038);
    # item 2: 40000 / 50000 = 0.8. So item 2 has currency rank 1, item 1 rank 2. The sale's other
    # money columns (net paid with tax or shipping, ...) each differ from the net paid by 1000 or
    # more, which puts item 1 first (10500 / 14000 = 0.75 < 40000 / 51000 = 0.784).
    out = run(spark, [line("catalog", 1, 1, qty=4, ret_qty=1, ret_amt="10500.00", paid="13000.00", ext="26000.00"),
                      line("catalog", 2, 2, qty=4, ret_qty=2, ret_amt="40000.00", paid="50000.00", ext="50000.00")],
              vary=("cs_net_paid",))
    assert got(out) == [("catalog", 1, D("0.25"), 1, 2), ("catalog", 2, D("0.5"), 2, 1)]


@pytest.mark.obligation("O6")
def test_ranks_share_ties_and_leave_gaps(spark):
    # Return ratios 0.25, 0.25, 0.5, 0.75: ranks 1, 1, 3, 4. Currency ratios all distinct.
    out = run(spark, [line("web", 1, 1, ret_qty=1, paid="80000.00"), line("web", 2, 2, ret_qty=1, paid="70000.00"),
                      line("web", 3, 3, ret_qty=2, paid="60000.00"), line("web", 4, 4, ret_qty=3, paid="50000.00")])
    assert got(out) == [("web", 1, D("0.25"), 1, 1), ("web", 2, D("0.25"), 1, 2),
                        ("web", 3, D("0.5"), 3, 3), ("web", 4, D("0.75"), 4, 4)]


@pytest.mark.obligation("O7")
def test_kept_when_either_rank_is_at_most_10(spark):
    # 13 store items: item k returns k of 100 (return rank k). Currency ratio 20000 / net paid:
    # items 11 and 12 lowest (currency ranks 1, 2), items 1..10 next (ranks 3..12), item 13 highest (13).
    paid = {11: "90000.00", 12: "80000.00", 13: "30000.00"}
    paid.update({k: f"{70000 - 1000 * k}.00" for k in range(1, 11)})
    out = run(spark, [line("store", k, k, qty=100, ret_qty=k, paid=paid[k]) for k in range(1, 14)])
    expected = [(k, k, k + 2) for k in range(1, 11)] + [(11, 11, 1), (12, 12, 2)]
    assert sorted((r[1], r[3], r[4]) for r in declared_rows(out, DECLARED)) == expected


@pytest.mark.obligation("O9")
def test_return_ratio_is_decimal_35_20(three):
    assert field_types(three)[2] == "decimal(35,20)"


@pytest.mark.obligation("O10")
def test_item_and_ranks_are_int(three):
    types = field_types(three)
    assert (types[1], types[3], types[4]) == ("int", "int", "int")


@pytest.mark.obligation("O11")
def test_order_channel_return_rank_currency_rank(spark):
    out = run(spark, [
        # web: return ranks 1, 2, 3 for items 1, 2, 3; currency ratios 0.4, 0.25, 0.2857: ranks 3, 1, 2.
        line("web", 1, 1, qty=4, ret_qty=1, paid="50000.00"),
        line("web", 2, 2, qty=4, ret_qty=2, paid="80000.00"),
        line("web", 3, 3, qty=4, ret_qty=3, paid="70000.00"),
        # store: items 6 and 7 tie on the return ratio (rank 1); currency ranks 2 and 1.
        line("store", 4, 6, qty=4, ret_qty=1, paid="50000.00"),
        line("store", 5, 7, qty=4, ret_qty=1, paid="80000.00"),
        line("catalog", 6, 5),
    ])
    assert [(channel_of(r[0]), r[1], r[3], r[4]) for r in declared_rows(out, DECLARED)] == [
        ("catalog", 5, 1, 1),
        ("store", 7, 1, 1),
        ("store", 6, 1, 2),
        ("web", 1, 1, 3),
        ("web", 2, 2, 1),
        ("web", 3, 3, 2),
    ]


@pytest.mark.obligation("O11")
def test_at_most_100_rows(spark):
    # 40 items per channel with equal ratios: all share rank 1, so 120 rows are kept before the limit.
    lines = [line(ch, k, k) for ch in CHANNELS for k in range(1, 41)]
    assert run(spark, lines).count() == 100
