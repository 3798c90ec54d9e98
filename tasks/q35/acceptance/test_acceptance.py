"""Acceptance tests for q35 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (customers with a store sale in 2002 quarters 1-3 and a web sale
billed to them or a catalog sale shipped to them in that period, counted per state, gender, marital
status and the three dependent counts, with the min, max and mean of each dependent count).
Values are read in the declared output order (declared_rows): a column is found by the name the
output would carry (the stated names, and Spark's generated names for the nine statistics) when
the output has it, by position otherwise, so a reordered or renamed column fails only the schema
and alias tests. By default customer k lives in KY and has demographics row k (M, S, 1 dependent,
k employed, 0 in college; its household key is k too); means are binary-exact."""
import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
STATS = ["min(cd_dep_count)", "max(cd_dep_count)", "avg(cd_dep_count)",
         "min(cd_dep_employed_count)", "max(cd_dep_employed_count)", "avg(cd_dep_employed_count)",
         "min(cd_dep_college_count)", "max(cd_dep_college_count)", "avg(cd_dep_college_count)"]
DECL = ["ca_state", "cd_gender", "cd_marital_status", "cnt1", *STATS[0:3], "cd_dep_employed_count", "cnt2",
        *STATS[3:6], "cd_dep_college_count", "cnt3", *STATS[6:9]]
# Date keys unlike every quarter, month and year number, so that reading another date column
# for d_qoy (d_date_sk, d_moy, ...) changes which sales fall in quarters 1-3.
Q1, Q2, Q3, Q4, Q1_01, Q1_03 = 101, 102, 103, 104, 105, 106
DATES = [
    {"d_date_sk": Q1, "d_year": 2002, "d_qoy": 1, "d_moy": 2},
    {"d_date_sk": Q2, "d_year": 2002, "d_qoy": 2, "d_moy": 5},
    {"d_date_sk": Q3, "d_year": 2002, "d_qoy": 3, "d_moy": 9},
    {"d_date_sk": Q4, "d_year": 2002, "d_qoy": 4, "d_moy": 10},
    {"d_date_sk": Q1_01, "d_year": 2001, "d_qoy": 1, "d_moy": 2},
    {"d_date_sk": Q1_03, "d_year": 2003, "d_qoy": 1, "d_moy": 2},
]
KY, GA, TX = 1, 2, 3
ITEM = 77  # no customer, date or demographics key is 77
ADDRESSES = [{"ca_address_sk": KY, "ca_state": "KY"}, {"ca_address_sk": GA, "ca_state": "GA"},
             {"ca_address_sk": TX, "ca_state": "TX"}]


def demo(sk, gender="M", marital="S", dep=1, emp=None, col=0):
    """A customer_demographics row; the employed-dependent count is sk unless given."""
    return {"cd_demo_sk": sk, "cd_gender": gender, "cd_marital_status": marital, "cd_dep_count": dep,
            "cd_dep_employed_count": sk if emp is None else emp, "cd_dep_college_count": col,
            "cd_purchase_estimate": 500, "cd_credit_rating": "Good", "cd_education_status": "College"}


DEMOS = [demo(k) for k in range(1, 10)]


def expect(state, gender, marital, dep, emp, col, n=1):
    """The expected row of a group of n customers who all have these dependent counts."""
    return (state, gender, marital, n, dep, dep, float(dep), emp, n, emp, emp, float(emp), col, n, col, col, float(col))


def single(k, n=1):
    """The expected row of default profile k (demo(k), KY) counting n customers."""
    return expect("KY", "M", "S", 1, k, 0, n)


def cust(k, addr=KY, cdemo=None, hdemo=None):
    """Customer k; its demographics (and household) key is k unless given."""
    d = k if cdemo is None else cdemo
    return {"c_customer_sk": k, "c_customer_id": f"C{k:03d}", "c_current_addr_sk": addr, "c_current_cdemo_sk": d,
            "c_current_hdemo_sk": d if hdemo is None else hdemo}


def ss(customer, date=Q2):
    return {"ss_item_sk": ITEM, "ss_customer_sk": customer, "ss_sold_date_sk": date}


def ws(bill, date=Q2, ship=None):
    """A web sale billed to `bill`, shipped to `ship` (the billed customer unless given)."""
    return {"ws_item_sk": ITEM, "ws_bill_customer_sk": bill, "ws_ship_customer_sk": bill if ship is None else ship,
            "ws_sold_date_sk": date}


