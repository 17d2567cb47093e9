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
pair. In the landlord's search the farmers of the play-outs may be greedy instead (``Sim.greedy``,
per seat, as :func:`bot.greedy_seats` reads the hand's public moves): such a farmer beats any
play he can with his lowest plain play, his partner's too.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from games.engine import budget
from games.rules.doudizhu import patterns
from games.rules.doudizhu.patterns import IDX, RANKS, TWO, classify, legal_plays

# The fast policy and its play-outs in C (_movegen.c: fast_play, rollout), when the extension is
# built: the same plays and winners as the Python functions below, which stay the reference and
# run when it is not (or NATIVE is set to False: tests, benchmarks) or when the C code declines
# a position (it answers None then).
_native: Any = getattr(patterns, "_native", None)
_native = _native if hasattr(_native, "rollout") else None
NATIVE = _native is not None
_LAIZI_RANK = {RANKS[r]: r for r in range(13)}

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
    greedy: int = 0  # bit s set: farmer s beats any play he can (:func:`_fast`)

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
            self.greedy,
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
        hand = self.hands[seat] = _take(self.hands[seat], play)
        self.played[seat] += play.partition("/")[0]
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
    greedy = bool(sim.greedy >> sim.turn & 1)
    return _fast(sim.hands, sim.landlord, sim.turn, sim.laizi, sim.lead, sim.lead_seat, greedy)


def _fast(
    hands: list[str] | tuple[str, ...],
    ll: int,
    seat: int,
    laizi: str | None,
    last: str | None,
    lead_seat: int,
    greedy: bool = False,
) -> str | None:
    """:func:`fast_move` on the position's parts (the solver has no :class:`Sim`).

    ``greedy``: the farmers follow as a greedy player does, with the lowest plain play that
    beats, whoever made the play to beat (the partner too) and spending 2s and jokers on low
    plays (the model the landlord's search makes of its farmers, :func:`search`).
    """
    hand = hands[seat]
    if seat == ll:
        danger = min(len(hands[(seat + 1) % 3]), len(hands[(seat + 2) % 3]))
    else:
        danger = len(hands[ll])
    if last is None:
        feed = 0
        if seat != ll and danger > 2:
            feed = len(hands[3 - seat - ll])
            feed = feed if feed <= 2 else 0
        key = (hand, laizi, danger == 1, feed)
        got = _LEAD.get(key)
        if got is None:
            got = _remember(_LEAD, key, _lead(hand, laizi, danger == 1, feed))
        return got
    if seat != ll and lead_seat != ll:
        mode = 5 if greedy else 0  # the partner's trick: only go out (greedy: beat it)
    elif danger <= 2:
        mode = 1
    elif danger <= 4 or len(hands[lead_seat]) <= 4:
        mode = 2
    elif danger == 5 or len(hand) <= 6:
        mode = 3
    else:
        mode = 3 if greedy and seat != ll else 4
    fkey = (hand, last, laizi, mode)
    if fkey in _FOLLOW:
        return _FOLLOW[fkey]
    return _remember(_FOLLOW, fkey, _follow(hand, last, laizi, mode))  # type: ignore[no-any-return]


def _lead(hand: str, laizi: str | None, one_card_opponent: bool, feed: int) -> str:
    """The lead; ``feed`` is the farmer partner's card count when it is 1 or 2 (and the
    landlord has more): then the lowest single (or, for two cards, the lowest pair) goes."""
    if NATIVE:
        lz = -1 if laizi is None else _LAIZI_RANK.get(laizi)
        if lz is not None:
            got: str | None = _native.fast_play(hand, None, lz, 0, int(one_card_opponent), feed)
            if got:
                return got
    return _lead_py(hand, laizi, one_card_opponent, feed)


def _lead_py(hand: str, laizi: str | None, one_card_opponent: bool, feed: int) -> str:
    """:func:`_lead` in Python (the reference of the C code)."""
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
    3 opponent at 5 or a short hand, 4 otherwise (no 2 or joker on a low play), 5 a greedy
    farmer on his partner's trick (the lowest plain play that beats, else pass)."""
    if NATIVE:
        lz = -1 if laizi is None else _LAIZI_RANK.get(laizi)
        if lz is not None:
            got: str | None = _native.fast_play(hand, last, lz, mode, 0, 0)
            if got is not None:
                return got or None
    return _follow_py(hand, last, laizi, mode)


