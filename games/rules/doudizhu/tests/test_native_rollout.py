"""The bot's search in C (_movegen.c: fast_play, rollout, solve) against the Python reference.

bot_search's Python functions (``_lead_py``, ``_follow_py``, ``rollout_py``, ``Solver`` with a
dict table) are the specification. On thousands of seeded random positions — hands of 1–20
cards, without and with 1–4 癩子, leading and following plays of every kind and bomb tier
(``cards/reading`` plays too), every follow mode, greedy farmers — the C answers must be the
same plays, the same play-out winners and the same solver values, node counts and memo
tables; and whole seeded hands decided by ``bot.choose`` must come out action for action the
same with the C code and without it (classic, 癩子 and 悶抓 rooms). The C functions must
answer (not decline to ``None``) on every such position, so the comparison is not vacuous.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine.cards import doudizhu_deck
from games.rules.doudizhu import RULESET, Config, bot, bot_search
from games.rules.doudizhu.bot_search import Sim
from games.rules.doudizhu.patterns import RANKS, legal_plays, sort_cards

pytestmark = pytest.mark.skipif(not bot_search.NATIVE, reason="C extension not in use")

native: Any = bot_search._native


def lz_of(laizi: str | None) -> int:
    """The 癩子 rank as the C functions take it (-1: none)."""
    return -1 if laizi is None else RANKS.index(laizi)


def deal(rng: random.Random, sizes: list[int], laizi: str | None, wilds: int) -> list[str]:
    """Sorted hands of the given sizes from one shuffled deck; the first holds up to ``wilds``
    of the 癩子 rank when there is one."""
    deck = doudizhu_deck()
    rng.shuffle(deck)
    if laizi is not None and wilds:
        for i in range(min(wilds, sizes[0])):
            j = deck.index(laizi, i)
            deck[i], deck[j] = deck[j], deck[i]
    hands, at = [], 0
    for size in sizes:
        hands.append(sort_cards("".join(deck[at : at + size])))
        at += size
    return hands


def some_play(rng: random.Random, laizi: str | None) -> str:
    """A random play a random hand (from a fresh deck, so 癩子 and jokers may be in it) can
    lead: any kind, any bomb tier, ``cards/reading`` plays included."""
    deck = doudizhu_deck()
    rng.shuffle(deck)
    hand = sort_cards("".join(deck[: rng.randint(4, 20)]))
    plays = legal_plays(hand, None, laizi)
    by_size: dict[int, list[str]] = {}
    for play in plays:
        by_size.setdefault(len(play), []).append(play)
    return rng.choice(by_size[rng.choice(sorted(by_size))])


def laizi_for(rng: random.Random) -> tuple[str | None, int]:
    """No 癩子 half the time, else a random 癩子 rank and 1–4 of them in the first hand."""
    if rng.random() < 0.5:
        return None, 0
    return RANKS[rng.randrange(13)], rng.randint(1, 4)


def positions(seed: int, count: int, most: tuple[int, int] = (20, 17)) -> Iterator[Sim]:
    """Random play-phase positions: three hands of 1–20 cards (1 to ``most``), landlord, seat
    to move, and a play to beat (with the passes since) or none; greedy farmers at random."""
    rng = random.Random(seed)
    for _ in range(count):
        laizi, wilds = laizi_for(rng)
        sizes = [rng.randint(1, most[0]), rng.randint(1, most[1]), rng.randint(1, most[1])]
        hands = deal(rng, sizes, laizi, wilds)
        rng.shuffle(hands)
        landlord, turn = rng.randrange(3), rng.randrange(3)
        sim = Sim(hands, landlord, turn, laizi, greedy=rng.randrange(8) & ~(1 << landlord))
        if rng.random() < 0.6:
            sim.passes = rng.randrange(2)
            sim.lead_seat = (turn + 2 - sim.passes) % 3
            sim.lead = some_play(rng, laizi)
        yield sim


def test_fast_play_is_the_python_lead_and_follow() -> None:
    """Every lead (both one-card flags, every feed) and every follow (modes 0–5) of 3,000
    random hands against random plays: the C play is the Python one."""
    rng = random.Random(2101)
    checked = 0
    for _ in range(3000):
        laizi, wilds = laizi_for(rng)
        hand = deal(rng, [rng.randint(1, 20)], laizi, wilds)[0]
        lz = lz_of(laizi)
        for one in (False, True):
            for feed in (0, 1, 2):
                got = native.fast_play(hand, None, lz, 0, int(one), feed)
                assert got == bot_search._lead_py(hand, laizi, one, feed), (hand, laizi, one, feed)
                checked += 1
        last = some_play(rng, laizi)
        for mode in range(6):
            got = native.fast_play(hand, last, lz, mode, 0, 0)
            assert got is not None, (hand, last, laizi, mode)
            want = bot_search._follow_py(hand, last, laizi, mode)
            assert (got or None) == want, (hand, last, laizi, mode)
            checked += 1
    assert checked == 3000 * 12


def test_rollouts_are_the_python_play_outs() -> None:
    """4,000 random positions played out to the end: the C winner is the Python one (the C
    code answers every time), and the Python play-outs' own fast policy agrees too."""
    for sim in positions(2102, 4000):
        got = native.rollout(
            sim.hands,
            sim.landlord,
            sim.turn,
            lz_of(sim.laizi),
            sim.lead,
            sim.lead_seat,
            sim.passes,
            sim.greedy,
            200,
        )
        assert got is not None, sim
        assert got == bot_search.rollout_py(sim.copy()), sim
        assert bot_search.rollout(sim.copy()) == got


