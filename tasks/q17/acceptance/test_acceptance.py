"""Acceptance tests for q17 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (2001Q1 store sales returned in 2001Q1-Q3 and re-bought by the
same customer through the catalog in 2001Q1-Q3; quantity statistics per item and store state).

A "chain" is one store sale, its return and one catalog sale of the same customer and item; each
chain gives one matched row. Values are read by the declared output names (positions where the
task gives none), never by a guessed alias, except in the schema tests. Tests of the joins,
filters and grain compare the keys, the three counts and the three means only, so a wrong
standard deviation does not fail them. Unless a test is about it, a chain's store sale is dated
2001Q1, its return 2001Q2 and its catalog sale 2001Q1, and the catalog sale is billed and shipped
to the same customer."""
import math

import pytest

from lockin_acceptance import TaskTables, declared_bag, declared_rows, field_types, names
from solution import solve

T = TaskTables(__file__)
DECL = ["i_item_id", "i_item_desc", "s_state",
        "store_sales_quantitycount", "store_sales_quantityave", "store_sales_quantitystdev", "store_sales_quantitycov",
        None, None, None, "store_returns_quantitycov",
        "catalog_sales_quantitycount", "catalog_sales_quantityave", "catalog_sales_quantitystdev", "catalog_sales_quantitycov"]
Q1, Q2, Q3, Q4, Y2000Q1 = 1, 2, 3, 4, 5
DATES = [{"d_date_sk": k, "d_quarter_name": n} for k, n in
         [(Q1, "2001Q1"), (Q2, "2001Q2"), (Q3, "2001Q3"), (Q4, "2001Q4"), (Y2000Q1, "2000Q1")]]
TN, GA = 1, 2
STORES = [{"s_store_sk": TN, "s_state": "TN"}, {"s_store_sk": GA, "s_state": "GA"}]
#: item 3 shares item 1's id with another description
ITEMS = [{"i_item_sk": 1, "i_item_id": "ITEM_A", "i_item_desc": "desc a"},
         {"i_item_sk": 2, "i_item_id": "ITEM_B", "i_item_desc": "desc b"},
         {"i_item_sk": 3, "i_item_id": "ITEM_A", "i_item_desc": "desc a2"}]


def store_sale(customer, item, ticket, q, store=TN, date=Q1):
    return ("store_sales", {"ss_customer_sk": customer, "ss_item_sk": item, "ss_ticket_number": ticket, "ss_quantity": q,
                            "ss_store_sk": store, "ss_sold_date_sk": date})


def store_return(customer, item, ticket, q, date=Q2):
    return ("store_returns", {"sr_customer_sk": customer, "sr_item_sk": item, "sr_ticket_number": ticket,
                              "sr_return_quantity": q, "sr_returned_date_sk": date})


def catalog_sale(customer, item, q, date=Q1, ship=None):
    return ("catalog_sales", {"cs_bill_customer_sk": customer, "cs_ship_customer_sk": ship or customer, "cs_item_sk": item,
                              "cs_quantity": q, "cs_sold_date_sk": date})


def chain(customer, item, ticket, q, rq, cq, store=TN, sdate=Q1, rdate=Q2, cdate=Q1):
    """A store sale, its return and a catalog sale of the same customer and item."""
    return [store_sale(customer, item, ticket, q, store, sdate), store_return(customer, item, ticket, rq, rdate),
            catalog_sale(customer, item, cq, cdate)]


def run(spark, facts, items=ITEMS):
    by_table = {t: [r for (tt, r) in facts if tt == t] for t in ("store_sales", "store_returns", "catalog_sales")}
    return solve(spark, T.all(spark, date_dim=DATES, store=STORES, item=items, **by_table))


def summary(df):
    """Per row: item id, description, state, then (count, mean) of store, return and catalog quantities."""
    return sorted(tuple(r[i] for i in (0, 1, 2, 3, 4, 7, 8, 11, 12)) for r in declared_rows(df, DECL))