def _follow_py(hand: str, last: str, laizi: str | None, mode: int) -> str | None:
    """:func:`_follow` in Python (the reference of the C code)."""
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
    if mode == 5:
        return plain[0] if plain else None
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
    """Play to the end with the fast policy; the winner's seat. In C when it is built (``sim``
    is then left as it was), else :func:`rollout_py`."""
    if NATIVE:
        lz = -1 if sim.laizi is None else _LAIZI_RANK.get(sim.laizi)
        if lz is not None:
            won: int | None = _native.rollout(
                sim.hands,
                sim.landlord,
                sim.turn,
                lz,
                sim.lead,
                sim.lead_seat,
                sim.passes,
                sim.greedy,
                limit,
            )
            if won is not None:
                return won
    return rollout_py(sim, limit)


def rollout_py(sim: Sim, limit: int = 200) -> int:
    """:func:`rollout` in Python (the reference of the C code); plays on ``sim``."""
    for _ in range(limit):
        won = sim.move(fast_move(sim))
        if won is not None:
            return won
    return sim.landlord  # unreachable in practice (every trick ends)


def new_table() -> Any:
    """An empty memo for :class:`Solver`: the C solver's when it is built, else a dict."""
    return _native.solver_table() if NATIVE else {}


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
        # the memo: C's (_movegen.solve, same search, same table) when built, else a dict; the
        # C table becomes the dict it stands for if the C code declines a position
        self.table: Any = new_table()

    def solve(self, sim: Sim) -> bool | None:
        """Whether the landlord's side wins ``sim`` with best play on both sides; ``None`` when
        the node count ran out first. ``sim`` is not changed."""
        if not isinstance(self.table, dict):
            lz = -1 if sim.laizi is None else _LAIZI_RANK.get(sim.laizi)
            if lz is not None:
                got: tuple[bool | None, int] | None = _native.solve(
                    self.table,
                    sim.hands,
                    sim.turn,
                    sim.lead,
                    sim.lead_seat,
                    sim.passes,
                    sim.landlord,
                    lz,
                    self.nodes_left,
                )
                if got is not None:
                    value, self.nodes_left = got
                    return value
            self.table = _native.solver_items(self.table)
        try:
            return self._value(sim)
        except OutOfNodes:
            return None

    def _value(self, sim: Sim) -> bool:
        return self._node(
            sim.hands[0],
            sim.hands[1],
            sim.hands[2],
            sim.turn,
            sim.lead,
            sim.lead_seat,
            sim.passes,
            sim.landlord,
            sim.laizi,
        )

    def _node(
        self,
        h0: str,
        h1: str,
        h2: str,
        seat: int,
        lead: str | None,
        lead_seat: int,
        passes: int,
        ll: int,
        laizi: str | None,
    ) -> bool:
        """The value of one position, its parts passed apart (no :class:`Sim` is built)."""
        key = (h0, h1, h2, seat, lead, passes)
        got: bool | None = self.table.get(key)
        if got is not None:
            return got
        if self.nodes_left <= 0:
            raise OutOfNodes
        self.nodes_left -= 1
        mover_is_landlord = seat == ll
        hands = (h0, h1, h2)
        hand = hands[seat]
        moves, out = _moves(hand, lead, laizi)
        if out:  # going out ends the hand at once
            self.table[key] = mover_is_landlord
            return mover_is_landlord
        first = _fast(hands, ll, seat, laizi, lead, lead_seat)
        nxt = (seat + 1) % 3
        result = not mover_is_landlord  # unless one of his plays wins for his side
        for move in (first, *[m for m in moves if m != first]):
            if move is None:
                if passes == 1:
                    value = self._node(h0, h1, h2, lead_seat, None, -1, 0, ll, laizi)
                else:
                    value = self._node(h0, h1, h2, nxt, lead, lead_seat, passes + 1, ll, laizi)
            else:
                rest = _take(hand, move)
                if seat == 0:
                    value = self._node(rest, h1, h2, nxt, move, 0, 0, ll, laizi)
                elif seat == 1:
                    value = self._node(h0, rest, h2, nxt, move, 1, 0, ll, laizi)
                else:
                    value = self._node(h0, h1, rest, nxt, move, 2, 0, ll, laizi)
            if value == mover_is_landlord:
                result = mover_is_landlord
                break
        self.table[key] = result
        return result


