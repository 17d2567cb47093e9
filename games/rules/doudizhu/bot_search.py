"""Determinised Monte-Carlo for the 斗地主 bot (issue #16 §1): 模擬 the hidden hands, play out.

At a play-phase decision with more than one sensible option the bot (:mod:`bot`) hands its
candidates here. Each *sample* deals the cards this seat cannot see — the deck less its own hand,
every play so far, the shown hands (明牌) and the landlord's shown 底牌 still in his hand — to the
other two seats at their card counts. Every candidate is then played out on every sample (the
same samples for all candidates) by a fast policy in all three seats, driven by the C move
generator (:func:`patterns.legal_plays`), and the candidate whose side wins the most samples is
chosen; a tie keeps the heuristic's first choice.

Determinism: the samples come from a generator seeded with the hand's seed and the decision's
place in the hand (:func:`decision_seed`), and the work is counted in simulated plays, not in
time, so a replay of the hand makes the same choices. A wall-clock cap (``hard_ms``, through
``games.engine.budget``: the platform sets the clock, pure use has none) stops a search early only
on a machine so loaded that the budget is already blown; it is the one thing
that can make two runs differ, and it never fires at the budgets of bench/doudizhu_bot_rlcard.py.

The fast policy (:func:`fast_move`) is rule-of-thumb play: go out if one play can; lead the
longest plain play that starts with the hand's lowest card (no bomb, no 2 or joker unless that is
all there is); follow with the weakest plain play that beats, never over the partner; a bomb only
against an opponent close to going out; against an opponent with one card lead no single if
another play exists; a farmer feeds a partner down to one or two cards his lowest single or
pair.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from games.engine import budget
from games.rules.doudizhu.patterns import IDX, RANKS, TWO, classify, legal_plays

FULL = [4] * 13 + [1, 1]
_KIND_CACHE: dict[tuple[str, str | None], tuple[str, int, int]] = {}


def play_info(play: str, laizi: str | None) -> tuple[str, int, int]:
    """(kind, main rank, bomb tier) of a play string, cached (the play strings repeat)."""
    key = (play, laizi)
    got = _KIND_CACHE.get(key)
    if got is None:
        p = classify(play, laizi)
        got = ("", 0, 0) if p is None else (p.kind, p.rank, p.tier)
        if len(_KIND_CACHE) > 200_000:
            _KIND_CACHE.clear()
        _KIND_CACHE[key] = got
    return got


@dataclass
class Sim:
    """A play-phase position: hands, the play to beat (string and who made it), passes."""

    hands: list[str]
    landlord: int
    turn: int
    laizi: str | None
    lead: str | None = None
    lead_seat: int = -1
    passes: int = 0
    played: list[str] = field(default_factory=lambda: ["", "", ""])

    def copy(self) -> Sim:
        return Sim(
            self.hands[:],
            self.landlord,
            self.turn,
            self.laizi,
            self.lead,
            self.lead_seat,
            self.passes,
            self.played[:],
        )

    def move(self, play: str | None) -> int | None:
        """Apply a play (``None`` = pass); the winner's seat when the hand goes out."""
        seat = self.turn
        if play is None:
            self.passes += 1
            if self.passes == 2:
                self.turn, self.lead, self.passes = self.lead_seat, None, 0
            else:
                self.turn = (seat + 1) % 3
            return None
        cards = play.partition("/")[0]
        hand = self.hands[seat]
        for ch in cards:
            hand = hand.replace(ch, "", 1)
        self.hands[seat] = hand
        self.played[seat] += cards
        self.lead, self.lead_seat, self.passes = play, seat, 0
        if not hand:
            return seat
        self.turn = (seat + 1) % 3
        return None


def _plain(play: str, laizi: str | None) -> bool:
    return play_info(play, laizi)[2] == 0


_LEAD: dict[tuple[str, str | None, bool, int], str] = {}
_FOLLOW: dict[tuple[str, str, str | None, int], str | None] = {}


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) > 300_000:
        cache.clear()
    cache[key] = value
    return value