@pytest.fixture(scope="module")
def plain(spark):
    return run(spark, chain(1, 1, 1, 2, 1, 4))


@pytest.mark.obligation("O1")
def test_sale_matches_its_return_on_the_ticket_too(spark):
    # Customer 1 buys item 1 on tickets 1 (2 units) and 2 (6 units) and returns ticket 1 only.
    facts = chain(1, 1, 1, 2, 1, 4) + [store_sale(1, 1, 2, 6)]
    assert summary(run(spark, facts)) == [("ITEM_A", "desc a", "TN", 1, 2.0, 1, 1.0, 1, 4.0)]


@pytest.mark.obligation("O2")
def test_return_matches_catalog_sales_billed_to_the_customer_for_the_item(spark):
    # Customer 4 buys item 3 (ITEM_A, desc a2) in store, returns it and re-buys it through the
    # catalog (6 units). Catalog sales of item 3 billed to customer 2 (shipped to customer 4) and of
    # item 2 billed to customer 4 do not match the return. The customer and item keys differ from
    # every other key, date and quantity of the chain, so matching on another column finds nothing.
    facts = chain(4, 3, 1, 2, 1, 6) + [catalog_sale(2, 3, 10, ship=4), catalog_sale(4, 2, 20)]
    assert summary(run(spark, facts)) == [("ITEM_A", "desc a2", "TN", 1, 2.0, 1, 1.0, 1, 6.0)]


@pytest.mark.obligation("O2")
def test_catalog_sale_billed_to_the_customer_but_shipped_elsewhere_matches(spark):
    facts = [store_sale(1, 1, 1, 2), store_return(1, 1, 1, 1), catalog_sale(1, 1, 4, ship=2)]
    assert summary(run(spark, facts)) == [("ITEM_A", "desc a", "TN", 1, 2.0, 1, 1.0, 1, 4.0)]


@pytest.mark.obligation("O3")
def test_store_sale_in_2001q1_only(spark):
    # Chains whose store sale is in 2001Q2 or 2000Q1 do not count.
    facts = chain(1, 1, 1, 2, 1, 4) + chain(2, 1, 2, 10, 10, 10, sdate=Q2) + chain(3, 1, 3, 20, 20, 20, sdate=Y2000Q1)
    assert summary(run(spark, facts)) == [("ITEM_A", "desc a", "TN", 1, 2.0, 1, 1.0, 1, 4.0)]


@pytest.mark.obligation("O4")
def test_return_and_catalog_sale_in_2001q1_to_q3(spark):
    # Counted: a chain returned and re-bought in 2001Q3. Not counted: a chain re-bought in 2001Q4,
    # a chain returned in 2001Q4.
    facts = (chain(1, 1, 1, 2, 1, 4, rdate=Q3, cdate=Q3) + chain(2, 1, 2, 10, 10, 10, cdate=Q4)
             + chain(3, 1, 3, 20, 20, 20, rdate=Q4))
    assert summary(run(spark, facts)) == [("ITEM_A", "desc a", "TN", 1, 2.0, 1, 1.0, 1, 4.0)]


@pytest.mark.obligation("O5")
def test_one_row_per_item_id_description_and_state(spark):
    # Item 1 in a TN and a GA store, item 3 (same id, another description) in TN.
    facts = chain(1, 1, 1, 2, 1, 4) + chain(2, 1, 2, 6, 3, 8, store=GA) + chain(3, 3, 3, 10, 5, 12)
    assert summary(run(spark, facts)) == [
        ("ITEM_A", "desc a", "GA", 1, 6.0, 1, 3.0, 1, 8.0),
        ("ITEM_A", "desc a", "TN", 1, 2.0, 1, 1.0, 1, 4.0),
        ("ITEM_A", "desc a2", "TN", 1, 10.0, 1, 5.0, 1, 12.0),
    ]


