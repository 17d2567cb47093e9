"""A heuristic 斗地主 bot (issue 2 item 10, issue 3 item 5).

It sees only what the seat's view shows (own hand, counts, plays, roles). The core is a quick
estimate of how many plays a hand needs to go out (:func:`hand_cost`: rocket, bombs, trio chains
and trios with their kickers, chains, pair chains, pairs, singles — the best of a few greedy
orders). Then:

* Bidding: a strength score (jokers, 2s, aces, bombs, few plays needed) decides 叫 / 搶 / 加倍 /
  倒拉壘沃 / 明牌; 悶抓 only with nothing to lose is never done (it always looks first).
* Leading: go out if one play empties the hand; else the play that leaves the cheapest hand,
  keeping bombs and the rocket, lowest rank first (so low singles and pairs that fit nowhere go
  first, chains are played out whole); if an opponent has one card left, no low single.
* Following: never beat the partner's play (a farmer lets the other farmer's trick run) unless
  it ends the hand; beat an opponent with the cheapest play that does not break the hand; use a
  bomb only when an opponent is close to going out or the bomb nearly finishes the hand.
* Either way, a sure finish first: a play that nothing the other seats may hold between them
  (the deck less this hand and every play so far) can beat, leaving one play. A farmer feeds a
  partner down to one or two cards his lowest single or pair; against an opponent with two
  cards or fewer it beats, and leads singles or pairs, as high as it can.
"""

from __future__ import annotations

from typing import Any

from games.rules.doudizhu import bot_search
from games.rules.doudizhu.patterns import (
    ACE,
    BIG,
    IDX,
    RANKS,
    SMALL,
    TWO,
    all_readings,
    classify,
    counts_of,
    legal_plays,
)


def _chain_runs(c: list[int], per: int, minimum: int) -> tuple[int, int] | None:
    """The longest run (start, length) of ranks 3…A with count ≥ per, if ≥ minimum."""
    best = None
    run = 0
    for r in range(ACE + 1):
        run = run + 1 if c[r] >= per else 0
        if run >= minimum and (best is None or run > best[1]):
            best = (r - run + 1, run)
    return best


def _rest_cost(c: list[int]) -> int:
    """Plays needed for trios, pairs and singles, with trios carrying kickers."""
    groups = 0
    kick_slots = 0
    r = 0
    while r <= TWO:
        if c[r] >= 3:
            length = 1
            while r + length <= ACE and c[r + length] >= 3 and r + length - 1 < ACE:
                length += 1
            if r + length - 1 > ACE:
                length = 1
            groups += 1
            kick_slots += length
            r += length
        else:
            r += 1
    pairs = sum(1 for x in range(13) if c[x] == 2)
    singles = sum(1 for x in range(15) if c[x] == 1)
    if c[SMALL] and c[BIG]:
        singles -= 2
        groups += 1
    loose = pairs + singles
    return groups + max(0, loose - kick_slots)


_COST_CACHE: dict[tuple[bytes, int], int] = {}


def hand_cost(c: list[int], wild: int = 0) -> int:
    """Roughly how many plays the hand needs (bombs and the rocket count one each); cached."""
    key = (bytes(c), wild)
    got = _COST_CACHE.get(key)
    if got is None:
        if len(_COST_CACHE) > 200_000:
            _COST_CACHE.clear()
        got = _COST_CACHE[key] = _hand_cost(c, wild)
    return got


def _hand_cost(c: list[int], wild: int = 0) -> int:
    c = c[:]
    cost = 0
    for r in range(13):
        if c[r] == 4:
            cost += 1
            c[r] = 0
    best = _rest_cost(c)
    # try taking chains / pair chains greedily in two orders
    for order in ((1, 2), (2, 1)):
        d = c[:]
        extra = 0
        for per in order:
            while True:
                run = _chain_runs(d, per, 5 if per == 1 else 3)
                if run is None:
                    break
                start, length = run
                for x in range(start, start + length):
                    d[x] -= per
                extra += 1
        best = min(best, extra + _rest_cost(d))
    return max(1 if any(c) or cost == 0 else 0, cost + best - wild)


def strength(hand: str) -> float:
    c = counts_of(hand)
    score = 0.0
    score += 4 * c[BIG] + 3 * c[SMALL] + 2 * c[TWO] + 0.5 * c[ACE]
    if c[SMALL] and c[BIG]:
        score += 2
    score += 5 * sum(1 for r in range(13) if c[r] == 4)
    score += max(0, 9 - hand_cost(c)) * 0.8
    return score