_MOVES: dict[tuple[str, str | None, str | None], tuple[list[str | None], bool]] = {}
_TAKE: dict[tuple[str, str], str] = {}


def _moves(hand: str, lead: str | None, laizi: str | None) -> tuple[list[str | None], bool]:
    """The legal moves (``None`` = pass, weakest first, as :func:`legal_plays` orders them) and
    whether one of them empties the hand; cached."""
    key = (hand, lead, laizi)
    got = _MOVES.get(key)
    if got is None:
        plays = legal_plays(hand, lead, laizi)
        n = len(hand)
        out = any(p != "pass" and len(p.partition("/")[0]) == n for p in plays)
        got = _remember(_MOVES, key, ([None if p == "pass" else p for p in plays], out))
    return got


def _take(hand: str, play: str) -> str:
    """``hand`` less the cards of ``play``; cached."""
    key = (hand, play)
    got = _TAKE.get(key)
    if got is None:
        got = hand
        for ch in play.partition("/")[0]:
            got = got.replace(ch, "", 1)
        _remember(_TAKE, key, got)
    return got


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


def pass_limits(st: Any, seat: int) -> list[list[str]]:
    """Per other seat, the plays of *its opponents* it passed on (``st.passed_on``): the plays it
    is taken to have held nothing of the same kind to beat. A pass on the partner's play says
    nothing (a farmer lets his partner's trick run) and is not read."""
    passed = getattr(st, "passed_on", None) or [[], [], []]
    out: list[list[str]] = [[], [], []]
    for s in range(3):
        if s == seat:
            continue
        for item in passed[s]:
            who, _, play = item.partition(":")
            if (int(who) == st.landlord) != (s == st.landlord):
                out[s].append(play)
    return out


_CAP_BY_KIND = {"single": 0, "pair": 1, "trio": 2}


def _caps(limits: list[str], laizi: str | None) -> tuple[list[int], list[str]]:
    """Per rank the most cards a seat that passed on ``limits`` may hold (a pass on a single,
    pair or trio caps every higher rank below one, two or three cards), and the passed plays
    that are checked whole (:func:`_beats_any`) instead: chains, trios with kickers, planes.
    A pass on a bomb is not read (a bomb is often kept back)."""
    cap = [4] * 15
    checked: list[str] = []
    for play in limits:
        kind, rank, tier = play_info(play, laizi)
        if tier or not kind:
            continue
        most = _CAP_BY_KIND.get(kind)
        if most is None:
            checked.append(play)
            continue
        for r in range(rank + 1, 15 if kind == "single" else TWO + 1):
            cap[r] = min(cap[r], most)
    return cap, checked


def _beats_any(hand: str, plays: list[str], laizi: str | None) -> int:
    """How many of ``plays`` the sorted ``hand`` could beat with a play of the same kind."""
    bad = 0
    for play in plays:
        kind = play_info(play, laizi)[0]
        for answer in legal_plays(hand, play, laizi):
            if answer != "pass" and play_info(answer, laizi)[0] == kind:
                bad += 1
                break
    return bad


def sample_hands(
    st: Any,
    seat: int,
    rng: random.Random,
    infer: bool = False,
    tries: int = 6,
    dealer: Dealer | None = None,
) -> list[str]:
    """One determinisation: the other seats' hands, consistent with all this seat has seen.

    With ``infer`` the passes are read too (:func:`pass_limits`): the hidden cards are dealt
    highest rank first, each to a seat with room for it (chosen in proportion to the cards it
    still needs, which without limits is a uniform deal), and a deal that breaks a limit anyway
    is dealt again, up to ``tries`` times (then the one that breaks the fewest is kept: a
    player may pass on a play he could beat). ``dealer``: the :class:`Dealer` of these
    arguments, made once for a decision's samples (the same hands, less work).
    """
    if dealer is None:
        dealer = Dealer(st, seat, infer, tries)
    return dealer.deal(rng)


