"""Acceptance tests for q18 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning. Values are read in the declared output order (item id,
country, state, county, agg1..agg7) with `declared_rows`/`declared_bag`, never by alias, except
in the schema and type tests. The rollup's subtotal rows are told apart from detail rows by
their dimension values: a value that is not a fixture value (NULL or a placeholder) counts as
rolled up, so only the null-rollup test depends on how a subtotal is spelled."""
from decimal import Decimal

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECLARED = ["i_item_id", "ca_country", "ca_state", "ca_county"] + [f"agg{k}" for k in range(1, 8)]
D = Decimal
Y1998, Y1997, Y1999 = 1, 2, 3
DATES = [
    {"d_date_sk": Y1998, "d_year": 1998, "d_moy": 5},
    {"d_date_sk": Y1997, "d_year": 1997, "d_moy": 5},
    {"d_date_sk": Y1999, "d_year": 1999, "d_moy": 5},
]
ITEMS = [{"i_item_sk": k, "i_item_id": f"ITEM{k:04d}"} for k in range(1, 81)]
US = "United States"
# Demographics: the counts that are not the dependent count differ, so a substitution shows.
FU2, FU3, MU, FC, MC = 1, 2, 3, 4, 5
DEMOS = [
    {"cd_demo_sk": FU2, "cd_gender": "F", "cd_education_status": "Unknown", "cd_dep_count": 2,
     "cd_dep_employed_count": 40, "cd_dep_college_count": 50, "cd_purchase_estimate": 500},
    {"cd_demo_sk": FU3, "cd_gender": "F", "cd_education_status": "Unknown", "cd_dep_count": 3,
     "cd_dep_employed_count": 41, "cd_dep_college_count": 51, "cd_purchase_estimate": 600},
    {"cd_demo_sk": MU, "cd_gender": "M", "cd_education_status": "Unknown", "cd_dep_count": 4},
    {"cd_demo_sk": FC, "cd_gender": "F", "cd_education_status": "College", "cd_dep_count": 4},
    {"cd_demo_sk": MC, "cd_gender": "M", "cd_education_status": "College", "cd_dep_count": 5},
]


def purchase(n, item=1, county="Alpha County", state="VA", country=US, qty=1, bill_demo=FU2, cur_demo="same",
             month=1, birth_year=1970, date=Y1998, bill_addr=None, **sale):
    """One catalog sale by its own customer n living at its own address n (key n for both).
    The customer's current demographics are the bill's unless cur_demo says otherwise."""
    cs = {"cs_sold_date_sk": date, "cs_item_sk": item, "cs_bill_customer_sk": n, "cs_bill_cdemo_sk": bill_demo,
          "cs_bill_addr_sk": bill_addr, "cs_quantity": qty, "cs_order_number": n}
    cs.update(sale)
    c = {"c_customer_sk": n, "c_current_cdemo_sk": bill_demo if cur_demo == "same" else cur_demo,
         "c_current_addr_sk": n, "c_birth_month": month, "c_birth_year": birth_year, "c_birth_day": 15}
    ca = {"ca_address_sk": n, "ca_country": country, "ca_state": state, "ca_county": county}
    return cs, c, ca


def run(spark, purchases, extra_addresses=()):
    sales, customers, addresses = (list(x) for x in zip(*purchases))
    return solve(spark, T.all(spark, catalog_sales=sales, customer=customers,
                              customer_address=addresses + list(extra_addresses),
                              customer_demographics=DEMOS, date_dim=DATES, item=ITEMS))


def real(value):
    """A fixture value (not NULL, not a placeholder for a rolled-up dimension)."""
    return isinstance(value, str) and (value.startswith("ITEM") or value.endswith("County")
                                       or value in (US, "Mexico") or len(value) == 2 and value.isupper())


def norm(row):
    """The row with every rolled-up dimension (NULL or placeholder) read as None."""
    return tuple(v if real(v) else None for v in row[:4]) + tuple(row[4:])


def detail(df):
    """The detail rows (all four dimensions real), sorted, in the declared column order."""
    return [r for r in declared_bag(df, DECLARED) if all(real(v) for v in r[:4])]


def items_and_counties(df):
    return [(r[0], r[3]) for r in detail(df)]


@pytest.fixture(scope="module")
def plain(spark):
    """Two qualifying sales of one item in one county: nothing to filter, join or break."""
    return run(spark, [purchase(1, qty=1), purchase(2, qty=3)])


@pytest.mark.obligation("O1")
def test_output_columns_in_order(plain):
    assert names(plain) == DECLARED