def _action(play: str) -> dict[str, Any]:
    cards, _, reading = play.partition("/")
    out: dict[str, Any] = {"type": "play", "cards": cards}
    if reading:
        out["as"] = reading
    return out


def _after(hand_c: list[int], cards: str) -> list[int]:
    c = hand_c[:]
    for ch in cards:
        c[IDX[ch]] -= 1
    return c


def choose(ruleset: Any, st: Any, seat: int, *, quick: bool = False) -> dict[str, Any]:
    """The bot's action; ``quick``: as 新手場's bot, without any sampled search (the clock's
    fallback when a decision runs past its budget)."""
    phase = st.phase
    hand = st.hands[seat]
    if phase == "start":
        return {"type": "start", "mingpai": False}
    if phase == "dealing":
        if strength(hand) >= 16:
            return {"type": "mingpai", "dealt": 17}
        return {"type": "ready"}
    s = strength(hand)
    novice = quick or getattr(st.config, "bot_level", "normal") == "novice"
    sampled = BID_SEARCH and not novice
    if phase == "bidding":
        if st.variant == "menzhua" and not st.looked[seat]:
            return {"type": "look"}
        if sampled:
            return {"type": "bid", "call": bot_search.landlord_chance(st, seat) >= BID_CALL}
        return {"type": "bid", "call": s >= 7}
    if phase == "robbing":
        if sampled:
            return {"type": "rob", "rob": bot_search.landlord_chance(st, seat) >= BID_ROB}
        return {"type": "rob", "rob": s >= 10}
    if phase == "doubling":
        if sampled:
            chance = bot_search.landlord_chance(st, seat)
            return {"type": "double", "double": chance >= BID_DOUBLE}
        return {"type": "double", "double": s >= (11 if seat == st.landlord else 9)}
    if phase == "dou":
        if seat == st.landlord:
            farmer = next(f for f in range(3) if f != seat and st.dou_open[f] and st.dou[f] % 2)
            return {"type": "dou", "farmer": farmer, "dou": s >= 12}
        return {"type": "dou", "dou": s >= 10}
    if phase == "playing":
        return _play(ruleset, st, seat, search=not novice)
    fallback: dict[str, Any] = ruleset.auto_action(st, seat)
    return fallback


SEARCH_LEAD = 5  # candidates searched when leading
SEARCH_FOLLOW = 3  # beating plays searched when following (with pass and the bombs)
SEARCH_WORK = 3000  # simulated plays per decision (bot_search.search)
SEARCH_CAP_MS = 150.0  # wall-clock cap of one search: the one load-dependent part
# 叫 / 搶 / 加倍 from sampled play-outs (bot_search.landlord_chance): the share of samples the
# seat's side must win. Off: in self-play (bench/doudizhu_bot_bidding.py, 100 deals) it robbed
# four times as often and its landlords won no more often than with the strength score's
# thresholds, which decide (and always do in 新手場).
BID_SEARCH = False
BID_CALL, BID_ROB, BID_DOUBLE = 0.5, 0.6, 0.65
PARTNER_SEARCH = False  # overtaking the partner when the search says so: no gain measured
# 殘局: with at most ENDGAME_CARDS cards left in the three hands the search solves each sample
# exactly (bot_search.Solver, ENDGAME_NODES positions a decision) among up to ENDGAME_WIDTH
# candidates, and a farmer may overtake his partner's trick when the solver says so.
ENDGAME_CARDS = 20
ENDGAME_NODES = 20_000
ENDGAME_WIDTH = 8
# reading the opponents' passes when dealing the samples (bot_search.pass_limits), per role
INFER_LANDLORD = True
INFER_FARMER = False
# the landlord's search judges one candidate at a time and drops those that cannot win
# (bot_search._bounded_search); the farmers' search is unchanged
BOUNDED_LANDLORD = True
# the landlord's own search work, sample cap and endgame (the farmers' are the ones above)
LANDLORD_WORK = 3000
LANDLORD_SAMPLES = 48
LANDLORD_ENDGAME_CARDS = 20
LANDLORD_ENDGAME_NODES = 20_000
# the landlord's play-outs may model a farmer as a greedy follower: he beats any play he can
# with his lowest plain play, his partner's too, 2s and jokers included (as RLCard's rule agent
# and many casual players do; docs/performance.md, 4 Dec 2026). 0: never (every farmer
# cooperates, as ours do); 1: always (both farmers greedy); 2: as the hand's public moves say
# (greedy_seats)
LANDLORD_GREEDY_FARMERS = 2


