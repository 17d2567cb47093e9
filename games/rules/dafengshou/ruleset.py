"""The 大豐收 round engine: one betting window, the spin, the payout (RULES-NOTES decision 7).

One State is one round of the room's wheel. ``new_game(config, seed, seats)`` opens it with
``seats`` bettor slots (the service maps the room's players to slot indices 0 … seats−1, and
opens enough slots for everyone who may bet; a player joining mid-round takes a free slot).

* Bettors (slots 0 … seats−1) act at will while the window is open: ``{"type": "bet",
  "object": crop, "amount": chip}`` any number of times, and ``{"type": "done"}`` to say they
  bet no more this round (托管 and bots use it; a player need not).
* The house (:data:`HOUSE`, seat −1) is the service's clock: ``{"type": "close"}`` closes the
  window, the wheel spins on ``Chance(seed, "spin")`` and the round is over.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from games.engine.chance import Chance
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.params import variant_check
from games.engine.protocol import Action, Event, Result, ResultLine, Ruleset, View

from . import params as room_spec
from . import wheel
from .wheel import (
    LUCK,
    OBJECT_IDS,
    OBJECT_NAMES_ZH,
    RING,
    SPECIAL_NAMES_ZH,
    Config,
    lit_cells,
    payout,
    spin,
)

HOUSE = -1  # the seat the service's clock acts as
BETTING = "betting"
OVER = "over"
ACTION_TYPES = ("bet", "done", "close")


@dataclass(slots=True)
class State:
    """One round of the wheel."""

    config: Config
    seed: str
    seats: int
    phase: str = BETTING
    bets: list[dict[str, int]] = field(default_factory=list)  # per slot: crop → beans
    done: list[bool] = field(default_factory=list)
    outcome: list[Any] | None = None  # [cell, special or None, train length]
    payouts: list[int] = field(default_factory=list)  # per slot, stakes included


def _staked(state: State, seat: int) -> int:
    return sum(state.bets[seat].values())


def _round_total(state: State) -> int:
    return sum(_staked(state, s) for s in range(state.seats))


def _totals(state: State) -> dict[str, int]:
    return {o: sum(b.get(o, 0) for b in state.bets) for o in OBJECT_IDS}


class DafengshouRuleset(Ruleset[Config, State]):
    """大豐收, the room-wide harvest wheel."""

    game_id = "dafengshou"
    title = "大豐收"
    variants = room_spec.VARIANTS
    base_label = None
    room_params = room_spec.ROOM_PARAMS
    min_seats = 1
    max_seats = 1000
    action_types = frozenset(ACTION_TYPES)
    zero_sum = False  # the house pays what the wheel pays
    room_wide = True  # one wheel per room (games/services/dafengshou.py), no tables

    def config_from_params(self, params: dict[str, Any]) -> Config:
        variant_check(self.variants, params.get("variant"), self.variants[0].id)
        return wheel.config_from_params(params)

    def new_game(self, config: Config, seed: str, seats: int) -> State:
        """Open a round's betting window for ``seats`` bettor slots (no randomness used yet)."""
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"大豐收 takes 1–{self.max_seats} bettor slots, not {seats}")
        return State(
            config=config,
            seed=seed,
            seats=seats,
            bets=[{} for _ in range(seats)],
            done=[False] * seats,
            payouts=[0] * seats,
        )

    # -- queries ------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        """While betting: the house and every slot that has not said ``done``."""
        if state.phase != BETTING:
            return frozenset()
        return frozenset({HOUSE} | {s for s in range(state.seats) if not state.done[s]})

    def bet_room(self, state: State, seat: int) -> int:
        """The most the slot may still stake this round (player and round limits)."""
        cfg = state.config
        return max(
            0, min(cfg.player_limit - _staked(state, seat), cfg.round_limit - _round_total(state))
        )

    def seat_ids(self, state: State) -> range:
        """The house (−1) and the bettor slots 0 … seats−1."""
        return range(HOUSE, state.seats)

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        """House: close. A bettor: every crop × chip within the limits, then ``done``."""
        if seat == HOUSE:
            return [{"type": "close"}]
        room = self.bet_room(state, seat)
        out: list[Action] = [
            {"type": "bet", "object": crop, "amount": chip}
            for crop in OBJECT_IDS
            for chip in state.config.chips
            if chip <= room
        ]
        out.append({"type": "done"})
        return out

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    # -- apply --------------------------------------------------------------------------------
    def _refusal(self, state: State, seat: int, kind: str) -> IllegalAction:
        if state.phase != BETTING:
            if kind == "bet":
                return IllegalAction(
                    ErrorCode.WINDOW_CLOSED, "betting is closed", {"reason": "betting_closed"}
                )
            return IllegalAction(ErrorCode.GAME_OVER, "本局已結束 (the round is over)")
        return IllegalAction(ErrorCode.NOT_YOUR_TURN, "you are done", {"reason": "betting_done"})

    def _apply_action(self, state: State, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "close":
            if seat != HOUSE:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "only the house closes the window")
            return self._close(state)
        if seat == HOUSE:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, f"seat {seat!r} is not a bettor slot")
        if kind == "done":
            state.done[seat] = True
            return [Event("done", {"seat": seat})]
        return self._bet(state, seat, action)

    def _bet(self, state: State, seat: int, action: Action) -> list[Event]:
        cfg = state.config
        crop = action.get("object")
        amount = action.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction(ErrorCode.MALFORMED, "a bet needs an integer 'amount'")
        if crop not in OBJECT_IDS:
            raise IllegalAction(ErrorCode.ILLEGAL, f"沒有這個押注對象 {crop!r} (unknown object)")
        if amount not in cfg.chips:
            raise IllegalAction(
                ErrorCode.ILLEGAL, f"not a chip size {list(cfg.chips)}", {"reason": "chip_size"}
            )
        if _staked(state, seat) + amount > cfg.player_limit:
            raise IllegalAction(
                ErrorCode.OVER_LIMIT,
                f"player limit {cfg.player_limit}",
                {"reason": "player_limit", "limit": cfg.player_limit},
            )
        if _round_total(state) + amount > cfg.round_limit:
            raise IllegalAction(
                ErrorCode.OVER_LIMIT,
                f"round limit {cfg.round_limit}",
                {"reason": "round_limit", "limit": cfg.round_limit},
            )
        state.bets[seat][crop] = state.bets[seat].get(crop, 0) + amount
        return [
            Event("bet", {"seat": seat, "object": crop, "amount": amount}, frozenset({seat})),
            Event("stake", {"seat": seat, "amount": amount}, frozenset({seat})),
            Event("totals", {"totals": _totals(state)}),
        ]

    def _close(self, state: State) -> list[Event]:
        outcome = spin(state.config, state.seed)
        state.outcome = list(outcome)
        state.phase = OVER
        state.payouts = [payout(state.config, state.bets[s], outcome) for s in range(state.seats)]
        events = [Event("close", {}), Event("spin", self._outcome_view(state))]
        events += [
            Event("payout", {"seat": s, "amount": n}, frozenset({s}))
            for s, n in enumerate(state.payouts)
            if n
        ]
        return events

    # -- views --------------------------------------------------------------------------------
    def _outcome_view(self, state: State) -> dict[str, Any]:
        assert state.outcome is not None
        cell, special, train = state.outcome
        lit = lit_cells((cell, special, train))
        return {
            "cell": cell,
            "special": special,
            "special_name": SPECIAL_NAMES_ZH[special] if special else None,
            "train": train,
            "lit": list(lit),
            "winning_objects": [o for o in OBJECT_IDS if any(RING[c][1] == o for c in lit)],
            "total_payout": sum(state.payouts),
        }

    def ring(self, config: Config) -> list[dict[str, Any]]:
        """The 24 cells for drawing the ring (clockwise from the top-left corner)."""
        out = []
        for cell, (kind, crop) in enumerate(RING):
            entry: dict[str, Any] = {"cell": cell, "kind": kind}
            if kind == LUCK:
                entry["name"] = "好運"
            else:
                assert crop is not None
                entry.update(object=crop, name=OBJECT_NAMES_ZH[crop], odds=config.cell_odds(cell))
            out.append(entry)
        return out

    def view(self, state: State, seat: int) -> View:
        return self._view(state, seat)

    def spectator_view(self, state: State) -> View:
        return self._view(state, None)

    def _view(self, state: State, seat: int | None) -> View:
        cfg = state.config
        out: View = {
            "game": self.game_id,
            "phase": state.phase,
            "seat": seat,
            "to_act": sorted(self.to_act(state)),
            "ring": self.ring(cfg),
            "objects": [
                {"object": o, "name": OBJECT_NAMES_ZH[o], "odds": cfg.odds[i]}
                for i, o in enumerate(OBJECT_IDS)
            ],
            "small_odds": cfg.small_odds,
            "chips": list(cfg.chips),
            "player_limit": cfg.player_limit,
            "round_limit": cfg.round_limit,
            "totals": _totals(state),
            "round_total": _round_total(state),
            "legal_actions": [],
        }
        if seat is not None and 0 <= seat < state.seats:
            out["my_bets"] = {o: state.bets[seat].get(o, 0) for o in OBJECT_IDS}
            out["my_total"] = _staked(state, seat)
            out["bet_room"] = self.bet_room(state, seat)
            out["done"] = state.done[seat]
            out["legal_actions"] = self.legal_actions(state, seat)
        elif seat == HOUSE:
            out["legal_actions"] = self.legal_actions(state, seat)
        if state.phase == OVER:
            out["result"] = self._outcome_view(state)
            if seat is not None and 0 <= seat < state.seats:
                out["result"]["payout"] = state.payouts[seat]
                out["result"]["net"] = state.payouts[seat] - _staked(state, seat)
        return out

    # -- result -------------------------------------------------------------------------------
    def result(self, state: State) -> Result:
        """Each slot's net (payout − stakes); the house takes the rest (not zero-sum)."""
        if state.phase != OVER or state.outcome is None:
            raise IllegalAction(ErrorCode.ILLEGAL, "the round is not over")
        stakes = [_staked(state, s) for s in range(state.seats)]
        scores = tuple(state.payouts[s] - stakes[s] for s in range(state.seats))
        outcome = self._outcome_view(state)
        cell = outcome["cell"]
        kind, crop = RING[cell]
        if outcome["special_name"]:
            drawn = outcome["special_name"]
        else:
            assert crop is not None
            drawn = f"{OBJECT_NAMES_ZH[crop]}（{'大' if kind == 'big' else '小'}）"
        lines = [ResultLine("開獎", drawn)]
        for s in range(state.seats):
            if stakes[s] or state.payouts[s]:
                lines.append(ResultLine("押注", f"-{stakes[s]}", s))
                if state.payouts[s]:
                    lines.append(ResultLine("贏得", f"+{state.payouts[s]}", s))
        return Result(
            scores=scores,
            winners=tuple(s for s in range(state.seats) if scores[s] > 0),
            lines=tuple(lines),
            extra={
                **outcome,
                "stakes": stakes,
                "payouts": list(state.payouts),
                "bets": [dict(b) for b in state.bets],
                "house_net": -sum(scores),
            },
        )

    def escape_result(self, state: State, seat: int) -> Result:
        """Leaving is not escaping here: the slot's bets stand and are settled with the round."""
        return Result(
            scores=(0,) * state.seats,
            winners=(),
            lines=(ResultLine("離開・押注照常結算", "0", seat),),
            extra={"bets_stand": True, "staked": _staked(state, seat)},
        )

    # -- automation ---------------------------------------------------------------------------
    def auto_action(self, state: State, seat: int) -> Action:
        """The house's clock closes the window; 托管 for a bettor bets nothing more."""
        return {"type": "close"} if seat == HOUSE else {"type": "done"}

    def bot_action(self, state: State, seat: int) -> Action:
        """A bot stakes the smallest chip on one to three crops (mostly cheap ones), then done."""
        if seat == HOUSE:
            return {"type": "close"}
        placed = len(state.bets[seat])
        chance = Chance(state.seed, f"bot:{seat}:{placed}")
        wanted = 1 + Chance(state.seed, f"bot:{seat}").below(3)
        chip = state.config.chips[0]
        if placed >= wanted or self.bet_room(state, seat) < chip:
            return {"type": "done"}
        # favour the low-odds crops: index = min of two draws
        crop = OBJECT_IDS[min(chance.below(len(OBJECT_IDS)), chance.below(len(OBJECT_IDS)))]
        if crop in state.bets[seat]:
            return {"type": "done"}
        return {"type": "bet", "object": crop, "amount": chip}

    # -- serialisation ------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        data = asdict(state)
        data["config"] = {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in data["config"].items()
        }
        return data

    def state_from_json(self, data: dict[str, Any]) -> State:
        cfg: dict[str, Any] = {
            key: tuple(value) if isinstance(value, list) else value
            for key, value in data["config"].items()
        }
        return State(
            config=Config(**cfg),
            seed=data["seed"],
            seats=data["seats"],
            phase=data["phase"],
            bets=[dict(b) for b in data["bets"]],
            done=list(data["done"]),
            outcome=list(data["outcome"]) if data["outcome"] is not None else None,
            payouts=list(data["payouts"]),
        )

    def resample_hidden(self, state: State, seat: int, seed: str) -> State:
        """Before the spin the seed (hence the outcome) is hidden: replace it. After, nothing is."""
        other = copy.deepcopy(state)
        if state.phase == BETTING:
            other.seed = seed
        return other