def fast_move(sim: Sim) -> str | None:
    """The fast policy's play for the seat to move (``None`` = pass); cached per situation."""
    seat = sim.turn
    hand = sim.hands[seat]
    laizi = sim.laizi
    last = sim.lead
    ll = sim.landlord
    if seat == ll:
        danger = min(len(sim.hands[(seat + 1) % 3]), len(sim.hands[(seat + 2) % 3]))
    else:
        danger = len(sim.hands[ll])
    if last is None:
        feed = 0
        if seat != ll and danger > 2:
            feed = len(sim.hands[3 - seat - ll])
            feed = feed if feed <= 2 else 0
        key = (hand, laizi, danger == 1, feed)
        got = _LEAD.get(key)
        if got is None:
            got = _remember(_LEAD, key, _lead(hand, laizi, danger == 1, feed))
        return got
    if seat != ll and sim.lead_seat != ll:
        mode = 0  # the partner's trick: only go out
    elif danger <= 2:
        mode = 1
    elif danger <= 4 or len(sim.hands[sim.lead_seat]) <= 4:
        mode = 2
    elif danger == 5 or len(hand) <= 6:
        mode = 3
    else:
        mode = 4
    fkey = (hand, last, laizi, mode)
    if fkey in _FOLLOW:
        return _FOLLOW[fkey]
    return _remember(_FOLLOW, fkey, _follow(hand, last, laizi, mode))  # type: ignore[no-any-return]


def _lead(hand: str, laizi: str | None, one_card_opponent: bool, feed: int) -> str:
    """The lead; ``feed`` is the farmer partner's card count when it is 1 or 2 (and the
    landlord has more): then the lowest single (or, for two cards, the lowest pair) goes."""
    plays = legal_plays(hand, None, laizi)
    n = len(hand)
    for play in plays:
        if len(play.partition("/")[0]) == n:
            return play
    if feed:
        for size in (2, 1) if feed == 2 else (1,):
            for play in plays:
                if "/" not in play and len(play) == size and play == play[0] * size:
                    return play
    low = hand[0]
    best = None
    best_len = -1
    for play in plays:
        cards = play.partition("/")[0]
        if cards[0] != low or not _plain(play, laizi):
            continue
        size = len(cards)
        if one_card_opponent and size == 1:
            size = 0  # a lone single into a one-card opponent: last resort
        if size > best_len:
            best, best_len = play, size
    if best is None:
        return plays[0]
    if best_len == 0:
        singles = [p for p in plays if len(p.partition("/")[0]) == 1]
        return singles[-1]
    return best


def _follow(hand: str, last: str, laizi: str | None, mode: int) -> str | None:
    """mode 0 partner's trick, 1 opponent ≤ 2 cards, 2 opponent ≤ 4 (bombs allowed),
    3 opponent at 5 or a short hand, 4 otherwise (no 2 or joker on a low play)."""
    plays = legal_plays(hand, last, laizi)
    n = len(hand)
    for play in plays:
        if play != "pass" and len(play.partition("/")[0]) == n:
            return play
    if mode == 0:
        return None
    beat = [p for p in plays if p != "pass"]
    if not beat:
        return None
    plain = [p for p in beat if _plain(p, laizi)]
    if plain:
        if mode == 1:
            return plain[-1]
        choice = plain[0]
        if (
            mode == 4
            and IDX[choice.partition("/")[0][-1]] >= TWO
            and play_info(last, laizi)[1] < TWO - 2
        ):
            return None
        return choice
    if mode <= 2:
        return beat[0]
    return None


def rollout(sim: Sim, limit: int = 200) -> int:
    """Play to the end with the fast policy; the winner's seat."""
    for _ in range(limit):
        won = sim.move(fast_move(sim))
        if won is not None:
            return won
    return sim.landlord  # unreachable in practice (every trick ends)


