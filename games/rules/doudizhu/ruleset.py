"""The 斗地主 Ruleset: phases, validation, views, 托管, escape. See the package docstring."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field, fields
from typing import Any

from games.engine.cards import doudizhu_deck
from games.engine.chance import Chance
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.params import BOT_LEVEL, TABLE_PARAMS, ParamError
from games.engine.protocol import Action, Event, Result, Ruleset, View
from games.engine.table_type import Dealer, TableType
from games.rules.doudizhu import params as room_spec
from games.rules.doudizhu import scoring
from games.rules.doudizhu.patterns import (
    BIG,
    IDX,
    RANKS,
    SMALL,
    Pattern,
    all_readings,
    cards_of,
    counts_of,
    legal_patterns,
    parse_play,
    readings_of,
    sort_cards,
)

VARIANTS = ("classic", "laizi", "menzhua")
PHASES = ("start", "dealing", "bidding", "robbing", "doubling", "dou", "playing", "over")


@dataclass(frozen=True, slots=True)
class Config:
    """Room options. ``seat_beans`` (each seat's beans at the hand's start, from the table
    service) decides 加倍 eligibility against ``double_threshold``; None means no bean check.
    ``score_cap`` None means the variant's default (10000 積分 in 癩子場, none otherwise)."""

    variant: str = "classic"
    base_score: int = 1
    double_threshold: int = 0
    seat_beans: tuple[int, ...] | None = None
    laizi_factor: float = 1
    score_cap: int | None = None
    bot_level: str = (
        "normal"  # 新手場: "novice", a bot without search (games/rules/doudizhu/bot.py)
    )

    @property
    def effective_cap(self) -> int | None:
        if self.score_cap is not None:
            return self.score_cap or None
        return 10000 if self.variant == "laizi" else None


@dataclass(slots=True)
class State:
    config: Config
    seed: str
    variant: str
    deal_no: int = 0
    hands: list[str] = field(default_factory=lambda: ["", "", ""])
    dipai: str = ""
    phase: str = "start"
    started: list[bool] = field(default_factory=lambda: [False] * 3)
    ready: list[bool] = field(default_factory=lambda: [False] * 3)
    mingpai: list[int] = field(default_factory=lambda: [0] * 3)
    mingpai_order: list[int] = field(default_factory=list)
    bids: list[str | None] = field(default_factory=lambda: [None] * 3)
    said_no: list[bool] = field(default_factory=lambda: [False] * 3)
    looked: list[bool] = field(default_factory=lambda: [False] * 3)
    first_bidder: int | None = None
    turn: int | None = None
    caller: int | None = None
    rob_queue: list[int] = field(default_factory=list)
    caller_asked: bool = False
    robbers: list[int] = field(default_factory=list)
    landlord: int | None = None
    laizi: str | None = None
    menzhua_blind: bool = False
    double_eligible: list[bool] = field(default_factory=lambda: [False] * 3)
    doubled: list[bool] = field(default_factory=lambda: [False] * 3)  # has decided
    doubles: list[int] = field(default_factory=lambda: [1] * 3)
    dou: list[int] = field(default_factory=lambda: [0] * 3)  # 倒拉壘沃 steps per farmer
    dou_open: list[bool] = field(default_factory=lambda: [False] * 3)
    lead: dict[str, Any] | None = None
    last: list[str | None] = field(default_factory=lambda: [None] * 3)
    passes: int = 0
    plays_count: list[int] = field(default_factory=lambda: [0] * 3)
    played: list[str] = field(default_factory=lambda: ["", "", ""])
    # per seat, every play it passed on, as "<seat that made it>:<cards>[/<reading>]" (public:
    # every seat saw the pass; the bot infers from it what the seat cannot hold)
    passed_on: list[list[str]] = field(default_factory=lambda: [[], [], []])
    # every move of the play phase in order, as "<seat>:<cards>[/<reading>]" or "<seat>:pass"
    # (public: the table saw each; the bot reads from it how the farmers play, bot.greedy_seats)
    trail: list[str] = field(default_factory=list)
    bombs: list[dict[str, int]] = field(default_factory=list)
    winner: int | None = None
    spring: bool = False
    anti_spring: bool = False


_CONFIG_FIELDS = tuple(f.name for f in fields(Config))
_STATE_FIELDS = tuple(f.name for f in fields(State) if f.name != "config")


