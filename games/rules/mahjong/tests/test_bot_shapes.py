"""永州's bot counts only the shapes that win in 永州 (issue #16 §2).

永州 wins with sets + a pair (and 十三幺); PyMahjongGB's ``MahjongShanten`` also counts 七對,
全不靠 and 組合龍, so a bot steered by it chased hands that cannot win here (a quarter of random
13-tile hands are closer to one of those by GB's count than to the regular shape). The
variant's ``_shanten_of`` (the baseline's count) was already regular-only; the bot's own count
(``play.Decision``) now is too (``play`` option ``gb`` false for 永州)."""

from __future__ import annotations

import games.rules.mahjong  # noqa: F401  (registers)
from games.rules.mahjong import play
from games.rules.mahjong.tests.helpers import yongzhou_turn


def test_six_pairs_are_not_ready_in_yongzhou() -> None:
    """Six pairs and a single: ready for 七對 by GB's count, three from ready for sets + a
    pair — the only reading that wins in 永州."""
    r, state = yongzhou_turn("W1 W1 W3 W3 W5 W5 T2 T2 T7 T7 B4 B4 F1 F2", "shapes")
    d = play.Decision(r, state, 0)
    six_pairs = "W1 W1 W3 W3 W5 W5 T2 T2 T7 T7 B4 B4 F1".split()
    assert d.shanten(six_pairs) == r._shanten_of(state, 0, six_pairs) == 3


def test_yongzhou_bot_does_not_keep_honours_for_knitted_hands() -> None:
    """Five lone honours and scattered suits: by GB's count throwing T1 leaves the hand four
    from ready (全不靠 / 組合龍 keep the honours), so that bot threw T1; for sets + a pair it
    leaves six, like a lone honour or terminal, and one of those goes first."""
    r, state = yongzhou_turn("W1 W3 T1 T4 T6 T6 B1 B4 F1 F3 F4 J2 J3 W5", "shapes")
    d = play.Decision(r, state, 0)
    rest = state.hands[0].copy()
    rest.remove("T1")
    assert d.shanten(rest) == r._shanten_of(state, 0, rest) == 6
    action = r.bot_action(state, 0)
    assert action["type"] == "discard"
    assert action["tile"] in {"B1", "F1", "F3", "F4", "J2", "J3"}