class OutOfNodes(Exception):
    """The endgame solver's node count is spent."""


class Solver:
    """Exact endgame search (殘局): a perfect-information win / loss solver, every hand open.

    The landlord's side plays against the farmers', each seat its side's best; plays that empty
    the hand come first, then the fast policy's choice, then the rest weakest first, and the
    side to move stops at its first winning play. Positions are memoised in a table that lives
    for one decision, and the work is bounded by a count of positions expanded (not by time),
    so a decision depends on its inputs alone and a replay reproduces it.
    """

    def __init__(self, nodes: int) -> None:
        self.nodes_left = nodes
        self.table: dict[tuple[str, str, str, int, str | None, int], bool] = {}

    def solve(self, sim: Sim) -> bool | None:
        """Whether the landlord's side wins ``sim`` with best play on both sides; ``None`` when
        the node count ran out first. ``sim`` is not changed."""
        try:
            return self._value(sim)
        except OutOfNodes:
            return None

    def _value(self, sim: Sim) -> bool:
        h0, h1, h2 = sim.hands
        key = (h0, h1, h2, sim.turn, sim.lead, sim.passes)
        got = self.table.get(key)
        if got is not None:
            return got
        if self.nodes_left <= 0:
            raise OutOfNodes
        self.nodes_left -= 1
        seat = sim.turn
        mover_is_landlord = seat == sim.landlord
        hand = sim.hands[seat]
        plays = legal_plays(hand, sim.lead, sim.laizi)
        n = len(hand)
        for play in plays:  # going out ends the hand at once
            if play != "pass" and len(play.partition("/")[0]) == n:
                self.table[key] = mover_is_landlord
                return mover_is_landlord
        first = fast_move(sim)
        ordered: list[str | None] = [first]
        for play in plays:
            move = None if play == "pass" else play
            if move != first:
                ordered.append(move)
        result = not mover_is_landlord  # unless one of his plays wins for his side
        for move in ordered:
            child = sim.copy()
            child.move(move)
            if self._value(child) == mover_is_landlord:
                result = mover_is_landlord
                break
        self.table[key] = result
        return result


def decision_seed(st: Any, seat: int) -> int:
    """A seed from the hand's seed and this decision's place in the hand."""
    place = (
        st.seed,
        st.deal_no,
        seat,
        tuple(len(h) for h in st.hands),
        st.passes,
        tuple(st.played),
    )
    return int.from_bytes(hashlib.sha256(repr(place).encode()).digest()[:8], "big")


def unseen_and_known(st: Any, seat: int) -> tuple[list[int], list[list[int]]]:
    """The cards this seat cannot place, and per seat the cards it knows that seat holds."""
    seen = [0] * 15
    known = [[0] * 15 for _ in range(3)]
    for ch in st.hands[seat] + "".join(st.played):
        seen[IDX[ch]] += 1
    for s in range(3):
        if s == seat:
            continue
        if st.mingpai[s]:
            for ch in st.hands[s]:
                known[s][IDX[ch]] += 1
        elif s == st.landlord and st.dipai:
            played = [0] * 15
            for ch in st.played[s]:
                played[IDX[ch]] += 1
            for ch in set(st.dipai):
                r = IDX[ch]
                known[s][r] = max(0, st.dipai.count(ch) - played[r])
    unseen = [FULL[r] - seen[r] - known[0][r] - known[1][r] - known[2][r] for r in range(15)]
    return unseen, known


def sample_hands(st: Any, seat: int, rng: random.Random) -> list[str]:
    """One determinisation: the other seats' hands, consistent with all this seat has seen."""
    unseen, known = unseen_and_known(st, seat)
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


