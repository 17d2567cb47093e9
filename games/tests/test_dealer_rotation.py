"""The table passes the deal on as each game's rules say."""

from __future__ import annotations

import pytest

from games.engine import registry
from games.engine.protocol import Result
from games.engine.table_type import Dealer
from games.engine.testing import playout
from games.models import Hand
from games.rules.paohuzi import next_dealer
from games.services import seating, tables

pytestmark = pytest.mark.django_db


def _hand(table, number: int) -> Hand:
    return Hand.objects.create(
        table=table,
        number=number,
        game=table.game,
        seed="0" * 64,
        seed_hash="1" * 64,
        params={**table.params, **table.carry},
        players=[],
        state={},
    )


def test_paohuzi_dealer_stays_on_huangzhuang_and_moves_after_three():
    """003 定莊: the winner deals; after 荒莊 the dealer stays; three in a row, the 下家 deals."""
    dealer, streak = 1, 0
    for expected in (1, 1, 2):
        dealer, streak = next_dealer("hunan", dealer, None, streak)
        assert dealer == expected
    assert streak == 0
    assert next_dealer("hunan", 2, 0, 2) == (0, 0)


@pytest.mark.parametrize("variant", ["hunan", "shuangwang"])
def test_paohuzi_result_names_the_next_dealer_from_the_carried_streak(variant):
    """The engine's result carries next_dealer and the 荒莊 streak for the table to hand on."""
    ruleset = registry.get("paohuzi")
    config = ruleset.config_from_params({"variant": variant, "dealer": 1, "huangzhuang_streak": 2})
    for n in range(6):
        state, _ = playout(ruleset, config, f"{n:064x}", 3, deep_checks=False)
        result = ruleset.result(state)
        winner = result.winners[0] if result.winners else None
        expected = next_dealer(variant, 1, winner, 2)
        assert (result.extra["next_dealer"], result.extra["next_huangzhuang_streak"]) == expected


def test_engine_given_next_dealer_and_carry(django_capture_on_commit_callbacks):
    """A result's next_dealer and next_* values reach the table for the next hand."""
    table = seating.table_create(game="mahjong_yongzhou", params={}, seat_count=4)
    hand = _hand(table, 1)
    result = Result(
        scores=(0, 0, 0, 0), winners=(), extra={"next_dealer": 0, "next_prevalent_wind": 2}
    )
    with django_capture_on_commit_callbacks(execute=False):
        tables.hand_end(tables.WorkingSet(table, hand=hand), result, escaped_seat=None)
    assert table.dealer == 0 and table.carry == {"prevalent_wind": 2}
    assert _hand(table, 2).params["prevalent_wind"] == 2


@pytest.mark.parametrize("game,seats,moves", [("doudizhu", 3, False), ("paohuzi", 3, True)])
def test_without_next_dealer_the_ruleset_says_whether_the_winner_deals(
    game, seats, moves, django_capture_on_commit_callbacks
):
    """No next_dealer in the result: the winner deals next unless the ruleset declares
    ``table_type.dealer = Dealer.KEEP`` (斗地主: the landlord is bid for; the table's dealer
    stays)."""
    assert (registry.get(game).table_type.dealer is Dealer.WINNER) is moves
    table = seating.table_create(game=game, params={}, seat_count=seats)
    table.dealer = 0
    hand = _hand(table, 1)
    hand.players = [{"user_id": None, "table_seat": s} for s in range(seats)]
    result = Result(scores=(-1, -1, 2), winners=(2,), extra={})
    with django_capture_on_commit_callbacks(execute=False):
        tables.hand_end(tables.WorkingSet(table, hand=hand), result, escaped_seat=None)
    assert table.dealer == (2 if moves else 0)