@pytest.mark.obligation("O6")
def test_count_mean_sample_stddev_and_cov(spark):
    # Two chains in one group: store quantities 2 and 4, returned 1 and 3, catalog 4 and 8.
    # Sample standard deviations sqrt(2), sqrt(2), sqrt(8) (population ones would be 1, 1, 2).
    facts = chain(1, 1, 1, 2, 1, 4) + chain(2, 1, 2, 4, 3, 8)
    (r,) = declared_rows(run(spark, facts), DECL)
    s2 = math.sqrt(2)
    assert r[3:7] == (2, 3.0, pytest.approx(s2), pytest.approx(s2 / 3))
    assert r[7:11] == (2, 2.0, pytest.approx(s2), pytest.approx(s2 / 2))
    assert r[11:13] == (2, 6.0)
    assert r[14] == pytest.approx(2 * s2 / 6)


@pytest.mark.obligation("O6")
def test_count_skips_null_quantities(spark):
    # A second chain whose store quantity is NULL: 1 store quantity, 2 returned, 2 catalog.
    facts = chain(1, 1, 1, 2, 1, 4) + chain(2, 1, 2, None, 3, 8)
    (r,) = declared_rows(run(spark, facts), DECL)
    assert (r[3], r[4], r[7], r[11]) == (1, 2.0, 2, 2)


@pytest.mark.obligation("O7")
def test_catalog_stdev_column_repeats_the_cov(spark):
    # Catalog quantities 2 and 5 (mean 3.5): both catalog columns hold the coefficient of variation
    # of cs_quantity, sqrt(4.5) / 3.5 = 0.606 with the sample standard deviation (O6 decides sample
    # or population: 1.5 / 3.5 = 0.429 with the population one), not a standard deviation (2.12 or
    # 1.5). No other column of these catalog sales has that ratio (customers 1 and 2: 0.471).
    facts = chain(1, 1, 1, 2, 1, 2) + chain(2, 1, 2, 4, 3, 5)
    (r,) = declared_rows(run(spark, facts), DECL)
    assert r[13] == pytest.approx(r[14])
    assert r[13] == pytest.approx(math.sqrt(4.5) / 3.5) or r[13] == pytest.approx(1.5 / 3.5)


@pytest.mark.obligation("O8")
def test_returned_quantity_statistics_names(plain):
    assert names(plain)[7:11] == ["as_store_returns_quantitycount", "as_store_returns_quantityave",
                                  "as_store_returns_quantitystdev", "store_returns_quantitycov"]


@pytest.mark.obligation("O9")
def test_counts_bigint_statistics_double(plain):
    types = field_types(plain)
    assert [types[i] for i in (3, 7, 11)] == ["bigint"] * 3
    assert [types[i] for i in (4, 5, 6, 8, 9, 10, 12, 13, 14)] == ["double"] * 9


@pytest.mark.obligation("O10")
def test_order_item_id_description_state(spark):
    items = ITEMS + [{"i_item_sk": 4, "i_item_id": "ITEM_0", "i_item_desc": "desc z"}]
    facts = chain(1, 2, 1, 2, 1, 4, store=GA) + chain(2, 3, 2, 2, 1, 4) + chain(3, 1, 3, 2, 1, 4) + chain(4, 4, 4, 2, 1, 4)
    keys = [r[:3] for r in declared_rows(run(spark, facts, items=items), DECL)]
    assert keys == [("ITEM_0", "desc z", "TN"), ("ITEM_A", "desc a", "TN"), ("ITEM_A", "desc a2", "TN"), ("ITEM_B", "desc b", "GA")]


@pytest.mark.obligation("O11")
def test_at_most_100_rows(spark):
    items = [{"i_item_sk": k, "i_item_id": f"I{k:03d}", "i_item_desc": "d"} for k in range(1, 106)]
    facts = [f for k in range(1, 106) for f in chain(k, k, k, 1, 1, 1)]
    assert run(spark, facts, items=items).count() == 100