def search(
    st: Any,
    seat: int,
    candidates: list[str | None],
    work: int = 6000,
    max_samples: int = 48,
    hard_ms: float = 150.0,
    endgame_cards: int = 0,
    endgame_nodes: int = 0,
) -> str | None:
    """The candidate (play string, ``None`` = pass) that wins the most sampled play-outs.

    ``work`` bounds the simulated plays (about cards left × candidates × samples); the first
    candidate is the heuristic's own and wins ties. With at most ``endgame_cards`` cards left
    in the three hands, each sample is solved exactly (:class:`Solver`, ``endgame_nodes``
    positions for the whole decision) and played out only once that count is spent.
    """
    if len(candidates) < 2:
        return candidates[0] if candidates else None
    left = sum(len(h) for h in st.hands)
    solver = Solver(endgame_nodes) if left <= endgame_cards and endgame_nodes > 0 else None
    per_sample = max(1, len(candidates) * left)
    samples = max(2, min(max_samples, work // per_sample))
    rng = random.Random(decision_seed(st, seat))
    time_up = budget.deadline_after(hard_ms)
    lead = None
    lead_seat = -1
    if st.lead is not None:
        lead_seat = st.lead["seat"]
        lead = (
            st.lead["cards"]
            if st.lead["cards"] == st.lead["reading"]
            else (f"{st.lead['cards']}/{st.lead['reading']}")
        )
    landlord = st.landlord
    wins = [0] * len(candidates)
    for _ in range(samples):
        hands = sample_hands(st, seat, rng)
        base = Sim(hands, landlord, seat, st.laizi, lead, lead_seat, st.passes, list(st.played))
        for i, cand in enumerate(candidates):
            sim = base.copy()
            won = sim.move(cand)
            if won is None:
                exact = solver.solve(sim) if solver is not None else None
                if exact is not None:
                    wins[i] += exact == (seat == landlord)
                    continue
                won = rollout(sim)
            if (won == landlord) == (seat == landlord):
                wins[i] += 1
        if time_up():
            break
    best = 0
    for i in range(1, len(candidates)):
        if wins[i] > wins[best]:
            best = i
    return candidates[best]


def _bid_seed(st: Any, seat: int) -> int:
    place = (st.seed, st.deal_no, seat, st.phase, "bid")
    return int.from_bytes(hashlib.sha256(repr(place).encode()).digest()[:8], "big")


def landlord_chance(st: Any, seat: int, samples: int = 24) -> float:
    """How often this seat's side wins the sampled play-outs if ``seat`` is (bidding, robbing)
    or stays (加倍) landlord, or, for a farmer in 加倍, the farmers' side.

    Before the 底牌 are shown they are drawn with the other hands from the cards this seat has
    not seen (shown 明牌 hands stay where they are); the landlord leads and the fast policy plays
    every seat. Seeded from the hand's seed, the seat and the phase.
    """
    rng = random.Random(_bid_seed(st, seat))
    landlord = seat if st.landlord is None else st.landlord
    wins = 0
    for _ in range(samples):
        if st.landlord is None:
            hands = _sample_before_dipai(st, seat, rng)
        else:
            hands = sample_hands(st, seat, rng)
        won = rollout(Sim(hands, landlord, landlord, st.laizi))
        wins += (won == landlord) == (seat == landlord)
    return wins / samples


def _sample_before_dipai(st: Any, seat: int, rng: random.Random) -> list[str]:
    """Hands with ``seat`` as landlord: his 17 cards and 3 drawn 底牌, the others drawn."""
    seen = [0] * 15
    shown = [s for s in range(3) if s != seat and st.mingpai[s]]
    for ch in st.hands[seat] + "".join(st.hands[s] for s in shown):
        seen[IDX[ch]] += 1
    pool = [RANKS[r] for r in range(15) for _ in range(FULL[r] - seen[r])]
    rng.shuffle(pool)
    hands = [""] * 3
    at = 0
    for s in range(3):
        if s in shown:
            hands[s] = st.hands[s]
        elif s != seat:
            hands[s] = "".join(pool[at : at + 17])
            at += 17
    hands[seat] = st.hands[seat] + "".join(pool[at : at + 3])
    return ["".join(sorted(h, key=IDX.__getitem__)) for h in hands]
