"""A 跑胡子 replay ends where the hand ended when its last move empties the 墩 (黃莊)."""

from __future__ import annotations

from games import replays
from games.services import tables
from games.tests.replay_hands import finished_hand, room_for
from games.tests.test_replay_steps import HUNAN

# a 湖南 deal whose hand ends 黃莊, the last card from the 墩 wanted by nobody
HUANGZHUANG_SEED = "b98e62e4b58d80d7c3745d63bce23d769c994a894d2e50787a528d994245b124"


def test_a_replay_ending_in_huangzhuang_ends_on_the_hands_final_state(
    monkeypatch, make_user, django_capture_on_commit_callbacks
):
    """The last draw of a move that empties the 墩 leads to the state the hand ended in, so the
    replay's last step is the stored end (the seed check holds) and the hand is 黃莊."""
    monkeypatch.setattr(tables.deal, "new_seed", lambda: HUANGZHUANG_SEED)
    room = room_for(*HUNAN)
    users = [make_user(beans=100000) for _ in range(3)]
    hand = finished_hand(room, users, django_capture_on_commit_callbacks)
    assert hand.result["extra"].get("huangzhuang") is True
    replays._cache.clear()
    replay = replays.replay_build(hand)
    assert replay.consistent and replay.last == len(replay.states) - 1
