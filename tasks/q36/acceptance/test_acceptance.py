"""Acceptance tests for q36 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (by the declared
names), except in the schema and type tests. An empty string in a rolled-up key is read as NULL
outside O10's test, so that one representation error fails O10 alone. Margins are chosen exact in
binary (0.25, 0.5, ...) so a double and a decimal margin compare equal outside O8's test."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["gross_margin", "i_category", "i_class", "lochierarchy", "rank_within_parent"]
Y2001, Y2000 = 1, 2
TN, GA = 1, 2
DATES = [{"d_date_sk": Y2001, "d_year": 2001}, {"d_date_sk": Y2000, "d_year": 2000}]
STORES = [{"s_store_sk": TN, "s_state": "TN"}, {"s_store_sk": GA, "s_state": "GA"}]


def items(*pairs):
    """Items 1.. with the (category, class) pairs given."""
    return [{"i_item_sk": k, "i_category": c, "i_class": cl} for k, (c, cl) in enumerate(pairs, start=1)]


MONEY = [c["name"] for c in T.tables["store_sales"] if c["type"].startswith("decimal")]


def sale(item_sk, profit, price, date_sk=Y2001, store_sk=TN, others=True):
    """A 2001 TN sale with this net profit and extended sales price. With `others`, every other
    money column of the sale is their midpoint: a candidate reading one of them for the profit or
    for the price gets margins in the same order as the right ones (m -> (m + 1) / 2 and
    m -> 2m / (m + 1) are increasing), so ranks, levels and the sort do not change and only O4's
    test (others=False: TaskTables makes them differ) tells the columns apart."""
    row = {"ss_item_sk": item_sk, "ss_sold_date_sk": date_sk, "ss_store_sk": store_sk,
           "ss_net_profit": profit, "ss_ext_sales_price": price}
    if others:
        mid = (Decimal(profit) + Decimal(price)) / 2
        row.update({c: mid for c in MONEY if c not in row})
    return row


def run(spark, item_rows, sales):
    return solve(spark, T.all(spark, date_dim=DATES, store=STORES, item=item_rows, store_sales=sales))


def nul(value):
    """A rolled-up key read as NULL whether the candidate wrote NULL or an empty string (O10 tells them apart)."""
    return None if value == "" else value


def keyed(df):
    """Rows in output order as (gross_margin, category, class, lochierarchy, rank), keys normalized by nul()."""
    return [(r[0], nul(r[1]), nul(r[2]), r[3], r[4]) for r in declared_rows(df, DECLARED)]


def class_rows(df, *fields):
    """The rows with both a category and a class, as a sorted list of (category, class, *fields)."""
    pos = {"margin": 0, "rank": 4}
    return sorted((r[1], r[2]) + tuple(r[pos[f]] for f in fields) for r in keyed(df)
                  if r[1] is not None and r[2] is not None)


def type_of(df, name, position):
    """The Spark type of the output column named `name`, or of the column at `position` when no column has that name."""
    return dict(zip(names(df), field_types(df))).get(name, field_types(df)[position])


@pytest.fixture(scope="module")
def plain(spark):
    """One category with two classes, 2001 sales in TN: nothing to filter, join or break."""
    return run(spark, items(("Books", "a"), ("Books", "b")), [sale(1, "1.00", "4.00"), sale(2, "2.00", "4.00")])


@pytest.mark.obligation("O1")
def test_columns_are_the_declared_five_in_order(plain):
    assert names(plain) == DECLARED


@pytest.mark.obligation("O2")
def test_only_2001_sales_in_tn_stores(spark):
    # Class a passes both filters; class b was sold in 2000, class c in a GA store.
    item_rows = items(("Books", "a"), ("Books", "b"), ("Books", "c"))
    sales = [sale(1, "1.00", "4.00"), sale(2, "3.00", "4.00", date_sk=Y2000), sale(3, "2.00", "4.00", store_sk=GA)]
    out = run(spark, item_rows, sales)
    assert class_rows(out) == [("Books", "a")]


@pytest.mark.obligation("O3")
def test_rollup_gives_class_rows_category_subtotals_and_one_grand_total(spark):
    item_rows = items(("Books", "a"), ("Books", "b"), ("Music", "c"))
    sales = [sale(1, "1.00", "4.00"), sale(2, "1.00", "4.00"), sale(3, "1.00", "4.00")]
    out = run(spark, item_rows, sales)
    got = sorted(((r[1] or "", r[2] or "") for r in keyed(out)))
    assert got == [("", ""), ("Books", ""), ("Books", "a"), ("Books", "b"), ("Music", ""), ("Music", "c")]


@pytest.mark.obligation("O4")
def test_margin_is_the_ratio_of_the_sums(spark):
    # Lines with margins 1 and 1/3: the sums give 2 / 4 = 0.5 (the mean of the line ratios would be 2/3).
    # Every other money column differs from both (TaskTables varies the family O4 names).
    out = run(spark, items(("Books", "a")), [sale(1, "1.00", "1.00", others=False), sale(1, "1.00", "3.00", others=False)])
    assert class_rows(out, "margin") == [("Books", "a", Decimal("0.5"))]


@pytest.mark.obligation("O5")
def test_lochierarchy_counts_the_rolled_up_keys(spark):
    item_rows = items(("Books", "a"), ("Books", "b"), ("Music", "c"))
    out = run(spark, item_rows, [sale(1, "1.00", "4.00"), sale(2, "1.00", "2.00"), sale(3, "1.00", "8.00")])
    got = keyed(out)
    assert [r[3] for r in got] == [(r[1] is None) + (r[2] is None) for r in got]
    assert {r[3] for r in got} == {0, 1, 2}


@pytest.mark.obligation("O6")
def test_class_rows_rank_within_their_own_category(spark):
    # Books: a 0.25, b 0.75; Music: c 0.5, d 0.125. Within each category: a 1, b 2; d 1, c 2.
    item_rows = items(("Books", "a"), ("Books", "b"), ("Music", "c"), ("Music", "d"))
    sales = [sale(1, "1.00", "4.00"), sale(2, "3.00", "4.00"), sale(3, "2.00", "4.00"), sale(4, "1.00", "8.00")]
    out = run(spark, item_rows, sales)
    assert class_rows(out, "rank") == [("Books", "a", 1), ("Books", "b", 2), ("Music", "c", 2), ("Music", "d", 1)]


@pytest.mark.obligation("O7")
def test_rank_shares_ties_and_leaves_a_gap(spark):
    # a and b tie at 0.25, c is 0.5: ranks 1, 1, 3.
    item_rows = items(("Books", "a"), ("Books", "b"), ("Books", "c"))
    out = run(spark, item_rows, [sale(1, "1.00", "4.00"), sale(2, "2.00", "8.00"), sale(3, "1.00", "2.00")])
    assert class_rows(out, "rank") == [("Books", "a", 1), ("Books", "b", 1), ("Books", "c", 3)]
    assert type_of(out, "rank_within_parent", 4) == "int"


@pytest.mark.obligation("O8")
def test_gross_margin_is_decimal_37_20(plain):
    assert type_of(plain, "gross_margin", 0) == "decimal(37,20)"


@pytest.mark.obligation("O9")
def test_lochierarchy_is_a_tinyint(plain):
    assert type_of(plain, "lochierarchy", 3) == "tinyint"


@pytest.mark.obligation("O10")
def test_rolled_up_keys_are_null(plain):
    got = {(r[1], r[2]) for r in declared_rows(plain, DECLARED)}
    assert {v for pair in got for v in pair} <= {"Books", "a", "b", None}
    assert {(None, None), ("Books", None), ("Books", "a"), ("Books", "b")} <= got


def _order_key(r):
    """The task's sort key on a keyed row: level descending, category for class rows, rank."""
    return (-r[3], r[1] if r[3] == 0 else "", r[4])


