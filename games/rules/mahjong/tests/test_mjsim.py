"""The C shanten and simulator of the mahjong bot (``games/rules/mahjong/_mjsim.c``).

The C count must be the Python reference's (``bot.regular_shanten_py``) on any hand; the
simulator must be deterministic per seed and refuse inputs that do not add up."""

from __future__ import annotations

import random

import pytest

from games.rules.mahjong import bot
from games.rules.mahjong.core import MahjongRuleset, State
from games.rules.mahjong.tests.helpers import tuned

native = bot.native
pytestmark = pytest.mark.skipif(native is None, reason="the C extension is not built")


def _random_hand(
    rng: random.Random, n: int, wild_choices: tuple[int, ...]
) -> tuple[list[int], int, int]:
    """``n`` random tiles as (natural counts, wilds, dead kinds' mask)."""
    tiles = rng.sample([k for k in range(34) for _ in range(4)], n)
    wilds = rng.choice(wild_choices)
    counts = [0] * 34
    for k in tiles[wilds:]:
        counts[k] += 1
    dead = 0
    if rng.random() < 0.5:
        for _ in range(rng.randint(1, 6)):
            dead |= 1 << rng.randrange(34)
    return counts, wilds, dead


def _random_case(rng: random.Random) -> tuple[tuple[int, ...], int, int, int]:
    n = rng.choice([1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17])
    counts, wilds, dead = _random_hand(rng, n, (0, 0, 0, 1, 1, 2, 3) if n > 3 else (0,))
    sets = n // 3 if rng.random() < 0.8 else max(0, n // 3 - 1)
    return tuple(counts), wilds, sets, dead


def test_c_shanten_matches_python_on_random_hands() -> None:
    """On 20,000 seeded random hands (1–17 tiles, 0–3 wilds, dead kinds) the C count is the
    Python search's (100,000 agreed when it was written)."""
    rng = random.Random("mjsim")
    for _ in range(20_000):
        counts, wilds, sets, dead = _random_case(rng)
        want = bot.regular_shanten_py(counts, wilds, sets, dead)
        assert native.shanten(bytes(counts), wilds, sets, dead) == want, (counts, wilds, sets)


def test_regular_shanten_uses_c_and_falls_back_on_odd_counts() -> None:
    """``regular_shanten`` gives the reference count, also for a count over 4 (which C refuses)."""
    counts = [0] * 34
    counts[0] = 5
    counts[1] = 1
    with pytest.raises(ValueError):
        native.shanten(bytes(counts), 0, 2, 0)
    assert bot.regular_shanten(tuple(counts), 0, 2) == bot.regular_shanten_py(tuple(counts), 0, 2)


GAME = "mahjong_yueqing"


def _decisions(seed: str, count: int) -> list[tuple[MahjongRuleset, State, int]]:
    """Bot turn states of one seeded 樂清 hand (the bot in seat 0, baselines around it) at
    which the search runs: shanten ≤ 2, several discards tied. Copies, so they stay put."""
    import games.rules.mahjong  # noqa: F401  (registers)
    from games.engine import registry
    from games.rules.mahjong import baseline, play

    r = registry.get(GAME)
    assert isinstance(r, MahjongRuleset)
    config = r.config_from_params({})
    state = r.new_game(config, seed, 4)
    out: list[tuple[MahjongRuleset, State, int]] = []
    while not r.is_over(state) and len(out) < count:
        seat = min(r.to_act(state))
        if seat == 0 and state.phase == "turn" and len(state.hands[0]) % 3 == 2:
            d = play.Decision(r, state, 0)
            rests = []
            for t in sorted(set(state.hands[0]) - d.wild):
                rest = list(state.hands[0])
                rest.remove(t)
                rests.append(d.shanten(rest))
            if min(rests) <= 2 and rests.count(min(rests)) > 1:
                out.append((r, r.state_from_json(r.state_to_json(state)), 0))
        act = play.bot_action if seat == 0 else baseline.baseline_action
        r.apply(state, seat, act(r, state, seat))
    return out


@pytest.fixture
def search_on() -> object:
    with tuned(GAME, mc=200):
        yield


def test_search_is_deterministic_and_reads_no_hidden_tile(search_on: object) -> None:
    """The simulated search gives the same outcomes for the same state, and the same choice
    when the tiles the bot cannot see (the other hands, the wall) are dealt differently."""
    from games.rules.mahjong import play

    cases = _decisions("mjsim-a", 6) + _decisions("mjsim-b", 6) + _decisions("mjsim-c", 6)
    assert len(cases) >= 6
    for r, state, seat in cases:
        d = play.Decision(r, state, seat)
        hand = sorted(set(state.hands[seat]) - d.wild)[:3]
        first = play.simulate(d, hand, 50)
        assert first is not None and len(first) == 50 * len(hand)
        assert play.simulate(play.Decision(r, state, seat), hand, 50) == first
        action = r.bot_action(state, seat)
        for k in range(2):
            other = r.resample_hidden(state, seat, f"re-{k}")
            assert r.bot_action(other, seat) == action