def test_rollout_limit_and_bad_arguments_never_crash() -> None:
    """A play-out cut by its limit gives the landlord as the Python one does; arguments the C
    code does not model (unsorted or impossible hands, strange plays, out-of-range numbers,
    wrong types) are declined with None rather than guessed at, and never crash."""
    sim = next(positions(2103, 1))
    for limit in (0, 1, 2, 5):
        got = native.rollout(
            sim.hands, sim.landlord, sim.turn, lz_of(sim.laizi), sim.lead, sim.lead_seat,
            sim.passes, sim.greedy, limit,
        )  # fmt: skip
        assert got == bot_search.rollout_py(sim.copy(), limit)
    good = (["345", "678", "9TJ"], 0, 0, -1, None, -1, 0, 0, 200)
    assert native.rollout(*good) in (0, 1, 2)
    bad: list[tuple[int, Any]] = [
        (0, ["543", "678", "9TJ"]),  # unsorted
        (0, ["33333", "678", "9TJ"]),  # five of a rank
        (0, ["BB", "678", "9TJ"]),
        (0, ["3x", "678", "9TJ"]),
        (0, ["", "678", "9TJ"]),
        (0, ["345", "678"]),
        (0, "345"),
        (0, ["3" * 10**5, "678", "9TJ"]),
        (0, ["345", "678", "9TJ\u00e9"]),
        (1, 3),
        (1, -1),
        (2, 10**30),
        (3, 13),
        (3, "7"),
        (4, "3x"),
        (4, "33/"),
        (4, "/33"),
        (4, "3/4"),
        (4, "34"),
        (4, "3" * 200),
        (4, 5),
        (5, 7),
        (6, 3),
        (7, -1),
        (8, -5),
        (8, None),
    ]
    for index, value in bad:
        args = list(good)
        args[index] = value
        if index == 4:
            args[5] = 1
        got = native.rollout(*args)
        if index == 4 and value == "33/":
            assert got in (0, 1, 2)  # '33/' reads as '33', as parse_play has it
        else:
            assert got is None, (index, value)
    assert native.fast_play("543", None, -1, 0, 0, 0) is None
    assert native.fast_play("345", "3/4", -1, 1, 0, 0) is None
    assert native.fast_play("345", None, 99, 0, 0, 0) is None
    with pytest.raises(TypeError):
        native.rollout(*good[:8])