def cs(ship, date=Q2, bill=None):
    """A catalog sale shipped to `ship`, billed to `bill` (the shipped-to customer unless given)."""
    return {"cs_item_sk": ITEM, "cs_ship_customer_sk": ship, "cs_bill_customer_sk": ship if bill is None else bill,
            "cs_sold_date_sk": date}


def run(spark, customers, store, web=(), catalog=(), demos=DEMOS):
    return solve(spark, T.all(spark, customer=list(customers), customer_address=ADDRESSES, customer_demographics=demos,
                              store_sales=list(store), web_sales=list(web), catalog_sales=list(catalog), date_dim=DATES))


def buyers(spark, ks, demos=DEMOS, customers=None):
    """Customers ks (default rows unless given), each with one store sale and one web sale in 2002 Q2."""
    customers = [cust(k) for k in ks] if customers is None else customers
    return run(spark, customers, [ss(k) for k in ks], web=[ws(k) for k in ks], demos=demos)


def declared_types(out):
    """The output's column types in the declared order (by name where present, else by position)."""
    lower, types = names(out), field_types(out)
    return [types[lower.index(n)] if n in lower else types[i] for i, n in enumerate(DECL)]


@pytest.fixture(scope="module")
def plain(spark):
    """Two customers of profiles 1 and 2 who bought in a store and on the web in 2002 Q2."""
    return buyers(spark, [1, 2])


@pytest.mark.obligation("O1")
def test_described_by_current_address_and_demographics(spark):
    # Customer 1: demographics row 1, household key 2 (row 2 exists). Customer 3: demographics key
    # 99 matches no row. Customer 4: address key 99 matches no address. Only customer 1 is counted.
    customers = [cust(1, hdemo=2), cust(3, cdemo=99, hdemo=3), cust(4, addr=99)]
    out = buyers(spark, [1, 3, 4], customers=customers)
    assert declared_bag(out, DECL) == [single(1)]


@pytest.mark.obligation("O2")
def test_store_sale_must_fall_in_2002_quarters_1_to_3(spark):
    # Everyone has a web sale in 2002 Q2. Store sales: 1 in Q1 and 2 in Q3 2002 (in); 3 in Q4 2002,
    # 4 in Q1 2001, 5 in Q1 2003 (out); 6 a sale without a date; 7 no store sale.
    store = [ss(1, Q1), ss(2, Q3), ss(3, Q4), ss(4, Q1_01), ss(5, Q1_03), ss(6, None)]
    out = run(spark, [cust(k) for k in range(1, 8)], store, web=[ws(k) for k in range(1, 8)])
    assert declared_bag(out, DECL) == [single(1), single(2)]


@pytest.mark.obligation("O3")
def test_web_sale_billed_or_catalog_sale_shipped_in_the_period(spark):
    # Everyone has a store sale in 2002 Q2. 1: web sale billed to 1 (shipped to 9) in Q1: in.
    # 2: catalog sale shipped to 2 (billed to 9) in Q3: in. 3: catalog sale billed to 3, shipped
    # to 9: out. 4: web sale shipped to 4, billed to 9: out. 5: web sale in Q4 2002 and 6: catalog
    # sale in Q1 2001, outside the period: out. 7: neither: out.
    web = [ws(1, Q1, ship=9), ws(9, Q2, ship=4), ws(5, Q4)]
    catalog = [cs(2, Q3, bill=9), cs(9, Q2, bill=3), cs(6, Q1_01)]
    out = run(spark, [cust(k) for k in range(1, 8)], [ss(k) for k in range(1, 8)], web=web, catalog=catalog)
    assert declared_bag(out, DECL) == [single(1), single(2)]


@pytest.mark.obligation("O4")
def test_each_customer_counts_once(spark):
    # Customers 1 and 2 share profile 1. Customer 1 has two store sales, a web sale and two catalog
    # sales in the period; customer 2 one store sale and one web sale. The group counts 2 customers.
    store = [ss(1, Q1), ss(1, Q3), ss(2)]
    out = run(spark, [cust(1), cust(2, cdemo=1)], store, web=[ws(1), ws(2)], catalog=[cs(1, Q1), cs(1, Q3)])
    assert declared_bag(out, DECL) == [single(1, 2)]


@pytest.mark.obligation("O5")
def test_dep_count_is_a_grouping_key(spark):
    # Customers 1 and 2 differ only in their dependent count (1 and 3): two groups.
    demos = [demo(1, dep=1, emp=2), demo(2, dep=3, emp=2)]
    out = buyers(spark, [1, 2], demos=demos)
    assert declared_bag(out, DECL) == [expect("KY", "M", "S", 1, 2, 0), expect("KY", "M", "S", 3, 2, 0)]