class Dealer:
    """:func:`sample_hands` for one decision: what is the same for every sample (the unseen
    cards, the known ones, the limits read from the passes) worked out once; :meth:`deal`
    draws exactly the random numbers the one-off deal did, so the samples are the same."""

    def __init__(self, st: Any, seat: int, infer: bool = False, tries: int = 6) -> None:
        unseen, known = unseen_and_known(st, seat)
        hidden = [s for s in range(3) if s != seat]
        limits = pass_limits(st, seat) if infer else [[], [], []]
        self.seat = seat
        self.own = st.hands[seat]
        self.laizi = st.laizi
        self.tries = tries
        self.plain = not any(limits[s] for s in hidden)
        self.hidden = hidden
        self.known = known
        self.need = [len(st.hands[s]) - sum(known[s]) for s in range(3)]
        if self.plain:  # _plain_deal's pool, hands and the seat's own sorted hand
            self.pool = [RANKS[r] for r in range(15) for _ in range(max(0, unseen[r]))]
            self.known_str = [
                "".join([RANKS[r] * known[s][r] for r in range(15)]) for s in range(3)
            ]
            self.own_sorted = "".join(sorted(self.own, key=IDX.__getitem__))
            return
        self.caps: dict[int, list[int]] = {}
        self.checked: dict[int, list[str]] = {}
        for s in hidden:
            self.caps[s], self.checked[s] = _caps(limits[s], st.laizi)
        self.total = sum(self.need[s] for s in hidden)
        # the pool of ranks, highest first (a rank index per card)
        self.ranks = [r for r in range(14, -1, -1) for _ in range(max(0, unseen[r]))]

    def deal(self, rng: random.Random) -> list[str]:
        """One sample of the other seats' hands."""
        if self.plain:
            return self._plain(rng)
        a, b = self.hidden
        cap_a, cap_b = self.caps[a], self.caps[b]
        best: list[str] | None = None
        best_bad = 1 << 30
        for _ in range(self.tries):
            pool = self.ranks[:]
            if len(pool) > self.total:  # a real hand has exactly the cards needed; a test may not
                rng.shuffle(pool)
                pool = sorted(pool[: self.total], reverse=True)
            count_a, count_b = self.known[a][:], self.known[b][:]
            need_a, need_b = self.need[a], self.need[b]
            bad = 0
            # within a rank the order does not matter; across ranks, highest (most limited)
            # first; a seat is drawn in proportion to the cards it still needs
            for r in pool:
                room_a = need_a > 0 and count_a[r] < cap_a[r]
                room_b = need_b > 0 and count_b[r] < cap_b[r]
                if not room_a and not room_b:
                    room_a, room_b = need_a > 0, need_b > 0
                    bad += 1
                if room_a and room_b:
                    to_a = rng.randrange(need_a + need_b) < need_a
                elif room_a or room_b:
                    to_a = room_a
                else:
                    raise ValueError("more hidden cards than the hands hold")
                if to_a:
                    count_a[r] += 1
                    need_a -= 1
                else:
                    count_b[r] += 1
                    need_b -= 1
            hands = [""] * 3
            hands[self.seat] = self.own
            # the known cards and the dealt ones, sorted: each rank's count of them
            hands[a] = "".join([RANKS[r] * count_a[r] for r in range(15)])
            hands[b] = "".join([RANKS[r] * count_b[r] for r in range(15)])
            for s in (a, b):
                if self.checked[s]:
                    bad += _beats_any(hands[s], self.checked[s], self.laizi)
            if bad < best_bad:
                best, best_bad = hands, bad
                if bad == 0:
                    break
        assert best is not None
        return best

    def _plain(self, rng: random.Random) -> list[str]:
        pool = self.pool[:]
        rng.shuffle(pool)
        hands = [""] * 3
        hands[self.seat] = self.own_sorted
        at = 0
        for s in self.hidden:
            need = self.need[s]
            dealt = self.known_str[s] + "".join(pool[at : at + need])
            hands[s] = "".join(sorted(dealt, key=IDX.__getitem__))
            at += need
        return hands