def _plain_copy(data: Any) -> Any:
    """A deep copy of plain data (dicts, lists, str, int, float, bool, None), as
    ``copy.deepcopy`` makes it (types and shared parts kept) but in C: a state is copied on
    every move's decode and encode, and ``deepcopy`` was a sixth of the clock's CPU per move."""
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))


def _held(hand: str, cards: str) -> bool:
    have = counts_of(hand)
    for ch in cards:
        have[IDX[ch]] -= 1
    return min(have) >= 0


def _remove(hand: str, cards: str) -> str:
    have = counts_of(hand)
    for ch in cards:
        have[IDX[ch]] -= 1
    return cards_of(have)


def _pattern_dict(p: Pattern, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "cards": p.cards,
        "reading": p.reading,
        "kind": p.kind,
        "rank": p.rank,
        "length": p.length,
        "size": p.size,
        "tier": p.tier,
        "name": p.name,
    }


def lead_pattern(lead: dict[str, Any] | None) -> Pattern | None:
    if lead is None:
        return None
    return Pattern(
        lead["kind"],
        lead["rank"],
        lead["length"],
        lead["size"],
        lead["tier"],
        lead["cards"],
        lead["reading"],
    )


DEAL_CARD_SECONDS = 0.12  # the deal animation: one card per seat every 0.12 s
# phases in which every seat decides at once and the clock is short (seconds)
SHORT_PHASE_SECONDS = {"start": 8, "dealing": 6}


