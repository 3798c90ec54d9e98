"""Acceptance tests for q69 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (customers of KY, GA and NM with a store sale in April-June 2001
and neither a web sale billed to them nor a catalog sale shipped to them in that period, counted
per demographic profile). Each output row is read as its five attributes (by their declared names
where the output has them all, by their declared positions otherwise) and its count: the value of
the count columns (every other column) when they agree, their tuple when they do not. So a
reordered, renamed or collapsed count column (one cnt for cnt1..cnt3) fails only the schema tests
(O9), and a wrong count still shows in every value test. By default customer k lives in KY, has demographics row k (profile k:
M, S, College, purchase estimate 100 k, Good; its household key is k too) and one store sale in
May 2001; web and catalog sales are only where a test needs them."""
import pytest

from lockin_acceptance import TaskTables, field_types, names
from solution import solve

T = TaskTables(__file__)
DECL = ["cd_gender", "cd_marital_status", "cd_education_status", "cnt1", "cd_purchase_estimate", "cnt2",
        "cd_credit_rating", "cnt3"]
ATTRS = ["cd_gender", "cd_marital_status", "cd_education_status", "cd_purchase_estimate", "cd_credit_rating"]
APR, MAY, JUN, MAR, JUL, MAY00, MAY02 = 1, 2, 3, 4, 5, 6, 7
DATES = [
    {"d_date_sk": APR, "d_year": 2001, "d_moy": 4},
    {"d_date_sk": MAY, "d_year": 2001, "d_moy": 5},
    {"d_date_sk": JUN, "d_year": 2001, "d_moy": 6},
    {"d_date_sk": MAR, "d_year": 2001, "d_moy": 3},
    {"d_date_sk": JUL, "d_year": 2001, "d_moy": 7},
    {"d_date_sk": MAY00, "d_year": 2000, "d_moy": 5},
    {"d_date_sk": MAY02, "d_year": 2002, "d_moy": 5},
]
KY, GA, NM, TN = 1, 2, 3, 4
ADDRESSES = [{"ca_address_sk": KY, "ca_state": "KY"}, {"ca_address_sk": GA, "ca_state": "GA"},
             {"ca_address_sk": NM, "ca_state": "NM"}, {"ca_address_sk": TN, "ca_state": "TN"}]


def demo(sk, gender="M", marital="S", education="College", estimate=None, rating="Good", dep=0):
    """A customer_demographics row; the purchase estimate is 100 x sk unless given."""
    return {"cd_demo_sk": sk, "cd_gender": gender, "cd_marital_status": marital, "cd_education_status": education,
            "cd_purchase_estimate": 100 * sk if estimate is None else estimate, "cd_credit_rating": rating,
            "cd_dep_count": dep}


DEMOS = [demo(k) for k in range(1, 10)]


def profile(k, n=1):
    """The expected row of profile k (demo(k)) counting n customers, as read by profiles()."""
    return ("M", "S", "College", 100 * k, "Good", n)


def _count_positions(df):
    """(attribute positions, count positions): the five attributes by name when the output has them
    all, every other column a count; else the declared positions (attributes 0 1 2 4 6, counts 3 5 7)."""
    cols = names(df)
    if all(a in cols for a in ATTRS):
        apos = [cols.index(a) for a in ATTRS]
        return apos, [i for i in range(len(cols)) if i not in apos]
    return [0, 1, 2, 4, 6], [i for i in (3, 5, 7) if i < len(cols)]


def profiles(df):
    """The rows in output order as (gender, marital, education, estimate, rating, count); count is
    the count columns' common value, or the tuple of their values when they differ."""
    apos, cpos = _count_positions(df)
    out = []
    for r in df.collect():
        counts = [r[i] for i in cpos]
        n = counts[0] if len(set(counts)) == 1 else tuple(counts)
        out.append(tuple(r[i] for i in apos) + (n,))
    return out


def profile_bag(df):
    """profiles() sorted (the row order ignored)."""
    return sorted(profiles(df), key=lambda r: tuple((0, "") if v is None else (1, v) for v in r))


def cust(k, addr=KY, cdemo=None, hdemo=None):
    """Customer k; its demographics (and household) key is k unless given."""
    d = k if cdemo is None else cdemo
    return {"c_customer_sk": k, "c_customer_id": f"C{k:03d}", "c_current_addr_sk": addr, "c_current_cdemo_sk": d,
            "c_current_hdemo_sk": d if hdemo is None else hdemo}


def ss(customer, date=MAY):
    return {"ss_item_sk": 1, "ss_customer_sk": customer, "ss_sold_date_sk": date}


