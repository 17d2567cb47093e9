"""The 斗地主 bot's search (bot_search.py): sees only its seat's view, replays exactly, stops in
time, finds the winning line the fast heuristic would miss; 新手場 does not search."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from games.engine import budget
from games.rules.doudizhu import RULESET, Config, State, bot, bot_search
from games.rules.doudizhu.patterns import RANKS, counts_of, legal_plays, sort_cards
from games.rules.doudizhu.tests.test_bot import _playing


@pytest.fixture(autouse=True)
def _no_wall_clock_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's wall-clock cap is the one thing that depends on the machine's load (it is
    tested alone below); here it is lifted so a loaded machine cannot change a decision."""
    monkeypatch.setattr(bot, "SEARCH_CAP_MS", 1e7)


def _midgame(seed: str, plays: int, level: str = "normal") -> State:
    """A classic hand bid by the bots and played ``plays`` moves on by the novice bot."""
    st = RULESET.new_game(Config(variant="classic", bot_level=level), seed, 3)
    while st.phase != "playing":
        seat = min(RULESET.to_act(st))
        RULESET.apply(
            st,
            seat,
            RULESET.auto_action(st, seat)
            if st.phase != "bidding"
            else {"type": "bid", "call": True},
        )
    for _ in range(plays):
        if st.phase != "playing":
            break
        seat = st.turn
        RULESET.apply(st, seat, bot._play(RULESET, st, seat, search=False))
    return st


def _positions() -> list[tuple[State, int]]:
    out = []
    for i, n in itertools.product(range(6), (0, 5, 11, 17)):
        st = _midgame(f"search-{i}", n)
        if st.phase == "playing":
            out.append((st, st.turn))
    return out


def _shuffle_hidden(st: State, seat: int, rng: random.Random) -> State:
    """The same position with the two other seats' cards dealt again between them, keeping
    their counts and the landlord's shown 底牌 still in his hand: what ``seat`` cannot tell."""
    other = RULESET.state_from_json(RULESET.state_to_json(st))
    _, known = bot_search.unseen_and_known(st, seat)
    hidden = [s for s in range(3) if s != seat]
    pool = []
    for s in hidden:
        c = counts_of(st.hands[s])
        pool += [RANKS[r] for r in range(15) for _ in range(c[r] - known[s][r])]
    rng.shuffle(pool)
    at = 0
    for s in hidden:
        need = len(st.hands[s]) - sum(known[s])
        own = "".join(RANKS[r] * known[s][r] for r in range(15))
        other.hands[s] = sort_cards(own + "".join(pool[at : at + need]))
        at += need
    return other


def test_decision_does_not_depend_on_cards_the_seat_cannot_see() -> None:
    """Dealing the hidden cards again between the other two seats (counts and shown 底牌 kept)
    never changes the bot's play: it reads only its own view. At least one reshuffle does change
    the hands, so the test would catch a bot that peeks."""
    rng = random.Random(7)
    changed = 0
    for st, seat in _positions():
        want = RULESET.bot_action(st, seat)
        for _ in range(2):
            other = _shuffle_hidden(st, seat, rng)
            changed += other.hands != st.hands
            assert RULESET.bot_action(other, seat) == want
    assert changed > 10


def test_same_position_same_decision_after_a_round_trip() -> None:
    """A replay reproduces the bot: the decision is a function of the stored state (seeded from
    the hand's seed and the decision's place), also after state_to_json / state_from_json."""
    for st, seat in _positions()[:10]:
        first = RULESET.bot_action(st, seat)
        again = RULESET.bot_action(RULESET.state_from_json(RULESET.state_to_json(st)), seat)
        assert first == again == RULESET.bot_action(st, seat)


def test_samples_fit_everything_seen() -> None:
    """A determinisation gives each other seat its card count, the landlord his unplayed shown
    底牌, and between them exactly the cards this seat has not seen."""
    rng = random.Random(3)
    for st, seat in _positions():
        hands = bot_search.sample_hands(st, seat, rng)
        assert hands[seat] == st.hands[seat]
        assert [len(h) for h in hands] == [len(h) for h in st.hands]
        others = [s for s in range(3) if s != seat]
        assert sorted("".join(hands[s] for s in others)) == sorted(
            "".join(st.hands[s] for s in others)
        )
        _, known = bot_search.unseen_and_known(st, seat)
        for s in others:
            c = counts_of(hands[s])
            assert all(c[r] >= known[s][r] for r in range(15))


