"""Acceptance tests for q13 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (one row of averages and a sum over the 2001 store sales that
fit one of three demographic profiles and one of three regional profiles). The task declares no
output names: values are read by position in the declared order (average quantity, average
extended sales price, average extended wholesale cost, total extended wholesale cost), never by
alias, except in the alias and type tests.

Every fixture keeps the parts the other obligations decide plain: each sale is in store 1, in
2001, has quantity 1, the same key for its customer and household demographics, and (outside the
tests of O5 and O8) ONE money value for all its money columns: its unit sales price, net profit,
extended prices and costs are equal (only ss_sales_price and ss_net_profit are named; TaskTables
copies them into the rest), strictly inside its demographic profile's price range and its region's
net profit range. So a candidate that reads another money column for the price range, the profit
range or a measure (the mistakes of O5 and O8) still gets these tests' answers, and the sales
price tells which sales were counted. O5's tests vary the money columns (TaskTables differs every
unnamed one by about 1000) and read only the average quantity, which no money column decides; O8's
test names all twelve money columns, each inside the ranges, each with its own value."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
Y2001, Y2000, Y2002 = 1, 2, 3
DATES = [{"d_date_sk": Y2001, "d_year": 2001}, {"d_date_sk": Y2000, "d_year": 2000}, {"d_date_sk": Y2002, "d_year": 2002}]
STORES = [{"s_store_sk": 1}, {"s_store_sk": 2}]
# Demographic profiles: key 1 = (a) M / Advanced Degree / 3 dependents (price 100-150), 2 = (b)
# S / College / 1 (price 50-100), 3 = (c) W / 2 yr Degree / 1 (price 150-200); key 4 mixes (a)'s
# marital status with (b)'s education, 3 dependents; household 5 has no dependents.
A, B, C, MIXED, NO_DEPS = 1, 2, 3, 4, 5
DEMOGRAPHICS = [
    {"cd_demo_sk": A, "cd_marital_status": "M", "cd_education_status": "Advanced Degree"},
    {"cd_demo_sk": B, "cd_marital_status": "S", "cd_education_status": "College"},
    {"cd_demo_sk": C, "cd_marital_status": "W", "cd_education_status": "2 yr Degree"},
    {"cd_demo_sk": MIXED, "cd_marital_status": "M", "cd_education_status": "College"},
]
HOUSEHOLDS = [{"hd_demo_sk": A, "hd_dep_count": 3}, {"hd_demo_sk": B, "hd_dep_count": 1},
              {"hd_demo_sk": C, "hd_dep_count": 1}, {"hd_demo_sk": MIXED, "hd_dep_count": 3},
              {"hd_demo_sk": NO_DEPS, "hd_dep_count": 0}]
# Addresses: OH only in region (a) (100-200), KY only in (b) (150-300), VA only in (c) (50-250).
OH, KY, VA, TX_CANADA = 1, 2, 3, 4
ADDRESSES = [
    {"ca_address_sk": OH, "ca_state": "OH", "ca_country": "United States"},
    {"ca_address_sk": KY, "ca_state": "KY", "ca_country": "United States"},
    {"ca_address_sk": VA, "ca_state": "VA", "ca_country": "United States"},
    {"ca_address_sk": TX_CANADA, "ca_state": "TX", "ca_country": "Canada"},
]


def sale(value, demo=A, hdemo=None, addr=OH, store=1, date=Y2001, **extra):
    """One store sale of quantity 1 whose unit sales price and net profit are both `value` (every
    other money column copies them); `hdemo` defaults to `demo`; `extra` sets other columns."""
    row = {"ss_sold_date_sk": date, "ss_item_sk": 1, "ss_store_sk": store, "ss_cdemo_sk": demo,
           "ss_hdemo_sk": demo if hdemo is None else hdemo, "ss_addr_sk": addr, "ss_quantity": 1,
           "ss_sales_price": value, "ss_net_profit": value}
    row.update(extra)
    return row


def priced(quantity, price="120.00", profit="150.00", demo=A, addr=OH):
    """A sale for O5's tests: unit sales price `price`, net profit `profit`, quantity `quantity`
    (the tracer: the average quantity tells which sales were counted); every other money column
    differs from these two (TaskTables varies the family O5 names)."""
    return {"ss_sold_date_sk": Y2001, "ss_item_sk": 1, "ss_store_sk": 1, "ss_cdemo_sk": demo, "ss_hdemo_sk": demo,
            "ss_addr_sk": addr, "ss_quantity": quantity, "ss_sales_price": price, "ss_net_profit": profit}


def run(spark, sales, addresses=ADDRESSES):
    return solve(spark, T.all(spark, store_sales=sales, store=STORES, date_dim=DATES, customer_demographics=DEMOGRAPHICS,
                              household_demographics=HOUSEHOLDS, customer_address=addresses))


def d(x):
    return Decimal(x)


@pytest.fixture(scope="module")
def plain(spark):
    return run(spark, [sale("120.00"), sale("140.00")])


@pytest.mark.obligation("O1")
def test_sales_of_a_store_that_does_not_exist_are_left_out(spark):
    # Store 99 is not in store, and a NULL store matches nothing: only the first sale counts.
    out = run(spark, [sale("120.00"), sale("140.00", store=99), sale("130.00", store=None)])
    assert rows(out) == [(1.0, d("120"), d("120"), d("120.00"))]


@pytest.mark.obligation("O2")
def test_only_sales_of_2001_count(spark):
    out = run(spark, [sale("120.00"), sale("140.00", date=Y2000), sale("130.00", date=Y2002)])
    assert rows(out) == [(1.0, d("120"), d("120"), d("120.00"))]


@pytest.mark.obligation("O3")
def test_each_demographic_profile_holds_as_a_whole(spark):
    # One sale per profile counts: 120 in (a) (OH), 75 in (b) (VA), 180 in (c) (OH). Left out:
    # (a)'s customer at (b)'s price 75 (in VA, whose region range holds 75), and a married college
    # graduate (a's status, b's education, 3 dependents) at 120 in OH.
    out = run(spark, [sale("120.00", demo=A), sale("75.00", demo=B, addr=VA), sale("180.00", demo=C),
                      sale("75.00", demo=A, addr=VA), sale("120.00", demo=MIXED)])
    assert rows(out) == [(1.0, d("125"), d("125"), d("375.00"))]


@pytest.mark.obligation("O4")
def test_each_regional_profile_holds_as_a_whole_in_the_united_states(spark):
    # Count: OH at 120 (a), KY at 180 (b), VA at 75 (c). Left out: OH at 75 (OH is only in (a),
    # 100-200), KY at 120 (KY is only in (b), 150-300), TX outside the United States at 120. Each
    # price is inside its sale's demographic profile.
    out = run(spark, [sale("120.00", addr=OH), sale("180.00", demo=C, addr=KY), sale("75.00", demo=B, addr=VA),
                      sale("75.00", demo=B, addr=OH), sale("120.00", addr=KY), sale("120.00", addr=TX_CANADA)])
    assert rows(out) == [(1.0, d("125"), d("125"), d("375.00"))]


@pytest.mark.obligation("O5")
def test_price_bounds_are_inclusive(spark):
    # At the bounds: a 100.00 and 150.00, b 50.00, c 200.00 count (quantities 1, 2, 4, 8); b 49.99
    # and c 200.01 do not (16, 32). Net profit 150 in OH throughout.
    out = run(spark, [priced(1, "100.00", demo=A), priced(2, "150.00", demo=A), priced(4, "50.00", demo=B),
                      priced(8, "200.00", demo=C), priced(16, "49.99", demo=B), priced(32, "200.01", demo=C)])
    assert [r[0] for r in rows(out)] == [3.75]


@pytest.mark.obligation("O5")
def test_net_profit_bounds_are_inclusive(spark):
    # At the bounds: OH 100 and 200, KY 150 and 300, VA 50 and 250 count (quantities 1 to 32); VA
    # 49.99 and KY 300.01 do not (64, 128). Unit price 120 in profile (a) throughout.
    out = run(spark, [priced(1, profit="100.00", addr=OH), priced(2, profit="200.00", addr=OH),
                      priced(4, profit="150.00", addr=KY), priced(8, profit="300.00", addr=KY),
                      priced(16, profit="50.00", addr=VA), priced(32, profit="250.00", addr=VA),
                      priced(64, profit="49.99", addr=VA), priced(128, profit="300.01", addr=KY)])
    assert [r[0] for r in rows(out)] == [10.5]


@pytest.mark.obligation("O5")
def test_ranges_use_the_unit_sales_price_and_the_net_profit(spark):
    # Counted (quantity 2): unit price 120 in (a) although its list price, extended price and net
    # paid are out of range. Left out: unit price 30 (quantity 4) with an extended and a list price
    # of 120; net profit 400 (quantity 8) with a net paid of 150.
    out = run(spark, [priced(2, "120.00") | {"ss_ext_sales_price": "240.00", "ss_list_price": "300.00", "ss_net_paid": "400.00"},
                      priced(4, "30.00") | {"ss_ext_sales_price": "120.00", "ss_list_price": "120.00"},
                      priced(8, profit="400.00") | {"ss_net_paid": "150.00"}])
    assert [r[0] for r in rows(out)] == [2.0]


@pytest.mark.obligation("O6")
def test_demographics_are_read_through_the_sales_own_keys(spark):
    # Counted: (a) with its own household (120), and (b)'s customer with household 3 (1 dependent,
    # 75 in VA). Left out: (a)'s customer and (b)'s customer in a household without dependents:
    # the customer demographics key would point at a household that fits.
    out = run(spark, [sale("120.00", demo=A), sale("75.00", demo=B, hdemo=C, addr=VA),
                      sale("120.00", demo=A, hdemo=NO_DEPS), sale("75.00", demo=B, hdemo=NO_DEPS, addr=VA)])
    assert rows(out) == [(1.0, d("97.5"), d("97.5"), d("195.00"))]


@pytest.mark.obligation("O6")
def test_address_is_read_through_the_sales_own_address_key(spark):
    # The sales' addresses are 7 (OH) and 8 (VA), in the United States; address 1, the key every
    # other key of these sales holds (item, store, date, demographics, quantity), is in Canada, so
    # reading the region from any other key drops them.
    addresses = [{"ca_address_sk": 7, "ca_state": "OH", "ca_country": "United States"},
                 {"ca_address_sk": 8, "ca_state": "VA", "ca_country": "United States"},
                 {"ca_address_sk": 1, "ca_state": "OH", "ca_country": "Canada"}]
    out = run(spark, [sale("120.00", addr=7), sale("130.00", addr=8)], addresses=addresses)
    assert rows(out) == [(1.0, d("125"), d("125"), d("250.00"))]


@pytest.mark.obligation("O7")
def test_one_row_over_sales_of_several_stores(spark):
    out = run(spark, [sale("120.00", store=1), sale("140.00", store=2)])
    assert rows(out) == [(1.0, d("130"), d("130"), d("260.00"))]


@pytest.mark.obligation("O7")
def test_one_row_of_nulls_when_no_sale_qualifies(spark):
    out = run(spark, [])
    assert rows(out) == [(None, None, None, None)]


@pytest.mark.obligation("O8")
def test_measures_are_quantity_and_extended_price_and_cost(spark):
    # Profile (c) in KY: every money column of both sales lies strictly inside 150-200, so whichever
    # one a candidate reads for the price or the profit range, both sales count. Quantities 2 and 6;
    # extended sales prices 160 and 190 (average 175); extended wholesale costs 170 and 196
    # (average 183, total 366). Every other money column averages another value (166 to 176).
    money = ["ss_wholesale_cost", "ss_list_price", "ss_sales_price", "ss_ext_discount_amt", "ss_ext_sales_price",
             "ss_ext_wholesale_cost", "ss_ext_list_price", "ss_ext_tax", "ss_coupon_amt", "ss_net_paid",
             "ss_net_paid_inc_tax", "ss_net_profit"]
    first = dict(zip(money, ["151.00", "152.00", "153.00", "154.00", "160.00", "170.00", "155.00", "156.00", "157.00",
                             "158.00", "159.00", "161.00"]))
    second = dict(zip(money, ["181.00", "182.00", "183.00", "184.00", "190.00", "196.00", "185.00", "186.00", "187.00",
                              "188.00", "189.00", "191.00"]))
    out = run(spark, [sale("153.00", demo=C, addr=KY, ss_quantity=2, **first),
                      sale("183.00", demo=C, addr=KY, ss_quantity=6, **second)])
    assert rows(out) == [(4.0, d("175"), d("183"), d("366.00"))]


@pytest.mark.obligation("O9")
def test_columns_keep_spark_generated_names(plain):
    assert names(plain) == ["avg(ss_quantity)", "avg(ss_ext_sales_price)", "avg(ss_ext_wholesale_cost)",
                            "sum(ss_ext_wholesale_cost)"]


@pytest.mark.obligation("O10")
def test_decimal_averages_and_sum_keep_spark_widths(plain):
    assert field_types(plain)[1:] == ["decimal(11,6)", "decimal(11,6)", "decimal(17,2)"]


@pytest.mark.obligation("O11")
def test_average_quantity_is_a_double(plain):
    assert field_types(plain)[0] == "double"