def python_only(fn: Any, *args: Any) -> Any:
    """fn(*args) with the Python search alone (and the fast policy's cache empty)."""
    saved = bot_search.NATIVE
    bot_search.NATIVE = False
    bot_search._LEAD.clear()
    bot_search._FOLLOW.clear()
    try:
        return fn(*args)
    finally:
        bot_search.NATIVE = saved
        bot_search._LEAD.clear()
        bot_search._FOLLOW.clear()


def compare_solvers(sims: list[Sim], nodes: list[int]) -> None:
    """The same sequence of solves, one shared table, in C and in Python: same values, node
    counts and tables after each."""
    py = python_only(bot_search.Solver, 0)
    cs = bot_search.Solver(0)
    assert isinstance(py.table, dict) and not isinstance(cs.table, dict)
    for sim, budget in zip(sims, nodes, strict=True):
        py.nodes_left = cs.nodes_left = budget
        want = python_only(py.solve, sim)
        assert cs.solve(sim) == want, sim
        assert cs.nodes_left == py.nodes_left, sim
    table = cs.table if isinstance(cs.table, dict) else native.solver_items(cs.table)
    assert table == py.table


def endgames(seed: int, count: int, most: tuple[int, int] = (5, 5)) -> Iterator[Sim]:
    """Random endgames: 3–15 cards in the three hands (or up to ``most``), no greedy farmers
    (the solver has none)."""
    for sim in positions(seed, count, most):
        sim.greedy = 0
        yield sim


def test_solver_is_the_python_solver() -> None:
    """600 random endgames of up to 15 cards and 150 of up to 20, in batches sharing a table,
    with node counts from 0 to plenty (so the search runs out at every depth): the C solver's
    values, the node counts it leaves and its memo table are the Python solver's."""
    rng = random.Random(2104)
    sims = list(endgames(2104, 600))
    for at in range(0, len(sims), 6):
        batch = sims[at : at + 6]
        compare_solvers(batch, [rng.choice((0, 1, 5, 40, 300, 3000, 10**6)) for _ in batch])
    bigger = list(endgames(2106, 150, (8, 6)))  # up to 20 cards: the count runs out mostly
    for at in range(0, len(bigger), 3):
        batch = bigger[at : at + 3]
        compare_solvers(batch, [rng.choice((0, 50, 500, 3000)) for _ in batch])


def test_a_declined_position_hands_the_table_to_python() -> None:
    """When the C solver declines a position (an unsorted hand, which it does not model), the
    table becomes the Python dict of the solves before and the Python solver carries on: the
    same values, counts and table as the Python solver all along."""
    sims = list(endgames(2105, 6))
    odd = sims[3].copy()
    odd.hands = [h[::-1] for h in odd.hands]  # unsorted
    assert native.solve(
        native.solver_table(), odd.hands, odd.turn, odd.lead, odd.lead_seat, odd.passes,
        odd.landlord, lz_of(odd.laizi), 100,
    ) is None  # fmt: skip
    compare_solvers([*sims[:3], odd, *sims[4:]], [10**5] * 6)


def decisions(variant: str, hands: int, seed: str) -> Iterator[tuple[Any, int, dict[str, Any]]]:
    """Every decision of seeded all-bot hands (bot.choose in all three seats, bidding too):
    the state, the seat and the action the bot took there."""
    for i in range(hands):
        st = RULESET.new_game(
            Config(variant=variant, seat_beans=(0, 0, 0), double_threshold=1),
            f"{seed}-{variant}-{i}",
            3,
        )
        while st.phase != "over":
            seat = min(RULESET.to_act(st))
            copy = RULESET.state_from_json(RULESET.state_to_json(st))
            action = bot.choose(RULESET, st, seat)
            yield copy, seat, action
            RULESET.apply(st, seat, action)


@pytest.mark.parametrize("variant", ["classic", "laizi", "menzhua"])
def test_whole_hands_choose_the_same_actions(variant: str) -> None:
    """25 seeded all-bot hands per room (about 1,000 decisions, searches and endgames included)
    decided with the C search, each decision decided again with the Python one: the same
    action every time."""
    count = 0
    for st, seat, action in decisions(variant, 25, "native21"):
        assert python_only(bot.choose, RULESET, st, seat) == action, (variant, st.seed, count)
        count += 1
    assert count > 700