def _search(st: Any, seat: int, candidates: list[str | None]) -> str | None:
    landlord = seat == st.landlord
    return bot_search.search(
        st,
        seat,
        candidates,
        work=LANDLORD_WORK if landlord else SEARCH_WORK,
        max_samples=LANDLORD_SAMPLES if landlord else 48,
        hard_ms=SEARCH_CAP_MS,
        endgame_cards=LANDLORD_ENDGAME_CARDS if landlord else ENDGAME_CARDS,
        endgame_nodes=LANDLORD_ENDGAME_NODES if landlord else ENDGAME_NODES,
        infer=INFER_LANDLORD if seat == st.landlord else INFER_FARMER,
        bounded=BOUNDED_LANDLORD if landlord else False,
        greedy_farmers=_greedy_mask(st) if landlord else 0,
    )


def _greedy_mask(st: Any) -> int:
    """The landlord's model of the farmers (``LANDLORD_GREEDY_FARMERS``), as a mask of seats."""
    if LANDLORD_GREEDY_FARMERS == 2:
        return greedy_seats(st)
    if LANDLORD_GREEDY_FARMERS:
        return sum(1 << s for s in range(3) if s != st.landlord)
    return 0


def greedy_seats(st: Any) -> int:
    """Which farmers play as greedy followers, read from this hand's public moves alone: a mask
    of seats (bit s set: farmer s is taken to be greedy), for the landlord's play-outs.

    It reads ``st.trail`` (every play and pass of the hand, in order, as the table saw them),
    the card counts and the seats' played cards; never a hidden hand. Per farmer it counts:

    * **greedy tells**: he beat his *partner's* play (the play to beat was the other farmer's,
      so passing was allowed and the trick was already his side's) with a play that did not
      empty his hand, while the landlord held more than ``GREEDY_TELL_LANDLORD`` cards (so
      nothing urged him to take the lead from his partner). A cooperative farmer lets his
      partner's trick run; a greedy one beats whatever he can.
    * **cooperative tells**: he passed on his partner's play (not a bomb) although the cards he
      has played since hold a play of the same kind that beats it. Those cards were in his hand
      when he passed, so he could have beaten it and chose not to: a greedy follower never does.

    A farmer is greedy when his greedy tells outnumber his cooperative ones; a farmer with no
    tell of either kind yet is taken to play as his partner does (two bots of one kind, or two
    players of one table, tend to). No tells: cooperative, the model our own farmers fit.
    Deterministic: the same moves give the same answer. (A farmer who beats a play with more
    than he needs is not a tell here: the greedy model plays the lowest beat; over-beating is
    blocking, which a thinking player does, and cannot be told from having nothing lower.)
    """
    ll = st.landlord
    if ll is None:
        return 0
    trail = getattr(st, "trail", None) or []
    left = [len(st.hands[s]) + len(st.played[s]) for s in range(3)]
    greedy = [0, 0, 0]
    cooperative = [0, 0, 0]
    passed: list[tuple[int, int, str]] = []  # (farmer, move index, partner's play) passed on
    later: list[list[tuple[int, str]]] = [[], [], []]  # per seat, (move index, cards played)
    lead: str | None = None
    lead_seat = -1
    passes = 0
    for i, item in enumerate(trail):
        who, _, move = item.partition(":")
        seat = int(who)
        farmer_on_partner = seat != ll and lead is not None and lead_seat not in (ll, seat)
        if move == "pass":
            if farmer_on_partner and lead is not None and not _readings_tier(lead, st.laizi):
                passed.append((seat, i, lead))
            passes += 1
            if passes == 2:
                lead, lead_seat, passes = None, -1, 0
            continue
        cards = move.partition("/")[0]
        left[seat] -= len(cards)
        if farmer_on_partner and left[seat] > 0 and left[ll] > GREEDY_TELL_LANDLORD:
            greedy[seat] += 1
        later[seat].append((i, cards))
        lead, lead_seat, passes = move, seat, 0
    for seat, i, play in passed:
        since = "".join(cards for j, cards in later[seat] if j > i)
        if since and bot_search._beats_any(_sort(since), [play], st.laizi):
            cooperative[seat] += 1
    mask = 0
    farmers = [s for s in range(3) if s != ll]
    own = {s: greedy[s] > cooperative[s] for s in farmers}
    for s in farmers:
        partner = 3 - s - ll
        told = greedy[s] or cooperative[s]
        if own[s] or (not told and own[partner]):
            mask |= 1 << s
    return mask