@pytest.mark.obligation("O2")
def test_gender_and_education_come_from_the_billing_demographics(spark):
    # Sale 1: billed as F/Unknown, the customer is now M/College: kept.
    # Sale 2: billed as M/College, the customer is now F/Unknown: dropped.
    out = run(spark, [purchase(1, item=1, bill_demo=FU2, cur_demo=MC), purchase(2, item=2, bill_demo=MC, cur_demo=FU2)])
    assert items_and_counties(out) == [("ITEM0001", "Alpha County")]


@pytest.mark.obligation("O2")
def test_dependent_count_comes_from_the_billing_demographics(spark):
    # Billed with 2 dependents, currently 3: agg7 averages the bill's 2.
    out = run(spark, [purchase(1, bill_demo=FU2, cur_demo=FU3)])
    assert [(r[0], r[10]) for r in detail(out)] == [("ITEM0001", D("2"))]


@pytest.mark.obligation("O3")
def test_customers_without_existing_current_demographics_are_dropped(spark):
    # Customer 2's current demographics key 99 matches no row, customer 3's is NULL: both dropped.
    out = run(spark, [purchase(1, item=1, bill_demo=FU2, cur_demo=FU2),
                      purchase(2, item=2, bill_demo=FU2, cur_demo=99),
                      purchase(3, item=3, bill_demo=FU2, cur_demo=None)])
    assert items_and_counties(out) == [("ITEM0001", "Alpha County")]


@pytest.mark.obligation("O3")
def test_location_is_the_customers_current_address(spark):
    # The bill goes to address 50 (Bill County, state ND); the customer lives at address 1 (Alpha County, VA).
    bill_address = {"ca_address_sk": 50, "ca_country": US, "ca_state": "ND", "ca_county": "Bill County"}
    out = run(spark, [purchase(1, item=1, bill_addr=50)], extra_addresses=[bill_address])
    assert [r[:4] for r in detail(out)] == [("ITEM0001", US, "VA", "Alpha County")]


@pytest.mark.obligation("O4")
def test_only_female_billing_demographics(spark):
    out = run(spark, [purchase(1, item=1, bill_demo=FU2), purchase(2, item=2, bill_demo=MU)])
    assert items_and_counties(out) == [("ITEM0001", "Alpha County")]


@pytest.mark.obligation("O4")
def test_only_unknown_education_status(spark):
    out = run(spark, [purchase(1, item=1, bill_demo=FU2), purchase(2, item=2, bill_demo=FC)])
    assert items_and_counties(out) == [("ITEM0001", "Alpha County")]


@pytest.mark.obligation("O4")
def test_only_the_six_birth_months(spark):
    months = [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, None]
    out = run(spark, [purchase(k + 1, item=k + 1, month=m) for k, m in enumerate(months)])
    kept = [f"ITEM{k + 1:04d}" for k, m in enumerate(months) if m in (1, 2, 6, 8, 9, 12)]
    assert [r[0] for r in detail(out)] == kept == ["ITEM0001", "ITEM0002", "ITEM0005", "ITEM0007", "ITEM0008", "ITEM0011"]


@pytest.mark.obligation("O4")
def test_only_sales_of_1998(spark):
    out = run(spark, [purchase(1, item=1, date=Y1998), purchase(2, item=2, date=Y1997), purchase(3, item=3, date=Y1999)])
    assert items_and_counties(out) == [("ITEM0001", "Alpha County")]


@pytest.mark.obligation("O4")
def test_only_the_six_states(spark):
    states = ["VA", "NM", "OK", "ND", "IN", "MS", "TX", "CA", None]
    out = run(spark, [purchase(k + 1, item=k + 1, state=s) for k, s in enumerate(states)])
    assert sorted(r[2] for r in detail(out)) == ["IN", "MS", "ND", "NM", "OK", "VA"]


@pytest.fixture(scope="module")
def grain(spark):
    """Item 1 in two counties of VA and one of IN; item 2 in one county of VA, in two countries.
    Quantities 1, 3, 5 (item 1) and 8, 3 (item 2): every average is exact in binary too."""
    return run(spark, [
        purchase(1, item=1, state="VA", county="Alpha County", qty=1),
        purchase(2, item=1, state="VA", county="Beta County", qty=3),
        purchase(3, item=1, state="IN", county="Alpha County", qty=5),
        purchase(4, item=2, state="VA", county="Alpha County", qty=8),
        purchase(5, item=2, state="VA", county="Alpha County", country="Mexico", qty=3),
    ])


