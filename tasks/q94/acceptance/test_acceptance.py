"""Acceptance tests for q94 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (web sales lines shipped 1999-02-01 .. 1999-04-02 to Illinois
through a web site of the company 'pri', of orders that have a line from another warehouse and no
return: distinct orders, shipping cost and net profit of those lines).

By default an order has ONE qualifying line (warehouse 1, shipped and sold on 1999-03-01, shipped
and billed to an Illinois address, site of company 'pri') and a partner line from warehouse 2 that
does not qualify itself (shipped and billed to Indiana, same day): the partner makes the order
multi-warehouse, and the line count equals the order count. Each qualifying line has its own
shipping cost (1, 2, 4, ...) and a net profit ten times it, so the sums name the lines counted.
Values are read in the declared order (declared_rows: by the stated names where the output has
them, by position otherwise), a sum as the exact decimal it prints (Decimal(str(v))), so a renamed,
reordered or double column fails only the schema, alias and type tests."""
import datetime
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_rows, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
D = Decimal
DECL = ["order count ", "total shipping cost ", "total net profit "]
MID, START, END, BEFORE, AFTER = 1, 2, 3, 4, 5
DATES = [
    {"d_date_sk": MID, "d_date": datetime.date(1999, 3, 1)},
    {"d_date_sk": START, "d_date": datetime.date(1999, 2, 1)},
    {"d_date_sk": END, "d_date": datetime.date(1999, 4, 2)},
    {"d_date_sk": BEFORE, "d_date": datetime.date(1999, 1, 31)},
    {"d_date_sk": AFTER, "d_date": datetime.date(1999, 4, 3)},
]
IL, IN = 1, 2
ADDRESSES = [{"ca_address_sk": IL, "ca_state": "IL"}, {"ca_address_sk": IN, "ca_state": "IN"}]
PRI, ESE, NAMED_PRI = 1, 2, 3
SITES = [
    {"web_site_sk": PRI, "web_site_id": "W1", "web_name": "site_0", "web_company_name": "pri"},
    {"web_site_sk": ESE, "web_site_id": "W2", "web_name": "site_1", "web_company_name": "ese"},
    {"web_site_sk": NAMED_PRI, "web_site_id": "W3", "web_name": "pri", "web_company_name": "ese"},
]


def line(order, cost, wh=1, ship=MID, sold=None, addr=IL, bill=None, site=PRI, item=1):
    """A web sales line of `order` with shipping cost `cost` and net profit 10 x cost; sold on its
    ship date and billed to its ship address unless given."""
    return {"ws_item_sk": item, "ws_order_number": order, "ws_warehouse_sk": wh, "ws_ship_date_sk": ship,
            "ws_sold_date_sk": ship if sold is None else sold, "ws_ship_addr_sk": addr,
            "ws_bill_addr_sk": addr if bill is None else bill, "ws_web_site_sk": site, "ws_quantity": 1,
            "ws_ext_ship_cost": D(cost), "ws_net_profit": D(cost) * 10}


def partner(order, wh=2, item=2, **kw):
    """A line of `order` from another warehouse that does not qualify itself (shipped to Indiana)."""
    kw.setdefault("addr", IN)
    return line(order, "100.00", wh=wh, item=item, **kw)


def order(number, cost, **kw):
    """An order with one qualifying line (options as line()) and a non-qualifying partner line."""
    return [line(number, cost, **kw), partner(number)]


def run(spark, lines, returns=()):
    return solve(spark, T.all(spark, web_sales=lines, web_returns=list(returns), date_dim=DATES,
                              customer_address=ADDRESSES, web_site=SITES))


def exact(v):
    return None if v is None else D(str(v))


def result(out):
    """The rows in declared order, sums as exact decimals."""
    return [(r[0], exact(r[1]), exact(r[2])) for r in declared_rows(out, DECL)]


def expect(count, cost):
    """The expected single row: `count` orders, shipping cost `cost`, net profit 10 x cost."""
    return [(count, D(cost), D(cost) * 10)]


@pytest.mark.obligation("O1")
def test_one_row_count_cost_profit_in_that_order(spark):
    # Two qualifying orders (costs 1 and 2): one row, 2 orders, cost 3.00, profit 30.00, by position.
    out = run(spark, order(1, "1.00") + order(2, "2.00"))
    assert [(r[0], exact(r[1]), exact(r[2])) for r in rows(out)] == expect(2, "3.00")
    assert len(out.columns) == 3


