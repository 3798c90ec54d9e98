"""Acceptance tests for q13 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (one row of averages and a sum over the 2001 store sales that
fit one of three demographic profiles and one of three regional profiles). The task declares no
output names: values are read by position in the declared order (average quantity, average
extended sales price, average extended wholesale cost, total extended wholesale cost), never by
alias, except in the alias and type tests.

Every fixture keeps the parts the other obligations decide plain: each sale is in store 1, in
2001, has quantity 1 (so its extended prices equal its unit prices), the same key for its
customer and household demographics, a unit sales price inside its profile's range and a net
profit inside its region's range away from the bounds (except where the obligation under test
changes one of these). Wholesale costs tell which sales were counted."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, field_types, names, rows
from solution import solve

T = TaskTables(__file__)
Y2001, Y2000, Y2002 = 1, 2, 3
DATES = [{"d_date_sk": Y2001, "d_year": 2001}, {"d_date_sk": Y2000, "d_year": 2000}, {"d_date_sk": Y2002, "d_year": 2002}]
STORES = [{"s_store_sk": 1}, {"s_store_sk": 2}]
# Demographic profiles: key 1 = (a) M / Advanced Degree / 3 dependents, 2 = (b) S / College / 1,
# 3 = (c) W / 2 yr Degree / 1; key 4 mixes (a)'s marital status with (b)'s education, 3 dependents;
# household 5 has no dependents.
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


def sale(cost, price="120.00", demo=A, hdemo=None, addr=OH, profit="150.00", store=1, date=Y2001, **extra):
    """One store sale of quantity 1: unit and extended sales price `price`, unit and extended
    wholesale cost `cost`; `hdemo` defaults to `demo`; `extra` sets other columns."""
    row = {"ss_sold_date_sk": date, "ss_item_sk": 1, "ss_store_sk": store, "ss_cdemo_sk": demo,
           "ss_hdemo_sk": demo if hdemo is None else hdemo, "ss_addr_sk": addr, "ss_quantity": 1,
           "ss_sales_price": price, "ss_ext_sales_price": price, "ss_wholesale_cost": cost,
           "ss_ext_wholesale_cost": cost, "ss_net_profit": profit}
    row.update(extra)
    return row


def run(spark, sales):
    return solve(spark, T.all(spark, store_sales=sales, store=STORES, date_dim=DATES, customer_demographics=DEMOGRAPHICS,
                              household_demographics=HOUSEHOLDS, customer_address=ADDRESSES))


def d(x):
    return Decimal(x)


@pytest.fixture(scope="module")
def plain(spark):
    return run(spark, [sale("1.00"), sale("3.00", price="140.00")])


@pytest.mark.obligation("O1")
def test_sales_of_a_store_that_does_not_exist_are_left_out(spark):
    # Store 99 is not in store, and a NULL store matches nothing: only the first sale counts.
    out = run(spark, [sale("1.00"), sale("2.00", price="140.00", store=99), sale("4.00", price="130.00", store=None)])
    assert rows(out) == [(1.0, d("120"), d("1"), d("1.00"))]


@pytest.mark.obligation("O2")
def test_only_sales_of_2001_count(spark):
    out = run(spark, [sale("1.00"), sale("2.00", price="140.00", date=Y2000), sale("4.00", price="130.00", date=Y2002)])
    assert rows(out) == [(1.0, d("120"), d("1"), d("1.00"))]


@pytest.mark.obligation("O3")
def test_each_demographic_profile_holds_as_a_whole(spark):
    # One sale per profile counts (120 in a, 75 in b, 180 in c). Left out: (a)'s customer with
    # (b)'s price range, and a married college graduate (a's status, b's education) in a's range.
    out = run(spark, [sale("1.00", "120.00", demo=A), sale("2.00", "75.00", demo=B), sale("6.00", "180.00", demo=C),
                      sale("10.00", "75.00", demo=A), sale("20.00", "120.00", demo=MIXED)])
    assert rows(out) == [(1.0, d("125"), d("3"), d("9.00"))]


@pytest.mark.obligation("O4")
def test_each_regional_profile_holds_as_a_whole_in_the_united_states(spark):
    # Count: OH at 150 (a), KY at 200 (b), VA at 100 (c). Left out: OH at 250 (a stops at 200, OH
    # is in no other region), KY at 100 (b starts at 150), TX outside the United States.
    out = run(spark, [sale("1.00", addr=OH, profit="150.00"), sale("2.00", addr=KY, profit="200.00"),
                      sale("6.00", addr=VA, profit="100.00"), sale("10.00", addr=OH, profit="250.00"),
                      sale("20.00", addr=KY, profit="100.00"), sale("40.00", addr=TX_CANADA, profit="150.00")])
    assert rows(out) == [(1.0, d("120"), d("3"), d("9.00"))]


@pytest.mark.obligation("O5")
def test_price_bounds_are_inclusive(spark):
    # At the bounds: a 100.00 and 150.00, b 50.00, c 200.00 count; b 49.99 and c 200.01 do not.
    out = run(spark, [sale("1.00", "100.00", demo=A), sale("2.00", "150.00", demo=A), sale("4.00", "50.00", demo=B),
                      sale("8.00", "200.00", demo=C), sale("16.00", "49.99", demo=B), sale("32.00", "200.01", demo=C)])
    assert rows(out) == [(1.0, d("125"), d("3.75"), d("15.00"))]


@pytest.mark.obligation("O5")
def test_net_profit_bounds_are_inclusive(spark):
    # At the bounds: OH 100 and 200, KY 150 and 300, VA 50 and 250 count; VA 49.99 and KY 300.01 do not.
    out = run(spark, [sale("1.00", addr=OH, profit="100.00"), sale("2.00", addr=OH, profit="200.00"),
                      sale("4.00", addr=KY, profit="150.00"), sale("8.00", addr=KY, profit="300.00"),
                      sale("16.00", addr=VA, profit="50.00"), sale("32.00", addr=VA, profit="250.00"),
                      sale("64.00", addr=VA, profit="49.99"), sale("128.00", addr=KY, profit="300.01")])
    assert rows(out) == [(1.0, d("120"), d("10.5"), d("63.00"))]


@pytest.mark.obligation("O5")
def test_ranges_use_the_unit_sales_price_and_the_net_profit(spark):
    # Counted: unit price 120 (a) although its list price, extended price (2 units) and net paid
    # are out of range. Left out: unit price 30 with an extended price of 120; net profit 400
    # with a net paid of 150. Only the total wholesale cost is read here.
    out = run(spark, [sale("1.00", "120.00", ss_quantity=2, ss_ext_sales_price="240.00", ss_list_price="300.00",
                           ss_net_paid="400.00"),
                      sale("2.00", "30.00", ss_quantity=4, ss_ext_sales_price="120.00", ss_list_price="120.00"),
                      sale("4.00", profit="400.00", ss_net_paid="150.00")])
    assert [r[3] for r in rows(out)] == [d("1.00")]


@pytest.mark.obligation("O6")
def test_demographics_are_read_through_the_sales_own_keys(spark):
    # Counted: (a) with its own household (120), and (b)'s customer with household 3 (1 dependent,
    # 75). Left out: (a)'s customer and (b)'s customer in a household without dependents: the
    # customer demographics key would point at a household that fits.
    out = run(spark, [sale("1.00", "120.00", demo=A), sale("3.00", "75.00", demo=B, hdemo=C),
                      sale("10.00", "120.00", demo=A, hdemo=NO_DEPS), sale("20.00", "75.00", demo=B, hdemo=NO_DEPS)])
    assert rows(out) == [(1.0, d("97.5"), d("2"), d("4.00"))]


@pytest.mark.obligation("O7")
def test_one_row_over_sales_of_several_stores(spark):
    out = run(spark, [sale("1.00", store=1), sale("3.00", price="140.00", store=2)])
    assert rows(out) == [(1.0, d("130"), d("2"), d("4.00"))]


@pytest.mark.obligation("O7")
def test_one_row_of_nulls_when_no_sale_qualifies(spark):
    out = run(spark, [])
    assert rows(out) == [(None, None, None, None)]


@pytest.mark.obligation("O8")
def test_measures_are_quantity_and_extended_price_and_cost(spark):
    # Quantities 2 and 4: extended price 240 and 440, extended wholesale cost 100 and 240.
    out = run(spark, [sale("50.00", "120.00", ss_quantity=2, ss_ext_sales_price="240.00", ss_ext_wholesale_cost="100.00",
                           ss_list_price="130.00", ss_ext_list_price="260.00"),
                      sale("60.00", "110.00", ss_quantity=4, ss_ext_sales_price="440.00", ss_ext_wholesale_cost="240.00",
                           ss_list_price="115.00", ss_ext_list_price="460.00")])
    assert rows(out) == [(3.0, d("340"), d("170"), d("340.00"))]


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