@pytest.mark.obligation("O5")
def test_rollup_over_item_country_state_county(grain):
    I1, I2, A, B = "ITEM0001", "ITEM0002", "Alpha County", "Beta County"

    def key(t):
        return tuple((v is not None, v or "") for v in t[0])

    assert sorted(((norm(r)[:4], r[4]) for r in declared_rows(grain, DECLARED)), key=key) == sorted([
        ((I1, US, "IN", A), D("5")), ((I1, US, "VA", A), D("1")), ((I1, US, "VA", B), D("3")),
        ((I2, US, "VA", A), D("8")), ((I2, "Mexico", "VA", A), D("3")),
        ((I1, US, "IN", None), D("5")), ((I1, US, "VA", None), D("2")),
        ((I2, US, "VA", None), D("8")), ((I2, "Mexico", "VA", None), D("3")),
        ((I1, US, None, None), D("3")), ((I2, US, None, None), D("8")), ((I2, "Mexico", None, None), D("3")),
        ((I1, None, None, None), D("3")), ((I2, None, None, None), D("5.5")),
        ((None, None, None, None), D("4")),
    ], key=key)


@pytest.mark.obligation("O6")
def test_each_average_is_of_its_own_column(spark):
    # Every column the metrics could be confused with holds another value.
    common = {"cs_wholesale_cost": "70.00", "cs_ext_discount_amt": "71.00", "cs_ext_wholesale_cost": "72.00",
              "cs_ext_list_price": "73.00", "cs_ext_tax": "74.00", "cs_ext_ship_cost": "75.00", "cs_net_paid": "76.00",
              "cs_net_paid_inc_tax": "77.00", "cs_net_paid_inc_ship": "78.00", "cs_net_paid_inc_ship_tax": "79.00"}
    out = run(spark, [
        purchase(1, qty=1, cs_list_price="10.00", cs_coupon_amt="1.00", cs_sales_price="8.00", cs_ext_sales_price="80.00",
                 cs_net_profit="2.00", birth_year=1970, bill_demo=FU2, **common),
        purchase(2, qty=2, cs_list_price="20.00", cs_coupon_amt="3.00", cs_sales_price="16.00", cs_ext_sales_price="32.00",
                 cs_net_profit="-1.00", birth_year=1971, bill_demo=FU3, **common),
    ])
    assert [r[4:] for r in detail(out)] == [(D("1.5"), D("15"), D("2"), D("12"), D("0.5"), D("1970.5"), D("2.5"))]


@pytest.mark.obligation("O7")
def test_rolled_up_dimensions_are_null(grain):
    got = declared_rows(grain, DECLARED)
    for r in got:
        for v in r[:4]:
            assert v is None or real(v), f"rolled-up dimension holds a placeholder {v!r} in {r[:4]}"
    assert (None, None, None, None) in [r[:4] for r in got]


@pytest.mark.obligation("O8")
def test_integer_averages_are_decimal_16_6(plain):
    types = field_types(plain)
    assert (types[4], types[9], types[10]) == ("decimal(16,6)",) * 3


@pytest.mark.obligation("O9")
def test_money_averages_are_decimal_16_6(plain):
    assert field_types(plain)[5:9] == ["decimal(16,6)"] * 4


@pytest.mark.obligation("O10")
def test_order_country_state_county_item(spark):
    out = run(spark, [
        purchase(1, item=2, country=US, state="IN", county="Alpha County"),
        purchase(2, item=1, country=US, state="VA", county="Alpha County"),
        purchase(3, item=1, country=US, state="IN", county="Beta County"),
        purchase(4, item=1, country=US, state="IN", county="Alpha County"),
        purchase(5, item=3, country="Mexico", state="MS", county="Alpha County"),
    ])
    got = [norm(r)[:4] for r in declared_rows(out, DECLARED)]
    assert got[0] == (None, None, None, None)
    assert [t for t in got if all(t)] == [
        ("ITEM0003", "Mexico", "MS", "Alpha County"),
        ("ITEM0001", US, "IN", "Alpha County"),
        ("ITEM0002", US, "IN", "Alpha County"),
        ("ITEM0001", US, "IN", "Beta County"),
        ("ITEM0001", US, "VA", "Alpha County"),
    ]


@pytest.mark.obligation("O10")
def test_at_most_100_rows(spark):
    # 60 items, each in its own county: 241 rollup rows.
    out = run(spark, [purchase(k, item=k, county=f"C{k:02d} County") for k in range(1, 61)])
    assert out.count() == 100