def ws(bill, date=MAY, ship=None):
    return {"ws_item_sk": 1, "ws_bill_customer_sk": bill, "ws_ship_customer_sk": ship, "ws_sold_date_sk": date}


def cs(ship, date=MAY, bill=None):
    return {"cs_item_sk": 1, "cs_ship_customer_sk": ship, "cs_bill_customer_sk": bill, "cs_sold_date_sk": date}


def run(spark, customers, store, web=(), catalog=(), demos=DEMOS):
    return solve(spark, T.all(spark, customer=list(customers), customer_address=ADDRESSES, customer_demographics=demos,
                              store_sales=list(store), web_sales=list(web), catalog_sales=list(catalog), date_dim=DATES))


@pytest.fixture(scope="module")
def plain(spark):
    """Two store-only customers in KY and GA: profiles 1 and 2, one customer each."""
    return run(spark, [cust(1, KY), cust(2, GA)], [ss(1), ss(2)])


@pytest.mark.obligation("O1")
def test_profile_is_the_current_demographics_row(spark):
    # Customer 1: demographics row 1, household key 2 (profile 2 exists). Customer 3: demographics
    # key 99 matches no row, so customer 3 has no profile and is not counted.
    out = run(spark, [cust(1, hdemo=2), cust(3, cdemo=99, hdemo=3)], [ss(1), ss(3)])
    assert profile_bag(out) == [profile(1)]


@pytest.mark.obligation("O2")
def test_only_customers_living_in_ky_ga_or_nm(spark):
    # Customers 1-3 live in KY, GA, NM; 4 in TN; 5 has no address key; 6 an address key matching no address.
    customers = [cust(1, KY), cust(2, GA), cust(3, NM), cust(4, TN), cust(5, None), cust(6, 99)]
    out = run(spark, customers, [ss(k) for k in range(1, 7)])
    assert profile_bag(out) == [profile(1), profile(2), profile(3)]


@pytest.mark.obligation("O3")
def test_store_sale_must_fall_in_april_to_june_2001(spark):
    # Store sales: 1 in April 2001, 2 in June 2001 (both bounds, in); 3 March and 4 July 2001,
    # 5 May 2000, 6 May 2002 (out); 7 a sale without a date; 8 no store sale at all.
    store = [ss(1, APR), ss(2, JUN), ss(3, MAR), ss(4, JUL), ss(5, MAY00), ss(6, MAY02), ss(7, None)]
    out = run(spark, [cust(k) for k in range(1, 9)], store)
    assert profile_bag(out) == [profile(1), profile(2)]


@pytest.mark.obligation("O4")
def test_no_web_sale_billed_to_the_customer_in_the_period(spark):
    # Every customer 1-7 has a store sale in May 2001. Web sales: billed to 1 (shipped to 9) in May:
    # 1 out; billed to 9, shipped to 2: 2 stays; billed to 3 in March, 4 in July 2001, 5 in May 2000:
    # outside the period, they stay; billed to 6 in April and to 7 in June: out.
    web = [ws(1, MAY, ship=9), ws(9, MAY, ship=2), ws(3, MAR), ws(4, JUL), ws(5, MAY00), ws(6, APR), ws(7, JUN)]
    out = run(spark, [cust(k) for k in range(1, 8)], [ss(k) for k in range(1, 8)], web=web)
    assert profile_bag(out) == [profile(2), profile(3), profile(4), profile(5)]


@pytest.mark.obligation("O5")
def test_no_catalog_sale_shipped_to_the_customer_in_the_period(spark):
    # As for the web, with catalog sales shipped to the customer: shipped to 1 (billed to 9) in May:
    # 1 out; shipped to 9, billed to 2: 2 stays; 3, 4, 5 outside the period stay; 6 (April), 7 (June) out.
    catalog = [cs(1, MAY, bill=9), cs(9, MAY, bill=2), cs(3, MAR), cs(4, JUL), cs(5, MAY00), cs(6, APR), cs(7, JUN)]
    out = run(spark, [cust(k) for k in range(1, 8)], [ss(k) for k in range(1, 8)], catalog=catalog)
    assert profile_bag(out) == [profile(2), profile(3), profile(4), profile(5)]


@pytest.mark.obligation("O6")
def test_each_customer_counts_once(spark):
    # Customers 1 and 2 share profile 1: 1 has three store sales in the period, 2 one; both have
    # no web or catalog sale at all. Customer 3 has a web sale (July) and a catalog sale (March)
    # outside the period only. Profile 1 counts 2 customers, profile 3 one.
    customers = [cust(1), cust(2, cdemo=1), cust(3)]
    store = [ss(1, APR), ss(1, MAY), ss(1, JUN), ss(2), ss(3)]
    out = run(spark, customers, store, web=[ws(3, JUL)], catalog=[cs(3, MAR)])
    assert profile_bag(out) == [profile(1, 2), profile(3)]