@pytest.mark.obligation("O11")
def test_rows_sorted_by_level_desc_then_category_then_rank(spark):
    # Zeta's margin is lower than Alpha's (subtotal ranks 1 and 2 against the alphabet);
    # items inserted out of order.
    item_rows = items(("Zeta", "z2"), ("Alpha", "a1"), ("Zeta", "z1"), ("Alpha", "a2"))
    sales = [sale(1, "1.00", "8.00"), sale(2, "3.00", "4.00"), sale(3, "1.00", "4.00"), sale(4, "1.00", "2.00")]
    out = run(spark, item_rows, sales)
    got = keyed(out)
    assert len(got) >= 7
    assert got == sorted(got, key=_order_key)


@pytest.mark.obligation("O11")
def test_limit_keeps_the_first_100_by_the_sort(spark):
    # 120 class rows, 2 subtotals, 1 grand total: the limit keeps the grand total and the subtotals first.
    pairs = [("A", f"a{k:02d}") for k in range(60)] + [("B", f"b{k:02d}") for k in range(60)]
    out = run(spark, items(*pairs), [sale(k, "1.00", "4.00") for k in range(1, 121)])
    got = keyed(out)
    assert len(got) == 100
    assert {(None, None), ("A", None), ("B", None)} <= {(r[1], r[2]) for r in got}
