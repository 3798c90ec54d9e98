"""Acceptance tests for q80 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (by the declared
names), except in the schema and type tests.

Rows are read as (kind, entity, sales, returns, profit): kind is the channel ('store', 'catalog',
'web') whatever its label, None on the grand total; entity is the business id with the id's
prefix and any separator removed, None on subtotals; a placeholder in place of a rollup NULL
('', 'ALL', 'TOTAL': any value that names no channel or business id) counts as NULL. So a label
(O8), id (O9) or placeholder (O10) error fails its own test only. Tests other than O7, O10 and
O12 read the entity rows alone. Every line is dated inside the window, of an item priced 60 and
under a promotion not on TV, with no return, unless its test says otherwise."""
import datetime
import re
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["channel", "id", "sales", "returns", "profit"]
KINDS = ("store", "catalog", "web")
PREFIX = {"store": "store", "catalog": "catalog_page", "web": "web_site"}
BUSINESS_ID = re.compile(r"[SCW][0-9]+")

BEFORE, START, END, AFTER, MID = 1, 2, 3, 4, 5
DATES = [{"d_date_sk": k, "d_date": d} for k, d in
         [(BEFORE, "2000-08-22"), (START, "2000-08-23"), (END, "2000-09-22"), (AFTER, "2000-09-23"), (MID, "2000-09-01")]]
HI, HI2, AT50, JUST, LOW = 1, 2, 3, 4, 5
ITEMS = [{"i_item_sk": k, "i_current_price": p} for k, p in
         [(HI, "60.00"), (HI2, "70.00"), (AT50, "50.00"), (JUST, "50.01"), (LOW, "40.00")]]
NOTV, TV = 1, 2
PROMOS = [{"p_promo_sk": NOTV, "p_channel_tv": "N"}, {"p_promo_sk": TV, "p_channel_tv": "Y"}]

# Per channel: sales table and its columns, returns table and its columns.
COLS = {
    "store": ("store_sales", "ss_item_sk", "ss_ticket_number", "ss_sold_date_sk", "ss_store_sk", "ss_promo_sk",
              "ss_ext_sales_price", "ss_sales_price", "ss_net_profit",
              "store_returns", "sr_item_sk", "sr_ticket_number", "sr_return_amt", "sr_net_loss"),
    "catalog": ("catalog_sales", "cs_item_sk", "cs_order_number", "cs_sold_date_sk", "cs_catalog_page_sk", "cs_promo_sk",
                "cs_ext_sales_price", "cs_sales_price", "cs_net_profit",
                "catalog_returns", "cr_item_sk", "cr_order_number", "cr_return_amount", "cr_net_loss"),
    "web": ("web_sales", "ws_item_sk", "ws_order_number", "ws_sold_date_sk", "ws_web_site_sk", "ws_promo_sk",
            "ws_ext_sales_price", "ws_sales_price", "ws_net_profit",
            "web_returns", "wr_item_sk", "wr_order_number", "wr_return_amt", "wr_net_loss"),
}


class Fixture:
    """Input rows built line by line; entities default to one store S1, catalog page C1, web site W1."""

    def __init__(self, stores=((1, "S1"),), pages=((1, "C1"),), sites=((1, "W1"),)):
        self.rows = {name: [] for name in T.tables}
        self.rows.update(date_dim=DATES, item=ITEMS, promotion=PROMOS)
        self.rows["store"] = [{"s_store_sk": k, "s_store_id": b} for k, b in stores]
        self.rows["catalog_page"] = [{"cp_catalog_page_sk": k, "cp_catalog_page_id": b} for k, b in pages]
        self.rows["web_site"] = [{"web_site_sk": k, "web_site_id": b} for k, b in sites]

    def line(self, kind, ext, profit="0.00", date=MID, item=HI, promo=NOTV, entity=1, number=None, price=None):
        """A sales line of channel `kind`; its per-unit sales price equals ext unless given."""
        table, c_item, c_num, c_date, c_ent, c_promo, c_ext, c_sp, c_profit = COLS[kind][:9]
        self.rows[table].append({c_item: item, c_num: number, c_date: date, c_ent: entity, c_promo: promo,
                                 c_ext: ext, c_sp: price or ext, c_profit: profit})
        return self

    def ret(self, kind, item, number, amount, loss):
        """A return of channel `kind` for (item, order or ticket number)."""
        table, c_item, c_num, c_amt, c_loss = COLS[kind][9:]
        self.rows[table].append({c_item: item, c_num: number, c_amt: amount, c_loss: loss})
        return self

    def run(self, spark):
        return solve(spark, T.all(spark, **self.rows))