def _open(hands: list[str], passed: list[list[str]]) -> State:
    """Seat 0 landlord to lead with ``hands``, every other card played, the given passes."""
    rest = _deck()
    for ch in "".join(hands):
        rest.remove(ch)
    st = _playing(hands, 0, played=("".join(rest), "", ""))
    st.passed_on = passed
    return st


def test_samples_read_the_opponents_passes() -> None:
    """With inference on, a farmer who passed on the landlord's single Q holds no card above
    it, nor a pair above his passed 9s, in any sample (his partner gets those cards), and the
    samples still fit everything seen; without it some samples give him such cards. The other
    farmer's pass on his partner's play is not read."""
    st = _open(["3456789TJQKA", "3344556677889", "TTJJQQKKAA222"], [[], ["0:Q", "0:99"], ["1:5"]])
    assert bot_search.pass_limits(st, 0) == [[], ["Q", "99"], []]
    rng = random.Random(4)
    free = 0
    for _ in range(30):
        hands = bot_search.sample_hands(st, 0, rng, infer=True)
        c = counts_of(hands[1])
        assert sum(c[RANKS.index("K") :]) == 0, hands
        assert all(c[r] <= 1 for r in range(RANKS.index("T"), RANKS.index("2") + 1)), hands
        assert sorted(hands[1] + hands[2]) == sorted(st.hands[1] + st.hands[2])
        assert [len(h) for h in hands] == [len(h) for h in st.hands]
        plain = bot_search.sample_hands(st, 0, rng)
        free += sum(counts_of(plain[1])[RANKS.index("K") :]) > 0
    assert free > 0


def test_samples_keep_a_pass_that_cannot_be_honoured() -> None:
    """When no deal fits every pass (both farmers passed on a single 3, so neither may hold a
    higher card), a sample is still dealt, with every seat's count and the unseen cards."""
    st = _open(["3456789TJQKA", "3344556677889", "TTJJQQKKAA222"], [[], ["0:3"], ["0:3"]])
    hands = bot_search.sample_hands(st, 0, random.Random(1), infer=True)
    assert sorted(hands[1] + hands[2]) == sorted(st.hands[1] + st.hands[2])
    assert [len(h) for h in hands] == [len(h) for h in st.hands]


def test_a_pass_on_a_trio_with_a_kicker_is_checked_whole() -> None:
    """A pass on a trio with a single (no rank cap: the kicker matters) is checked on the dealt
    hand: the farmer who passed on the landlord's 3334 is never dealt three 2s, which he is
    without inference in some samples."""
    st = _open(["89TJQKA", "3456789TJQKA22", "3456789TJQKA22"], [[], ["0:3334"], []])
    rng = random.Random(2)
    free = 0
    for _ in range(30):
        hands = bot_search.sample_hands(st, 0, rng, infer=True)
        assert hands[1].count("2") < 3, hands[1]
        free += bot_search.sample_hands(st, 0, rng)[1].count("2") >= 3
    assert free > 0


def test_search_finds_the_winning_lead_the_first_candidate_misses() -> None:
    """Landlord with 33BR, the farmers with one card each (every other card played, so the
    landlord knows it): leading a single 3 lets a farmer go out, the pair cannot be followed.
    The search picks the pair though the single is its first (heuristic) candidate."""
    played = "".join(
        sorted(
            "".join(r * 4 for r in "3456789TJQKA2")
            .replace("33", "", 1)
            .replace("4", "", 1)
            .replace("5", "", 1)
        )
    )
    st = _playing(["33BR", "4", "5"], turn=0, played=(played, "", ""))
    assert bot_search.search(st, 0, ["3", "33"]) == "33"
    assert bot_search.search(st, 0, ["33", "3"]) == "33"


