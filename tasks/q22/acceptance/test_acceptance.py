"""Acceptance tests for q22 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (average quantity on hand over month sequences 1200-1211,
rolled up product name > brand > class > category, the 100 lowest averages).

Values are read by column position in the declared output order (product name, brand, class,
category, average), never by alias, except in the schema tests. Tests of the joins, the filter
and the metric look at the detail rows and the grand total only (all keys set or all keys empty),
which every roll-up order has, and read an empty-string key as empty, so another roll-up order or
marker does not fail them; the roll-up and its markers have their own tests. Unless a test is
about the average of averages, every detail group has the same number of records."""
import pytest

from lockin_acceptance import TaskTables, bag, names, field_types, rows
from solution import solve

T = TaskTables(__file__)
M1199, M1200, M1205, M1211, M1212 = 1, 2, 3, 4, 5
DATES = [{"d_date_sk": k, "d_month_seq": m} for k, m in [(M1199, 1199), (M1200, 1200), (M1205, 1205), (M1211, 1211), (M1212, 1212)]]
WAREHOUSES = [{"w_warehouse_sk": 1}]
#: item key -> (product name, brand, class, category); items 1 and 2 differ in the brand only,
#: items 1 and 3 in the product name only
KEYS = {1: ("P1", "B1", "C1", "K1"), 2: ("P1", "B2", "C1", "K1"), 3: ("P2", "B1", "C1", "K1")}
ITEMS = [{"i_item_sk": k, "i_product_name": p, "i_brand": b, "i_class": c, "i_category": g} for k, (p, b, c, g) in KEYS.items()]
N = None


def inv(item, qty, date=M1205, warehouse=1):
    return {"inv_item_sk": item, "inv_quantity_on_hand": qty, "inv_date_sk": date, "inv_warehouse_sk": warehouse}


def run(spark, inventory, items=ITEMS):
    return solve(spark, T.all(spark, inventory=inventory, date_dim=DATES, item=items, warehouse=WAREHOUSES))


def norm(r):
    """The row's first five values, an empty-string key read as empty (NULL)."""
    return tuple(None if (i < 4 and v == "") else v for i, v in enumerate(r[:5]))


def order(rs):
    """`rs` sorted, empty values first."""
    return sorted(rs, key=lambda r: tuple((0, "") if v is None else (1, v) for v in r))


def ends(df):
    """Detail rows (all four keys set) and the grand total (no key set), sorted."""
    out = [norm(r) for r in bag(df)]
    return order(r for r in out if all(k is not None for k in r[:4]) or all(k is None for k in r[:4]))


@pytest.fixture(scope="module")
def plain(spark):
    """Item 1 with quantities 2 and 4 in the window: every level averages 3.0."""
    return run(spark, [inv(1, 2), inv(1, 4)])


@pytest.mark.obligation("O1")
def test_key_column_names(plain):
    assert names(plain)[:4] == ["i_product_name", "i_brand", "i_class", "i_category"]


@pytest.mark.obligation("O2")
def test_average_column_is_named_qoh(plain):
    assert names(plain)[4] == "qoh"


@pytest.mark.obligation("O3")
def test_average_is_a_double(plain):
    assert field_types(plain)[4] == "double"


@pytest.mark.obligation("O4")
def test_records_of_unknown_items_or_dates_are_not_counted(spark):
    # Item 99 and date 99 match nothing: only item 1's quantity 20 counts. The quantities match no
    # date or item key, so joining on the quantity instead of a key finds nothing either.
    out = run(spark, [inv(1, 20), inv(99, 100), inv(1, 200, date=99)])
    assert ends(out) == [(N, N, N, N, 20.0), ("P1", "B1", "C1", "K1", 20.0)]


@pytest.mark.obligation("O5")
def test_records_of_unknown_warehouses_are_not_counted(spark):
    out = run(spark, [inv(1, 2), inv(1, 100, warehouse=99)])
    assert ends(out) == [(N, N, N, N, 2.0), ("P1", "B1", "C1", "K1", 2.0)]


@pytest.mark.obligation("O6")
def test_month_sequence_1200_to_1211_inclusive(spark):
    # Quantities 2 (1200) and 4 (1211) count; 100 (1199) and 100 (1212) do not.
    out = run(spark, [inv(1, 100, M1199), inv(1, 2, M1200), inv(1, 4, M1211), inv(1, 100, M1212)])
    assert ends(out) == [(N, N, N, N, 3.0), ("P1", "B1", "C1", "K1", 3.0)]


@pytest.mark.obligation("O7")
def test_rollup_product_brand_class_category(spark):
    out = run(spark, [inv(1, 2), inv(2, 4), inv(3, 6)])
    expected = [
        ("P1", "B1", "C1", "K1", 2.0), ("P1", "B2", "C1", "K1", 4.0), ("P2", "B1", "C1", "K1", 6.0),
        ("P1", "B1", "C1", N, 2.0), ("P1", "B2", "C1", N, 4.0), ("P2", "B1", "C1", N, 6.0),
        ("P1", "B1", N, N, 2.0), ("P1", "B2", N, N, 4.0), ("P2", "B1", N, N, 6.0),
        ("P1", N, N, N, 3.0), ("P2", N, N, N, 6.0),
        (N, N, N, N, 4.0),
    ]
    assert order(norm(r) for r in bag(out)) == order(expected)


@pytest.mark.obligation("O8")
def test_rolled_up_keys_are_null_and_no_extra_column(plain):
    assert len(plain.columns) == 5
    out = rows(plain)
    assert any(k is None for r in out for k in r[:4])
    assert all(k is None or k == v for r in out for k, v in zip(r[:4], KEYS[1]))


@pytest.mark.obligation("O9")
def test_average_over_records_not_of_averages(spark):
    # Item 1 has records 1, 2, 3 (average 2), item 3 one record of 10: the grand total averages
    # the four records, 16 / 4 = 4.0, not the two group averages (6.0).
    out = run(spark, [inv(1, 1), inv(1, 2), inv(1, 3), inv(3, 10)])
    assert ends(out) == [(N, N, N, N, 4.0), ("P1", "B1", "C1", "K1", 2.0), ("P2", "B1", "C1", "K1", 10.0)]


@pytest.mark.obligation("O10")
def test_order_average_then_keys(spark):
    # Item 2 averages 1, the grand total 11 / 3, items 1 and 3 tie at 5 (product name decides).
    out = run(spark, [inv(1, 5), inv(3, 5), inv(2, 1)])
    keys = [norm(r)[:4] for r in rows(out)]
    keys = [k for k in keys if all(v is not None for v in k) or all(v is None for v in k)]
    assert keys == [("P1", "B2", "C1", "K1"), (N, N, N, N), ("P1", "B1", "C1", "K1"), ("P2", "B1", "C1", "K1")]


@pytest.mark.obligation("O11")
def test_at_most_100_rows(spark):
    items = [{"i_item_sk": k, "i_product_name": f"P{k:03d}", "i_brand": "B", "i_class": "C", "i_category": "K"} for k in range(1, 106)]
    out = run(spark, [inv(k, k) for k in range(1, 106)], items=items)
    assert out.count() == 100
