"""The bean formula of DESIGN §4 (games.services.settlement.bean_moves): pure arithmetic.

Losers pay X·N + A, capped at what they have; winners share only what was paid, in proportion
to what they were owed, and each winner gives A of what he received to the rake (回收).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.services.settlement import bean_moves

RICH = {0: 10**9, 1: 10**9, 2: 10**9}


def pay(frm: int, to: int, points: int) -> dict:
    return {"from": frm, "to": to, "points": points}


def test_landlord_wins_each_farmer_pays_xn_plus_a():
    """Landlord wins X = 6 from each farmer, N = 10, A = 5: farmers −65, landlord +115."""
    delta, rake = bean_moves([pay(1, 0, 6), pay(2, 0, 6)], factor=10, rake=5, balances=RICH)
    assert delta == {0: 115, 1: -65, 2: -65}
    assert rake == 15


def test_farmers_win_landlord_pays_both_plus_a_once():
    """The landlord owes both farmers: he pays 2·X·N + A, each farmer gets X·N − A."""
    delta, rake = bean_moves([pay(0, 1, 4), pay(0, 2, 4)], factor=100, rake=20, balances=RICH)
    assert delta == {0: -820, 1: 380, 2: 380}
    assert rake == 60


def test_loser_pays_at_most_what_he_has_and_winners_share_only_that():
    """A landlord owing 1205 with 305 beans pays 305: 5 to the rake, 150 to each farmer − A."""
    balances = {0: 305, 1: 10**6, 2: 10**6}
    delta, rake = bean_moves([pay(0, 1, 60), pay(0, 2, 60)], factor=10, rake=5,
                             balances=balances)
    assert delta == {0: -305, 1: 145, 2: 145}
    assert rake == 15


def test_capped_payment_is_shared_in_proportion_remainder_to_the_largest():
    """Owed 2:1 (加倍 on one pair), 100 beans to share: 67 and 33 (the remainder to the larger)."""
    balances = {0: 100, 1: 10**6, 2: 10**6}
    delta, rake = bean_moves([pay(0, 1, 40), pay(0, 2, 20)], factor=10, rake=0,
                             balances=balances)
    assert delta == {0: -100, 1: 67, 2: 33}
    assert rake == 0


def test_a_broke_loser_pays_nothing_and_winners_pay_no_rake_on_nothing():
    """A loser with no beans pays nothing; his winner receives nothing and pays no 回收."""
    delta, rake = bean_moves([pay(1, 0, 6)], factor=10, rake=5, balances={0: 500, 1: 0, 2: 0})
    assert delta.get(0, 0) == 0 and delta.get(1, 0) == 0
    assert rake == 0


def test_winner_never_pays_more_rake_than_he_received():
    """A winner who receives less than A gives all of it to the rake and nets zero, never less."""
    delta, rake = bean_moves([pay(1, 0, 1)], factor=10, rake=8, balances={0: 0, 1: 11, 2: 0})
    # the loser pays 11: 8 to the rake, 3 to the winner, who then owes 8 but gives only 3
    assert delta == {0: 0, 1: -11}
    assert rake == 11


def test_zero_and_self_payments_are_ignored():
    """Payments of 0 points or to oneself move nothing."""
    delta, rake = bean_moves([pay(1, 0, 0), pay(2, 2, 9)], factor=10, rake=5, balances=RICH)
    assert all(v == 0 for v in delta.values()) and rake == 0


payments = st.lists(
    st.builds(pay, st.integers(0, 3), st.integers(0, 3), st.integers(0, 500)), max_size=8
)
balances = st.lists(st.integers(0, 50_000), min_size=4, max_size=4).map(
    lambda b: dict(enumerate(b))
)


@settings(max_examples=400, deadline=None)
@given(payments=payments, factor=st.integers(1, 1000), rake=st.integers(0, 300),
       balances=balances)
def test_beans_are_conserved_and_nobody_pays_more_than_he_has(payments, factor, rake, balances):
    """For any payments: Σ deltas + rake == 0; nobody loses more than his balance; a pure
    winner gains at most what he was owed, and a pure loser pays min(balance, X·N + A)."""
    delta, rake_total = bean_moves(payments, factor, rake, balances)
    assert sum(delta.values()) + rake_total == 0
    assert rake_total >= 0
    owes = {s: sum(p["points"] * factor for p in payments
                   if p["from"] == s and p["to"] != s and p["points"] > 0) for s in range(4)}
    owed = {s: sum(p["points"] * factor for p in payments
                   if p["to"] == s and p["from"] != s and p["points"] > 0) for s in range(4)}
    for seat in range(4):
        change = delta.get(seat, 0)
        assert change >= -balances[seat]
        if owes[seat] and not owed[seat]:
            assert change == -min(balances[seat], owes[seat] + rake)
        if owed[seat] and not owes[seat]:
            assert 0 <= change <= max(0, owed[seat] - rake)
        if not owes[seat] and not owed[seat]:
            assert change == 0
