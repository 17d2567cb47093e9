"""The 歡樂三張 ruleset: deal, betting, 比牌, visibility and settlement (see the package doc)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from games.engine.cards import suited_deck
from games.engine.chance import Chance
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.params import NOVICE, TABLE_PARAMS
from games.engine.protocol import Action, Event, Result, ResultLine, Ruleset, View
from games.engine.table_type import Escape, Seating, Settlement, TableType

from . import baseline, bot
from .hands import compare, describe, hand_class
from .params import ROOM_PARAMS, VARIANTS, Config, config_from_params
from .state import BETTING, FOLDED, IN, LOST, OVER, STATUS_ZH, State

ACTION_TYPES = ("look", "call", "raise", "compare", "fold")


def _beans_left(state: State, seat: int) -> int | None:
    if not state.config.seat_beans:
        return None
    return state.config.seat_beans[seat] - state.stakes[seat]


def _rate(state: State, seat: int) -> int:
    """明注 is twice 暗注 (seed: 暗注相當於明注的2倍 — a seen player pays double)."""
    return 2 if state.looked[seat] else 1


def _live(state: State) -> list[int]:
    return [s for s in range(state.seats) if state.status[s] == IN]


def _affords(state: State, seat: int, amount: int) -> bool:
    left = _beans_left(state, seat)
    return left is None or left >= amount


def call_cost(state: State, seat: int) -> int:
    """Beans a 跟注 costs the seat now."""
    return state.unit * _rate(state, seat)


def compare_fee(state: State, seat: int) -> int:
    """Beans a 比牌 costs the seat now: twice its own current bet, at most what it has left."""
    fee = 2 * call_cost(state, seat)
    left = _beans_left(state, seat)
    return fee if left is None else min(fee, left)


def raise_levels(state: State, seat: int) -> list[int]:
    """The units the seat may raise to now (higher than the unit, within 單注封頂, affordable)."""
    cfg = state.config
    if state.bets[seat] >= cfg.round_cap:
        return []
    rate = _rate(state, seat)
    return [
        level
        for level in cfg.chip_levels
        if level > state.unit and 2 * level <= cfg.unit_cap and _affords(state, seat, level * rate)
    ]


def _compare_allowed(state: State, seat: int) -> bool:
    """可比手數, or two left, or past 手數封頂, or unable to cover a call (全押比牌)."""
    cfg = state.config
    return (
        len(_live(state)) == 2
        or state.turns[seat] + 1 >= cfg.compare_from_round
        or state.bets[seat] >= cfg.round_cap
        or not _affords(state, seat, call_cost(state, seat))
    )


class ZhajinhuaRuleset(Ruleset[Config, State]):
    """歡樂三張 (炸金花) for 2 to 6 seats."""

    game_id = "zhajinhua"
    title = "歡樂三張"
    variants = VARIANTS
    base_label = "底注"
    room_params = ROOM_PARAMS + TABLE_PARAMS  # + chat, spectators
    action_types = frozenset(ACTION_TYPES)
    free_actions = frozenset({"look", "fold"})  # 看牌 and 棄牌 are taken at any time
    min_seats = 2
    max_seats = 6
    # 2–6 players who sit down between hands; the stakes go into the pot as they are made; an
    # escaper folds and the hand goes on; the pot pays the winner
    table_type = TableType(
        seating=Seating.OPEN,
        stakes_in_play=True,
        escape=Escape.FOLD,
        settlement=Settlement.POT,
    )

    def deal_minimum(self, config: Config) -> int:
        """A seated player is dealt in only if he can pay the 底注."""
        return config.ante

    def opening_stakes(self, state: State) -> list[Event]:
        """Every dealt seat's 底注, staked at the deal."""
        return ante_events(state)

    def escape_action(self, state: State, seat: int) -> Action | None:
        """逃跑: a seat still in the hand folds (what it staked stays in the pot)."""
        if state.status[seat] != IN or self.is_over(state):
            return None
        return {"type": "fold", "escape": True}

    # -- construction -------------------------------------------------------------------------
    def config_from_params(self, params: dict[str, Any]) -> Config:
        return config_from_params(params)

    def new_game(self, config: Config, seed: str, seats: int) -> State:
        """Deal: shuffle the 52 cards with Chance(seed, "deal"); seat s gets cards 3s … 3s+2.

        Every seat stakes the 底注 at once (``state.stakes`` starts at ``ante``; the service
        debits them at the deal, see :func:`ante_events`).
        """
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"歡樂三張 is for 2–6 seats, not {seats}")
        if config.seat_beans and len(config.seat_beans) != seats:
            raise ValueError("seat_beans needs one entry per seat")
        if config.seat_beans and min(config.seat_beans) < config.ante:
            raise ValueError("every seat needs at least the 底注")
        deck = Chance(seed, "deal").shuffled(suited_deck())
        dealer = config.dealer % seats
        return State(
            config=config,
            seed=seed,
            seats=seats,
            hands=[deck[3 * s : 3 * s + 3] for s in range(seats)],
            looked=[False] * seats,
            status=[IN] * seats,
            stakes=[config.ante] * seats,
            bets=[0] * seats,
            turns=[0] * seats,
            unit=config.ante,
            current=(dealer + 1) % seats,
        )

    # -- queries ------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.current < 0 else frozenset({state.current})

    def seat_ids(self, state: State) -> range:
        return range(state.seats)

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal action of the seat, turn actions first.

        Order: 跟注, 加注 (low to high), 比牌 (by target), 棄牌, 看牌. 看牌 and 棄牌 are the
        two actions also legal off turn (:attr:`free_actions`), so a seat that is not to act
        may get ``[fold, look]``.
        """
        out: list[Action] = []
        if state.status[seat] == IN and seat == state.current:
            cost = call_cost(state, seat)
            if state.bets[seat] < state.config.round_cap and _affords(state, seat, cost):
                out.append({"type": "call"})
            out.extend({"type": "raise", "to": level} for level in raise_levels(state, seat))
            if _compare_allowed(state, seat):
                out.extend({"type": "compare", "target": t} for t in _live(state) if t != seat)
        if state.status[seat] == IN:
            out.append({"type": "fold"})
        if not state.looked[seat]:
            out.append({"type": "look"})
        return out

    def is_over(self, state: State) -> bool:
        return state.current < 0

    # -- apply --------------------------------------------------------------------------------
    def _refusal(self, state: State, seat: int, kind: str) -> IllegalAction:
        if self.is_over(state):
            return IllegalAction(ErrorCode.GAME_OVER, "這副牌已結束 (the hand is over)")
        return IllegalAction(ErrorCode.NOT_YOUR_TURN, "還沒輪到你 (not your turn)")

    def _apply_action(self, state: State, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "look":
            return self._look(state, seat)
        if kind == "fold":
            return self._fold(state, seat)
        if kind == "call":
            return self._call(state, seat)
        if kind == "raise":
            return self._raise(state, seat, action)
        return self._compare(state, seat, action)

    def _look(self, state: State, seat: int) -> list[Event]:
        if state.looked[seat]:
            raise IllegalAction(ErrorCode.ILLEGAL, "already looked", {"reason": "already_looked"})
        state.looked[seat] = True
        state.log.append({"type": "look", "seat": seat})
        return [
            Event("look", {"seat": seat}),
            Event("cards", {"seat": seat, "cards": list(state.hands[seat])}, frozenset({seat})),
        ]

    def _fold(self, state: State, seat: int) -> list[Event]:
        if state.status[seat] != IN:
            raise IllegalAction(ErrorCode.ILLEGAL, "out of this hand", {"reason": "out_of_hand"})
        state.status[seat] = FOLDED
        state.log.append({"type": "fold", "seat": seat})
        events = [Event("fold", {"seat": seat})]
        live = _live(state)
        if len(live) == 1:
            events += self._finish(state, live[0], "fold")
        elif seat == state.current:
            state.current = self._next(state, seat)
        return events

    def _call(self, state: State, seat: int) -> list[Event]:
        if state.bets[seat] >= state.config.round_cap:
            raise IllegalAction(
                ErrorCode.ILLEGAL, "round cap reached: compare or fold", {"reason": "round_cap"}
            )
        cost = call_cost(state, seat)
        if not _affords(state, seat, cost):
            raise IllegalAction(
                ErrorCode.OVER_LIMIT, f"not enough beans to call ({cost})", {"need": cost}
            )
        return self._bet(state, seat, "call", cost)

    def _raise(self, state: State, seat: int, action: Action) -> list[Event]:
        cfg = state.config
        to = action.get("to")
        if not isinstance(to, int) or isinstance(to, bool):
            raise IllegalAction(ErrorCode.MALFORMED, "raise needs an integer 'to'")
        if state.bets[seat] >= cfg.round_cap:
            raise IllegalAction(
                ErrorCode.ILLEGAL, "round cap reached: compare or fold", {"reason": "round_cap"}
            )
        if 2 * to > cfg.unit_cap:
            raise IllegalAction(
                ErrorCode.OVER_LIMIT,
                f"above the unit cap {cfg.unit_cap}",
                {"reason": "unit_cap", "cap": cfg.unit_cap},
            )
        if to not in cfg.chip_levels:
            raise IllegalAction(
                ErrorCode.ILLEGAL,
                f"{to} is not a chip level {list(cfg.chip_levels)}",
                {"reason": "chip_level"},
            )
        if to <= state.unit:
            raise IllegalAction(
                ErrorCode.ILLEGAL,
                f"raise above the unit {state.unit}",
                {"reason": "raise_above", "unit": state.unit},
            )
        cost = to * _rate(state, seat)
        if not _affords(state, seat, cost):
            raise IllegalAction(
                ErrorCode.OVER_LIMIT, f"not enough beans to raise ({cost})", {"need": cost}
            )
        state.unit = to
        return self._bet(state, seat, "raise", cost, to=to)

    def _bet(self, state: State, seat: int, kind: str, cost: int, **extra: int) -> list[Event]:
        state.stakes[seat] += cost
        state.bets[seat] += 1
        state.turns[seat] += 1
        state.log.append({"type": kind, "seat": seat, "amount": cost, **extra})
        state.current = self._next(state, seat)
        return [
            Event(kind, {"seat": seat, "amount": cost, "unit": state.unit}),
            Event("stake", {"seat": seat, "amount": cost}),
        ]

    def _compare(self, state: State, seat: int, action: Action) -> list[Event]:
        target = action.get("target")
        if not isinstance(target, int) or isinstance(target, bool):
            raise IllegalAction(ErrorCode.MALFORMED, "compare needs an integer 'target' seat")
        if target == seat:
            raise IllegalAction(
                ErrorCode.ILLEGAL, "cannot compare with yourself", {"reason": "compare_self"}
            )
        if not 0 <= target < state.seats or state.status[target] != IN:
            raise IllegalAction(
                ErrorCode.ILLEGAL, f"座位 {target} 不在局中 (seat {target} is not in the hand)"
            )
        if not _compare_allowed(state, seat):
            raise IllegalAction(
                ErrorCode.ILLEGAL,
                f"第 {state.config.compare_from_round} 手起才可比牌 (too early to compare)",
            )
        fee = compare_fee(state, seat)
        two_left = len(_live(state)) == 2
        # seed: 比牌時如出現雙方牌型及大小相同的情況，主動比牌者為負者
        loser = seat if compare(state.hands[seat], state.hands[target]) <= 0 else target
        state.stakes[seat] += fee
        state.turns[seat] += 1
        state.status[loser] = LOST
        state.compares.append([seat, target, loser])
        state.log.append(
            {"type": "compare", "seat": seat, "target": target, "amount": fee, "loser": loser}
        )
        events = [
            Event("compare", {"seat": seat, "target": target, "amount": fee, "loser": loser}),
        ]
        if fee:
            events.append(Event("stake", {"seat": seat, "amount": fee}))
        live = _live(state)
        if len(live) == 1:
            events += self._finish(state, live[0], "compare" if two_left else "fold")
        else:
            state.current = self._next(state, seat)
        return events

    def _next(self, state: State, seat: int) -> int:
        for step in range(1, state.seats + 1):
            nxt = (seat + step) % state.seats
            if state.status[nxt] == IN:
                return nxt
        raise AssertionError("no live seat")

    def _finish(self, state: State, winner: int, ended_by: str) -> list[Event]:
        state.winner = winner
        state.ended_by = ended_by
        state.current = -1
        pot = sum(state.stakes)
        state.log.append({"type": "end", "winner": winner, "pot": pot})
        return [Event("end", {"winner": winner, "pot": pot, "ended_by": ended_by})]

    # -- visibility ---------------------------------------------------------------------------
    def visible_hands(self, state: State, viewer: int | None) -> set[int]:
        """The seats whose cards ``viewer`` (None: a spectator) may see now.

        Seed: 每局結束時，所有玩家只能看見自己比過或跟自己比過的玩家的手牌。只剩兩位玩家時，
        如果是比牌決定勝負的，則所有玩家（包括旁觀者）都可以看見此二人的底牌。如果是一方放棄
        的情況，則仍不可見。 During the hand a seat sees only its own cards, after 看牌.
        """
        seen: set[int] = set()
        if viewer is not None and state.looked[viewer]:
            seen.add(viewer)
        if state.current >= 0:
            return seen
        if viewer is not None:
            seen.add(viewer)
            for asker, target, _loser in state.compares:
                if viewer == asker:
                    seen.add(target)
                elif viewer == target:
                    seen.add(asker)
        if state.ended_by == "compare":
            asker, target, _loser = state.compares[-1]
            seen.update((asker, target))
        return seen

    def view(self, state: State, seat: int) -> View:
        return self._view(state, seat)

    def spectator_view(self, state: State) -> View:
        return self._view(state, None)

    def _view(self, state: State, viewer: int | None) -> View:
        cfg = state.config
        shown = self.visible_hands(state, viewer)
        seats_view = []
        for s in range(state.seats):
            entry: dict[str, Any] = {
                "seat": s,
                "status": state.status[s],
                "looked": state.looked[s],
                "stake": state.stakes[s],
                "bets": state.bets[s],
                "beans_left": _beans_left(state, s),
                "card_count": 3,
                "dealer": s == cfg.dealer % state.seats,
            }
            if s in shown:
                entry["cards"] = list(state.hands[s])
                entry["hand_class"] = hand_class(state.hands[s])
                entry["hand_name"] = describe(state.hands[s])
            seats_view.append(entry)
        out: View = {
            "game": self.game_id,
            "phase": OVER if state.current < 0 else BETTING,
            "seat": viewer,
            "to_act": sorted(self.to_act(state)),
            "dealer": cfg.dealer % state.seats,
            "ante": cfg.ante,
            "unit": state.unit,
            "unit_cap": cfg.unit_cap,
            "round_cap": cfg.round_cap,
            "compare_from_round": cfg.compare_from_round,
            "chip_levels": list(cfg.chip_levels),
            "pot": sum(state.stakes),
            "seats": seats_view,
            "log": [dict(item) for item in state.log],
            "hand": None,
            "legal_actions": [],
        }
        if state.current >= 0:
            out["round"] = state.turns[state.current] + 1
        if viewer is not None:
            if viewer in shown:
                out["hand"] = list(state.hands[viewer])
                out["hand_class"] = hand_class(state.hands[viewer])
                out["hand_name"] = describe(state.hands[viewer])
            out["legal_actions"] = self.legal_actions(state, viewer)
            out["call_cost"] = call_cost(state, viewer)
            out["compare_fee"] = compare_fee(state, viewer)
        if state.current < 0:
            result = self.result(state)
            out["result"] = {
                "winner": state.winner,
                "ended_by": state.ended_by,
                "scores": list(result.scores),
                "lines": [
                    {"label": line.label, "value": line.value, "seat": line.seat}
                    for line in result.lines
                ],
            }
        return out

    # -- result -------------------------------------------------------------------------------
    def result(self, state: State) -> Result:
        """The winner takes the pot: score = pot − own stakes for him, −stakes for the others."""
        if state.current >= 0:
            raise IllegalAction(ErrorCode.ILLEGAL, "the hand is not over")
        pot = sum(state.stakes)
        winner = state.winner
        scores = tuple(
            pot - state.stakes[s] if s == winner else -state.stakes[s] for s in range(state.seats)
        )
        lines = [ResultLine("鍋底", str(pot))]
        for s in range(state.seats):
            if s == winner:
                lines.append(ResultLine("贏得鍋底", f"+{scores[s]}", s))
            else:
                lines.append(ResultLine(f"{STATUS_ZH[state.status[s]]}・下注", f"{scores[s]}", s))
        payments = [
            {"from": s, "to": winner, "points": state.stakes[s]}
            for s in range(state.seats)
            if s != winner and state.stakes[s] > 0
        ]
        return Result(
            scores=scores,
            winners=(winner,),
            lines=tuple(lines),
            extra={
                "pot": pot,
                "stakes": list(state.stakes),
                "payments": payments,
                "ended_by": state.ended_by,
            },
        )

    def escape_result(self, state: State, seat: int) -> Result:
        """逃跑: the seat forfeits everything it has staked; the hand goes on without it.

        The service applies ``{"type": "fold"}`` for the seat (legal off turn) and charges the
        room's escape penalty on top. Scores here: −stakes for the escaper; if the fold leaves
        one player, the hand ends and that player takes the pot (as in :meth:`result`);
        otherwise the other seats score 0 now and the pot is settled at the end of the hand.
        """
        forfeit = state.stakes[seat]
        live_after = [s for s in _live(state) if s != seat]
        scores = [0] * state.seats
        scores[seat] = -forfeit
        winners: tuple[int, ...] = ()
        if state.current >= 0 and state.status[seat] == IN and len(live_after) == 1:
            pot = sum(state.stakes)
            winner = live_after[0]
            scores = [-state.stakes[s] for s in range(state.seats)]
            scores[winner] = pot - state.stakes[winner]
            winners = (winner,)
        return Result(
            scores=tuple(scores),
            winners=winners,
            lines=(ResultLine("逃跑・沒收下注", f"-{forfeit}", seat),),
            extra={
                "forfeit": forfeit,
                "pot": sum(state.stakes),
                "hand_continues": not winners,
            },
        )

    # -- automation ---------------------------------------------------------------------------
    def auto_action(self, state: State, seat: int) -> Action:
        """托管: never looks; 跟注 while it costs at most 2 × 底注, else 棄牌."""
        legal = self.legal_actions(state, seat)
        if {"type": "call"} in legal and call_cost(state, seat) <= 2 * state.config.ante:
            return {"type": "call"}
        return {"type": "fold"}

    def bot_action(self, state: State, seat: int) -> Action:
        """The bot (and 托管); in a 新手場 (``bot_level`` novice) the baseline player."""
        if state.config.bot_level == NOVICE:
            return baseline.choose(self, state, seat)
        return bot.choose(self, state, seat)

    # -- serialisation ------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        data = asdict(state)
        data["config"] = {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in data["config"].items()
        }
        return data

    def state_from_json(self, data: dict[str, Any]) -> State:
        cfg = dict(data["config"])
        cfg["chip_levels"] = tuple(cfg["chip_levels"])
        cfg["seat_beans"] = tuple(cfg["seat_beans"])
        return State(
            config=Config(**cfg),
            seed=data["seed"],
            seats=data["seats"],
            hands=[list(h) for h in data["hands"]],
            looked=list(data["looked"]),
            status=list(data["status"]),
            stakes=list(data["stakes"]),
            bets=list(data["bets"]),
            turns=list(data["turns"]),
            unit=data["unit"],
            current=data["current"],
            compares=[list(c) for c in data["compares"]],
            log=[dict(item) for item in data["log"]],
            winner=data["winner"],
            ended_by=data["ended_by"],
        )

    # -- testing ------------------------------------------------------------------------------
    def resample_hidden(self, state: State, seat: int, seed: str) -> State:
        """Re-deal every card ``seat`` cannot see (its own too before 看牌) from the unseen rest."""
        copy = self.state_from_json(self.state_to_json(state))
        shown = self.visible_hands(state, seat)
        seen_cards = {card for s in shown for card in state.hands[s]}
        pool = Chance(seed, "resample").shuffled(
            [card for card in suited_deck() if card not in seen_cards]
        )
        for s in range(state.seats):
            if s not in shown:
                copy.hands[s] = [pool.pop() for _ in range(3)]
        return copy

    def all_items(self, state: State) -> list[str] | None:
        return None  # only 3 × seats cards are dealt; the rest of the deck is never used


def ante_events(state: State) -> list[Event]:
    """The 底注 stakes made at the deal, one ``stake`` event per seat (for the ledger)."""
    return [Event("stake", {"seat": s, "amount": state.config.ante}) for s in range(state.seats)]
