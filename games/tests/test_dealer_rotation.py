"""The table passes the deal on as each game's rules say."""

from __future__ import annotations

import pytest

from games.engine.protocol import Result
from games.models import Hand
from games.services import tables

pytestmark = pytest.mark.django_db


def _hand(table, number: int) -> Hand:
    return Hand.objects.create(
        table=table, number=number, game=table.game, seed="0" * 64, seed_hash="1" * 64,
        params={**table.params, **table.carry}, players=[], state={},
    )


def test_paohuzi_dealer_stays_on_huangzhuang_and_moves_after_three(django_capture_on_commit_callbacks):
    """003 定莊: the winner deals; after 荒莊 the dealer stays; three in a row, the 下家 deals."""
    table = tables.table_create(game="paohuzi", params={"variant": "hunan"}, seat_count=3)
    table.dealer = 1
    for number, expected in ((1, 1), (2, 1), (3, 2)):
        hand = _hand(table, number)
        with django_capture_on_commit_callbacks(execute=False):
            tables._finish(table, hand, Result(scores=(0, 0, 0), winners=()), escaped_seat=None)
        assert table.dealer == expected
    hand = _hand(table, 4)
    with django_capture_on_commit_callbacks(execute=False):
        tables._finish(table, hand, Result(scores=(-1, 2, -1), winners=(1,)), escaped_seat=None)
    assert table.dealer == 1 and table.carry["huangzhuang_streak"] == 0


def test_engine_given_next_dealer_and_carry(django_capture_on_commit_callbacks):
    """A mahjong result's next_dealer and next_* values reach the table for the next hand."""
    table = tables.table_create(game="mahjong_yongzhou", params={}, seat_count=4)
    hand = _hand(table, 1)
    result = Result(scores=(0, 0, 0, 0), winners=(),
                    extra={"next_dealer": 0, "next_prevalent_wind": 2})
    with django_capture_on_commit_callbacks(execute=False):
        tables._finish(table, hand, result, escaped_seat=None)
    assert table.dealer == 0 and table.carry == {"prevalent_wind": 2}
