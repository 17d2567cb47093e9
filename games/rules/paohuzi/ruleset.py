"""The 跑胡子 ruleset: the deal, automatic 提 and 天胡, the claim windows, discards, hu, 荒莊.

Flow (seed 003; see the package docstring for the rules as implemented):

* ``new_game`` deals 20 cards to each seat, the dealer's 21st is the 亮張, the rest is the 墩.
  Forced 天胡 (3 提 / 5 坎) ends the hand at once (dealer, then 下家, then 上家); otherwise every
  four of a kind becomes a 提 and a window opens for a chosen 天胡 on the 亮張.
* Draws are made by the engine. A draw onto the drawer's pair is a 偎 (臭偎 when the kind is 臭
  for him), onto his 坎 / 偎 a 提 — not shown; otherwise the card is shown and a claim window
  opens: hu (drawn cards only) > 跑 / 碰 > 吃, the drawer first, then in seat order.
* ``phase == "discard"``: the seat ``turn`` must discard (a card not of a 坎, never a 王).
"""

from __future__ import annotations

import copy
from typing import Any

from games.engine.chance import Chance
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.params import NOVICE, TABLE_PARAMS
from games.engine.protocol import Action, Event, Result, ResultLine, Ruleset, View
from games.rules.paohuzi import baseline, bot
from games.rules.paohuzi.cards import (
    BI,
    CHI,
    CHOUWEI,
    FOUR_TYPES,
    GROUP_ZH,
    KAN,
    PAO,
    PENG,
    TI,
    WANG,
    WEI,
    card_name,
    card_zh,
    cards_of,
    chi_groups_with,
    counts_of,
    deck,
    group_huxi,
    ident,
    is_big,
    is_chi_group,
    is_red,
    parse_card,
)
from games.rules.paohuzi.hu import Hu, best_partial_huxi, find_hu
from games.rules.paohuzi.params import (
    HUNAN,
    ROOM_PARAMS,
    ROOM_VARIANTS,
    SEATS,
    SHUANGWANG,
    Config,
    config_from_params,
    next_dealer,
)
from games.rules.paohuzi.scoring import hunan_score, shuangwang_score
from games.rules.paohuzi.state import Meld, State

CLAIMS = {"hu": 3, "peng": 2, "chi": 1}
NON_CLAIMS = ("pass", "pao", "wei", "ti")
ACTION_TYPES = frozenset({"discard", *CLAIMS, *NON_CLAIMS})


# -- small queries ------------------------------------------------------------------------------


def meld_groups(state: State, seat: int) -> list[tuple[str, tuple[int, ...]]]:
    return [(m["t"], tuple(m["c"])) for m in state.melds[seat]]


def meld_huxi(state: State, seat: int) -> int:
    """當前得息數: the 胡息 of the seat's melds (進牌區)."""
    return sum(group_huxi(m["t"], m["c"]) for m in state.melds[seat])


def total_cards(state: State, seat: int) -> int:
    return sum(state.hands[seat]) + sum(len(m["c"]) for m in state.melds[seat])


def fours(state: State, seat: int) -> int:
    return sum(1 for m in state.melds[seat] if m["t"] in FOUR_TYPES)


def must_discard(state: State, seat: int) -> bool:
    """Whether the seat discards after taking a card.

    003 八塊 and the deal-time follow-ons both say: a player holds 20 cards between turns, plus
    one for each 跑 / 提 beyond the first (a 跑 / 提 after the first is not followed by a
    discard). So he discards exactly when he holds more than 20 + max(0, 跑/提 − 1).
    """
    return total_cards(state, seat) > 20 + max(0, fours(state, seat) - 1)


def discardable(state: State, seat: int) -> list[int]:
    hand = state.hands[seat]
    return [k for k in range(20) if 1 <= hand[k] <= 2]


def _meld_of(state: State, seat: int, kind: int, types: tuple[str, ...]) -> Meld | None:
    for meld in state.melds[seat]:
        if meld["t"] in types and meld["c"][0] == kind:
            return meld
    return None


def chi_options(hand: list[int], card: int) -> list[list[list[int]]]:
    """Every way to 吃 ``card`` with ``hand``: [吃 group, 比 group, …] with all 比 forced.

    003 比牌: while the hand still holds the kind taken, it must go out in further 一句話 / 絞;
    a 吃 whose 比 cannot be completed is not allowed. 坎 cards and 王 never take part.
    """
    usable = [hand[k] if hand[k] < 3 else 0 for k in range(20)]
    found: set[tuple[tuple[int, ...], ...]] = set()
    for group in chi_groups_with(card, usable):
        rest = list(usable)
        cards = list(group)
        cards.remove(card)
        for k in cards:
            rest[k] -= 1
        for bis in _bi_ways(rest, card):
            found.add((group, *sorted(bis)))
    return [[list(g) for g in way] for way in sorted(found)]


def _bi_ways(rest: list[int], card: int) -> list[tuple[tuple[int, ...], ...]]:
    if rest[card] == 0:
        return [()]
    out: list[tuple[tuple[int, ...], ...]] = []
    rest[card] -= 1
    for group in chi_groups_with(card, rest):
        cards = list(group)
        cards.remove(card)
        for k in cards:
            rest[k] -= 1
        for tail in _bi_ways(rest, card):
            out.append((group, *tail))
        for k in cards:
            rest[k] += 1
    rest[card] += 1
    return out


