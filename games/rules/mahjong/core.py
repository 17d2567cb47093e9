"""The mahjong core: wall, deal, turn, claim window, 搶槓, 流局 — shared by every variant.

A variant is a subclass of :class:`MahjongRuleset` in ``variants/<name>.py`` that sets
``game_id``, ``title``, ``config_cls`` and overrides the hooks (marked *hook* below): the wall,
the hand size, flowers, wild tiles, special shapes, 吃 / 一炮多響 / 漏胡 options, the win
evaluation (fans, minimum) and the settlement. The flow itself lives here.

Flow (all seat numbers in the order of play; the next seat is ``(s + 1) % seats``):

1. ``new_game`` shuffles the wall from the seed (``Chance(seed, "deal").shuffled``), lets the
   variant's ``pre_deal`` reorder it (樂清: the dice pick the opening 墩) and record what it drew,
   deals 13 (or the variant's hand size) to every seat from the front, seat by seat from the
   dealer, then one more to the dealer; the variant's ``setup`` runs (e.g. the 財神 flip); then
   every seat, from the dealer on, exposes its flowers and replaces them from the back until none
   is left.
2. ``turn``: the seat holding 3k+2 tiles discards, or declares 暗槓 / 加槓 / 自摸 (胡). Draws are
   made by the engine: from the front, replacements (槓, 補花) from the back; a drawn flower is
   exposed and replaced at once. After 吃 / 碰 the seat only discards.
3. ``claim``: after a discard every other seat that may claim is in ``to_act`` at once, each with
   exactly its options (``hu`` > ``peng`` / ``gang`` > ``chi``; 吃 only by the next seat, whose left
   the discarder sits on) and ``pass``. A claim below one already made is refused
   (``lower_priority``). The engine resolves as soon as no seat still to answer could change the
   outcome: 胡 wins (several at once with ``multi_win`` 一炮多響, else the first in order from the
   discarder), then 碰 / 明槓, then 吃; if all pass the next seat draws.
4. ``robkong``: a 加槓 opens a window in which only 胡 (搶槓和) or pass is possible.
5. The hand ends on a win, or 流局 when a draw is due and only ``reserve`` tiles are left.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from games.engine.chance import Chance
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.params import NOVICE, variant_check
from games.engine.protocol import Action, Event, Result, Ruleset, View
from games.engine.tiles import KINDS, standard_wall
from games.rules.mahjong import bot as botlib
from games.rules.mahjong import play as botplay
from games.rules.mahjong.baseline import baseline_action
from games.rules.mahjong.hands import full_caps, is_win, waits
from games.rules.mahjong.tiles import ALL_TILES, counts_of, is_flower, sort_tiles

WIND_NAMES = ("東", "南", "西", "北")
ACTION_TYPES = frozenset({"discard", "angang", "jiagang", "hu", "chi", "peng", "gang", "pass"})
CLAIM_TYPES = frozenset({"chi", "peng", "gang", "pass"})
PRIORITY = {"pass": 0, "chi": 1, "peng": 2, "gang": 2, "hu": 3}


@dataclass(frozen=True, slots=True)
class CoreConfig:
    """Options every variant has. Variants subclass this with their own fields."""

    dealer: int = 0  # 莊家 seat for this hand (the platform passes the previous next_dealer)
    prevalent_wind: int = 0  # 圈風: 0 東, 1 南, 2 西, 3 北
    multi_win: bool = False  # 一炮多響: several seats may win on one discard
    lou_hu: bool = False  # 漏胡: a passed win bars winning on discards until the seat draws
    bot_level: str = "normal"  # 機器人強度: "novice" (新手場) plays the baseline player


@dataclass(slots=True)
class WinContext:
    """What a win looks like: the facts a variant needs to evaluate it."""

    seat: int
    tile: str  # the winning tile (the drawn tile, the discard, or the robbed kong tile)
    concealed: list[str]  # the concealed tiles without the winning tile
    tile_is_wild: bool  # a 財神 drawn by the winner (a claimed 財神 is a natural tile)
    self_drawn: bool
    rob_kong: bool = False  # 搶槓和
    after_kong: bool = False  # 槓上開花 (the draw replaced a 槓)
    wall_last: bool = False  # 妙手回春 / 海底撈月
    from_seat: int | None = None


@dataclass
class State:
    """One hand of mahjong. Plain JSON-able fields; see :func:`MahjongRuleset.state_to_json`."""

    game_id: str
    config: dict[str, Any]
    seats: int
    dealer: int
    wall: list[str]  # index 0 is the front (draws), the end is the back (replacements)
    hands: list[list[str]]  # concealed tiles; a drawn tile is the last element
    drawn: list[str | None]
    melds: list[list[dict[str, Any]]]
    discards: list[list[str]]
    flowers: list[list[str]]
    phase: str = "turn"  # turn | claim | robkong | over
    current: int = 0
    claim: dict[str, Any] | None = None
    after_kong: bool = False
    must_discard: bool = False
    last_wall_tile: str | None = None
    passed_hu: list[bool] = field(default_factory=list)
    discard_count: int = 0
    claims_made: int = 0
    vars: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None


class MahjongRuleset(Ruleset[Any, State]):
    """The shared flow. Subclasses are the variants."""

    game_id: ClassVar[str] = "mahjong"
    action_types: ClassVar[frozenset[str]] = ACTION_TYPES
    title: ClassVar[str] = "麻將"
    min_seats: ClassVar[int] = 4
    max_seats: ClassVar[int] = 4
    config_cls: ClassVar[type] = CoreConfig

    # == hooks ==================================================================================
    def hand_size(self, config: Any) -> int:
        """*hook* Tiles in a hand before the draw: 13 (樂清: 16)."""
        return 13

    def wall_tiles(self, config: Any) -> list[str]:
        """*hook* The tiles of the wall before the shuffle."""
        return standard_wall(with_flowers=False)

    def pre_deal(
        self, config: Any, seed: str, wall: list[str], dealer: int
    ) -> tuple[list[str], dict[str, Any]]:
        """*hook* Before the deal: the wall as dealt from (index 0 is the front) and the
        ``state.vars`` to record (e.g. the dice). Any chance it needs is drawn from the hand's
        seed under its own name, so a replay re-derives it. Default: the shuffle as it is."""
        return wall, {}

    def setup(self, state: State, config: Any) -> list[Event]:
        """*hook* After the deal, before 補花 (e.g. the 財神 flip)."""
        return []

    def tile_is_flower(self, state: State, tile: str) -> bool:
        """*hook* Tiles exposed and replaced when drawn (花; 樂清 adds 白板 and 杠頭)."""
        return is_flower(tile)

    def wild_kinds(self, state: State) -> frozenset[str]:
        """*hook* The kinds that are wild (財神) in this hand."""
        return frozenset(state.vars.get("wild", ()))

    def shapes(self, config: Any) -> frozenset[str]:
        """*hook* Special shapes besides sets + pair (see :mod:`hands`)."""
        return frozenset()

    def allow_chi(self, config: Any) -> bool:
        """*hook* Whether 吃 exists."""
        return True

    def reserve(self, state: State) -> int:
        """*hook* Tiles left in the wall at which the hand is drawn (流局)."""
        return 0

    def may_win_on_discard(self, state: State, seat: int) -> bool:
        """*hook* Whether the seat may win on another's tile now (e.g. 財神 rules, 包 locks)."""
        return True

    def evaluate_win(self, state: State, ctx: WinContext) -> dict[str, Any] | None:
        """*hook* None if not a winning hand; else a JSON dict with at least ``ok`` (meets the
        room's minimum), ``total`` and ``reason`` (why not ok)."""
        if not self.shape_wins(state, ctx):
            return None
        return {"ok": True, "total": 0, "reason": ""}

    def on_finish(self, state: State) -> None:
        """*hook* When the hand ends (win or 流局): e.g. draw the 鳥."""

    def settle(self, state: State) -> Result:
        """*hook* The Result of a finished hand (state.outcome is set)."""
        return Result(scores=tuple(0 for _ in range(state.seats)), winners=())

    def next_dealer(self, state: State) -> int:
        """*hook* Who deals next: the dealer stays (連莊) on a dealer win or 流局."""
        out = state.outcome or {}
        if out.get("type") != "win" or state.dealer in out.get("winners", []):
            return state.dealer
        return (state.dealer + 1) % state.seats

    def variant_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """*hook* Public variant-specific view data (room kind, 財神, markers)."""
        return {}

    # == helpers ================================================================================
    def cfg(self, state: State) -> Any:
        return self.config_cls(**state.config)

    def seat_wind(self, state: State, seat: int) -> int:
        """門風: the dealer is 東, then 南 西 北 in the order of play."""
        return (seat - state.dealer) % state.seats

    def sets_needed(self, state: State, seat: int) -> int:
        return self.hand_size(self.cfg(state)) // 3 - len(state.melds[seat])

    def meld_counts(self, state: State, seat: int) -> tuple[int, ...]:
        return counts_of(t for m in state.melds[seat] for t in m["tiles"])

    def split_wilds(
        self, state: State, seat: int, concealed: list[str], natural: str | None = None
    ) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
        """(counts of naturals, number of wilds, caps) of concealed tiles (+ a natural tile)."""
        wild = self.wild_kinds(state)
        naturals = [t for t in concealed if t not in wild]
        wilds = len(concealed) - len(naturals)
        if natural is not None:
            naturals.append(natural)
        counts = counts_of(naturals)
        return counts, wilds, full_caps(counts, self.meld_counts(state, seat))

    def shape_wins(self, state: State, ctx: WinContext) -> bool:
        if ctx.tile_is_wild:
            counts, wilds, caps = self.split_wilds(state, ctx.seat, ctx.concealed + [ctx.tile])
        else:
            counts, wilds, caps = self.split_wilds(state, ctx.seat, ctx.concealed, ctx.tile)
        return is_win(
            counts, wilds, caps, self.sets_needed(state, ctx.seat), self.shapes(self.cfg(state))
        )

    def visible_count(self, state: State, tile: str) -> int:
        """Copies of ``tile`` face up on the table (discards and exposed melds)."""
        n = sum(d.count(tile) for d in state.discards)
        for seat_melds in state.melds:
            for m in seat_melds:
                if m["kind"] != "angang":
                    n += m["tiles"].count(tile)
        return n

    def win_context(self, state: State, seat: int, *, rob_kong: bool = False) -> WinContext:
        """The context for a win by ``seat`` now (self-drawn in turn, else on the claimed tile)."""
        if state.phase == "turn":
            hand = list(state.hands[seat])
            tile = state.drawn[seat] or hand[-1]
            hand.remove(tile)
            return WinContext(
                seat=seat,
                tile=tile,
                concealed=hand,
                tile_is_wild=tile in self.wild_kinds(state),
                self_drawn=True,
                after_kong=state.after_kong,
                wall_last=len(state.wall) <= self.reserve(state),
            )
        claim = state.claim or {}
        return WinContext(
            seat=seat,
            tile=claim["tile"],
            concealed=list(state.hands[seat]),
            tile_is_wild=False,
            self_drawn=False,
            rob_kong=claim["kind"] == "robkong",
            wall_last=len(state.wall) <= self.reserve(state),
            from_seat=claim["from"],
        )

    # == construction ===========================================================================
    def config_from_params(self, params: dict[str, Any]) -> Any:
        if self.variants:
            variant_check(self.variants, params.get("variant"), self.variants[0].id)
        names = {f.name: f for f in fields(self.config_cls)}
        # a room option is checked against its declaration (ParamError on its field)
        spec = {p.name: p for p in self.room_params}
        values: dict[str, Any] = {}
        for key, value in params.items():
            if key in spec:
                value = spec[key].parse(value)
            if key in names:
                default = names[key].default
                if isinstance(default, bool):
                    value = (
                        value
                        if isinstance(value, bool)
                        else str(value).lower() in ("1", "true", "yes", "on")
                    )
                elif isinstance(default, int):
                    value = int(value)
                values[key] = value
        return self.config_cls(**values)

    def new_game(self, config: Any, seed: str, seats: int) -> State:
        if seats != 4:
            raise ValueError("mahjong is played by four seats")
        dealer = config.dealer % seats
        shuffled = Chance(seed, "deal").shuffled(self.wall_tiles(config))
        wall, pre_vars = self.pre_deal(config, seed, shuffled, dealer)
        wall = list(wall)
        size = self.hand_size(config)
        hands: list[list[str]] = [[] for _ in range(seats)]
        for i in range(seats):
            s = (dealer + i) % seats
            hands[s] = wall[:size]
            del wall[:size]
        hands[dealer].append(wall.pop(0))
        state = State(
            game_id=self.game_id,
            config=asdict(config),
            seats=seats,
            dealer=dealer,
            wall=wall,
            hands=hands,
            drawn=[None] * seats,
            melds=[[] for _ in range(seats)],
            discards=[[] for _ in range(seats)],
            flowers=[[] for _ in range(seats)],
            phase="turn",
            current=dealer,
            passed_hu=[False] * seats,
        )
        state.drawn[dealer] = hands[dealer][-1]
        state.last_wall_tile = hands[dealer][-1]
        state.vars.update(pre_vars)
        self.setup(state, config)
        # initial 補花, seat by seat from the dealer, until no flower is left in any hand
        changed = True
        while changed and state.phase != "over":
            changed = False
            for i in range(seats):
                s = (dealer + i) % seats
                while state.phase != "over":
                    fl = [t for t in state.hands[s] if self.tile_is_flower(state, t)]
                    if not fl:
                        break
                    changed = True
                    for t in fl:
                        state.hands[s].remove(t)
                        state.flowers[s].append(t)
                        if not self._replace(state, s):
                            break
        if state.phase != "over":
            if state.drawn[dealer] not in state.hands[dealer]:
                state.drawn[dealer] = state.hands[dealer][-1]
            else:
                # keep the drawn tile last (the convention the views rely on)
                state.hands[dealer].remove(state.drawn[dealer])
                state.hands[dealer].append(state.drawn[dealer])
        return state

    @staticmethod
    def _moved(state: State, seat: int) -> None:
        """The seat drew or claimed (動牌): the tiles it let pass (``state.vars["passed"]``,
        the discards since, which it did not 胡 on) start again."""
        passed = state.vars.get("passed")
        if passed:
            passed[seat] = []

    def _replace(self, state: State, seat: int) -> bool:
        """Append one tile from the back to the seat's hand (no flower handling); False → 流局."""
        if len(state.wall) <= self.reserve(state):
            self._finish_draw(state)
            return False
        tile = state.wall.pop()
        state.last_wall_tile = tile
        state.hands[seat].append(tile)
        return True

    # == queries ================================================================================
    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase in ("claim", "robkong"):
            claim = state.claim or {}
            return frozenset(
                s
                for s in range(state.seats)
                if claim["options"][s] and claim["responses"][s] is None
            )
        return frozenset({state.current})

    def seat_ids(self, state: State) -> range:
        return range(state.seats)

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.phase == "turn":
            return self._turn_actions(state, seat)
        claim = state.claim or {}
        best = self._best_priority(claim)
        return [
            a for a in claim["options"][seat] if a["type"] == "pass" or PRIORITY[a["type"]] >= best
        ]

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        hand = state.hands[seat]
        out: list[Action] = [{"type": "discard", "tile": t} for t in sort_tiles(set(hand))]
        if state.must_discard:
            return out
        wild = self.wild_kinds(state)
        can_kong = len(state.wall) > self.reserve(state)
        if can_kong:
            for t in sort_tiles(set(hand)):
                if hand.count(t) == 4 and t not in wild:
                    out.append({"type": "angang", "tile": t})
            for m in state.melds[seat]:
                if m["kind"] == "peng" and m["tiles"][0] in hand:
                    out.append({"type": "jiagang", "tile": m["tiles"][0]})
        ev = self.evaluate_win(state, self.win_context(state, seat))
        if ev is not None and ev["ok"]:
            out.append({"type": "hu"})
        return out

    def _best_priority(self, claim: dict[str, Any]) -> int:
        best = 0
        for r in claim["responses"]:
            if r is not None:
                best = max(best, PRIORITY[r["type"]])
        return best

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def result(self, state: State) -> Result:
        if state.phase != "over":
            raise ValueError("the hand is not over")
        return self.settle(state)

    # == apply ==================================================================================
    def _refusal(self, state: State, seat: int, kind: str) -> IllegalAction:
        if state.phase == "turn" and kind in CLAIM_TYPES:
            return IllegalAction(ErrorCode.WINDOW_CLOSED, "no claim window is open (已過)")
        if self.is_over(state):
            return super()._refusal(state, seat, kind)
        return IllegalAction(ErrorCode.NOT_YOUR_TURN, "not this seat's decision now")

    def _apply_action(self, state: State, seat: int, action: Action) -> list[Event]:
        if state.phase == "turn":
            if action["type"] in CLAIM_TYPES:
                raise IllegalAction(
                    ErrorCode.WINDOW_CLOSED, "no claim window is open: discard or declare"
                )
            return self._apply_turn(state, seat, action)
        return self._apply_claim(state, seat, action)

    def _tile_arg(self, action: Action, key: str = "tile") -> str:
        tile = action.get(key)
        if not isinstance(tile, str) or tile not in ALL_TILES:
            raise IllegalAction(ErrorCode.MALFORMED, f"'{key}' must be a tile like 'W5'")
        return tile

    # -- the turn -----------------------------------------------------------------------------
    def _apply_turn(self, state: State, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        hand = state.hands[seat]
        wild = self.wild_kinds(state)
        if kind == "discard":
            tile = self._tile_arg(action)
            if tile not in hand:
                raise IllegalAction(
                    ErrorCode.NOT_HELD, f"{tile} is not in the hand", {"tile": tile}
                )
            return self._discard(state, seat, tile)
        if kind == "hu":
            if state.must_discard:
                raise IllegalAction(
                    ErrorCode.ILLEGAL,
                    "after 吃/碰 the seat must discard",
                    {"reason": "discard_after_claim"},
                )
            ctx = self.win_context(state, seat)
            ev = self.evaluate_win(state, ctx)
            self._check_win(ev)
            return self._finish_win(state, [seat], ctx.tile, None, self_drawn=True)
        tile = self._tile_arg(action)
        if state.must_discard:
            raise IllegalAction(
                ErrorCode.ILLEGAL,
                "after 吃/碰 the seat must discard",
                {"reason": "discard_after_claim"},
            )
        if tile in wild:
            raise IllegalAction(
                ErrorCode.NOT_ALLOWED, "財神 cannot be used in a 槓", {"reason": "caishen_meld"}
            )
        if len(state.wall) <= self.reserve(state):
            raise IllegalAction(ErrorCode.ILLEGAL, "no tile is left to replace a 槓")
        if kind == "angang":
            if hand.count(tile) < 4:
                raise IllegalAction(ErrorCode.NOT_HELD, f"暗槓 needs four {tile} in the hand")
            for _ in range(4):
                hand.remove(tile)
            state.melds[seat].append(
                {"kind": "angang", "tiles": [tile] * 4, "from": None, "claimed": None}
            )
            state.drawn[seat] = None
            events = [Event("angang", {"seat": seat})]
            return events + self._draw(state, seat, back=True)
        # jiagang
        meld = next(
            (m for m in state.melds[seat] if m["kind"] == "peng" and m["tiles"][0] == tile), None
        )
        if meld is None:
            raise IllegalAction(ErrorCode.ILLEGAL, f"加槓 needs a 碰 of {tile}")
        if tile not in hand:
            raise IllegalAction(ErrorCode.NOT_HELD, f"{tile} is not in the hand", {"tile": tile})
        # 搶槓: the other seats that could win on this tile
        options: list[list[Action]] = [[] for _ in range(state.seats)]
        probe = copy.copy(state)
        probe.phase = "robkong"
        probe.claim = {"tile": tile, "from": seat, "kind": "robkong"}
        any_option = False
        for other in range(state.seats):
            if other == seat or not self._may_win_here(state, other):
                continue
            ev = self.evaluate_win(probe, self.win_context(probe, other))
            if ev is not None and ev["ok"]:
                options[other] = [{"type": "hu"}, {"type": "pass"}]
                any_option = True
        events = [Event("jiagang", {"seat": seat, "tile": tile})]
        if any_option:
            state.phase = "robkong"
            state.claim = {
                "tile": tile,
                "from": seat,
                "kind": "robkong",
                "options": options,
                "responses": [None] * state.seats,
            }
            return events
        return events + self._complete_jiagang(state, seat, tile)

    def _complete_jiagang(self, state: State, seat: int, tile: str) -> list[Event]:
        meld = next(m for m in state.melds[seat] if m["kind"] == "peng" and m["tiles"][0] == tile)
        state.hands[seat].remove(tile)
        meld["kind"] = "jiagang"
        meld["tiles"] = [tile] * 4
        state.drawn[seat] = None
        state.phase = "turn"
        state.claim = None
        return self._draw(state, seat, back=True)

    def _may_win_here(self, state: State, seat: int) -> bool:
        cfg = self.cfg(state)
        if cfg.lou_hu and state.passed_hu[seat]:
            return False
        return self.may_win_on_discard(state, seat)

    def _check_win(self, ev: dict[str, Any] | None) -> None:
        if ev is None:
            raise IllegalAction(
                ErrorCode.ILLEGAL, "not a winning hand (不是和牌)", {"reason": "not_winning"}
            )
        if not ev["ok"]:
            raise IllegalAction(
                ErrorCode.NOT_ALLOWED,
                f"below the room's minimum: {ev.get('reason', '')}",
                {"reason": "below_minimum"},
            )

    def _discard(self, state: State, seat: int, tile: str) -> list[Event]:
        state.hands[seat].remove(tile)
        state.drawn[seat] = None
        state.discards[seat].append(tile)
        passed = state.vars.setdefault("passed", [[] for _ in range(state.seats)])
        for other in range(state.seats):
            if other != seat:
                passed[other].append(tile)
        state.after_kong = False
        state.must_discard = False
        state.discard_count += 1
        events = [Event("discard", {"seat": seat, "tile": tile})]
        options = self._claim_options(state, seat, tile)
        if any(options):
            state.phase = "claim"
            state.claim = {
                "tile": tile,
                "from": seat,
                "kind": "discard",
                "options": options,
                "responses": [None] * state.seats,
            }
            return events
        return events + self._next_turn(state, seat)

    def _claim_options(self, state: State, seat: int, tile: str) -> list[list[Action]]:
        cfg = self.cfg(state)
        wild = self.wild_kinds(state)
        wall_left = len(state.wall) > self.reserve(state)
        probe = copy.copy(state)
        probe.phase = "claim"
        probe.claim = {"tile": tile, "from": seat, "kind": "discard"}
        out: list[list[Action]] = []
        for other in range(state.seats):
            opts: list[Action] = []
            if other != seat:
                hand = state.hands[other]
                if self._may_win_here(state, other):
                    ev = self.evaluate_win(probe, self.win_context(probe, other))
                    if ev is not None and ev["ok"]:
                        opts.append({"type": "hu"})
                if wall_left and tile not in wild:
                    n = hand.count(tile)
                    if n >= 3:
                        opts.append({"type": "gang"})
                    if n >= 2:
                        opts.append({"type": "peng"})
                    if (
                        self.allow_chi(cfg)
                        and other == (seat + 1) % state.seats
                        and tile[0] in "WTB"
                    ):
                        opts.extend(self._chi_options(hand, tile, wild))
                if opts:
                    opts.append({"type": "pass"})
            out.append(opts)
        return out

    def _chi_options(self, hand: list[str], tile: str, wild: frozenset[str]) -> list[Action]:
        suit, n = tile[0], int(tile[1:])
        out: list[Action] = []
        for start in (n - 2, n - 1, n):
            if start < 1 or start + 2 > 9:
                continue
            others = [f"{suit}{k}" for k in range(start, start + 3) if k != n]
            if all(o in hand and o not in wild for o in others):
                out.append({"type": "chi", "tiles": others})
        return out

    def _next_turn(self, state: State, discarder: int) -> list[Event]:
        state.phase = "turn"
        state.claim = None
        return self._draw(state, (discarder + 1) % state.seats, back=False)

    def _draw(self, state: State, seat: int, *, back: bool) -> list[Event]:
        """Draw for the seat (front, or back for a replacement), exposing flowers."""
        events: list[Event] = []
        state.current = seat
        state.phase = "turn"
        state.claim = None
        state.must_discard = False
        state.passed_hu[seat] = False  # 漏胡 ends when the seat 動牌
        from_back = back
        flowered = False
        while True:
            if len(state.wall) <= self.reserve(state):
                self._finish_draw(state)
                return events + [Event("liuju", {})]
            tile = state.wall.pop() if from_back else state.wall.pop(0)
            state.last_wall_tile = tile
            if self.tile_is_flower(state, tile):
                state.flowers[seat].append(tile)
                events.append(Event("flower", {"seat": seat, "tile": tile}))
                from_back = True  # 補花 from the back
                flowered = True
                continue
            break
        # 001: a win on a 補花 replacement is 自摸, never 槓上開花
        state.after_kong = back and not flowered
        state.hands[seat].append(tile)
        self._moved(state, seat)
        state.drawn[seat] = tile
        events.append(Event("draw", {"seat": seat, "tile": tile}, to=frozenset({seat})))
        events.append(Event("draw_public", {"seat": seat}))
        return events

    # -- the claim window ---------------------------------------------------------------------
    def _apply_claim(self, state: State, seat: int, action: Action) -> list[Event]:
        claim = state.claim or {}
        kind = action["type"]
        options = claim["options"][seat]
        normal = self._normalise_claim(action)
        if normal not in options:
            self._explain_bad_claim(state, seat, action, options)
        if kind != "pass" and PRIORITY[kind] < self._best_priority(claim):
            raise IllegalAction(
                ErrorCode.LOWER_PRIORITY, "a higher claim has been made (胡 > 碰/槓 > 吃)"
            )
        claim["responses"][seat] = normal
        if kind == "pass" and {"type": "hu"} in options:
            state.passed_hu[seat] = True
        events = [Event("claim", {"seat": seat, "type": kind})]
        return events + self._maybe_resolve(state)

    def _normalise_claim(self, action: Action) -> Action:
        kind = action["type"]
        if kind == "chi":
            tiles = action.get("tiles")
            if (
                not isinstance(tiles, list)
                or len(tiles) != 2
                or not all(isinstance(t, str) and t in ALL_TILES for t in tiles)
            ):
                raise IllegalAction(
                    ErrorCode.MALFORMED,
                    "吃 names the two tiles from the hand: {'type': 'chi', 'tiles': ['W3', 'W4']}",
                )
            return {"type": "chi", "tiles": sort_tiles(tiles)}
        if kind in ("discard", "angang", "jiagang"):
            raise IllegalAction(ErrorCode.ILLEGAL, "a claim window is open: claim or pass")
        return {"type": kind}

    def _explain_bad_claim(
        self, state: State, seat: int, action: Action, options: list[Action]
    ) -> None:
        claim = state.claim or {}
        kind = action["type"]
        tile = claim["tile"]
        wild = self.wild_kinds(state)
        if kind == "chi":
            if claim["kind"] == "robkong":
                raise IllegalAction(ErrorCode.ILLEGAL, "only 胡 may rob a 槓")
            if seat != (claim["from"] + 1) % state.seats:
                raise IllegalAction(
                    ErrorCode.NOT_ALLOWED,
                    "吃 only from the seat on the left (上家)",
                    {"reason": "chi_left_only"},
                )
            if tile in wild or any(t in wild for t in action["tiles"]):
                raise IllegalAction(
                    ErrorCode.NOT_ALLOWED, "財神 cannot be used in a 吃", {"reason": "caishen_meld"}
                )
            raise IllegalAction(ErrorCode.NOT_HELD, "those tiles do not make a 吃 with the discard")
        if kind in ("peng", "gang"):
            if tile in wild:
                raise IllegalAction(
                    ErrorCode.NOT_ALLOWED,
                    "財神 cannot be used in a 碰/槓",
                    {"reason": "caishen_meld"},
                )
            if claim["kind"] == "robkong":
                raise IllegalAction(ErrorCode.ILLEGAL, "only 胡 may rob a 槓")
            raise IllegalAction(
                ErrorCode.NOT_HELD, f"not enough {tile} in the hand to {kind}", {"tile": tile}
            )
        if kind == "hu":
            if self.cfg(state).lou_hu and state.passed_hu[seat]:
                raise IllegalAction(
                    ErrorCode.NOT_ALLOWED,
                    "漏胡: a passed win cannot be taken until the seat draws",
                    {"reason": "passed_win"},
                )
            ctx = self.win_context(state, seat)
            self._check_win(self.evaluate_win(state, ctx))
            raise IllegalAction(ErrorCode.NOT_ALLOWED, "this seat may not win on this tile")
        raise IllegalAction(ErrorCode.ILLEGAL, "not an option now")

    def _maybe_resolve(self, state: State) -> list[Event]:
        claim = state.claim or {}
        cfg = self.cfg(state)
        n = state.seats
        order = [(claim["from"] + i) % n for i in range(1, n)]
        responses = claim["responses"]
        best = self._best_priority(claim)
        hu_seats = [s for s in order if responses[s] is not None and responses[s]["type"] == "hu"]
        for s in order:
            if responses[s] is not None or not claim["options"][s]:
                continue
            top = max(PRIORITY[a["type"]] for a in claim["options"][s])
            if top > best:
                return []
            if top == 3 and best == 3:
                if cfg.multi_win:
                    return []
                if hu_seats and order.index(s) < order.index(hu_seats[0]):
                    return []
        # resolved
        tile = claim["tile"]
        src = claim["from"]
        if hu_seats:
            winners = hu_seats if cfg.multi_win else hu_seats[:1]
            return self._finish_win(
                state, winners, tile, src, self_drawn=False, rob_kong=claim["kind"] == "robkong"
            )
        if claim["kind"] == "robkong":
            return self._complete_jiagang(state, src, tile)
        for s in order:
            r = responses[s]
            if r is None or r["type"] == "pass":
                continue
            if PRIORITY[r["type"]] != best:
                continue
            return self._make_meld(state, s, src, tile, r)
        return self._next_turn(state, src)

    def _make_meld(
        self, state: State, seat: int, src: int, tile: str, action: Action
    ) -> list[Event]:
        kind = action["type"]
        hand = state.hands[seat]
        state.discards[src].pop()  # the claimed tile leaves the river
        if kind == "chi":
            for t in action["tiles"]:
                hand.remove(t)
            tiles = sort_tiles(action["tiles"] + [tile])
        else:
            need = 3 if kind == "gang" else 2
            for _ in range(need):
                hand.remove(tile)
            tiles = [tile] * (need + 1)
        self._moved(state, seat)
        state.melds[seat].append(
            {
                "kind": "minggang" if kind == "gang" else kind,
                "tiles": tiles,
                "from": src,
                "claimed": tile,
            }
        )
        state.claims_made += 1
        state.claim = None
        state.current = seat
        state.phase = "turn"
        events = [Event(kind, {"seat": seat, "from": src, "tile": tile})]
        if kind == "gang":
            return events + self._draw(state, seat, back=True)
        state.must_discard = True
        state.after_kong = False
        return events

    # -- the end ------------------------------------------------------------------------------
    def _finish_win(
        self,
        state: State,
        winners: list[int],
        tile: str,
        src: int | None,
        *,
        self_drawn: bool,
        rob_kong: bool = False,
    ) -> list[Event]:
        evals = []
        for w in winners:
            ctx = self.win_context(state, w)
            evals.append(self.evaluate_win(state, ctx))
        state.outcome = {
            "type": "win",
            "winners": list(winners),
            "from": src,
            "tile": tile,
            "self_drawn": self_drawn,
            "rob_kong": rob_kong,
            "evals": evals,
            "wall_last": len(state.wall) <= self.reserve(state),
        }
        state.phase = "over"
        state.claim = None
        self.on_finish(state)
        state.outcome["next_dealer"] = self.next_dealer(state)
        return [
            Event(
                "hu",
                {"winners": list(winners), "from": src, "tile": tile, "self_drawn": self_drawn},
            )
        ]

    def _finish_draw(self, state: State) -> None:
        state.outcome = {"type": "draw", "winners": []}
        state.phase = "over"
        state.claim = None
        self.on_finish(state)
        state.outcome["next_dealer"] = self.next_dealer(state)

    # == views ==================================================================================
    def _public_melds(self, melds: list[dict[str, Any]], own: bool) -> list[dict[str, Any]]:
        out = []
        for m in melds:
            if m["kind"] == "angang" and not own:
                out.append(
                    {"kind": "angang", "tiles": [], "count": 4, "from": None, "claimed": None}
                )
            else:
                out.append(dict(m, tiles=list(m["tiles"]), count=len(m["tiles"])))
        return out

    def _seat_public(self, state: State, s: int, viewer: int | None) -> dict[str, Any]:
        over = state.phase == "over"
        return {
            "seat": s,
            "wind": self.seat_wind(state, s),
            "wind_name": WIND_NAMES[self.seat_wind(state, s)],
            "is_dealer": s == state.dealer,
            "hand_count": len(state.hands[s]),
            "has_drawn": state.drawn[s] is not None,
            "melds": self._public_melds(state.melds[s], own=(s == viewer) or over),
            "discards": list(state.discards[s]),
            "flowers": list(state.flowers[s]),
            # every hand is shown once the hand is over
            "hand": sort_tiles(state.hands[s]) if over else None,
        }

    def _base_view(self, state: State, viewer: int | None) -> View:
        claim = state.claim
        view: View = {
            "game": self.game_id,
            "title": self.title,
            "seat": viewer,
            "seats": state.seats,
            "phase": state.phase,
            "to_act": sorted(self.to_act(state)),
            "current": state.current,
            "dealer": state.dealer,
            "prevalent_wind": self.cfg(state).prevalent_wind,
            "prevalent_wind_name": WIND_NAMES[self.cfg(state).prevalent_wind],
            "wall_count": len(state.wall),
            "wild": sort_tiles(self.wild_kinds(state)),
            "players": [self._seat_public(state, s, viewer) for s in range(state.seats)],
            "claim": None
            if claim is None
            else {"tile": claim["tile"], "from": claim["from"], "kind": claim["kind"]},
            "variant": self.variant_view(state, viewer),
            "result": None,
        }
        if state.phase == "over":
            out = state.outcome or {}
            if out.get("type") == "win":  # how it was won, the same for every variant's board
                view["win"] = {
                    "self_drawn": bool(out.get("self_drawn")),
                    "from": out.get("from"),
                    "rob_kong": bool(out.get("rob_kong")),
                }
            res = self.result(state)
            view["result"] = {
                "scores": list(res.scores),
                "winners": list(res.winners),
                "lines": [
                    {"label": ln.label, "value": ln.value, "seat": ln.seat} for ln in res.lines
                ],
                "extra": res.extra,
            }
        return view

    def view(self, state: State, seat: int) -> View:
        view = self._base_view(state, seat)
        hand = list(state.hands[seat])
        drawn = state.drawn[seat]
        if drawn is not None and drawn in hand:
            hand.remove(drawn)
        view["hand"] = sort_tiles(hand)
        view["drawn"] = drawn
        view["legal_actions"] = self.legal_actions(state, seat)
        view["tenpai"] = self.tenpai_hints(state, seat) if state.phase != "over" else {}
        view["waits"] = self.current_waits(state, seat) if state.phase != "over" else []
        return view

    def spectator_view(self, state: State) -> View:
        view = self._base_view(state, None)
        view["hand"] = None
        view["drawn"] = None
        view["legal_actions"] = []
        view["tenpai"] = {}
        view["waits"] = []
        return view

    def tenpai_hints(self, state: State, seat: int) -> dict[str, list[str]]:
        """For a seat holding 3k+2 tiles: each discard that leaves a ready hand → its waits."""
        hand = state.hands[seat]
        if len(hand) % 3 != 2:
            return {}
        out: dict[str, list[str]] = {}
        for t in sort_tiles(set(hand)):
            rest = list(hand)
            rest.remove(t)
            w = self._waits_of(state, seat, rest)
            if w:
                out[t] = w
        return out

    def current_waits(self, state: State, seat: int) -> list[str]:
        hand = state.hands[seat]
        if len(hand) % 3 != 1:
            return []
        return self._waits_of(state, seat, hand)

    def _waits_of(self, state: State, seat: int, tiles: list[str]) -> list[str]:
        counts, wilds, caps = self.split_wilds(state, seat, tiles)
        ks = waits(counts, wilds, caps, self.sets_needed(state, seat), self.shapes(self.cfg(state)))
        return [KINDS[k] for k in ks]

    # == automation =============================================================================
    def auto_action(self, state: State, seat: int) -> Action:
        """托管: win when possible; else discard the drawn tile (or the last tile); pass claims."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "not this seat's decision now")
        if {"type": "hu"} in legal:
            return {"type": "hu"}
        if state.phase == "turn":
            drawn = state.drawn[seat]
            tile = drawn if drawn is not None else state.hands[seat][-1]
            return {"type": "discard", "tile": tile}
        return {"type": "pass"}

    def _shanten_of(self, state: State, seat: int, tiles: list[str], melds_extra: int = 0) -> int:
        wild = self.wild_kinds(state)
        naturals = [t for t in tiles if t not in wild]
        wilds = len(tiles) - len(naturals)
        sets = self.sets_needed(state, seat) - melds_extra
        gb = self.hand_size(self.cfg(state)) == 13 and bool(self.shapes(self.cfg(state)))
        packs = tuple(self._gb_pack(state, seat, m) for m in state.melds[seat])
        if melds_extra:
            gb = False  # a hypothetical meld: use the counts search
        return botlib.shanten(naturals, wilds, packs, sets, gb)

    def _gb_pack(self, state: State, seat: int, meld: dict[str, Any]) -> tuple[str, str, int]:
        """A meld as a PyMahjongGB pack (kind, tile, offer)."""
        kind = meld["kind"]
        tiles = meld["tiles"]
        src = meld["from"]
        rel = 0 if src is None else (seat - src) % state.seats  # 1 上家, 2 對家, 3 下家
        if kind == "chi":
            return ("CHI", tiles[1], tiles.index(meld["claimed"]) + 1)
        if kind == "peng":
            return ("PENG", tiles[0], rel)
        if kind == "angang":
            return ("GANG", tiles[0], 0)
        return ("GANG", tiles[0], rel if rel else 1)

    def bot_action(self, state: State, seat: int) -> Action:
        """The bot (and 托管): :func:`games.rules.mahjong.play.bot_action` — win when possible,
        discard toward the lowest shanten and the most 進張, claim when it lowers the shanten;
        in a 新手場 (``bot_level`` novice) the baseline player
        (:func:`games.rules.mahjong.baseline.baseline_action`)."""
        if self.cfg(state).bot_level == NOVICE:
            return baseline_action(self, state, seat)
        return botplay.bot_action(self, state, seat)

    def _ukeire(
        self,
        state: State,
        seat: int,
        rest: list[str],
        sh: int,
        wild: frozenset[str],
        seen: dict[str, int],
    ) -> int:
        """進張: unseen copies of the kinds whose draw lowers the shanten of ``rest``."""
        total = 0
        for k in botlib.useful_kinds([t for t in rest if t not in wild]):
            if k in wild:
                continue
            if k not in seen:
                seen[k] = self.visible_count(state, k) + state.hands[seat].count(k)
            left = 4 - seen[k]
            if left <= 0:
                continue
            if self._shanten_of(state, seat, rest + [k]) < sh:
                total += left
        return total

    # == serialisation and testing ==============================================================
    def state_to_json(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(asdict(state))

    def state_from_json(self, data: dict[str, Any]) -> State:
        return State(**copy.deepcopy(data))

    def resample_hidden(self, state: State, seat: int, seed: str) -> State:
        new = self.state_from_json(self.state_to_json(state))
        if new.phase == "over":
            # everything is shown at the end; only the rest of the wall is hidden
            new.wall = Chance(seed, "resample").shuffled(new.wall)
            return new
        pool: list[str] = list(new.wall)
        others = [s for s in range(new.seats) if s != seat]
        for s in others:
            pool += new.hands[s]
        pool = Chance(seed, "resample").shuffled(pool)
        for s in others:
            n = len(new.hands[s])
            new.hands[s] = pool[:n]
            del pool[:n]
            if new.drawn[s] is not None:
                new.drawn[s] = new.hands[s][-1]
        new.wall = pool
        return new

    def all_items(self, state: State) -> list[str]:
        items: list[str] = list(state.wall)
        for s in range(state.seats):
            items += state.hands[s]
            items += state.discards[s]
            items += state.flowers[s]
            for m in state.melds[s]:
                items += m["tiles"]
        items += state.vars.get("set_aside", [])
        return items


def _keep_value(tile: str, rest: list[str]) -> int:
    """How much a tile is worth keeping (lower → discard first): isolated honours go first."""
    if tile[0] in "FJ":
        return rest.count(tile) * 3
    n = int(tile[1:])
    score = rest.count(tile) * 3
    for d in (-2, -1, 1, 2):
        if f"{tile[0]}{n + d}" in rest:
            score += 2 if abs(d) == 1 else 1
    return score + (0 if n in (1, 9) else 1)


__all__ = ["CoreConfig", "MahjongRuleset", "State", "WinContext"]
