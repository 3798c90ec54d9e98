"""Acceptance tests for q27 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (by the declared
names, positions otherwise), except in the schema and type tests. An empty string in a rolled-up
key is read as NULL outside O10's test, so that one representation error fails O10 alone."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["i_item_id", "s_state", "g_state", "agg1", "agg2", "agg3", "agg4"]
Y2002, Y2001 = 1, 2
TN, GA = 1, 2
OK, FEMALE, MARRIED, HIGH_SCHOOL = 1, 2, 3, 4
DATES = [{"d_date_sk": Y2002, "d_year": 2002}, {"d_date_sk": Y2001, "d_year": 2001}]
STORES = [{"s_store_sk": TN, "s_state": "TN"}, {"s_store_sk": GA, "s_state": "GA"}]
DEMOS = [
    {"cd_demo_sk": OK, "cd_gender": "M", "cd_marital_status": "S", "cd_education_status": "College"},
    {"cd_demo_sk": FEMALE, "cd_gender": "F", "cd_marital_status": "S", "cd_education_status": "College"},
    {"cd_demo_sk": MARRIED, "cd_gender": "M", "cd_marital_status": "M", "cd_education_status": "College"},
    {"cd_demo_sk": HIGH_SCHOOL, "cd_gender": "M", "cd_marital_status": "S", "cd_education_status": "High School"},
]


def items(*ids):
    return [{"i_item_sk": k, "i_item_id": item_id} for k, item_id in enumerate(ids, start=1)]


def sale(item_sk, qty=1, date_sk=Y2002, store_sk=TN, cdemo=OK, hdemo=None, list_price="1.00", coupon="1.00",
         sales_price="1.00", ext_sales_price="1.00"):
    """A store sale; its household demographics key repeats ss_cdemo_sk unless given (only O2's test tells them apart)."""
    hdemo = cdemo if hdemo is None else hdemo
    return {"ss_item_sk": item_sk, "ss_sold_date_sk": date_sk, "ss_store_sk": store_sk, "ss_cdemo_sk": cdemo,
            "ss_hdemo_sk": hdemo, "ss_quantity": qty, "ss_list_price": list_price, "ss_coupon_amt": coupon,
            "ss_sales_price": sales_price, "ss_ext_sales_price": ext_sales_price}


def run(spark, item_rows, sales):
    return solve(spark, T.all(spark, date_dim=DATES, store=STORES, customer_demographics=DEMOS, item=item_rows,
                              store_sales=sales))


def nul(value):
    """A rolled-up key read as NULL whether the candidate wrote NULL or an empty string (O10 tells them apart)."""
    return None if value == "" else value


def keyed(df):
    """The rows in output order, declared columns, with the two rollup keys normalized by nul()."""
    return [(nul(r[0]), nul(r[1])) + tuple(r[2:]) for r in declared_rows(df, DECLARED)]


def detail(df):
    """The (item, state) rows (both keys present) as a sorted bag of (item, state, agg1..agg4): g_state left out."""
    return sorted((r[0], r[1]) + tuple(r[3:]) for r in keyed(df) if r[0] is not None and r[1] is not None)


def type_of(df, name, position):
    """The Spark type of the output column named `name`, or of the column at `position` when no column has that name."""
    by_name = dict(zip(names(df), field_types(df)))
    return by_name.get(name, field_types(df)[position])


@pytest.fixture(scope="module")
def plain(spark):
    """One item sold twice in TN in 2002 to the required demographics: nothing to filter, join or break."""
    return run(spark, items("A"), [sale(1, qty=1), sale(1, qty=2)])


@pytest.mark.obligation("O1")
def test_columns_are_the_declared_seven_in_order(plain):
    assert names(plain) == DECLARED


@pytest.mark.obligation("O2")
def test_demographics_come_from_the_sales_own_demographics_key(spark):
    # Item A's sale has the required demographics on ss_cdemo_sk (a female household key elsewhere);
    # item B's sale is the other way round: only A is counted. A's item key (2) is the female
    # demographics key and B's (1) the required one, so matching on the item key counts B instead.
    sales = [sale(2, qty=3, cdemo=OK, hdemo=FEMALE), sale(1, qty=5, cdemo=FEMALE, hdemo=OK)]
    out = run(spark, items("B", "A"), sales)
    assert [r[:3] for r in detail(out)] == [("A", "TN", 3.0)]


@pytest.mark.obligation("O3")
def test_every_filter_is_applied(spark):
    # Item A passes every filter; each of B..F fails exactly one: gender, marital status,
    # education, year, state.
    sales = [
        sale(1, qty=2),
        sale(2, cdemo=FEMALE),
        sale(3, cdemo=MARRIED),
        sale(4, cdemo=HIGH_SCHOOL),
        sale(5, date_sk=Y2001),
        sale(6, store_sk=GA),
    ]
    out = run(spark, items("A", "B", "C", "D", "E", "F"), sales)
    assert [r[:3] for r in detail(out)] == [("A", "TN", 2.0)]
    # The grand total averages the one kept sale.
    assert [r[3] for r in keyed(out) if r[0] is None and r[1] is None] == [2.0]


@pytest.mark.obligation("O4")
def test_rollup_gives_detail_item_subtotal_and_grand_total_rows(spark):
    # Two items in TN: two detail rows, two item subtotals, one grand total; no per-state total.
    sales = [sale(1, qty=1), sale(1, qty=2), sale(2, qty=3)]
    out = run(spark, items("A", "B"), sales)
    got = sorted(((r[0], r[1], r[3]) for r in keyed(out)), key=lambda t: (t[0] or "", t[1] or ""))
    assert got == [
        (None, None, 2.0),
        ("A", None, 1.5),
        ("A", "TN", 1.5),
        ("B", None, 3.0),
        ("B", "TN", 3.0),
    ]


@pytest.mark.obligation("O5")
def test_each_average_reads_its_own_column(spark):
    # Every price column differs, the extended sales price too: agg1..agg4 pick quantity, list price,
    # coupon amount and sales price.
    sales = [
        sale(1, qty=1, list_price="10.00", coupon="1.00", sales_price="5.00", ext_sales_price="50.00"),
        sale(1, qty=2, list_price="11.00", coupon="2.00", sales_price="6.00", ext_sales_price="70.00"),
    ]
    out = run(spark, items("A"), sales)
    assert detail(out) == [("A", "TN", 1.5, Decimal("10.5"), Decimal("1.5"), Decimal("5.5"))]


@pytest.mark.obligation("O6")
def test_g_state_is_one_exactly_on_rows_rolled_up_over_state(spark):
    out = run(spark, items("A", "B"), [sale(1), sale(2)])
    got = keyed(out)
    assert {r[2] for r in got} == {0, 1}
    assert [r[2] for r in got] == [1 if r[1] is None else 0 for r in got]


@pytest.mark.obligation("O7")
def test_g_state_is_a_tinyint(plain):
    assert type_of(plain, "g_state", 2) == "tinyint"


@pytest.mark.obligation("O8")
def test_agg1_is_a_double(plain):
    assert type_of(plain, "agg1", 3) == "double"


@pytest.mark.obligation("O9")
def test_agg2_to_agg4_are_decimal_11_6(plain):
    assert [type_of(plain, n, p) for n, p in [("agg2", 4), ("agg3", 5), ("agg4", 6)]] == ["decimal(11,6)"] * 3


@pytest.mark.obligation("O10")
def test_rolled_up_keys_are_null(plain):
    got = {(r[0], r[1]) for r in declared_rows(plain, DECLARED)}
    # Only the input's item and state or NULL, and the item subtotal and grand total have NULL keys.
    assert {v for pair in got for v in pair} <= {"A", "TN", None}
    assert {(None, None), ("A", None), ("A", "TN")} <= got


@pytest.mark.obligation("O11")
def test_rows_sorted_by_item_then_state_nulls_first(spark):
    # Items inserted in reverse: the output must still be sorted, NULL keys first.
    out = run(spark, items("C", "B", "A"), [sale(1), sale(2), sale(3)])
    got = [(r[0], r[1]) for r in keyed(out)]
    assert len(got) >= 7
    assert got[0] == (None, None)
    assert got == sorted(got, key=lambda t: tuple((0, "") if v is None else (1, v) for v in t))


@pytest.mark.obligation("O11")
def test_at_most_100_rows(spark):
    ids = [f"i{k:03d}" for k in range(60)]
    out = run(spark, items(*ids), [sale(k) for k in range(1, 61)])
    assert out.count() == 100