def _kind(channel):
    """The channel a label names ('store', 'catalog', 'web'), or None for NULL and for any value
    that names no channel (a placeholder such as '', 'ALL' or 'TOTAL' on the grand total)."""
    if channel in (None, ""):
        return None
    return next((k for k in KINDS if channel.startswith(k)), None)


def _placeholder(ident):
    """True for NULL and for an id that is neither prefixed by an entity type nor holds a business
    id of these fixtures (S<n>, C<n>, W<n>): a placeholder such as '', 'ALL' or 'TOTAL' on a rolled-up row."""
    return ident in (None, "") or not (ident.startswith(tuple(PREFIX.values())) or BUSINESS_ID.search(ident))


def _entity(kind, ident):
    """What an id holds after its entity-type prefix and any separator (the business id, or
    whatever a wrong id puts there), or None on a rolled-up row (_placeholder)."""
    if _placeholder(ident):
        return None
    if kind in PREFIX and ident.startswith(PREFIX[kind]):
        return ident[len(PREFIX[kind]):].lstrip("_-: ")
    return ident


def keyed(df):
    """Rows in output order as (kind, entity, sales, returns, profit)."""
    out = []
    for r in declared_rows(df, DECLARED):
        kind = _kind(r[0])
        out.append((kind, _entity(kind, r[1]), r[2], r[3], r[4]))
    return out


def entity_rows(df):
    """The entity rows (kind and entity both present), sorted."""
    return sorted(r for r in keyed(df) if r[0] is not None and r[1] is not None)


def entities(df):
    """The entity rows without the entity, as (kind, sales, returns, profit), sorted (one entity per channel)."""
    return sorted((r[0],) + r[2:] for r in entity_rows(df))


def money(*values):
    return tuple(Decimal(v) for v in values)


def type_of(df, name, position):
    """The Spark type of the output column named `name`, or of the column at `position` when no column has that name."""
    return dict(zip(names(df), field_types(df))).get(name, field_types(df)[position])


@pytest.fixture(scope="module")
def plain(spark):
    """Stores S1 and S2, catalog page C1, web site W1, one line each: 1, 2, 4, 8."""
    f = Fixture(stores=((1, "S1"), (2, "S2")))
    f.line("store", "1.00").line("store", "2.00", entity=2).line("catalog", "4.00").line("web", "8.00")
    return f.run(spark)


@pytest.mark.obligation("O1")
def test_columns_are_the_declared_five_in_order(plain):
    assert names(plain) == DECLARED


@pytest.mark.obligation("O2")
def test_sold_date_window_both_ends_inclusive(spark):
    # In each channel: 2000-08-22 (1) and 2000-09-23 (8) fall outside, 2000-08-23 (2) and 2000-09-22 (4) inside.
    f = Fixture()
    for kind in KINDS:
        for date, ext in [(BEFORE, "1.00"), (START, "2.00"), (END, "4.00"), (AFTER, "8.00")]:
            f.line(kind, ext, date=date)
    assert entities(f.run(spark)) == [(k,) + money("6.00", "0.00", "0.00") for k in sorted(KINDS)]


@pytest.mark.obligation("O3")
def test_items_priced_above_50_under_a_promotion_not_on_tv(spark):
    # In each channel: price 60 not on TV (1) and price 50.01 (8) count; price 50 (2) and a TV promotion (4) do not.
    f = Fixture()
    for kind in KINDS:
        f.line(kind, "1.00").line(kind, "2.00", item=AT50).line(kind, "4.00", promo=TV).line(kind, "8.00", item=JUST)
    assert entities(f.run(spark)) == [(k,) + money("9.00", "0.00", "0.00") for k in sorted(KINDS)]


@pytest.mark.obligation("O4")
def test_returns_attach_on_item_and_number_and_unreturned_lines_stay(spark):
    # In each channel, number 10 holds an unreturned line (item 60, sales 10, profit 0) and a returned one
    # (item 70, sales 20, profit 5; returned 3, loss 1): sales 30, returns 3, profit 0 + 5 - 1 = 4.
    f = Fixture()
    for kind in KINDS:
        f.line(kind, "10.00", number=10).line(kind, "20.00", profit="5.00", item=HI2, number=10)
        f.ret(kind, HI2, 10, "3.00", "1.00")
    assert entities(f.run(spark)) == [(k,) + money("30.00", "3.00", "4.00") for k in sorted(KINDS)]