class DoudizhuRuleset(Ruleset[Config, State]):
    game_id = "doudizhu"
    title = "歡樂斗地主"
    variants = room_spec.VARIANTS
    room_params = room_spec.ROOM_PARAMS + TABLE_PARAMS  # + chat, spectators
    min_seats = 3
    max_seats = 3
    # the landlord is bid for each hand; the table's dealer stays
    table_type = TableType(dealer=Dealer.KEEP)
    action_types = frozenset(
        {
            "start",
            "ready",
            "mingpai",
            "bid",
            "menzhua",
            "look",
            "rob",
            "double",
            "dou",
            "play",
            "pass",
        }
    )

    # -- construction -------------------------------------------------------------------------
    def config_from_params(self, params: dict[str, Any]) -> Config:
        variant = str(params.get("variant", "classic"))
        if variant not in VARIANTS:
            raise ParamError("variant", f"unknown 斗地主 variant {variant!r}")
        beans = params.get("seat_beans")
        cap = params.get("score_cap")
        return Config(
            variant=variant,
            base_score=int(params.get("base_score", params.get("底分", 1))),
            double_threshold=int(params.get("double_threshold", 0)),
            seat_beans=tuple(int(b) for b in beans) if beans is not None else None,
            laizi_factor=params.get("laizi_factor", 1),
            score_cap=int(cap) if cap is not None else None,
            bot_level=BOT_LEVEL.parse(params.get("bot_level", "normal")),
        )

    def new_game(self, config: Config, seed: str, seats: int = 3) -> State:
        if seats != 3:
            raise ValueError("斗地主 needs 3 seats")
        st = State(config=config, seed=str(seed), variant=config.variant)
        self._deal(st)
        if config.variant == "menzhua":
            self._begin_bidding(st)
        return st

    def _deal(self, st: State) -> None:
        """Deal: shuffle the 54 cards with Chance(seed, 'deal' | f'deal{n}'), card i of the first
        51 goes to seat i % 3, the last 3 are the 底牌."""
        label = "deal" if st.deal_no == 0 else f"deal{st.deal_no}"
        deck = Chance(st.seed, label).shuffled(doudizhu_deck())
        st.hands = [sort_cards("".join(deck[s:51:3])) for s in range(3)]
        st.dipai = sort_cards("".join(deck[51:]))

    # -- queries ------------------------------------------------------------------------------
    def to_act(self, st: State) -> frozenset[int]:
        p = st.phase
        if p == "start":
            return frozenset(s for s in range(3) if not st.started[s])
        if p == "dealing":
            return frozenset(s for s in range(3) if not st.ready[s])
        if p in ("bidding", "robbing", "playing"):
            return frozenset() if st.turn is None else frozenset([st.turn])
        if p == "doubling":
            return frozenset(s for s in range(3) if st.double_eligible[s] and not st.doubled[s])
        if p == "dou":
            return frozenset(self._dou_pending(st))
        return frozenset()

    def _dou_pending(self, st: State) -> list[int]:
        seats: list[int] = []
        if st.landlord is None:
            return seats
        for f in range(3):
            if f != st.landlord and st.dou_open[f]:
                seats.append(f if st.dou[f] % 2 == 0 else st.landlord)
        return sorted(set(seats))

    def is_over(self, st: State) -> bool:
        return st.phase == "over"

    def seat_ids(self, st: State) -> range:
        return range(3)

    def _legal_actions(self, st: State, seat: int) -> list[Action]:
        p = st.phase
        if p == "start":
            return [{"type": "start", "mingpai": False}, {"type": "start", "mingpai": True}]
        if p == "dealing":
            return [{"type": "ready"}] + [{"type": "mingpai", "dealt": n} for n in (0, 8, 9, 17)]
        if p == "bidding":
            if st.variant == "menzhua" and not st.looked[seat]:
                return [{"type": "menzhua"}, {"type": "look"}]
            return [{"type": "bid", "call": True}, {"type": "bid", "call": False}]
        if p == "robbing":
            return [{"type": "rob", "rob": True}, {"type": "rob", "rob": False}]
        if p == "doubling":
            return [{"type": "double", "double": True}, {"type": "double", "double": False}]
        if p == "dou":
            if seat == st.landlord:
                return [
                    {"type": "dou", "farmer": f, "dou": d}
                    for f in range(3)
                    if f != seat and st.dou_open[f] and st.dou[f] % 2 == 1
                    for d in (True, False)
                ]
            return [{"type": "dou", "dou": True}, {"type": "dou", "dou": False}]
        if p == "playing":
            out: list[Action] = []
            for play in self.legal_plays_for(st, seat):
                cards, _, reading = play.partition("/")
                action: Action = {"type": "play", "cards": cards}
                if reading:
                    action["as"] = reading
                out.append(action)
            out += self._play_options(st, seat)
            return out
        return []

    def legal_plays_for(self, st: State, seat: int) -> list[str]:
        """The seat's legal play strings now (no 'pass'), weakest first."""
        return legal_patterns(st.hands[seat], lead_pattern(st.lead), st.laizi)

    def _play_options(self, st: State, seat: int) -> list[Action]:
        out: list[Action] = []
        if st.lead is not None:
            out.append({"type": "pass"})
        if self._may_show_after_dipai(st, seat):
            out.append({"type": "mingpai"})
        return out

    def _may_show_after_dipai(self, st: State, seat: int) -> bool:
        return (
            st.phase == "playing"
            and seat == st.landlord
            and st.turn == seat
            and st.plays_count[seat] == 0
            and st.mingpai[seat] == 0
        )

    # -- apply --------------------------------------------------------------------------------
    def _apply_action(self, st: State, seat: int, action: Action) -> list[Event]:
        handler = {
            "start": self._act_start,
            "ready": self._act_ready,
            "mingpai": self._act_mingpai,
            "bid": self._act_bid,
            "menzhua": self._act_menzhua,
            "look": self._act_look,
            "rob": self._act_rob,
            "double": self._act_double,
            "dou": self._act_dou,
            "play": self._act_play,
            "pass": self._act_pass,
        }[action["type"]]
        return handler(st, seat, action)

    def _refusal(self, st: State, seat: int, kind: str) -> IllegalAction:
        if self.is_over(st):
            return super()._refusal(st, seat, kind)
        return IllegalAction(ErrorCode.NOT_YOUR_TURN, f"seat {seat} is not to act now ({st.phase})")

    def _need_phase(self, st: State, *phases: str) -> None:
        if st.phase not in phases:
            raise IllegalAction(ErrorCode.ILLEGAL, f"not possible in phase {st.phase}")

    @staticmethod
    def _flag(action: Action, key: str) -> bool:
        value = action.get(key)
        if not isinstance(value, bool):
            raise IllegalAction(ErrorCode.MALFORMED, f"'{key}' must be true or false")
        return value

    # start / dealing --------------------------------------------------------------------------
    def _act_start(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "start")
        show = self._flag(action, "mingpai")
        st.started[seat] = True
        if show:
            st.mingpai[seat] = 5
            st.mingpai_order.append(seat)
            st.ready[seat] = True
            st.bids[seat] = "明牌開始"
        if all(st.started):
            st.phase = "dealing"
            if all(st.ready):
                self._begin_bidding(st)
        return [Event("start", {"seat": seat, "mingpai": show})]

    def _act_ready(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "dealing")
        st.ready[seat] = True
        if all(st.ready):
            self._begin_bidding(st)
        return [Event("ready", {"seat": seat})]

    def _act_mingpai(self, st: State, seat: int, action: Action) -> list[Event]:
        if st.phase == "dealing":
            dealt = action.get("dealt")
            if not isinstance(dealt, int) or isinstance(dealt, bool) or not 0 <= dealt <= 17:
                raise IllegalAction(
                    ErrorCode.MALFORMED, "'dealt' must be the number of cards dealt, 0…17"
                )
            factor = 4 if dealt <= 8 else 3
            st.mingpai[seat] = factor
            st.mingpai_order.append(seat)
            st.ready[seat] = True
            st.bids[seat] = "發牌明牌"
            events = [Event("mingpai", {"seat": seat, "factor": factor, "hand": st.hands[seat]})]
            if all(st.ready):
                self._begin_bidding(st)
            return events
        if st.phase == "playing":
            if not self._may_show_after_dipai(st, seat):
                raise IllegalAction(
                    ErrorCode.NOT_ALLOWED, "only the landlord may 明牌 now, before his first play"
                )
            st.mingpai[seat] = 2
            st.mingpai_order.append(seat)
            return [Event("mingpai", {"seat": seat, "factor": 2, "hand": st.hands[seat]})]
        raise IllegalAction(ErrorCode.NOT_ALLOWED, f"明牌 is not possible in phase {st.phase}")

    # bidding ----------------------------------------------------------------------------------
    def _begin_bidding(self, st: State) -> None:
        st.phase = "bidding"
        if st.variant == "menzhua":
            # 悶抓場: a card drawn at random decides the first bidder (its holder in the deal order)
            st.first_bidder = Chance(st.seed, f"first{st.deal_no}").below(51) % 3
        elif st.mingpai_order:
            st.first_bidder = st.mingpai_order[0]
        else:
            st.first_bidder = Chance(st.seed, f"first{st.deal_no}").below(3)
        st.turn = st.first_bidder

    def _act_bid(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "bidding")
        call = self._flag(action, "call")
        if st.variant == "menzhua" and not st.looked[seat]:
            raise IllegalAction(
                ErrorCode.ILLEGAL, "悶抓場: choose 悶抓 or 看牌 first", {"reason": "menzhua_first"}
            )
        if call:
            st.bids[seat] = "叫地主"
            st.caller = seat
            if st.variant == "menzhua":
                st.landlord = seat
                self._finish_bidding(st)
                return [Event("bid", {"seat": seat, "call": True})]
            st.rob_queue = [s for s in ((seat + 1) % 3, (seat + 2) % 3) if not st.said_no[s]]
            if not st.rob_queue:
                st.landlord = seat
                self._finish_bidding(st)
            else:
                st.phase = "robbing"
                st.turn = st.rob_queue[0]
            return [Event("bid", {"seat": seat, "call": True})]
        st.bids[seat] = "不叫"
        st.said_no[seat] = True
        nxt = (seat + 1) % 3
        if nxt != st.first_bidder:
            st.turn = nxt
            return [Event("bid", {"seat": seat, "call": False})]
        if st.mingpai_order:  # 002 §三.3: the first 明牌 player becomes landlord
            st.landlord = st.mingpai_order[0]
            self._finish_bidding(st)
            return [
                Event("bid", {"seat": seat, "call": False}),
                Event("landlord", {"seat": st.landlord, "reason": "明牌"}),
            ]
        self._redeal(st)
        return [Event("bid", {"seat": seat, "call": False}), Event("redeal", {"deal": st.deal_no})]

    def _redeal(self, st: State) -> None:
        st.deal_no += 1
        self._deal(st)
        st.bids = [None] * 3
        st.said_no = [False] * 3
        st.looked = [False] * 3
        st.caller = None
        if st.variant == "menzhua":
            self._begin_bidding(st)
        else:
            st.phase = "dealing"
            st.ready = [False] * 3
            st.turn = None

    def _act_menzhua(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "bidding")
        if st.variant != "menzhua":
            raise IllegalAction(ErrorCode.NOT_ALLOWED, "悶抓 exists only in 悶抓場")
        if st.looked[seat]:
            raise IllegalAction(ErrorCode.ILLEGAL, "悶抓 is blind: not after 看牌")
        st.bids[seat] = "悶抓"
        st.menzhua_blind = True
        st.caller = st.landlord = seat
        self._finish_bidding(st)
        return [Event("menzhua", {"seat": seat})]

    def _act_look(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "bidding")
        if st.variant != "menzhua":
            raise IllegalAction(ErrorCode.NOT_ALLOWED, "看牌 exists only in 悶抓場")
        if st.looked[seat]:
            raise IllegalAction(ErrorCode.ILLEGAL, "already looked", {"reason": "already_looked"})
        st.looked[seat] = True
        st.bids[seat] = "看牌"
        return [Event("look", {"seat": seat})]

    def _act_rob(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "robbing")
        rob = self._flag(action, "rob")
        st.rob_queue.pop(0)
        if rob:
            st.robbers.append(seat)
        st.bids[seat] = "搶地主" if rob else "不搶"
        if seat == st.caller:
            st.caller_asked = True
        if not st.rob_queue and st.robbers and not st.caller_asked and st.caller is not None:
            st.rob_queue.append(st.caller)  # the caller gets the last chance (RULES-NOTES §2 #2)
        if st.rob_queue:
            st.turn = st.rob_queue[0]
        else:
            st.landlord = st.robbers[-1] if st.robbers else st.caller
            self._finish_bidding(st)
        return [Event("rob", {"seat": seat, "rob": rob})]

    def _finish_bidding(self, st: State) -> None:
        """The 底牌 go to the landlord, shown to all; 癩子 drawn; then 加倍 / 倒拉壘沃 / play."""
        landlord = st.landlord
        assert landlord is not None  # bidding has just named him
        st.hands[landlord] = sort_cards(st.hands[landlord] + st.dipai)
        st.looked = [True] * 3
        st.rob_queue = []
        if st.variant == "laizi":
            st.laizi = RANKS[Chance(st.seed, f"laizi{st.deal_no}").below(13)]
        if st.variant == "menzhua":
            st.phase = "dou"
            st.dou_open = [s != landlord for s in range(3)]
            st.turn = None
            return
        beans = st.config.seat_beans
        limit = st.config.double_threshold
        if beans is None:
            st.double_eligible = [True] * 3
        else:
            over = [b > limit for b in beans]
            st.double_eligible = [
                all(over) if s == landlord else (over[s] and over[landlord]) for s in range(3)
            ]
        if any(st.double_eligible):
            st.phase = "doubling"
            st.turn = None
        else:
            self._begin_play(st)

    def _begin_play(self, st: State) -> None:
        st.phase = "playing"
        st.turn = st.landlord
        st.lead = None
        st.last = [None] * 3

    def _act_double(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "doubling")
        dbl = self._flag(action, "double")
        st.doubled[seat] = True
        st.doubles[seat] = 2 if dbl else 1
        st.bids[seat] = "加倍" if dbl else "不加倍"
        if not self.to_act(st):
            self._begin_play(st)
        return [Event("double", {"seat": seat, "double": dbl})]

    def _act_dou(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "dou")
        yes = self._flag(action, "dou")
        if seat == st.landlord:
            farmer = action.get("farmer")
            if (
                not isinstance(farmer, int)
                or isinstance(farmer, bool)
                or farmer == seat
                or farmer not in range(3)
            ):
                raise IllegalAction(ErrorCode.MALFORMED, "the landlord names the farmer he answers")
            if not (st.dou_open[farmer] and st.dou[farmer] % 2 == 1):
                raise IllegalAction(
                    ErrorCode.ILLEGAL, "that farmer has nothing for the landlord to answer"
                )
        else:
            farmer = seat
            if "farmer" in action and action["farmer"] != seat:
                raise IllegalAction(ErrorCode.ILLEGAL, "a farmer speaks only for himself")
        step = st.dou[farmer]
        word = scoring.DOU_WORDS[step]
        if yes:
            st.dou[farmer] += 1
            if st.dou[farmer] == 4:
                st.dou_open[farmer] = False
        else:
            st.dou_open[farmer] = False
        st.bids[seat] = word if yes else "不" + word
        if not any(st.dou_open):
            self._begin_play(st)
        return [Event("dou", {"seat": seat, "farmer": farmer, "word": word, "dou": yes})]

    # playing ----------------------------------------------------------------------------------
    def read_play(self, st: State, seat: int, cards: Any, reading: str | None) -> Pattern:
        """Validate a play for the seat now and return the reading it is played as."""
        if not isinstance(cards, str) or not cards:
            raise IllegalAction(ErrorCode.MALFORMED, "'cards' must be a non-empty card string")
        if reading is not None and not isinstance(reading, str):
            raise IllegalAction(ErrorCode.MALFORMED, "'as' must be a card string")
        try:
            cards, read = parse_play(cards if reading is None else f"{cards}/{reading}")
        except (ValueError, KeyError):
            raise IllegalAction(ErrorCode.MALFORMED, f"not cards: {cards!r}") from None
        if not _held(st.hands[seat], cards):
            raise IllegalAction(ErrorCode.NOT_HELD, f"you do not hold {cards}", {"cards": cards})
        if read != cards and st.laizi is None:
            raise IllegalAction(
                ErrorCode.NOT_ALLOWED, "this room has no 癩子: a play is read as it is"
            )
        last = lead_pattern(st.lead)
        options = all_readings(cards if read == cards else f"{cards}/{read}", st.laizi)
        if not options and st.laizi is not None and reading is None:
            options = readings_of(cards, st.laizi)
            if len({p.reading for p in options}) > 1:
                raise IllegalAction(
                    ErrorCode.ILLEGAL,
                    f"{cards} reads several ways; say which with 'as' "
                    f"({', '.join(sorted({p.reading for p in options}))})",
                    {"reason": "ambiguous_laizi"},
                )
        if not options:
            if read != cards:
                raise IllegalAction(
                    ErrorCode.BAD_PATTERN, f"{cards} cannot be read as {read}", {"cards": read}
                )
            raise IllegalAction(ErrorCode.BAD_PATTERN, f"{cards} is no card type", {"cards": cards})
        if last is None:
            return options[0]
        beating = [p for p in options if p.beats(last)]
        if not beating:
            raise IllegalAction(
                ErrorCode.DOES_NOT_BEAT,
                f"{options[0].name} {cards} does not beat {last.name} {last.cards}",
                {"cards": cards},
            )
        return max(beating, key=lambda p: (p.tier, p.rank))

    def _act_play(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "playing")
        p = self.read_play(st, seat, action.get("cards"), action.get("as"))
        st.hands[seat] = _remove(st.hands[seat], p.cards)
        st.played[seat] = sort_cards(st.played[seat] + p.cards)
        st.lead = _pattern_dict(p, seat)
        st.last[seat] = p.cards
        st.passes = 0
        st.plays_count[seat] += 1
        st.trail.append(
            f"{seat}:{p.cards}" if p.cards == p.reading else f"{seat}:{p.cards}/{p.reading}"
        )
        if p.tier:
            st.bombs.append({"seat": seat, "tier": p.tier})
        events = [Event("play", {"seat": seat, "cards": p.cards, "as": p.reading, "name": p.name})]
        if not st.hands[seat]:
            self._finish(st, seat)
            events.append(Event("over", {"winner": seat}))
        else:
            st.turn = (seat + 1) % 3
        return events

    def _act_pass(self, st: State, seat: int, action: Action) -> list[Event]:
        self._need_phase(st, "playing")
        if st.lead is None:
            raise IllegalAction(ErrorCode.MUST_PLAY, "you lead: you must play")
        st.last[seat] = "pass"
        lead = st.lead
        shown = (
            lead["cards"]
            if lead["cards"] == lead["reading"]
            else (f"{lead['cards']}/{lead['reading']}")
        )
        st.passed_on[seat].append(f"{lead['seat']}:{shown}")
        st.trail.append(f"{seat}:pass")
        st.passes += 1
        if st.passes == 2:
            st.turn = st.lead["seat"]
            st.lead = None
            st.last = [None] * 3
            st.passes = 0
        else:
            st.turn = (seat + 1) % 3
        return [Event("pass", {"seat": seat})]

    def _finish(self, st: State, winner: int) -> None:
        st.phase = "over"
        st.winner = winner
        st.turn = None
        farmers = [s for s in range(3) if s != st.landlord]
        if winner == st.landlord:
            st.spring = all(st.plays_count[f] == 0 for f in farmers)
        elif st.landlord is not None:
            st.anti_spring = st.plays_count[st.landlord] == 1

    # -- results ------------------------------------------------------------------------------
    def result(self, st: State) -> Result:
        if st.phase != "over":
            raise IllegalAction(ErrorCode.ILLEGAL, "the hand is not over")
        return scoring.settle(st, st.config)

    def escape_result(self, st: State, seat: int) -> Result:
        return scoring.escape(st, st.config, seat, self.held_bombs(st))

    def held_bombs(self, st: State) -> list[dict[str, int]]:
        """Bombs still in the hands (002: escape counts every bomb, played or not)."""
        out = []
        for s in range(3):
            c = counts_of(st.hands[s])
            for r in range(13):
                if c[r] == 4:
                    tier = 2
                    if st.laizi is not None and RANKS[r] == st.laizi:
                        tier = 3
                    out.append({"seat": s, "tier": tier})
            if c[SMALL] and c[BIG]:
                out.append({"seat": s, "tier": 4})
        return out

    # -- views --------------------------------------------------------------------------------
    def _sees(self, st: State, viewer: int | None, seat: int) -> bool:
        if st.phase == "over":
            return True
        if st.phase == "start":
            return False
        if viewer == seat:
            return st.variant != "menzhua" or st.looked[seat] or st.landlord is not None
        return st.mingpai[seat] > 0

    def multiplier_view(self, st: State) -> dict[str, Any]:
        parts = scoring.common_parts(st)
        out = [{"label": label, "value": f"×{f}", "seat": s} for label, f, s in parts]
        for s in range(3):
            if st.doubles[s] == 2:
                out.append({"label": "加倍", "value": "×2", "seat": s})
        for f in range(3):
            for step in range(st.dou[f]):
                who = f if step % 2 == 0 else st.landlord
                out.append({"label": scoring.DOU_WORDS[step], "value": "×2", "seat": who})
        return {"total": scoring.product(parts), "parts": out}

    def _base_view(self, st: State, viewer: int | None) -> View:
        to_act = sorted(self.to_act(st))
        counts = [0, 0, 0] if st.phase == "start" else [len(h) for h in st.hands]
        shown = {str(s): st.hands[s] for s in range(3) if s != viewer and self._sees(st, viewer, s)}
        lead = None
        if st.lead is not None:
            lead = {
                "seat": st.lead["seat"],
                "cards": st.lead["cards"],
                "name": st.lead["name"],
                "as": st.lead["reading"],
            }
        view: View = {
            "game": "doudizhu",
            "variant": st.variant,
            "phase": st.phase,
            "seat": viewer,
            "to_act": to_act,
            "counts": counts,
            "shown": shown,
            "landlord": st.landlord,
            "dipai": st.dipai if st.landlord is not None else None,
            "laizi": st.laizi,
            "bids": list(st.bids),
            "last": list(st.last),
            "lead": lead,
            "multiplier": self.multiplier_view(st),
            "mingpai": list(st.mingpai),
            "doubles": list(st.doubles),
            "first_bidder": st.first_bidder,
            "deal_no": st.deal_no,
            "played": list(st.played),
            "bombs": len(st.bombs),
            "options": [],
            "can_play": False,
            "result": None,
        }
        if st.variant == "menzhua":
            view["looked"] = list(st.looked)
            view["dou"] = list(st.dou)
        if st.phase == "over":
            res = self.result(st)
            view["result"] = {
                "scores": list(res.scores),
                "winners": list(res.winners),
                "lines": [
                    {"label": ln.label, "value": ln.value, "seat": ln.seat} for ln in res.lines
                ],
                "payments": res.extra["payments"],
            }
        return view

    def view(self, st: State, seat: int) -> View:
        view = self._base_view(st, seat)
        own = self._sees(st, seat, seat)
        view["hand"] = st.hands[seat] if own else ""
        view["counter"] = self.counter(st, seat) if own else None
        if seat in self.to_act(st):
            if st.phase == "playing":
                view["options"] = self._play_options(st, seat)
                view["can_play"] = True
            elif st.phase == "dealing":
                view["options"] = [{"type": "mingpai"}, {"type": "ready"}]
            else:
                view["options"] = self.legal_actions(st, seat)
        return view

    def spectator_view(self, st: State) -> View:
        return self._base_view(st, None)

    def counter(self, st: State, seat: int) -> dict[str, int]:
        """記牌器: per rank, how many cards this seat has not seen (not in hand, not played,
        not in the shown 底牌 or shown hands)."""
        seen = counts_of(st.hands[seat] + "".join(st.played))
        for s in range(3):
            if s != seat and st.mingpai[s]:
                for ch in st.hands[s]:
                    seen[IDX[ch]] += 1
        if st.landlord is not None and st.landlord != seat:
            left = counts_of(st.dipai)
            played_ll = counts_of(st.played[st.landlord])
            hand_ll = counts_of(st.hands[st.landlord]) if st.mingpai[st.landlord] else [0] * 15
            for r in range(15):  # 底牌 cards not yet played and not counted via a shown hand
                seen[r] += max(0, left[r] - played_ll[r] - hand_ll[r])
        full = [4] * 13 + [1, 1]
        return {RANKS[r]: max(0, full[r] - seen[r]) for r in range(15)}

    # -- automation ---------------------------------------------------------------------------
    def turn_seconds(self, st: State) -> int | None:
        """開始 and the deal (明牌 offers) are decided by every seat at once, on a short clock."""
        return SHORT_PHASE_SECONDS.get(st.phase)

    def action_stamp(self, st: State, action: Action, seconds_since_deal: float) -> Action:
        """明牌 during the deal: the server's clock, not the client, says how many cards had been
        dealt (明牌 ×4 up to 8 cards, ×3 after). A seat may say more cards than the clock (a bot
        that shows only after seeing its whole hand says 17 and takes ×3), never fewer."""
        if action.get("type") == "mingpai" and st.phase == "dealing":
            clock = min(17, int(seconds_since_deal / DEAL_CARD_SECONDS))
            said = action.get("dealt")
            if isinstance(said, int) and not isinstance(said, bool) and clock < said <= 17:
                return action
            return {**action, "dealt": clock}
        return action

    def auto_action(self, st: State, seat: int) -> Action:
        """托管: refuse every option (no 明牌, ready, no call, no rob, no double, no 倒/拉);
        in play lead the weakest legal play, and pass whenever following."""
        p = st.phase
        if p == "start":
            return {"type": "start", "mingpai": False}
        if p == "dealing":
            return {"type": "ready"}
        if p == "bidding":
            if st.variant == "menzhua" and not st.looked[seat]:
                return {"type": "look"}
            return {"type": "bid", "call": False}
        if p == "robbing":
            return {"type": "rob", "rob": False}
        if p == "doubling":
            return {"type": "double", "double": False}
        if p == "dou":
            return (
                self.legal_actions(st, seat)[1]
                if seat == st.landlord
                else {"type": "dou", "dou": False}
            )
        if p == "playing":
            if st.lead is not None:
                return {"type": "pass"}
            play = self.legal_plays_for(st, seat)[0]
            cards, _, reading = play.partition("/")
            return {"type": "play", "cards": cards, **({"as": reading} if reading else {})}
        raise IllegalAction(ErrorCode.GAME_OVER, "the hand is over")

    def bot_action(self, st: State, seat: int) -> Action:
        from games.rules.doudizhu.bot import choose

        return choose(self, st, seat)

    def bot_fallback_action(self, st: State, seat: int) -> Action:
        """The bot's heuristic without its sampled search (新手場's bot): a few ms at most."""
        from games.rules.doudizhu.bot import choose

        return choose(self, st, seat, quick=True)

    # -- serialisation ------------------------------------------------------------------------
    def state_to_json(self, st: State) -> dict[str, Any]:
        config = {name: getattr(st.config, name) for name in _CONFIG_FIELDS}  # all immutable
        if config["seat_beans"] is not None:
            config["seat_beans"] = list(config["seat_beans"])
        data = {"config": config}
        data.update(_plain_copy({name: getattr(st, name) for name in _STATE_FIELDS}))
        return data

    def state_from_json(self, data: dict[str, Any]) -> State:
        data = _plain_copy(data)
        cfg = dict(data.pop("config"))
        if cfg.get("seat_beans") is not None:
            cfg["seat_beans"] = tuple(cfg["seat_beans"])
        return State(config=Config(**cfg), **data)

    def resample_hidden(self, st: State, seat: int, seed: str) -> State:
        other = self.state_from_json(self.state_to_json(st))
        hidden = [s for s in range(3) if not self._sees(st, seat, s)]
        pool = "".join(st.hands[s] for s in hidden)
        dipai_hidden = st.landlord is None
        if dipai_hidden:
            pool += st.dipai
        deck = Chance(seed, "resample").shuffled(list(pool))
        i = 0
        for s in hidden:
            n = len(st.hands[s])
            other.hands[s] = sort_cards("".join(deck[i : i + n]))
            i += n
        if dipai_hidden:
            other.dipai = sort_cards("".join(deck[i : i + 3]))
        return other

    def all_items(self, st: State) -> list[str]:
        cards = "".join(st.hands) + "".join(st.played)
        if st.landlord is None:
            cards += st.dipai
        return sorted(cards)
