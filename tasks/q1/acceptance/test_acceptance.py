"""Acceptance tests for q1 (issue 17): one discriminating fixture per obligation, written from
task.yaml and the query's meaning (customers whose year-2000 returns at a store exceed 1.2 times
that store's average per-customer total). Results are read as the values of the first output
column (the customer id), never by alias, except in the schema test. Every fixture has store 1
and store 2 in TN, store 3 in GA, and totals chosen by hand so that only the obligation under test
decides who qualifies."""
import pytest

from lockin_acceptance import TaskTables, column, field_types, names
from solution import solve

T = TaskTables(__file__)
Y2000, Y2001 = 1, 2
DATES = [{"d_date_sk": Y2000, "d_year": 2000}, {"d_date_sk": Y2001, "d_year": 2001}]
STORES = [{"s_store_sk": 1, "s_state": "TN"}, {"s_store_sk": 2, "s_state": "TN"}, {"s_store_sk": 3, "s_state": "GA"}]
A, B, C, D, E = 1, 2, 3, 4, 5


def ret(customer, store, amount, date=Y2000, other=None):
    """One return; the other amount columns equal sr_return_amt unless `other` is given."""
    o = amount if other is None else other
    return {"sr_item_sk": 1, "sr_returned_date_sk": date, "sr_customer_sk": customer, "sr_store_sk": store, "sr_return_amt": amount,
            "sr_return_amt_inc_tax": o, "sr_net_loss": o, "sr_fee": o, "sr_refunded_cash": o}


def cid(k):
    return f"C{k:03d}"


def run(spark, returns, customers=range(1, 6)):
    custs = [{"c_customer_sk": k, "c_customer_id": cid(k)} for k in customers]
    out = solve(spark, T.all(spark, store_returns=returns, date_dim=DATES, store=STORES, customer=custs))
    return out


# Store 2's plain case: C (49) > 1.2 x avg(49, 21) = 42, D (21) is not: C qualifies. Its average
# (35) is the one of store 1 in test_store_average_counts_the_group_without_customer, so a global
# average changes nothing there.
STORE2 = [ret(C, 2, 49), ret(D, 2, 21)]


@pytest.mark.obligation("O1")
def test_only_column_is_c_customer_id_a_string(spark):
    out = run(spark, STORE2)
    assert names(out) == ["c_customer_id"]
    assert field_types(out) == ["string"]


@pytest.mark.obligation("O2")
def test_only_returns_of_2000_count(spark):
    # 2000: A 30, B 10 -> threshold 24 -> A. Counting B's 2001 return (100) would make B qualify instead.
    out = run(spark, [ret(A, 1, 30), ret(B, 1, 10), ret(B, 1, 100, date=Y2001)])
    assert sorted(column(out, 0)) == [cid(A)]


@pytest.mark.obligation("O3")
def test_totals_are_per_customer_and_store(spark):
    # Store 1: A 30, B 10 -> threshold 24 -> A. Store 2: A 10, C 30 -> threshold 24 -> C.
    # A's total across stores (40) would give store 1 threshold 30 (A) and store 2 threshold 42
    # (nobody). Both stores average 20, so a global average changes nothing here.
    out = run(spark, [ret(A, 1, 30), ret(B, 1, 10), ret(A, 2, 10), ret(C, 2, 30)])
    assert sorted(column(out, 0)) == [cid(A), cid(C)]


@pytest.mark.obligation("O4")
def test_total_is_the_sum_of_sr_return_amt(spark):
    # Amounts: A 30 once, B 1 three times -> A. The other amount columns (and a count) favour B.
    returns = [ret(A, 1, 30, other=10)] + [ret(B, 1, 1, other=20) for _ in range(3)]
    assert sorted(column(run(spark, returns), 0)) == [cid(A)]


@pytest.mark.obligation("O5")
def test_threshold_is_per_store_average(spark):
    # Store 1: A 30, B 10 -> A. Store 2: C 100, D 100 -> nobody. A global average (60 -> 72) picks C and D.
    out = run(spark, [ret(A, 1, 30), ret(B, 1, 10), ret(C, 2, 100), ret(D, 2, 100)])
    assert sorted(column(out, 0)) == [cid(A)]


@pytest.mark.obligation("O6")
def test_comparison_is_strict(spark):
    # Store 1: A 12, B 8 -> threshold exactly 12.00: A does not qualify.
    out = run(spark, [ret(A, 1, "12.00"), ret(B, 1, "8.00")] + STORE2)
    assert sorted(column(out, 0)) == [cid(C)]


@pytest.mark.obligation("O7")
def test_store_average_counts_the_group_without_customer(spark):
    # Store 1: A 41, B 29, E 30 and 40 returned by no customer: average 35, threshold 42 -> nobody.
    # Leaving the customer-less group out: average 33.33, threshold 40 -> A would qualify.
    returns = [ret(A, 1, 41), ret(B, 1, 29), ret(E, 1, 30), ret(None, 1, 40)] + STORE2
    assert sorted(column(run(spark, returns), 0)) == [cid(C)]


@pytest.mark.obligation("O8")
def test_only_stores_in_tn(spark):
    # Store 3 (GA): A 30, B 10 would make A qualify.
    out = run(spark, [ret(A, 3, 30), ret(B, 3, 10)] + STORE2)
    assert sorted(column(out, 0)) == [cid(C)]


@pytest.mark.obligation("O9")
def test_totals_without_a_matching_customer_are_not_reported(spark):
    # Store 1: 100 returned by no customer, and 100 by customer 77 who is not in customer: both stand out.
    returns = [ret(None, 1, 100), ret(77, 1, 100), ret(A, 1, 10), ret(B, 1, 10), ret(D, 1, 10), ret(E, 1, 10)] + STORE2
    assert sorted(column(run(spark, returns), 0), key=str) == [cid(C)]


@pytest.mark.obligation("O10")
def test_a_customer_standing_out_at_two_stores_appears_twice(spark):
    out = run(spark, [ret(A, 1, 30), ret(B, 1, 10), ret(A, 2, 30), ret(C, 2, 10)])
    assert sorted(column(out, 0)) == [cid(A), cid(A)]


@pytest.mark.obligation("O11")
def test_ordered_by_customer_id_ascending(spark):
    # Store 1: E, C, A 30 each and B, D 1 each: threshold 22.08 -> A, C, E.
    returns = [ret(E, 1, 30), ret(C, 1, 30), ret(A, 1, 30), ret(B, 1, 1), ret(D, 1, 1)]
    assert column(run(spark, returns), 0) == [cid(A), cid(C), cid(E)]


@pytest.mark.obligation("O12")
def test_at_most_100_rows(spark):
    # 105 customers at 100 and 200 unknown ones at 1: threshold 42.1 -> 105 qualify.
    returns = [ret(k, 1, 100) for k in range(1, 106)] + [ret(1000 + k, 1, 1) for k in range(200)]
    assert run(spark, returns, customers=range(1, 106)).count() == 100