@pytest.fixture
def slow_samples(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A machine so slow that the wall clock moves 40 ms at each look; the list returned grows
    by one for every sample of the hidden hands the search deals."""
    clock = [0.0]

    def slow() -> float:
        clock[0] += 0.040
        return clock[0]

    calls: list[int] = []
    real = bot_search.sample_hands

    def counted(*args: Any) -> list[str]:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(budget, "WALL_CLOCK", slow)
    monkeypatch.setattr(bot_search, "sample_hands", counted)
    return calls


def test_search_stops_at_its_wall_clock_cap(slow_samples: list[int]) -> None:
    """On a machine so slow that each sample takes 40 ms, a search asked for many samples still
    returns after its cap (150 ms): the table never waits longer than think time + budget."""
    st, seat = _positions()[0]
    plays = RULESET.legal_plays_for(st, seat)[:4]
    bot_search.search(st, seat, list(plays), work=10**9, max_samples=1000, hard_ms=150)
    assert 1 <= len(slow_samples) <= 4


def test_novice_room_bot_does_not_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """新手場 (room parameter bot_level = novice): the bot plays its heuristic without search;
    the normal room's bot searches (the same positions)."""
    searched: list[int] = []
    real = bot_search.search

    def spy(*args: Any, **kwargs: Any) -> Any:
        searched.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(bot_search, "search", spy)
    for i in range(4):
        st = _midgame(f"novice-{i}", 3, level="novice")
        if st.phase == "playing":
            RULESET.bot_action(st, st.turn)
    assert searched == []
    for i in range(4):
        st = _midgame(f"novice-{i}", 3)
        if st.phase == "playing":
            RULESET.bot_action(st, st.turn)
    assert searched


def test_novice_is_a_room_parameter() -> None:
    """bot_level is declared with the room parameters and reaches the hand's Config; another
    value is refused by name."""
    from games.engine.params import ParamError
    from games.rules.doudizhu.params import ROOM_PARAMS

    spec = next(p for p in ROOM_PARAMS if p.name == "bot_level")
    assert spec.parse("novice") == "novice"
    with pytest.raises(ParamError) as error:
        spec.parse("expert")
    assert error.value.name == "bot_level"
    assert RULESET.config_from_params({"bot_level": "novice"}).bot_level == "novice"
    assert RULESET.config_from_params({}).bot_level == "normal"


@pytest.mark.parametrize("sampled", [False, True])
def test_bids_ignore_hidden_cards(monkeypatch: pytest.MonkeyPatch, sampled: bool) -> None:
    """叫地主 by the strength score and (bot.BID_SEARCH) from sampled play-outs: a hand with
    both jokers, 2s and a bomb calls, a weak hand does not; dealing the other hands and the 底牌
    again (what the bidder cannot see) never changes a bid."""
    monkeypatch.setattr(bot, "BID_SEARCH", sampled)
    strong = "3456789TTTTJ22ABR"
    weak = "33445567899TJQKA2"
    calls = []
    for hand in (strong, weak):
        st = RULESET.new_game(Config(variant="classic"), "bid-test", 3)
        while st.phase != "bidding":
            seat = min(RULESET.to_act(st))
            RULESET.apply(st, seat, RULESET.auto_action(st, seat))
        seat = st.turn
        rest = list(st.hands[0] + st.hands[1] + st.hands[2] + st.dipai)
        for ch in hand:
            rest.remove(ch)
        rng = random.Random(5)
        decisions = set()
        for _ in range(3):
            rng.shuffle(rest)
            others = [s for s in range(3) if s != seat]
            st.hands[seat] = sort_cards(hand)
            st.hands[others[0]] = sort_cards("".join(rest[:17]))
            st.hands[others[1]] = sort_cards("".join(rest[17:34]))
            st.dipai = sort_cards("".join(rest[34:]))
            decisions.add(RULESET.bot_action(st, seat)["call"])
        assert len(decisions) == 1
        calls.append(decisions.pop())
    assert calls == [True, False]


def _minimax(sim: bot_search.Sim) -> bool:
    """Whether the landlord's side wins with best play: plain minimax, no table, no ordering."""
    mover_is_landlord = sim.turn == sim.landlord
    for play in legal_plays(sim.hands[sim.turn], sim.lead, sim.laizi):
        child = sim.copy()
        won = child.move(None if play == "pass" else play)
        value = (won == sim.landlord) if won is not None else _minimax(child)
        if value == mover_is_landlord:
            return mover_is_landlord
    return not mover_is_landlord


def _deck() -> list[str]:
    return [RANKS[r] for r in range(15) for _ in range(4 if r < 13 else 1)]


def test_endgame_solver_agrees_with_plain_minimax() -> None:
    """On 200 random open positions of two to four cards a hand the solver's win / loss (with its
    table, move ordering and cut-offs) is the plain minimax's; both sides win some of them."""
    rng = random.Random(3)
    deck = _deck()
    values = []
    for _ in range(200):
        rng.shuffle(deck)
        n = rng.randint(2, 4)
        hands = [sort_cards("".join(deck[i * n : (i + 1) * n])) for i in range(3)]
        sim = bot_search.Sim(hands, 0, rng.randint(0, 2), None)
        value = bot_search.Solver(10**6).solve(sim)
        assert value == _minimax(sim.copy()), hands
        assert sim.hands == hands  # the solver leaves its position alone
        values.append(value)
    assert 20 < sum(values) < 180


def test_endgame_solver_stops_at_its_node_count() -> None:
    """Out of nodes the solver says ``None`` (unknown) rather than guess; given enough, it
    decides the same position."""
    rng = random.Random(11)
    deck = _deck()
    rng.shuffle(deck)
    hands = [sort_cards("".join(deck[i * 7 : (i + 1) * 7])) for i in range(3)]
    sim = bot_search.Sim(hands, 0, 0, None)
    assert bot_search.Solver(20).solve(sim) is None
    assert bot_search.Solver(10**7).solve(sim) in (True, False)


# (hands, seat to lead): open positions the sampled play-outs get wrong, with a forced win for
# the side to lead that the exact endgame search finds
FORCED_WINS = [
    (["79TQKR", "459T", "59A2"], 0),
    (["57R", "3566", "489T22"], 2),
    (["8QKKA", "669QA2", "33458"], 0),
    (["89Q", "469TA", "457KK"], 2),
]


@pytest.mark.parametrize(("hands", "turn"), FORCED_WINS)
def test_endgame_search_finds_a_forced_win(
    monkeypatch: pytest.MonkeyPatch, hands: list[str], turn: int
) -> None:
    """Every hand shown (明牌) and every other card played, the position is open: the seat to
    lead has a forced win (checked by plain minimax). With the endgame search the bot's lead
    keeps it; without (play-outs by the fast policy only) it is lost."""
    deck = _deck()
    for ch in "".join(hands):
        deck.remove(ch)
    st = _playing(hands, turn, played=("".join(deck), "", ""))
    st.mingpai = [True, True, True]
    wins_for_mover = turn == st.landlord

    def value_after(action: dict[str, Any]) -> bool:
        assert action["type"] == "play", action
        sim = bot_search.Sim(list(st.hands), st.landlord, turn, None)
        won = sim.move(action["cards"])
        return (won == st.landlord) if won is not None else _minimax(sim)

    assert _minimax(bot_search.Sim(list(st.hands), st.landlord, turn, None)) == wins_for_mover
    monkeypatch.setattr(bot, "ENDGAME_NODES", 0)
    monkeypatch.setattr(bot, "LANDLORD_ENDGAME_NODES", 0)
    assert value_after(RULESET.bot_action(st, turn)) != wins_for_mover
    monkeypatch.setattr(bot, "ENDGAME_CARDS", 20)
    monkeypatch.setattr(bot, "ENDGAME_NODES", 20_000)
    monkeypatch.setattr(bot, "LANDLORD_ENDGAME_CARDS", 20)
    monkeypatch.setattr(bot, "LANDLORD_ENDGAME_NODES", 20_000)
    assert value_after(RULESET.bot_action(st, turn)) == wins_for_mover


def test_bounded_search_chooses_as_the_full_search_with_less_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Play-outs only (no endgame solver), so every sample's result is the same either way: the
    bounded search (one candidate at a time, dropped once it cannot overtake) picks what the
    full search picks, in every position, and plays out fewer samples in all of them together
    (none more in any one)."""
    played: list[int] = []
    real = bot_search.rollout

    def counted(sim: bot_search.Sim, limit: int = 200) -> int:
        played.append(1)
        return real(sim, limit)

    monkeypatch.setattr(bot_search, "rollout", counted)
    full_total = bounded_total = 0
    compared = 0
    for st, seat in _positions():
        plays = RULESET.legal_plays_for(st, seat)
        cands: list[str | None] = list(plays[:5]) + ([None] if st.lead is not None else [])
        if len(cands) < 2:
            continue
        played.clear()
        full = bot_search.search(st, seat, cands, work=3000, hard_ms=1e7, infer=True)
        full_n = len(played)
        played.clear()
        bounded = bot_search.search(
            st, seat, cands, work=3000, hard_ms=1e7, infer=True, bounded=True
        )
        assert bounded == full, (st.hands, cands)
        assert len(played) <= full_n
        full_total += full_n
        bounded_total += len(played)
        compared += 1
    assert compared >= 10
    assert bounded_total < full_total


def test_bounded_search_stops_at_its_wall_clock_cap(slow_samples: list[int]) -> None:
    """The bounded search deals its samples as it goes and looks at the clock after each one:
    when each sample takes 40 ms of wall clock, a search asked for many samples deals at most
    a handful before its 150 ms cap and returns a candidate (the first, the only one judged)."""
    st, seat = _positions()[0]
    plays = list(RULESET.legal_plays_for(st, seat)[:4])
    got = bot_search.search(
        st, seat, plays, work=10**9, max_samples=1000, hard_ms=150, bounded=True
    )
    assert got == plays[0]
    assert 1 <= len(slow_samples) <= 4


def test_bounded_endgame_expands_at_most_its_position_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bounded search shares the endgame's positions out between its candidates: over a
    whole decision the solvers expand no more than ``endgame_nodes`` positions in all, and
    with enough of them they expand some (the endgame is searched)."""
    solvers: list[tuple[int, bot_search.Solver]] = []
    real = bot_search.Solver

    def tracked(nodes: int) -> bot_search.Solver:
        solver = real(nodes)
        solvers.append((nodes, solver))
        return solver

    monkeypatch.setattr(bot_search, "Solver", tracked)
    rng = random.Random(5)
    searched = 0
    for _ in range(6):
        deck = _deck()
        rng.shuffle(deck)
        hands = [sort_cards("".join(deck[i * 6 : (i + 1) * 6])) for i in range(3)]
        st = _playing(hands, 0, played=(sort_cards("".join(deck[18:])), "", ""))
        cands: list[str | None] = list(RULESET.legal_plays_for(st, 0)[:6])
        solvers.clear()
        bot_search.search(
            st, 0, cands, hard_ms=1e7, endgame_cards=20, endgame_nodes=3000, bounded=True
        )
        used = sum(given - max(0, s.nodes_left) for given, s in solvers)
        assert used <= 3000
        searched += used > 0
    assert searched >= 3


def test_greedy_play_out_farmers_beat_their_partner() -> None:
    """The landlord's model of greedy farmers (``Sim.greedy``, a mask of seats): on his
    partner's single 9 a greedy farmer with 4, T and K plays the T (his lowest play that beats),
    where the cooperative fast policy lets the partner's trick run; on the landlord's low single
    the greedy farmer spends his 2, the cooperative one keeps it. The model is per seat (the
    other farmer's bit changes nothing) and is carried by copies of the position."""
    hands = ["3456789JQKA", "4TK", "55667788"]
    partner_trick = bot_search.Sim(hands[:], 0, 1, None, lead="9", lead_seat=2)
    assert bot_search.fast_move(partner_trick) is None
    partner_trick.greedy = 0b100  # only the other farmer greedy
    assert bot_search.fast_move(partner_trick) is None
    partner_trick.greedy = 0b010
    assert bot_search.fast_move(partner_trick.copy()) == "T"
    far = ["3456789JQKAA", "33344552", "66778899TT"]
    landlord_trick = bot_search.Sim(far[:], 0, 1, None, lead="5", lead_seat=0)
    assert bot_search.fast_move(landlord_trick) is None
    landlord_trick.greedy = 0b110
    assert bot_search.fast_move(landlord_trick) == "2"


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_only_the_landlord_models_greedy_farmers(
    monkeypatch: pytest.MonkeyPatch, mode: int
) -> None:
    """bot.LANDLORD_GREEDY_FARMERS reaches the landlord's search and never a farmer's (whose
    play-outs keep the cooperative policy), and the bounded search is the landlord's alone:
    0 models no farmer greedy, 1 both, 2 those bot.greedy_seats reads from the moves."""
    monkeypatch.setattr(bot, "LANDLORD_GREEDY_FARMERS", mode)
    seen: list[tuple[bool, int, bool, int]] = []
    real = bot_search.search

    def spy(st: Any, seat: int, *args: Any, **kwargs: Any) -> Any:
        both = sum(1 << s for s in range(3) if s != st.landlord)
        expected = (0, both, bot.greedy_seats(st))[mode]
        seen.append((seat == st.landlord, kwargs["greedy_farmers"], kwargs["bounded"], expected))
        return real(st, seat, *args, **kwargs)

    monkeypatch.setattr(bot_search, "search", spy)
    for st, seat in _positions():
        RULESET.bot_action(st, seat)
    assert {True, False} <= {is_landlord for is_landlord, *_ in seen}
    for is_landlord, greedy, bounded, expected in seen:
        assert bounded == is_landlord
        assert greedy == (expected if is_landlord else 0)