def test_without_the_extension_the_bot_plays_the_present_policy(
    search_on: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``_mjsim`` missing the search is skipped: the same choices as with ``mc`` off."""
    from games.rules.mahjong import bot as botlib
    from games.rules.mahjong import play

    cases = _decisions("mjsim-a", 5)
    monkeypatch.setattr(botlib, "native", None)
    for r, state, seat in cases:
        with_search = r.bot_action(state, seat)
        play.TUNING[GAME]["mc"] = 0
        assert r.bot_action(state, seat) == with_search
        play.TUNING[GAME]["mc"] = 200


def test_simulator_refuses_tiles_that_do_not_add_up() -> None:
    """The unseen tiles must fill the three hands and the wall exactly, or ValueError."""
    hand = bytes([1] * 17 + [0] * 17)
    unseen = bytes([3] * 17 + [4] * 17)
    with pytest.raises(ValueError):
        native.search(
            hand,
            0,
            5,
            bytes([16, 16, 16]),
            bytes([5, 5, 5]),
            bytes(3),
            unseen,
            0,
            5,
            16,
            -1,
            0,
            0,
            0,
            0,
            bytes([0, 1]),
            10,
            1,
            0.0,
            0.0,
        )


def test_a_ready_hand_wins_more_often_than_a_broken_one() -> None:
    """Keeping a two-sided ready hand wins more simulated hands than breaking it: the
    simulator plays the hand out and counts the bot's wins (自摸 and on discards)."""
    # W1–W6 T1–T6 (four sets), the B2 pair, B5 B6 and F1: throwing F1 is ready on B4 / B7;
    # throwing a B2 or W1 is one from ready
    hand = [0] * 34
    for k in (0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14, 19, 19, 22, 23, 27):
        hand[k] += 1
    unseen = bytes(4 - c for c in hand)
    wall = sum(unseen) - 48
    f1, b2, w1 = 27, 19, 0
    out = native.search(
        bytes(hand),
        0,
        5,
        bytes([16, 16, 16]),
        bytes([5, 5, 5]),
        bytes(3),
        unseen,
        0,
        wall,
        16,
        -1,
        0,
        0,
        0,
        0,
        bytes([f1, b2, w1]),
        400,
        7,
        0.0,
        0.0,
    )
    wins = [sum(out[i * 3 + j] == 1 for i in range(400)) for j in range(3)]
    assert wins[0] > wins[1] + 20 and wins[0] > wins[2] + 20, wins


def _baseline_discard_py(counts: list[int], wilds: int, sets: int, dead: int) -> tuple[int, int]:
    """The simulated baseline's discard by the reference count: the lowest shanten, ties to
    the lowest kind, a wild (34) only when it leaves a lower shanten than every natural."""
    best: tuple[int, int] | None = None
    for k in range(34):
        if counts[k]:
            counts[k] -= 1
            sh = bot.regular_shanten_py(tuple(counts), wilds, sets, dead)
            counts[k] += 1
            if best is None or sh < best[1]:
                best = (k, sh)
    if wilds:
        sh = bot.regular_shanten_py(tuple(counts), wilds - 1, sets, dead)
        if best is None or sh < best[1]:
            best = (34, sh)
    assert best is not None
    return best


_WILDS = (0, 0, 0, 1, 1, 2)


def test_the_simulated_baseline_discards_by_its_rule() -> None:
    """On 3,000 seeded random hands of 5 to 17 tiles the simulator's baseline discard (which
    stops scanning at the first kind reaching the whole hand's count) is the rule's: the
    lowest shanten by the reference count, ties to the lowest kind, a wild only when lower."""
    rng = random.Random("mjsim-discard")
    for _ in range(3_000):
        n = rng.choice([5, 8, 11, 14, 17])
        counts, wilds, dead = _random_hand(rng, n, _WILDS)
        sets = n // 3
        want = _baseline_discard_py(counts, wilds, sets, dead)
        assert native.discard(bytes(counts), wilds, sets, dead) == want, (counts, wilds, dead)


def test_the_simulated_baseline_claims_by_its_rule() -> None:
    """On random 3k+1 hands holding a pair, the simulator's 碰 (which first rejects a meld
    whose whole remaining hand counts no lower than now) is made exactly when the best discard
    after it lowers the shanten by the reference count, and discards what the rule says."""
    rng = random.Random("mjsim-meld")
    claimed = refused = 0
    for _ in range(3_000):
        n = rng.choice([4, 7, 10, 13, 16])
        counts, wilds, dead = _random_hand(rng, n, _WILDS)
        pairs = [k for k in range(34) if counts[k] >= 2]
        if not pairs:
            continue
        sets = n // 3
        now = bot.regular_shanten_py(tuple(counts), wilds, sets, dead)
        k = rng.choice(pairs)
        counts[k] -= 2
        discard, after = _baseline_discard_py(counts, wilds, sets - 1, dead)
        counts[k] += 2
        want = discard if after < now else -1
        assert native.meld(bytes(counts), wilds, sets, dead, k, k) == want, (counts, wilds, k)
        claimed += want >= 0
        refused += want < 0
    assert claimed > 100 and refused > 100