# a farmer's overtaking of his partner is a greedy tell only while the landlord holds more cards
# than this (:func:`greedy_seats`)
GREEDY_TELL_LANDLORD = 2


def _readings_tier(play: str, laizi: str | None) -> int:
    """The bomb tier of a played move string (0: not a bomb)."""
    return bot_search.play_info(play, laizi)[2]


def _sort(cards: str) -> str:
    return "".join(sorted(cards, key=IDX.__getitem__))


def _endgame(st: Any, seat: int) -> bool:
    if seat == st.landlord:
        cards, nodes = LANDLORD_ENDGAME_CARDS, LANDLORD_ENDGAME_NODES
    else:
        cards, nodes = ENDGAME_CARDS, ENDGAME_NODES
    return nodes > 0 and sum(len(h) for h in st.hands) <= cards


def _top(items: list[Any], n: int) -> list[Any]:
    """The first n distinct items, in order."""
    out: list[Any] = []
    for item in items:
        if item not in out:
            out.append(item)
            if len(out) == n:
                break
    return out


def _play(ruleset: Any, st: Any, seat: int, search: bool = True) -> dict[str, Any]:
    hand = st.hands[seat]
    c = counts_of(hand)
    laizi = st.laizi
    wild_rank = IDX[laizi] if laizi else None
    plays = ruleset.legal_plays_for(st, seat)
    landlord = st.landlord
    opponents = [s for s in range(3) if s != seat] if seat == landlord else [landlord]
    danger = min(len(st.hands[o]) for o in opponents)
    # go out at once if possible
    for play in plays:
        if len(play.partition("/")[0]) == len(hand):
            return _action(play)
    if ruleset._may_show_after_dipai(st, seat) and strength(hand) >= 18:
        return {"type": "mingpai"}
    sure = _sure_finish(st, seat, plays) if len(hand) <= 12 else None
    if sure is not None:
        return _action(sure)

    def cost_after(play: str) -> int:
        cards = play.partition("/")[0]
        rest = _after(c, cards)
        w = 0
        if wild_rank is not None:
            w = rest[wild_rank]
            rest[wild_rank] = 0
        return hand_cost(rest, w)

    def is_bomb(play: str) -> bool:
        cards = play.partition("/")[0]
        return len(cards) in (2, 4) and any(p.tier for p in _readings(play, laizi))

    def wild_used(play: str) -> int:
        return play.partition("/")[0].count(laizi) if laizi else 0

    partner = None if seat == landlord else 3 - seat - landlord
    if st.lead is None:
        candidates = [p for p in plays if not is_bomb(p)] or plays
        if partner is not None and len(st.hands[partner]) <= 2 < danger:
            feed = _feed(candidates, len(st.hands[partner]))
            if feed is not None:  # give the partner, who is nearly out, something to take
                return _action(feed)
        ranked = []
        for play in candidates:
            cards = play.partition("/")[0]
            key_cost = cost_after(play)
            # an opponent with 1 card takes any low single, one with 2 perhaps a low pair
            risky = (len(cards) == 1 and danger == 1 and IDX[cards] < TWO) or (
                len(cards) == 2 and danger == 2 and IDX[cards[0]] < ACE
            )
            rank = _main_rank(play, laizi)
            if risky:  # if a single or pair it must be, the highest
                rank = -rank
            key = (key_cost + (3 if risky else 0), wild_used(play), rank, -len(cards))
            ranked.append((key, play))
        ranked.sort()
        if search:
            width = ENDGAME_WIDTH if _endgame(st, seat) else SEARCH_LEAD
            chosen = _search(st, seat, _top([p for _, p in ranked], width))
            if chosen is not None:
                return _action(chosen)
        return _action(ranked[0][1])
    # following
    lead_seat = st.lead["seat"]
    options = list(plays)
    if not options:
        return {"type": "pass"}
    partner_leads = seat != landlord and lead_seat != landlord
    if partner_leads and not (search and (PARTNER_SEARCH or _endgame(st, seat))):
        return {"type": "pass"}
    base = hand_cost(*_split(c, wild_rank))
    normal = [p for p in options if not is_bomb(p)]
    ranked_f: list[tuple[tuple[int, int, int], str]] = []
    for play in normal:
        after = cost_after(play)
        rank = _main_rank(play, laizi)
        # do not spend 2s / jokers on a small play unless the opponent is near the end
        high = rank >= TWO and danger > 4 and st.lead["rank"] < ACE - 2
        # against an opponent about to go out, beat as high as possible: he must not follow
        fkey = (after - base + (1 if high else 0), wild_used(play), -rank if danger <= 2 else rank)
        ranked_f.append((fkey, play))
    ranked_f.sort()
    if partner_leads:  # let the partner's trick run, unless the play-outs say take it over
        overtake = _top([p for _, p in ranked_f], 2)
        chosen = _search(st, seat, [None, *overtake])
        return {"type": "pass"} if chosen is None else _action(chosen)
    best = ranked_f[0] if ranked_f else None
    bombs = [p for p in options if is_bomb(p)]
    # a farmer keeps the landlord from running his hand: he takes a little more damage to beat
    room = 1 if seat == landlord else (2 if len(st.hands[landlord]) <= 10 else 1)
    choice: str | None = None
    if best is not None and (best[0][0] <= room or danger <= 3):
        choice = best[1]
    elif bombs and (danger <= 4 or base <= 2):
        choice = bombs[0]
    if search:
        wide = _endgame(st, seat)
        follow = ENDGAME_WIDTH if wide else SEARCH_FOLLOW
        others = _top([p for _, p in ranked_f], follow) + (
            bombs if wide else bombs[:1] + bombs[-1:]
        )
        cands: list[str | None] = [choice] + [p for p in [None, *others] if p != choice]
        choice = _search(st, seat, _top(cands, follow + 3))
    return {"type": "pass"} if choice is None else _action(choice)