@pytest.mark.obligation("O5")
def test_one_group_per_state_gender_marital_status_and_dependent_counts(spark):
    # Customers 1 and 2 (profile 1, KY) form one group; each other customer differs from them in
    # exactly one grouping key: state (3, GA), gender (4), marital status (5), employed (6), college (7).
    demos = [demo(1, emp=1), demo(4, gender="F", emp=1), demo(5, marital="D", emp=1), demo(6, emp=2),
             demo(7, emp=1, col=1)]
    customers = [cust(1), cust(2, cdemo=1), cust(3, addr=GA, cdemo=1), cust(4), cust(5), cust(6), cust(7)]
    out = buyers(spark, range(1, 8), demos=demos, customers=customers)
    assert declared_bag(out, DECL) == [
        expect("GA", "M", "S", 1, 1, 0),
        expect("KY", "F", "S", 1, 1, 0),
        expect("KY", "M", "D", 1, 1, 0),
        expect("KY", "M", "S", 1, 1, 1),
        expect("KY", "M", "S", 1, 2, 0),
        expect("KY", "M", "S", 1, 1, 0, n=2),
    ]


@pytest.mark.obligation("O6")
def test_counts_count_customers_even_without_dependent_counts(spark):
    # Customer 1's demographics row has no dependent counts at all: its group still counts 1 customer.
    demos = [{"cd_demo_sk": 1, "cd_gender": "M", "cd_marital_status": "S", "cd_dep_count": None,
              "cd_dep_employed_count": None, "cd_dep_college_count": None}, demo(2)]
    out = buyers(spark, [1, 2], demos=demos)
    nulls = ("KY", "M", "S", 1, None, None, None, None, 1, None, None, None, None, 1, None, None, None)
    assert declared_bag(out, DECL) == [nulls, single(2)]


@pytest.mark.obligation("O7")
def test_seventeen_columns_with_the_stated_names_in_place(plain):
    named = {0: "ca_state", 1: "cd_gender", 2: "cd_marital_status", 3: "cnt1", 7: "cd_dep_employed_count",
             8: "cnt2", 12: "cd_dep_college_count", 13: "cnt3"}
    cols = names(plain)
    assert len(cols) == 17
    assert {i: cols[i] for i in named} == named


@pytest.mark.obligation("O8")
def test_statistics_carry_sparks_generated_names(plain):
    assert [s for s in STATS if s not in names(plain)] == []


@pytest.mark.obligation("O9")
def test_counts_bigint_min_max_int_means_double(plain):
    assert declared_types(plain) == ["string", "string", "string", "bigint", "int", "int", "double", "int", "bigint",
                                     "int", "int", "double", "int", "bigint", "int", "int", "double"]


@pytest.mark.obligation("O10")
def test_ordered_by_the_six_grouping_keys(spark):
    # Groups given in reverse. Within (KY, M, S) the dependent count decides before the employed
    # count: (1, 5), (2, 3), (2, 3, college 1), (10, 0), in numeric order.
    demos = [demo(20, dep=1, emp=1), demo(21, gender="F", dep=1, emp=1), demo(22, marital="D", dep=1, emp=1),
             demo(23, dep=1, emp=5), demo(24, dep=2, emp=3), demo(25, dep=2, emp=3, col=1), demo(26, dep=10, emp=0)]
    customers = [cust(1, cdemo=26), cust(2, cdemo=25), cust(3, cdemo=24), cust(4, cdemo=23), cust(5, cdemo=22),
                 cust(6, cdemo=21), cust(7, addr=GA, cdemo=20)]
    out = buyers(spark, range(1, 8), demos=demos, customers=customers)
    assert declared_rows(out, DECL) == [
        expect("GA", "M", "S", 1, 1, 0),
        expect("KY", "F", "S", 1, 1, 0),
        expect("KY", "M", "D", 1, 1, 0),
        expect("KY", "M", "S", 1, 5, 0),
        expect("KY", "M", "S", 2, 3, 0),
        expect("KY", "M", "S", 2, 3, 1),
        expect("KY", "M", "S", 10, 0, 0),
    ]


@pytest.mark.obligation("O11")
def test_at_most_100_rows_the_first_in_order(spark):
    # 105 groups (employed counts 1-105, given in reverse): the 100 lowest are kept.
    demos = [demo(k) for k in range(1, 106)]
    out = buyers(spark, range(105, 0, -1), demos=demos)
    assert [r[7] for r in declared_rows(out, DECL)] == list(range(1, 101))
