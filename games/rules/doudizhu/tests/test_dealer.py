"""bot_search.Dealer (a decision's samples, set up once) against the one-off deal it replaced.

The reference below is ``sample_hands`` as it was before the Dealer (commit 38d537d), verbatim
but for its name: on the positions of seeded all-bot hands (classic, 癩子, 悶抓; every seat,
with and without reading the passes), a run of samples drawn from one Dealer must be the
reference's samples from the same generator, hand for hand, and leave the generator in the same
state (the bot's choices, measured at 80 % against RLCard, depend on exactly these samples).
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.doudizhu import RULESET, Config, bot, bot_search
from games.rules.doudizhu.bot_search import (
    _beats_any,
    _caps,
    pass_limits,
    unseen_and_known,
)
from games.rules.doudizhu.patterns import IDX, RANKS


def reference_sample_hands(
    st: Any, seat: int, rng: random.Random, infer: bool = False, tries: int = 6
) -> list[str]:
    """One determinisation: the other seats' hands, consistent with all this seat has seen.

    With ``infer`` the passes are read too (:func:`pass_limits`): the hidden cards are dealt
    highest rank first, each to a seat with room for it (chosen in proportion to the cards it
    still needs, which without limits is a uniform deal), and a deal that breaks a limit anyway
    is dealt again, up to ``tries`` times (then the one that breaks the fewest is kept: a
    player may pass on a play he could beat).
    """
    unseen, known = unseen_and_known(st, seat)
    hidden = [s for s in range(3) if s != seat]
    limits = pass_limits(st, seat) if infer else [[], [], []]
    if not any(limits[s] for s in hidden):
        return _reference_plain_deal(st, seat, unseen, known, rng)
    caps = {}
    checked = {}
    for s in hidden:
        caps[s], checked[s] = _caps(limits[s], st.laizi)
    best: list[str] | None = None
    best_bad = 1 << 30
    total = sum(len(st.hands[s]) - sum(known[s]) for s in hidden)
    for _ in range(tries):
        pool = [RANKS[r] for r in range(14, -1, -1) for _ in range(max(0, unseen[r]))]
        if len(pool) > total:  # a real hand has exactly the cards needed; a test may not
            rng.shuffle(pool)
            pool = sorted(pool[:total], key=IDX.__getitem__, reverse=True)
        counts = {s: known[s][:] for s in hidden}
        need = {s: len(st.hands[s]) - sum(known[s]) for s in hidden}
        dealt: dict[int, list[str]] = {s: [] for s in hidden}
        bad = 0
        # within a rank the order does not matter; across ranks, highest (most limited) first
        for ch in pool:
            r = IDX[ch]
            room = [s for s in hidden if need[s] > 0 and counts[s][r] < caps[s][r]]
            if not room:
                room = [s for s in hidden if need[s] > 0]
                bad += 1
            if len(room) == 1:
                to = room[0]
            else:
                a, b = room
                to = a if rng.randrange(need[a] + need[b]) < need[a] else b
            dealt[to].append(ch)
            counts[to][r] += 1
            need[to] -= 1
        hands = [""] * 3
        hands[seat] = st.hands[seat]
        for s in hidden:
            own = "".join(RANKS[r] * known[s][r] for r in range(15))
            hands[s] = "".join(sorted(own + "".join(dealt[s]), key=IDX.__getitem__))
            if checked[s]:
                bad += _beats_any(hands[s], checked[s], st.laizi)
        if bad < best_bad:
            best, best_bad = hands, bad
            if bad == 0:
                break
    assert best is not None
    return best


def _reference_plain_deal(
    st: Any, seat: int, unseen: list[int], known: list[list[int]], rng: random.Random
) -> list[str]:
    pool = [RANKS[r] for r in range(15) for _ in range(max(0, unseen[r]))]
    rng.shuffle(pool)
    hands = [""] * 3
    hands[seat] = st.hands[seat]
    at = 0
    for s in range(3):
        if s == seat:
            continue
        own = [RANKS[r] * known[s][r] for r in range(15)]
        need = len(st.hands[s]) - sum(known[s])
        hands[s] = "".join(own) + "".join(pool[at : at + need])
        at += need
    return ["".join(sorted(h, key=IDX.__getitem__)) for h in hands]


def play_positions(variant: str, hands: int) -> list[tuple[Any, int]]:
    """The play-phase positions of seeded all-bot hands, with the seat to move."""
    out = []
    for i in range(hands):
        st = RULESET.new_game(
            Config(variant=variant, seat_beans=(0, 0, 0), double_threshold=1), f"deal-{i}", 3
        )
        while st.phase != "over":
            seat = min(RULESET.to_act(st))
            if st.phase == "playing":
                out.append((RULESET.state_from_json(RULESET.state_to_json(st)), seat))
            RULESET.apply(st, seat, bot.choose(RULESET, st, seat, quick=True))
    return out


def test_dealer_deals_the_reference_samples() -> None:
    """Every play-phase position of 10 seeded hands per room (classic, 癩子, 悶抓), dealt for
    every seat with and without the passes read, six samples in a row from one generator: the
    Dealer's samples are the one-off deal's, and the generator ends in the same state."""
    compared = inferred = 0
    for variant in ("classic", "laizi", "menzhua"):
        for st, _ in play_positions(variant, 10):
            for seat in range(3):
                for infer in (False, True):
                    seed = 2 * compared + infer
                    mine, theirs = random.Random(seed), random.Random(seed)
                    dealer = bot_search.Dealer(st, seat, infer)
                    for _ in range(6):
                        want = reference_sample_hands(st, seat, theirs, infer)
                        assert bot_search.sample_hands(st, seat, mine, infer, 6, dealer) == want
                    assert mine.getstate() == theirs.getstate()
                    compared += 1
                    inferred += infer and not dealer.plain
    assert compared > 1000 and inferred > 100