@pytest.mark.obligation("O7")
def test_a_web_sale_without_bill_customer_excludes_nobody(spark):
    # A web sale in May 2001 with no customer at all, and one billed (and shipped) to 2: only 2 is out.
    out = run(spark, [cust(1), cust(2)], [ss(1), ss(2)], web=[ws(None), ws(2, ship=2)])
    assert profile_bag(out) == [profile(1)]


@pytest.mark.obligation("O7")
def test_a_catalog_sale_without_ship_customer_excludes_nobody(spark):
    # A catalog sale in May 2001 with no customer at all, and one shipped (and billed) to 2: only 2 is out.
    out = run(spark, [cust(1), cust(2)], [ss(1), ss(2)], catalog=[cs(None), cs(2, bill=2)])
    assert profile_bag(out) == [profile(1)]


@pytest.mark.obligation("O8")
def test_one_group_per_five_attributes(spark):
    # Rows 10 and 11 differ only in the dependant count (not a grouping key): one group of 2.
    # Rows 12-16 each differ from row 10 in exactly one grouping key: five more groups.
    demos = [demo(10, estimate=500), demo(11, estimate=500, dep=1), demo(12, gender="F", estimate=500),
             demo(13, marital="M", estimate=500), demo(14, education="Primary", estimate=500),
             demo(15, estimate=600), demo(16, estimate=500, rating="Low")]
    customers = [cust(k, cdemo=9 + k) for k in range(1, 8)]
    out = run(spark, customers, [ss(k) for k in range(1, 8)], demos=demos)
    assert profile_bag(out) == [
        ("F", "S", "College", 500, "Good", 1),
        ("M", "M", "College", 500, "Good", 1),
        ("M", "S", "College", 500, "Good", 2),
        ("M", "S", "College", 500, "Low", 1),
        ("M", "S", "College", 600, "Good", 1),
        ("M", "S", "Primary", 500, "Good", 1),
    ]


@pytest.mark.obligation("O9")
def test_columns_are_the_eight_declared_in_order(plain):
    assert names(plain) == DECL


@pytest.mark.obligation("O10")
def test_counts_are_bigint(plain):
    # The count columns wherever they are (O9 decides their names and places): each is a bigint.
    types = field_types(plain)
    counts = [types[i] for i in _count_positions(plain)[1]]
    assert counts and all(t == "bigint" for t in counts)


@pytest.mark.obligation("O11")
def test_ordered_by_the_five_attributes_ascending(spark):
    # Profiles given in reverse; (M, S, College) has estimates 100 (2 customers, credit Low),
    # 500 (Good and Low) and 1000: numeric order, the count plays no part.
    demos = [demo(20, gender="F", marital="M", estimate=500), demo(21, marital="D", estimate=500),
             demo(22, education="Advanced", estimate=900), demo(23, estimate=100, rating="Low"),
             demo(24, estimate=500), demo(25, estimate=500, rating="Low"), demo(26, estimate=1000)]
    customers = [cust(1, cdemo=26), cust(2, cdemo=25), cust(3, cdemo=24), cust(4, cdemo=23), cust(5, cdemo=23),
                 cust(6, cdemo=22), cust(7, cdemo=21), cust(8, cdemo=20)]
    out = run(spark, customers, [ss(k) for k in range(1, 9)], demos=demos)
    assert profiles(out) == [
        ("F", "M", "College", 500, "Good", 1),
        ("M", "D", "College", 500, "Good", 1),
        ("M", "S", "Advanced", 900, "Good", 1),
        ("M", "S", "College", 100, "Low", 2),
        ("M", "S", "College", 500, "Good", 1),
        ("M", "S", "College", 500, "Low", 1),
        ("M", "S", "College", 1000, "Good", 1),
    ]


@pytest.mark.obligation("O11")
def test_at_most_100_rows_the_first_in_order(spark):
    # 105 profiles, one customer each (given in reverse): the 100 lowest purchase estimates are kept.
    demos = [demo(k) for k in range(1, 106)]
    out = run(spark, [cust(k) for k in range(105, 0, -1)], [ss(k) for k in range(1, 106)], demos=demos)
    assert [r[3] for r in profiles(out)] == [100 * k for k in range(1, 101)]