def _chi_action(way: list[list[int]]) -> Action:
    return {"type": "chi", "groups": [[card_name(c) for c in g] for g in way]}


def _canonical_chi(groups: Any, card: int) -> list[list[int]] | None:
    if not isinstance(groups, list) or not groups or len(groups) > 4:
        return None
    parsed: list[list[int]] = []
    for group in groups:
        if not isinstance(group, list) or len(group) != 3:
            return None
        try:
            parsed.append(sorted(parse_card(c) for c in group))
        except ValueError:
            return None
    return [parsed[0], *sorted(parsed[1:])]


# -- the ruleset --------------------------------------------------------------------------------


class PaohuziRuleset(Ruleset[Config, State]):
    game_id = "paohuzi"
    title = "跑胡子"
    variants = ROOM_VARIANTS
    room_params = ROOM_PARAMS + TABLE_PARAMS  # + chat, spectators
    min_seats = 3
    max_seats = 3
    action_types = ACTION_TYPES

    def config_from_params(self, params: dict[str, Any]) -> Config:
        return config_from_params(params)

    # -- the deal -------------------------------------------------------------------------------
    def new_game(self, config: Config, seed: str, seats: int = SEATS) -> State:
        """Deal: shuffle the 80 (82) cards with Chance(seed, "deal"); 20 each from the front in
        seat order from the dealer, then the dealer's 21st (the 亮張); the rest is the 墩,
        drawn from the front."""
        if seats != SEATS:
            raise ValueError("跑胡子 is played by 3")
        hands, liang, wall = self.deal_cards(config, seed)
        return self._start(config, seed, hands, liang, wall)

    def deal_cards(self, config: Config, seed: str) -> tuple[list[list[int]], int, list[int]]:
        """The deal alone, before anything is played on it (what a verifier re-derives):
        each seat's 20 cards as counts, the 亮張, the 墩 from the front."""
        cards = Chance(seed, "deal").shuffled(deck(config.wangs))
        dealer = config.dealer
        hands = [[0] * 21 for _ in range(SEATS)]
        for i in range(SEATS):
            for card in cards[20 * i : 20 * i + 20]:
                hands[(dealer + i) % SEATS][card] += 1
        return hands, cards[60], cards[61:]

    def new_game_from_cards(
        self,
        config: Config,
        hands: list[list[str]],
        liang: str,
        wall: list[str],
        seed: str = "scripted",
    ) -> State:
        """Start a hand from a given deal (tests, replays of a real deal): ``hands`` holds each
        seat's 20 cards, the dealer's 亮張 is ``liang``, the 墩 is drawn from the front."""
        counts = [counts_of(parse_card(c) for c in hand) for hand in hands]
        return self._start(config, seed, counts, parse_card(liang), [parse_card(c) for c in wall])

    def _start(
        self, config: Config, seed: str, hands: list[list[int]], liang: int, wall: list[int]
    ) -> State:
        dealer = config.dealer
        hands[dealer][liang] += 1
        state = State(
            config=config,
            seed=seed,
            hands=hands,
            melds=[[], [], []],
            wall=wall,
            liang=liang,
            turn=dealer,
        )
        # 003 天胡 ①: 3 提 or 5 坎 (a 提 counts as a 坎), forced, dealer then 下家 then 上家
        for i in range(SEATS):
            seat = (dealer + i) % SEATS
            hand = hands[seat]
            ti = sum(1 for k in range(20) if hand[k] == 4)
            kan = sum(1 for k in range(20) if hand[k] == 3)
            if ti >= 3 or ti + kan >= 5:
                self._finish_forced_tianhu(state, seat)
                return state
        # 003 自動提牌 after the 亮張
        for seat in range(SEATS):
            for kind in range(20):
                if hands[seat][kind] == 4:
                    hands[seat][kind] = 0
                    state.melds[seat].append({"t": TI, "c": [kind] * 4, "open": True})
        # 003 天胡 ②: a hu on the 亮張, chosen; dealer, then 下家, then 上家
        options: list[list[Action] | None] = [None] * SEATS
        for seat in range(SEATS):
            if self._hu_on(state, seat, liang, "liang", dealer) is not None:
                options[seat] = [{"type": "hu"}, {"type": "pass"}]
        if any(options):
            self._open(
                state,
                liang,
                "liang",
                dealer,
                options,
                {"do": "liang_done"},
                shown=True,
                limbo=False,
            )
        else:
            self._after_intake(state, dealer)
        return state

    # -- queries --------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == "discard":
            return frozenset({state.turn})
        if state.phase == "claim" and state.window is not None:
            w = state.window
            return frozenset(
                s for s in range(SEATS) if w["options"][s] and w["decisions"][s] is None
            )
        return frozenset()

    def seat_ids(self, state: State) -> range:
        return range(SEATS)

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == "discard":
            return [{"type": "discard", "card": card_name(k)} for k in discardable(state, seat)]
        assert state.window is not None
        return copy.deepcopy(state.window["options"][seat])

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    # -- apply ----------------------------------------------------------------------------------
    def _refusal(self, state: State, seat: int, kind: str) -> IllegalAction:
        if self.is_over(state):
            return super()._refusal(state, seat, kind)
        if kind == "discard":
            return IllegalAction(ErrorCode.NOT_YOUR_TURN, "it is not this seat's discard")
        if state.phase != "claim":
            return self._no_window(state, seat, kind)
        return IllegalAction(ErrorCode.NOT_YOUR_TURN, "not waiting for this seat")

    def _no_window(self, state: State, seat: int, kind: str) -> IllegalAction:
        if kind in state.overridden[seat]:
            return IllegalAction(
                ErrorCode.LOWER_PRIORITY, "a higher claim (胡 > 跑/碰 > 吃) took the card"
            )
        return IllegalAction(ErrorCode.WINDOW_CLOSED, "no card is on offer now")

    def _apply_action(self, state: State, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "discard":
            return self._apply_discard(state, seat, action)
        if state.phase != "claim":
            raise self._no_window(state, seat, kind)
        w = state.window
        assert w is not None
        chosen = self._match_option(state, seat, action)
        state.moves += 1
        w["decisions"][seat] = chosen
        events = [Event("decided", {"seat": seat}, frozenset({seat}))]
        self._try_resolve(state)
        return events

    def _apply_discard(self, state: State, seat: int, action: Action) -> list[Event]:
        if state.phase != "discard" or seat != state.turn:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "it is not this seat's discard")
        try:
            card = parse_card(action.get("card"))
        except ValueError as error:
            raise IllegalAction(ErrorCode.MALFORMED, str(error)) from None
        if card == WANG:
            raise IllegalAction(
                ErrorCode.ILLEGAL, "a 王 is never discarded", {"reason": "wang_discard"}
            )
        hand = state.hands[seat]
        if hand[card] == 0:
            raise IllegalAction(
                ErrorCode.NOT_HELD, f"{card} is not in the hand", {"card": card_name(card)}
            )
        if hand[card] >= 3:
            raise IllegalAction(
                ErrorCode.ILLEGAL, f"{card} is a 坎: a 坎 is never split", {"reason": "kan_split"}
            )
        state.moves += 1
        hand[card] -= 1
        if card not in state.discarded[seat]:
            state.discarded[seat].append(card)
            state.discarded[seat].sort()
        state.overridden = [[], [], []]
        self._open_shown(state, card, "discard", seat)
        return [Event("discard", {"seat": seat, "card": card_name(card)})]

    def _match_option(self, state: State, seat: int, action: Action) -> Action:
        w = state.window
        assert w is not None
        options = w["options"][seat]
        kind = action["type"]
        if kind == "chi":
            canon = _canonical_chi(action.get("groups"), w["card"])
            if canon is None:
                raise IllegalAction(ErrorCode.MALFORMED, "chi needs 'groups': lists of three cards")
            for option in options:
                if option["type"] == "chi" and _canonical_chi(option["groups"], w["card"]) == canon:
                    return copy.deepcopy(option)
            self._diagnose_chi(state, seat, canon)
        for option in options:
            if option["type"] == kind:
                return dict(option)
        if kind == "hu":
            self._diagnose_hu(state, seat)
        if kind in ("peng", "chi") and any(o["type"] in CLAIMS for o in options):
            raise IllegalAction(ErrorCode.ILLEGAL, f"{kind} is not possible for this seat now")
        raise IllegalAction(ErrorCode.ILLEGAL, f"{kind} is not among this seat's choices")

    def _diagnose_chi(self, state: State, seat: int, canon: list[list[int]]) -> None:
        w = state.window
        assert w is not None
        card = w["card"]
        if not any(o["type"] == "chi" for o in w["options"][seat]):
            raise IllegalAction(ErrorCode.ILLEGAL, "this seat may not 吃 this card")
        hand = [n if n < 3 else 0 for n in state.hands[seat][:20]]
        need = counts_of(c for g in canon for c in g)
        need[card] -= 1
        if any(need[k] > hand[k] for k in range(20)) or card not in canon[0]:
            raise IllegalAction(
                ErrorCode.NOT_HELD, "the 吃 uses cards not held (坎 cards never count)"
            )
        if not all(is_chi_group(g) for g in canon) or not all(card in g for g in canon):
            raise IllegalAction(
                ErrorCode.BAD_PATTERN, "each group must be a 一句話 or 絞 holding the card"
            )
        if hand[card] - need[card] > 0:
            raise IllegalAction(
                ErrorCode.ILLEGAL, f"比牌: the {card_name(card)} still in hand must be laid out too"
            )
        raise IllegalAction(ErrorCode.ILLEGAL, "not a legal 吃")

    def _diagnose_hu(self, state: State, seat: int) -> None:
        w = state.window
        assert w is not None
        cfg = state.config
        card, src = w["card"], w["src"]
        if src == "discard" and not (cfg.variant == SHUANGWANG and cfg.fangpao):
            raise IllegalAction(
                ErrorCode.ILLEGAL, "no hu on a discard", {"reason": "no_hu_on_discard"}
            )
        if state.hands[seat][WANG] and not (src in ("draw", "own") and w["from"] == seat):
            raise IllegalAction(
                ErrorCode.ILLEGAL, "a 王 holder wins only on his draw", {"reason": "wang_self_draw"}
            )
        if [card, meld_huxi(state, seat)] in state.chou_hu[seat]:
            raise IllegalAction(
                ErrorCode.ILLEGAL,
                "臭胡: this hu was passed and the 胡息 has not changed",
                {"reason": "chou_hu"},
            )
        loose = Config(**{**_config_dict(cfg), "min_huxi": 0})
        hu = self._hu_on(state, seat, card, src, w["from"], config=loose, check_chou=False)
        if hu is not None and hu.huxi < cfg.min_huxi:
            raise IllegalAction(
                ErrorCode.ILLEGAL,
                f"{hu.huxi} 胡息: a hu needs {cfg.min_huxi}",
                {"reason": "min_huxi", "huxi": hu.huxi, "need": cfg.min_huxi},
            )
        raise IllegalAction(ErrorCode.ILLEGAL, "the hand is not complete with this card")

    # -- windows --------------------------------------------------------------------------------
    def _open(
        self,
        state: State,
        card: int,
        src: str,
        frm: int,
        options: list[list[Action] | None],
        default: dict[str, Any],
        *,
        shown: bool,
        limbo: bool,
    ) -> None:
        state.overridden = [[], [], []]
        state.phase = "claim"
        state.window = {
            "card": card,
            "src": src,
            "from": frm,
            "shown": shown,
            "limbo": limbo,
            "options": options,
            "decisions": [None] * SEATS,
            "default": default,
        }

    def _open_shown(self, state: State, card: int, src: str, frm: int) -> None:
        """A card shown to all (a draw or a discard): find every seat's choices."""
        pao_seat: int | None = None
        for p in range(SEATS):
            if p == frm and src == "discard":
                continue
            if p != frm and state.hands[p][card] == 3:
                pao_seat = p  # 003 跑 ①
            elif p != frm and _meld_of(state, p, card, (WEI, CHOUWEI)):
                pao_seat = p  # 跑 ③
            elif src == "draw" and _meld_of(state, p, card, (PENG,)):
                pao_seat = p  # 跑 ② (a discard never runs a 碰)
        options: list[list[Action] | None] = [None] * SEATS
        for p in range(SEATS):
            if p == frm and src == "discard":
                continue
            opts: list[Action] = []
            if self._hu_on(state, p, card, src, frm) is not None:
                opts.append({"type": "hu"})
            if pao_seat is None:
                blocked = card in state.chou[p] or card in state.discarded[p]
                if p != frm and state.hands[p][card] == 2 and not blocked:
                    opts.append({"type": "peng"})
                may_chi = (
                    (p in (frm, (frm + 1) % SEATS)) if src == "draw" else (p == (frm + 1) % SEATS)
                )
                if may_chi and not blocked:
                    opts.extend(_chi_action(way) for way in chi_options(state.hands[p], card))
            if opts:
                opts.append({"type": "pao"} if p == pao_seat else {"type": "pass"})
                options[p] = opts
        default = {"do": "pao", "seat": pao_seat} if pao_seat is not None else {"do": "pass_card"}
        if any(options):
            self._open(state, card, src, frm, options, default, shown=True, limbo=True)
        else:
            state.window = {
                "card": card,
                "src": src,
                "from": frm,
                "shown": True,
                "limbo": True,
                "options": options,
                "decisions": [None] * SEATS,
                "default": default,
            }
            self._resolve(state, None)

    def _try_resolve(self, state: State) -> None:
        w = state.window
        assert w is not None
        frm = w["from"]

        def prio(seat: int, action: Action) -> tuple[int, int] | None:
            level = CLAIMS.get(action["type"], 0)
            return (level, -((seat - frm) % SEATS)) if level else None

        best: tuple[tuple[int, int], int, Action] | None = None
        for seat in range(SEATS):
            decision = w["decisions"][seat]
            if decision is not None:
                p = prio(seat, decision)
                if p is not None and (best is None or p > best[0]):
                    best = (p, seat, decision)
        for seat in range(SEATS):
            if w["options"][seat] and w["decisions"][seat] is None:
                tops = [p for a in w["options"][seat] if (p := prio(seat, a)) is not None]
                if tops and (best is None or max(tops) > best[0]):
                    return  # a seat that might still outrank the best claim has not decided
        self._resolve(state, None if best is None else (best[1], best[2]))

    def _resolve(self, state: State, claim: tuple[int, Action] | None) -> None:
        w = state.window
        assert w is not None
        card = w["card"]
        overridden: list[list[str]] = [[], [], []]
        for seat in range(SEATS):
            options = w["options"][seat]
            if not options or (claim is not None and claim[0] == seat):
                continue
            decision = w["decisions"][seat]
            types = {o["type"] for o in options}
            if decision is None:
                overridden[seat] = sorted(types & set(CLAIMS))
                continue
            if "hu" in types and decision["type"] != "hu" and card != WANG:
                entry = [card, meld_huxi(state, seat)]
                if entry not in state.chou_hu[seat]:
                    state.chou_hu[seat].append(entry)  # 003 臭胡
            if types & {"peng", "chi"} and decision["type"] not in CLAIMS:
                if card not in state.chou[seat]:
                    state.chou[seat].append(card)  # 003 臭牌
                    state.chou[seat].sort()
        state.window = None
        state.phase = "claim"
        if claim is None:
            self._default(state, w)
            state.overridden = overridden if state.phase != "claim" else [[], [], []]
            return
        seat, action = claim
        if action["type"] == "hu":
            self._finish_hu(state, seat, w)
            return
        if action["type"] == "peng":
            state.hands[seat][card] -= 2
            state.melds[seat].append({"t": PENG, "c": [card] * 3, "open": True})
        else:  # chi
            groups = _canonical_chi(action["groups"], card)
            assert groups is not None
            hand = state.hands[seat]
            for i, group in enumerate(groups):
                cards = list(group)
                if i == 0:
                    cards.remove(card)
                for c in cards:
                    hand[c] -= 1
                state.melds[seat].append({"t": CHI if i == 0 else BI, "c": group, "open": True})
        self._after_intake(state, seat)
        if state.phase != "claim":
            state.overridden = overridden

    def _default(self, state: State, w: dict[str, Any]) -> None:
        card, frm, do = w["card"], w["from"], w["default"]["do"]
        if do == "pass_card":
            state.piles[frm].append(card)
            self._draw(state, (frm + 1) % SEATS)
        elif do == "pao":
            seat = w["default"]["seat"]
            self._make_four(state, seat, card, PAO)
            self._after_intake(state, seat)
        elif do in ("wei", "chouwei", "ti"):
            if do == "ti":
                self._make_four(state, frm, card, TI)
            else:
                state.hands[frm][card] -= 2
                state.melds[frm].append({"t": do, "c": [card] * 3, "open": do == CHOUWEI})
            self._after_intake(state, frm)
        elif do == "keep_wang":
            state.hands[frm][WANG] += 1
            state.wang_shown[frm] += 1
            self._after_intake(state, frm)
        elif do == "liang_done":
            self._after_intake(state, frm)
        else:  # pragma: no cover - defaults are written by this module only
            raise AssertionError(do)

    def _make_four(self, state: State, seat: int, card: int, kind: str) -> None:
        if state.hands[seat][card] == 3:
            state.hands[seat][card] = 0
            state.melds[seat].append({"t": kind, "c": [card] * 4, "open": True})
            return
        meld = _meld_of(state, seat, card, (WEI, CHOUWEI, PENG))
        assert meld is not None
        meld["t"] = kind
        meld["c"] = [card] * 4
        meld["open"] = True

    def _after_intake(self, state: State, seat: int) -> None:
        if must_discard(state, seat) and discardable(state, seat):
            state.phase = "discard"
            state.turn = seat
            state.window = None
        else:  # 八塊 / the deal-time follow-ons: no discard, the 下家 draws
            self._draw(state, (seat + 1) % SEATS)

    def _draw(self, state: State, seat: int) -> None:
        state.turn = seat
        if not state.wall:
            state.huang = True  # 荒莊
            state.phase = "over"
            state.window = None
            return
        card = state.wall.pop(0)
        hand = state.hands[seat]
        if card == WANG:  # a 王 drawn in play is shown and kept
            options: list[list[Action] | None] = [None] * SEATS
            if self._hu_on(state, seat, WANG, "own", seat) is not None:
                options[seat] = [{"type": "hu"}, {"type": "pass"}]
            self._open(
                state, card, "own", seat, options, {"do": "keep_wang"}, shown=True, limbo=True
            )
            if not options[seat]:
                self._resolve(state, None)
            return
        forced = None
        if hand[card] == 3 or _meld_of(state, seat, card, (WEI, CHOUWEI)):
            forced = "ti"
        elif hand[card] == 2:
            forced = CHOUWEI if card in state.chou[seat] else "wei"
        if forced is None:
            self._open_shown(state, card, "draw", seat)
            return
        options = [None] * SEATS
        if self._hu_on(state, seat, card, "own", seat) is not None:
            options[seat] = [{"type": "hu"}, {"type": "ti" if forced == "ti" else "wei"}]
        self._open(state, card, "own", seat, options, {"do": forced}, shown=False, limbo=True)
        if not options[seat]:
            self._resolve(state, None)

    # -- hu -------------------------------------------------------------------------------------
    def _hu_on(
        self,
        state: State,
        seat: int,
        card: int,
        src: str,
        frm: int,
        *,
        config: Config | None = None,
        check_chou: bool = True,
    ) -> Hu | None:
        cfg = config or state.config
        own = frm == seat and src in ("draw", "own", "liang")
        if src == "discard" and not (cfg.variant == SHUANGWANG and cfg.fangpao):
            return None
        if state.hands[seat][WANG] and not own:
            return None  # 000: 手中有王霸的玩家只能自摸
        if check_chou and [card, meld_huxi(state, seat)] in state.chou_hu[seat]:
            return None
        win: int | None = None if (src == "liang" and seat == frm) else card
        xing = self._xing(state, seat, win)[1] if cfg.variant == SHUANGWANG else 0
        return find_hu(
            state.hands[seat],
            meld_groups(state, seat),
            win,
            self_drawn=own,
            config=cfg,
            tianhu=src == "liang" and cfg.variant == HUNAN,
            haidi=src in ("draw", "own") and not state.wall and cfg.variant == HUNAN,
            xing=xing,
            from_discard=src == "discard",
        )

    def _xing(self, state: State, seat: int, win: int | None) -> tuple[int | None, int]:
        """雙王 省 (翻醒): the next 墩 card (flip again on a 王) gives the next rank of its size,
        wrapping 十→一 / 拾→壹; count it over hand + melds + winning card, +1 per 王 held."""
        flipped = next((c for c in state.wall if c != WANG), None)
        wangs = state.hands[seat][WANG] + (1 if win == WANG else 0)
        if flipped is None:
            return None, 0  # an empty 墩: no 省 (decision 1)
        xing_kind = (flipped // 10) * 10 + (flipped % 10 + 1) % 10
        natural = state.hands[seat][xing_kind] + (1 if win == xing_kind else 0)
        natural += sum(m["c"].count(xing_kind) for m in state.melds[seat])
        return flipped, natural + wangs

    def _finish_hu(self, state: State, seat: int, w: dict[str, Any]) -> None:
        card, src, frm = w["card"], w["src"], w["from"]
        hu = self._hu_on(state, seat, card, src, frm)
        assert hu is not None
        own = frm == seat and src in ("draw", "own", "liang")
        flipped, xing = (
            self._xing(state, seat, None if src == "liang" and own else card)
            if state.config.variant == SHUANGWANG
            else (None, 0)
        )
        if w["limbo"]:
            state.hands[seat][card] += 1  # the card joins the winner (for the count of cards)
        state.hu = {
            "seat": seat,
            "from": frm,
            "src": src,
            "card": card,
            "self_drawn": own,
            "tianhu": src == "liang",
            "haidi": src in ("draw", "own") and not state.wall,
            "huxi": hu.huxi,
            "groups": [[t, list(c)] for t, c in hu.groups],
            "join": hu.join,
            "shape": hu.shape,
            "red": hu.red,
            "big": hu.big,
            "small": hu.small,
            "duidui": hu.duidui,
            "per_loser": hu.score.per_loser,
            "base_value": hu.score.base_value,
            "fan": hu.score.fan,
            "items": [list(i) for i in hu.score.items],
            "xing_card": flipped,
            "xing": xing,
            "forced": False,
        }
        state.phase = "over"
        state.window = None

    def _finish_forced_tianhu(self, state: State, seat: int) -> None:
        """003 天胡 ①: 3 提 or 5 坎 after the deal; the 門子 need not be complete."""
        cfg = state.config
        hand = state.hands[seat]
        huxi = best_partial_huxi(hand)
        cards = [k for k in range(20) for _ in range(hand[k])]
        red = sum(1 for c in cards if is_red(c))
        big = sum(1 for c in cards if is_big(c))
        own = seat == cfg.dealer
        groups: list[list[Any]] = []
        for kind in range(20):
            if hand[kind] == 4:
                groups.append([TI, [kind] * 4])
            elif hand[kind] == 3:
                groups.append([KAN, [kind] * 3])
        groups.append(["rest", [k for k in range(21) if hand[k] < 3 for _ in range(hand[k])]])
        flipped, xing = self._xing(state, seat, None) if cfg.variant == SHUANGWANG else (None, 0)
        if cfg.variant == HUNAN:
            score = hunan_score(
                huxi,
                red,
                big,
                len(cards) - big,
                False,
                self_drawn=own,
                tianhu=True,
                haidi=False,
                cfg=cfg,
            )
        else:
            score = shuangwang_score(huxi, red, self_drawn=own, shape="", xing=xing, cfg=cfg)
        state.hu = {
            "seat": seat,
            "from": seat,
            "src": "deal",
            "card": None,
            "self_drawn": own,
            "tianhu": True,
            "haidi": False,
            "huxi": huxi,
            "groups": groups,
            "join": "none",
            "shape": "",
            "red": red,
            "big": big,
            "small": len(cards) - big,
            "duidui": False,
            "per_loser": score.per_loser,
            "base_value": score.base_value,
            "fan": score.fan,
            "items": [list(i) for i in score.items],
            "xing_card": flipped,
            "xing": xing,
            "forced": True,
        }
        state.phase = "over"

    # -- results --------------------------------------------------------------------------------
    def result(self, state: State) -> Result:
        cfg = state.config
        scores = [0] * SEATS
        lines: list[ResultLine] = []
        payments: list[dict[str, int]] = []
        if state.escaped is not None:
            return self.escape_result(state, state.escaped)
        if state.hu is not None:
            hu = state.hu
            winner = hu["seat"]
            for gtype, cards in hu["groups"]:
                label = f"{GROUP_ZH.get(gtype, '散牌')} " + "".join(card_zh(c) for c in cards)
                value = (
                    f"{group_huxi(gtype, [ident(c) for c in cards])}息" if gtype != "rest" else ""
                )
                lines.append(ResultLine(label, value, winner))
            for label, value in hu["items"]:
                lines.append(ResultLine(label, value, winner))
            if cfg.variant == SHUANGWANG and hu["xing_card"] is not None:
                lines.append(
                    ResultLine(f"翻醒 {card_zh(hu['xing_card'])}", f"{hu['xing']}省", winner)
                )
            per = hu["per_loser"] * cfg.base
            if cfg.variant == SHUANGWANG and cfg.cap:
                per = min(per, cfg.cap)
            per = max(per, 0)
            payers = [s for s in range(SEATS) if s != winner]
            if hu["src"] == "discard":
                payers = [hu["from"]]  # 放炮: the discarder pays alone (decision 1)
            for s in payers:
                payments.append({"from": s, "to": winner, "points": per})
            if cfg.variant == HUNAN:
                lines.append(
                    ResultLine(
                        "計分 x·f·d / 贏家 x·f·2·d",
                        f"{hu['base_value']}×{hu['fan']}×{cfg.base}",
                        winner,
                    )
                )
            else:
                cap = f" (封頂 {cfg.cap})" if cfg.cap else ""
                lines.append(
                    ResultLine(
                        "計分 囤×番×底注" + cap,
                        f"{hu['base_value']}×{hu['fan']}×{cfg.base}",
                        winner,
                    )
                )
            winners: tuple[int, ...] = (winner,)
        else:
            winners = ()
            lines.append(ResultLine("荒莊", "無人胡牌"))
            if cfg.variant == SHUANGWANG:  # decision 1: each 王 pays 5 × 底注 to each holding none
                holders = [s for s in range(SEATS) if state.hands[s][WANG]]
                for s in holders:
                    for other in range(SEATS):
                        if not state.hands[other][WANG]:
                            points = 5 * cfg.base * state.hands[s][WANG]
                            payments.append({"from": s, "to": other, "points": points})
                            lines.append(
                                ResultLine(
                                    f"荒莊 王霸 ×{state.hands[s][WANG]} 賠付", f"{points}", s
                                )
                            )
        for p in payments:
            scores[p["from"]] -= p["points"]
            scores[p["to"]] += p["points"]
        dealer, streak = next_dealer(
            cfg.variant, cfg.dealer, winners[0] if winners else None, cfg.huangzhuang_streak
        )
        extra: dict[str, Any] = {
            "payments": payments,
            "huangzhuang": state.hu is None,
            "variant": cfg.variant,
            "base": cfg.base,
            "next_dealer": dealer,
            "next_huangzhuang_streak": streak,
        }
        if state.hu is not None:
            extra.update(
                {
                    k: state.hu[k]
                    for k in (
                        "huxi",
                        "base_value",
                        "fan",
                        "self_drawn",
                        "tianhu",
                        "haidi",
                        "shape",
                        "xing",
                    )
                }
            )
            extra["winner"] = state.hu["seat"]
        return Result(tuple(scores), winners, tuple(lines), extra)

    def escape_result(self, state: State, seat: int) -> Result:
        """003 逃跑: the escaper loses ((其他玩家當前總息數 − 12) ÷ 3 + 8) × d.

        其他玩家當前總息數 = the two others' best 胡息 over melds + hand (leftovers allowed),
        summed; the first term is floored at 0; the two share the points, the odd one to the
        escaper's 下家 (decision: 003 does not say how they share).
        """
        cfg = state.config
        others = [(seat + 1) % SEATS, (seat + 2) % SEATS]
        huxi = {p: best_partial_huxi(state.hands[p], meld_groups(state, p)) for p in others}
        total = sum(huxi.values())
        points = (max(0, (total - 12) // 3) + 8) * cfg.base
        first = (points + 1) // 2
        payments = [
            {"from": seat, "to": others[0], "points": first},
            {"from": seat, "to": others[1], "points": points - first},
        ]
        scores = [0] * SEATS
        for p in payments:
            scores[p["from"]] -= p["points"]
            scores[p["to"]] += p["points"]
        lines = [ResultLine(f"座位{p} 當前最大胡息", f"{huxi[p]}息", p) for p in others]
        lines.append(ResultLine("逃跑 ((總息−12)÷3+8)×d", f"{points}", seat))
        return Result(
            tuple(scores),
            tuple(others),
            tuple(lines),
            {
                "payments": payments,
                "escaped": seat,
                "others_huxi": huxi,
                # 003: a player leaving starts a new 局 (the streak starts again)
                "next_dealer": cfg.dealer,
                "next_huangzhuang_streak": 0,
                "variant": cfg.variant,
                "base": cfg.base,
            },
        )

    # -- views ----------------------------------------------------------------------------------
    def view(self, state: State, seat: int) -> View:
        return self._view(state, seat)

    def spectator_view(self, state: State) -> View:
        return self._view(state, None)

    def _view(self, state: State, viewer: int | None) -> View:
        cfg = state.config
        over = state.phase == "over"
        to_act = self.to_act(state)
        w = state.window
        current = None
        if w is not None and (w["shown"] or w["from"] == viewer):
            current = {
                "card": card_name(w["card"]),
                "source": w["src"],
                "from": w["from"],
                "shown": w["shown"],
            }
        seats = []
        for s in range(SEATS):
            mine = viewer == s or over
            melds = []
            visible_huxi = 0
            for m in state.melds[s]:
                known = mine or m["open"]
                huxi = group_huxi(m["t"], m["c"])
                if known:
                    visible_huxi += huxi
                melds.append(
                    {
                        "type": m["t"],
                        "type_zh": GROUP_ZH[m["t"]],
                        "cards": [card_name(c) for c in m["c"]] if known else None,
                        "size": len(m["c"]),
                        "huxi": huxi if known else None,
                    }
                )
            info: dict[str, Any] = {
                "seat": s,
                "dealer": s == cfg.dealer,
                "hand_count": sum(state.hands[s]),
                "wang_shown": state.wang_shown[s],
                "melds": melds,
                "huxi": visible_huxi,
                "pile": [card_name(c) for c in state.piles[s]],
                "discarded": [card_name(c) for c in state.discarded[s]],
            }
            if over:
                info["hand"] = [card_name(c) for c in cards_of(state.hands[s])]
            seats.append(info)
        if state.phase == "discard":
            shown_to_act = sorted(to_act)
        else:
            shown_to_act = [viewer] if viewer is not None and viewer in to_act else []
        view: View = {
            "game": self.game_id,
            "variant": cfg.variant,
            "seat": viewer,
            "phase": state.phase,
            "to_act": shown_to_act,
            "turn": state.turn,
            "dealer": cfg.dealer,
            "wall_count": len(state.wall),
            "liang": card_name(state.liang),
            "current": current,
            "seats": seats,
            "stakes": {
                "base": cfg.base,
                "min_huxi": cfg.min_huxi,
                "cap": cfg.cap,
                "jiadi": cfg.jiadi,
                "fangpao": cfg.fangpao,
                "fans": {
                    "紅胡": cfg.fan_hong,
                    "點胡": cfg.fan_dian,
                    "紅烏": cfg.fan_hongwu,
                    "烏胡": cfg.fan_wu,
                    "對對胡": cfg.fan_duidui,
                    "大字胡": cfg.fan_dazi,
                    "小字胡": cfg.fan_xiaozi,
                },
            },
            "legal_actions": [],
            "claim_options": None,
        }
        if viewer is not None:
            hand = state.hands[viewer]
            view["hand"] = [card_name(c) for c in cards_of(hand)]
            view["kans"] = [card_name(k) for k in range(20) if hand[k] == 3]
            view["huxi"] = meld_huxi(state, viewer)
            view["hand_huxi"] = best_partial_huxi(hand, meld_groups(state, viewer))
            view["chou"] = [card_name(k) for k in state.chou[viewer]]
            legal = self.legal_actions(state, viewer)
            view["legal_actions"] = legal
            if w is not None and viewer in to_act:
                view["claim_options"] = _claim_options(legal)
        if over:
            result = self.result(state)
            view["result"] = {
                "scores": list(result.scores),
                "winners": list(result.winners),
                "lines": [
                    {"label": ln.label, "value": ln.value, "seat": ln.seat} for ln in result.lines
                ],
                "payments": result.extra["payments"],
            }
        return view

    # -- automation -----------------------------------------------------------------------------
    def auto_action(self, state: State, seat: int) -> Action:
        """托管: hu when possible, never an optional claim, discard as the bot would."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "not waiting for this seat")
        for action in legal:
            if action["type"] == "hu":
                return action
        for action in legal:
            if action["type"] in NON_CLAIMS:
                return action
        return bot.choose_discard(state, seat, legal)

    def bot_action(self, state: State, seat: int) -> Action:
        """The bot (and 托管); in a 新手場 (``bot_level`` novice) the baseline player."""
        if state.config.bot_level == NOVICE:
            return baseline.baseline_action(self, state, seat)
        return bot.bot_action(self, state, seat)

    # -- serialisation / testing -----------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: dict[str, Any]) -> State:
        return State.from_json(copy.deepcopy(data))

    def resample_hidden(self, state: State, seat: int, seed: str) -> State:
        """Re-deal the others' concealed cards and the 墩 (shown 王, 偎 and the card on offer
        stay)."""
        other = State.from_json(copy.deepcopy(state.to_json()))
        if state.phase == "over":
            return other  # everything is shown at the end
        pool: list[int] = list(other.wall)
        sizes: dict[int, int] = {}
        for s in range(SEATS):
            if s == seat:
                continue
            hand = other.hands[s]
            keep = other.wang_shown[s]
            cards = cards_of(hand)
            for _ in range(keep):
                cards.remove(WANG)
            pool.extend(cards)
            sizes[s] = len(cards)
        pool = Chance(seed, "resample").shuffled(pool)
        for s, n in sizes.items():
            other.hands[s] = counts_of(pool[:n])
            other.hands[s][WANG] += other.wang_shown[s]
            pool = pool[n:]
        other.wall = pool
        return other

    def all_items(self, state: State) -> list[str]:
        items = [card_name(c) for s in range(SEATS) for c in cards_of(state.hands[s])]
        items += [card_name(c) for s in range(SEATS) for m in state.melds[s] for c in m["c"]]
        items += [card_name(c) for s in range(SEATS) for c in state.piles[s]]
        items += [card_name(c) for c in state.wall]
        if state.window is not None and state.window["limbo"]:
            items.append(card_name(state.window["card"]))
        return items


def _config_dict(cfg: Config) -> dict[str, Any]:
    return {name: getattr(cfg, name) for name in Config.__dataclass_fields__}


def _claim_options(legal: list[Action]) -> dict[str, Any]:
    """The choices of a claim prompt: hu, 碰, each 吃 with the 比 it forces, the default."""
    out: dict[str, Any] = {"hu": False, "peng": False, "chi": [], "default": None}
    for action in legal:
        kind = action["type"]
        if kind == "hu":
            out["hu"] = True
        elif kind == "peng":
            out["peng"] = True
        elif kind == "chi":
            out["chi"].append(
                {"chi": action["groups"][0], "bi": action["groups"][1:], "action": action}
            )
        else:
            out["default"] = kind
    return out