@pytest.mark.obligation("O5")
def test_entities_are_grouped_by_business_id(spark):
    # Store keys 1 and 2 are two versions of store S1, key 3 is S3; likewise pages and sites 1 and 2 share C1, W1.
    f = Fixture(stores=((1, "S1"), (2, "S1"), (3, "S3")), pages=((1, "C1"), (2, "C1")), sites=((1, "W1"), (2, "W1")))
    for kind in KINDS:
        f.line(kind, "1.00").line(kind, "2.00", entity=2)
    f.line("store", "4.00", entity=3)
    assert entity_rows(f.run(spark)) == [("catalog", "C1") + money("3.00", "0.00", "0.00"),
                                         ("store", "S1") + money("3.00", "0.00", "0.00"),
                                         ("store", "S3") + money("4.00", "0.00", "0.00"),
                                         ("web", "W1") + money("3.00", "0.00", "0.00")]


@pytest.mark.obligation("O6")
def test_sales_returns_and_profit_measures(spark):
    # In each channel: a returned line (ext 10, unit price 1, profit 4; returned 3, loss 1) and an unreturned one
    # (ext 20, unit price 2, profit 2): sales 30, returns 3, profit 4 - 1 + 2 = 5.
    f = Fixture()
    for kind in KINDS:
        f.line(kind, "10.00", profit="4.00", number=10, price="1.00").line(kind, "20.00", profit="2.00", number=11, price="2.00")
        f.ret(kind, HI, 10, "3.00", "1.00")
    assert entities(f.run(spark)) == [(k,) + money("30.00", "3.00", "5.00") for k in sorted(KINDS)]


@pytest.mark.obligation("O7")
def test_rollup_gives_entity_rows_channel_subtotals_and_a_grand_total(plain):
    # Read as (kind, is an entity row, sales); returns and profit are 0 on every row.
    got = sorted((r[0] or "", r[1] is not None, r[2]) for r in keyed(plain))
    assert got == [("", False, Decimal("15.00")),
                   ("catalog", False, Decimal("4.00")), ("catalog", True, Decimal("4.00")),
                   ("store", False, Decimal("3.00")), ("store", True, Decimal("1.00")), ("store", True, Decimal("2.00")),
                   ("web", False, Decimal("8.00")), ("web", True, Decimal("8.00"))]
    assert {r[3:] for r in keyed(plain)} == {money("0.00", "0.00")}


@pytest.mark.obligation("O8")
def test_channel_labels(plain):
    got = {r[0] for r in declared_rows(plain, DECLARED) if r[0] not in (None, "")}
    assert got == {"store channel", "catalog channel", "web channel"}


@pytest.mark.obligation("O9")
def test_id_is_prefix_and_business_id_without_separator(plain):
    got = {r[1] for r in declared_rows(plain, DECLARED) if not _placeholder(r[1])}
    assert got == {"storeS1", "storeS2", "catalog_pageC1", "web_siteW1"}


@pytest.mark.obligation("O10")
def test_rolled_up_keys_are_null(plain):
    got = declared_rows(plain, DECLARED)
    assert all(r[0] is None or r[0].startswith(KINDS) for r in got)
    assert all(r[1] is None or r[1].startswith(tuple(PREFIX.values())) for r in got)
    assert {_kind(r[0]) for r in got if r[0] is not None and r[1] is None} == set(KINDS)


@pytest.mark.obligation("O11")
def test_sales_returns_profit_decimal_types(plain):
    assert type_of(plain, "sales", 2) == "decimal(27,2)"
    assert type_of(plain, "returns", 3) == "decimal(32,2)"
    assert type_of(plain, "profit", 4) == "decimal(33,2)"


def _order_key(r):
    """Channel then entity ascending, NULLs first."""
    return (r[0] is not None, r[0] or "", r[1] is not None, r[1] or "")


@pytest.mark.obligation("O12")
def test_rows_sorted_by_channel_then_id_nulls_first(spark):
    # Lines given web first, stores out of order.
    f = Fixture(stores=((1, "S2"), (2, "S1")))
    f.line("web", "1.00").line("store", "1.00").line("catalog", "1.00").line("store", "1.00", entity=2)
    got = [r[:2] for r in keyed(f.run(spark))]
    assert len(got) >= 7
    assert got == sorted(got, key=_order_key)


@pytest.mark.obligation("O12")
def test_limit_keeps_the_first_100_by_channel_and_id(spark):
    # 120 stores (keys 101..220, ids S101..S220): 120 entity rows, the store subtotal and the grand total.
    # The first 100 rows hold the subtotal (NULL id sorts first) and the entity rows with the smallest ids
    # (read without the S, so the number alone decides).
    f = Fixture(stores=tuple((k, f"S{k}") for k in range(101, 221)))
    for k in range(101, 221):
        f.line("store", "1.00", entity=k)
    got = keyed(f.run(spark))
    assert len(got) == 100
    assert ("store", None) in [r[:2] for r in got]
    ents = [r[1].lstrip("S") for r in got if r[1] is not None]
    assert len(ents) >= 98 and ents == [str(k) for k in range(101, 101 + len(ents))]