def _others_pool(st: Any, seat: int) -> str:
    """Every card the other seats may still hold: the deck less this hand and all plays."""
    seen = counts_of(st.hands[seat] + "".join(st.played))
    return "".join(RANKS[r] * ((4 if r < SMALL else 1) - seen[r]) for r in range(15))


def _sure_finish(st: Any, seat: int, plays: list[str]) -> str | None:
    """A play that nobody can beat (whatever the other seats hold between them) and that
    leaves a hand of one play: it wins the trick, then the hand goes out on the next lead."""
    hand = st.hands[seat]
    pool = None
    for play in plays:
        cards = play.partition("/")[0]
        rest = _remove(hand, cards)
        if not rest or classify(rest, st.laizi) is None:
            continue
        if pool is None:
            pool = _others_pool(st, seat)
        if legal_plays(pool, play, st.laizi) == ["pass"]:
            return play
    return None


def _remove(hand: str, cards: str) -> str:
    out = list(hand)
    for ch in cards:
        out.remove(ch)
    return "".join(out)


def _feed(plays: list[str], partner_left: int) -> str | None:
    """The lowest natural single (or, for a partner with two cards, pair) to lead."""
    for size in (2, 1) if partner_left == 2 else (1,):
        for play in plays:  # weakest first
            if "/" not in play and len(play) == size and play == play[0] * size:
                return play
    return None


def _split(c: list[int], wild_rank: int | None) -> tuple[list[int], int]:
    if wild_rank is None:
        return c, 0
    d = c[:]
    w = d[wild_rank]
    d[wild_rank] = 0
    return d, w


_READINGS: dict[tuple[str, str | None], list[Any]] = {}


def _readings(play: str, laizi: str | None) -> list[Any]:
    """all_readings, cached (the same play strings come back all the time)."""
    key = (play, laizi)
    got = _READINGS.get(key)
    if got is None:
        if len(_READINGS) > 200_000:
            _READINGS.clear()
        got = _READINGS[key] = all_readings(play, laizi)
    return got


def _main_rank(play: str, laizi: str | None) -> int:
    found = _readings(play, laizi)
    return found[0].rank if found else 0