@pytest.mark.obligation("O2")
def test_column_names_have_trailing_spaces(spark):
    out = run(spark, order(1, "1.00"))
    assert sorted(names(out)) == sorted(DECL)


@pytest.mark.obligation("O3")
def test_count_bigint_and_sums_decimal_17_2(spark):
    out = run(spark, order(1, "1.00"))
    lower, types = names(out), field_types(out)
    assert [types[lower.index(n)] if n in lower else types[i] for i, n in enumerate(DECL)] == [
        "bigint", "decimal(17,2)", "decimal(17,2)"]


@pytest.mark.obligation("O4")
def test_ship_date_between_feb_1_and_apr_2_inclusive(spark):
    # Shipped on 02-01 (cost 1) and 04-02 (2): in. Shipped on 01-31 (4) and 04-03 (8): out.
    # Shipped 03-01 but sold 01-31 (16): in. Shipped 04-03 but sold 03-01 (32): out.
    lines = (order(1, "1.00", ship=START) + order(2, "2.00", ship=END) + order(3, "4.00", ship=BEFORE)
             + order(4, "8.00", ship=AFTER) + order(5, "16.00", sold=BEFORE) + order(6, "32.00", ship=AFTER, sold=MID))
    assert result(run(spark, lines)) == expect(3, "19.00")


@pytest.mark.obligation("O5")
def test_ship_address_in_illinois(spark):
    # Shipped to Illinois, billed to Indiana (cost 1): in. Shipped to Indiana, billed to Illinois
    # (2): out. Shipped and billed to Illinois (4): in.
    lines = order(1, "1.00", addr=IL, bill=IN) + order(2, "2.00", addr=IN, bill=IL) + order(3, "4.00")
    assert result(run(spark, lines)) == expect(2, "5.00")


@pytest.mark.obligation("O6")
def test_web_site_of_company_pri(spark):
    # Site of company 'pri' (cost 1): in. Company 'ese' (2): out. A site named 'pri' of company
    # 'ese' (4): out.
    lines = order(1, "1.00", site=PRI) + order(2, "2.00", site=ESE) + order(3, "4.00", site=NAMED_PRI)
    assert result(run(spark, lines)) == expect(1, "1.00")


@pytest.mark.obligation("O7")
def test_a_line_with_several_other_warehouse_lines_counts_once(spark):
    # Order 1's qualifying line (cost 1, warehouse 1) has two partner lines, from warehouses 2 and
    # 3: it is counted once (a multiplying join would count cost 2.00).
    lines = [line(1, "1.00"), partner(1, wh=2, item=2), partner(1, wh=3, item=3)]
    assert result(run(spark, lines)) == expect(1, "1.00")


@pytest.mark.obligation("O8")
def test_other_warehouse_line_of_any_date(spark):
    # Order 1's partner line (warehouse 2, Illinois, 'pri') was shipped on 04-03, outside the
    # window: it still makes order 1 multi-warehouse (cost 1). Order 2 is plain (cost 2).
    lines = [line(1, "1.00"), partner(1, addr=IL, ship=AFTER)] + order(2, "2.00")
    assert result(run(spark, lines)) == expect(2, "3.00")


@pytest.mark.obligation("O9")
def test_any_return_of_the_order_excludes_it(spark):
    # Order 1 has a return of its partner line's item (item 2), none of its qualifying line's
    # item (1): the whole order is excluded. Order 2 (cost 2) has no return.
    returns = [{"wr_item_sk": 2, "wr_order_number": 1}]
    lines = order(1, "1.00") + order(2, "2.00")
    assert result(run(spark, lines, returns)) == expect(1, "2.00")


@pytest.mark.obligation("O10")
def test_distinct_orders_counted_over_qualifying_lines(spark):
    # Order 1 has two qualifying lines (warehouses 1 and 2, costs 1 and 2), order 2 one (cost 4):
    # 2 orders, cost 7.00 over the three lines.
    lines = [line(1, "1.00", wh=1, item=1), line(1, "2.00", wh=2, item=2)] + order(2, "4.00")
    assert result(run(spark, lines)) == expect(2, "7.00")