def search(
    st: Any,
    seat: int,
    candidates: list[str | None],
    work: int = 6000,
    max_samples: int = 48,
    hard_ms: float = 150.0,
    endgame_cards: int = 0,
    endgame_nodes: int = 0,
    infer: bool = False,
    bounded: bool = False,
    greedy_farmers: int = 0,
) -> str | None:
    """The candidate (play string, ``None`` = pass) that wins the most sampled play-outs.

    ``work`` bounds the simulated plays (about cards left × candidates × samples); the first
    candidate is the heuristic's own and wins ties. With at most ``endgame_cards`` cards left
    in the three hands, each sample is solved exactly (:class:`Solver`, ``endgame_nodes``
    positions for the whole decision) and played out only once that count is spent.

    ``bounded`` (:func:`_bounded_search`): the same samples, evaluated one candidate at a time,
    each stopped as soon as it can no longer beat the best before it; ``greedy_farmers`` (bounded
    only): a mask of seats (bit s: seat s) whose play-out farmers follow greedily, partner's
    plays too (:func:`_fast`).
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
    if bounded:
        return _bounded_search(
            st,
            seat,
            candidates,
            samples,
            rng,
            time_up,
            lead,
            lead_seat,
            infer,
            endgame_nodes if solver is not None else 0,
            greedy_farmers,
        )
    wins = [0] * len(candidates)
    dealer = Dealer(st, seat, infer)
    for _ in range(samples):
        hands = sample_hands(st, seat, rng, infer, 6, dealer)
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


def _bounded_search(
    st: Any,
    seat: int,
    candidates: list[str | None],
    samples: int,
    rng: random.Random,
    time_up: Any,
    lead: str | None,
    lead_seat: int,
    infer: bool,
    nodes: int,
    greedy_farmers: int = 0,
) -> str | None:
    """:func:`search`'s choice, evaluated candidate by candidate on one set of samples.

    The samples are dealt as the first candidate needs them; each candidate, in order, is
    played out (or solved) on them, and abandoned as soon as winning every sample it has left
    would not lift it above the best candidate before it (a tie keeps the earlier one, as in
    :func:`search`), so a dominated candidate costs little and one that cannot be beaten ends
    the search. The endgame's positions are shared out: each candidate may expand the
    positions left over divided by the candidates left (the transposition table is shared),
    so no candidate is judged by play-outs where another was solved exactly. Deterministic:
    nothing here depends on time, except the wall-clock cap (checked after every sample),
    which keeps the best fully judged candidate (the first, the heuristic's, if none is).
    """
    landlord = st.landlord
    mine = seat == landlord
    bases: list[Sim] = []
    table = new_table()
    dealer: Dealer | None = None
    best, best_wins = 0, -1
    for i, cand in enumerate(candidates):
        solver = None
        if nodes > 0:
            solver = Solver(nodes // (len(candidates) - i))
            solver.table = table
            given = solver.nodes_left
        wins = 0
        for k in range(samples):
            if wins + samples - k <= best_wins:
                break  # cannot overtake the best so far (a tie keeps the earlier one)
            if k and time_up():
                return candidates[best]
            if k == len(bases):  # only the first candidate gets here: deal the next sample
                if dealer is None:
                    dealer = Dealer(st, seat, infer)
                hands = sample_hands(st, seat, rng, infer, 6, dealer)
                bases.append(
                    Sim(
                        hands,
                        landlord,
                        seat,
                        st.laizi,
                        lead,
                        lead_seat,
                        st.passes,
                        list(st.played),
                        greedy_farmers,
                    )
                )
            sim = bases[k].copy()
            won = sim.move(cand)
            if won is None:
                exact = solver.solve(sim) if solver is not None else None
                if exact is not None:
                    wins += exact == mine
                    continue
                won = rollout(sim)
            wins += (won == landlord) == mine
        if solver is not None:
            nodes -= given - max(0, solver.nodes_left)
            table = solver.table  # a C table may have turned into the dict it stood for
        if wins > best_wins:
            best, best_wins = i, wins
        if best_wins == samples or time_up():
            break  # nothing after can do better than winning every sample
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
