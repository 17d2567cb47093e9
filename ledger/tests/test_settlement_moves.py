"""The bean formula of DESIGN §4 (games.services.settlement.bean_moves): pure arithmetic.

Losers pay X·N, capped at what they have; winners share only what was paid, in proportion to
what they were owed; then every player dealt in gives 回收 A once to the rake (001), at most what
he then holds — loser, winner, both or neither.
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
    """A landlord owing 1200 with 305 beans pays 305 (153 + 152) and has nothing left for 回收;
    each farmer then gives A = 5."""
    balances = {0: 305, 1: 10**6, 2: 10**6}
    delta, rake = bean_moves([pay(0, 1, 60), pay(0, 2, 60)], factor=10, rake=5, balances=balances)
    assert delta == {0: -305, 1: 148, 2: 147}
    assert rake == 10


def test_capped_payment_is_shared_in_proportion_remainder_to_the_largest():
    """Owed 2:1 (加倍 on one pair), 100 beans to share: 67 and 33 (the remainder to the larger)."""
    balances = {0: 100, 1: 10**6, 2: 10**6}
    delta, rake = bean_moves([pay(0, 1, 40), pay(0, 2, 20)], factor=10, rake=0, balances=balances)
    assert delta == {0: -100, 1: 67, 2: 33}
    assert rake == 0


def test_a_broke_loser_pays_nothing_and_the_others_still_pay_a():
    """A loser with no beans pays nothing and no 回收; his winner receives nothing but, like
    every player dealt in, gives A from what he holds."""
    delta, rake = bean_moves([pay(1, 0, 6)], factor=10, rake=5, balances={0: 500, 1: 0, 2: 0})
    assert delta == {0: -5}
    assert rake == 5


def test_rake_is_at_most_what_a_player_holds_after_the_payments():
    """The loser's 11 pays his 10 and 1 of A; the winner, holding only the 10 received, gives 8."""
    delta, rake = bean_moves([pay(1, 0, 1)], factor=10, rake=8, balances={0: 0, 1: 11, 2: 0})
    assert delta == {0: 2, 1: -11}
    assert rake == 9


def test_a_player_who_pays_and_receives_pays_a_once():
    """樂清's pairwise 花 (4 players, 花 2 and 1 and 0 and 0, N = 10, A = 10): seat 1 pays seat 0
    and receives from seats 2 and 3, yet gives A once: the rake is 4·A = 40, not 80."""
    payments = [pay(1, 0, 4), pay(2, 0, 4), pay(3, 0, 4), pay(0, 1, 1), pay(2, 1, 1), pay(3, 1, 1)]
    delta, rake = bean_moves(
        payments, factor=10, rake=10, balances={0: 10**6, 1: 10**6, 2: 10**6, 3: 10**6}
    )
    assert delta == {0: 120 - 10 - 10, 1: 30 - 40 - 10, 2: -50 - 10, 3: -50 - 10}
    assert rake == 40


def test_nobody_pays_yet_everyone_gives_a():
    """A hand with no payments (流局, or payments of 0 points or to oneself): each gives A."""
    delta, rake = bean_moves([pay(1, 0, 0), pay(2, 2, 9)], factor=10, rake=5, balances=RICH)
    assert delta == {0: -5, 1: -5, 2: -5} and rake == 15
    delta, rake = bean_moves([], factor=10, rake=5, balances={0: 3, 1: 0, 2: 100})
    assert delta == {0: -3, 2: -5} and rake == 8


payments = st.lists(
    st.builds(pay, st.integers(0, 3), st.integers(0, 3), st.integers(0, 500)), max_size=8
)
balances = st.lists(st.integers(0, 50_000), min_size=4, max_size=4).map(
    lambda b: dict(enumerate(b))
)


@settings(max_examples=400, deadline=None)
@given(payments=payments, factor=st.integers(1, 1000), rake=st.integers(0, 300), balances=balances)
def test_beans_are_conserved_and_nobody_pays_more_than_he_has(payments, factor, rake, balances):
    """For any payments: Σ deltas + rake == 0; nobody loses more than his balance; 回收 is
    A once per player at most; a pure loser pays min(balance, X·N + A), a pure winner gains at
    most what he was owed − A, and a player with no payment gives min(A, balance)."""
    delta, rake_total = bean_moves(payments, factor, rake, balances)
    assert sum(delta.values()) + rake_total == 0
    assert 0 <= rake_total <= rake * len(balances)
    owes = {
        s: sum(
            p["points"] * factor
            for p in payments
            if p["from"] == s and p["to"] != s and p["points"] > 0
        )
        for s in range(4)
    }
    owed = {
        s: sum(
            p["points"] * factor
            for p in payments
            if p["to"] == s and p["from"] != s and p["points"] > 0
        )
        for s in range(4)
    }
    for seat in range(4):
        change = delta.get(seat, 0)
        assert change >= -balances[seat]
        assert change >= -(min(balances[seat], owes[seat]) + rake)
        if owes[seat] and not owed[seat]:
            assert change == -min(balances[seat], owes[seat] + rake)
        if owed[seat] and not owes[seat]:
            assert -min(rake, balances[seat]) <= change <= max(0, owed[seat] - rake)
        if not owes[seat] and not owed[seat]:
            assert change == -min(rake, balances[seat])
