"""The shared table machinery names no game: it reads the ruleset's ``table_type``.

Two proofs: the services and consumers contain no game id (a new game needs no case there),
and a tiny game that exists only in this file — registered through the declarations and
nothing else — is dealt, played, escaped and settled by the real table service.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from games.engine import registry
from games.engine.chance import Chance
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.protocol import Action, Event, Result, Ruleset, View
from games.engine.table_type import Dealer, Escape, Seating, Settlement, TableType
from games.models import Hand, HandSeat, Table
from games.services import seating, settlement, tables
from ledger.selectors import balance_for_user, ledger_drift

GAMES_DIR = Path(__file__).resolve().parents[1]
# the shared machinery: what runs every game's tables
SHARED = [
    *sorted(
        str(p.relative_to(Path(__file__).resolve().parents[1]))
        for p in (Path(__file__).resolve().parents[1] / "services" / "tables").glob("*.py")
    ),
    "services/seating.py",
    "services/presence.py",
    "services/stakes.py",
    "services/settlement.py",
    "services/items.py",
    "services/bots.py",
    "consumers/base.py",
    "consumers/table.py",
    "selectors/tables.py",
    "selectors/hands.py",
    "clock.py",
    "realtime.py",
]


def _code_tokens(path: Path) -> Iterator[str]:
    """The names and strings of a module (comments are free to cite a game's rule)."""
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.NAME, tokenize.STRING):
            yield token.string


def test_the_shared_table_code_names_no_game() -> None:
    """No registered game id (nor its pinyin stem) appears in a name or string of the table
    service, the settlement, the clock or the table consumer; ``dafengshou`` may appear only
    in the clock, which runs 大豐收's room rounds beside the tables, and in ``realtime``, which
    names every channel group."""
    stems = {game.split("_")[0] for game in registry.GAME_MODULES} | set(registry.GAME_MODULES)
    found = []
    for name in SHARED:
        allowed = {"dafengshou"} if name in ("clock.py", "realtime.py") else set()
        for token in _code_tokens(GAMES_DIR / name):
            lowered = token.lower()
            found += [(name, stem) for stem in stems - allowed if stem in lowered]
    assert found == []


def test_the_table_service_is_a_package_of_small_stages() -> None:
    """The hand flow stays split along the life of a hand: no stage grows past ~300 lines."""
    stages = sorted((GAMES_DIR / "services" / "tables").glob("*.py"))
    assert len(stages) >= 10
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in stages}
    assert max(sizes.values()) <= 300, sizes


def test_the_stakes_module_does_not_import_the_table_service() -> None:
    """``stakes`` is called by ``tables`` and never calls back (no import circle)."""
    tokens = list(_code_tokens(GAMES_DIR / "services/stakes.py"))
    assert "tables" not in tokens


# --- a game that exists only here ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DuelConfig:
    dealer: int = 0


@dataclass(slots=True)
class DuelState:
    """Each seat holds one card 1–9 and shows it once, in turn from the dealer's left."""

    seats: int
    cards: list[int]
    shown: list[bool]
    turn: int
    escaped: int | None = None
    log: list[str] = field(default_factory=list)


class DuelRuleset(Ruleset[DuelConfig, DuelState]):
    """比大小 (test only): the highest card wins one point from every other seat."""

    game_id = "test_duel"
    title = "比大小"
    min_seats = 2
    max_seats = 4
    table_type = TableType(
        seating=Seating.FIXED,
        escape=Escape.END_HAND,
        dealer=Dealer.WINNER,
        settlement=Settlement.PAYMENTS,
    )

    def config_from_params(self, params: dict[str, Any]) -> DuelConfig:
        return DuelConfig(dealer=int(params.get("dealer") or 0))

    def new_game(self, config: DuelConfig, seed: str, seats: int) -> DuelState:
        deck = Chance(seed, "deal").shuffled(list(range(1, 10)))
        return DuelState(
            seats=seats, cards=deck[:seats], shown=[False] * seats, turn=(config.dealer + 1) % seats
        )

    # the engine contract in both its forms (the game's own steps behind the shared guards)
    action_types = frozenset({"show"})

    def seat_ids(self, state: DuelState) -> range:
        return range(state.seats)

    def to_act(self, state: DuelState) -> frozenset[int]:
        return frozenset() if self.is_over(state) else frozenset({state.turn})

    def legal_actions(self, state: DuelState, seat: int) -> list[Action]:
        return self._legal_actions(state, seat) if seat in self.to_act(state) else []

    def _legal_actions(self, state: DuelState, seat: int) -> list[Action]:
        return [{"type": "show"}]

    def apply(self, state: DuelState, seat: int, action: Action) -> list[Event]:
        if seat not in self.to_act(state):
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "not your turn")
        if action.get("type") != "show":
            raise IllegalAction(ErrorCode.MALFORMED, "only show")
        return self._apply_action(state, seat, action)

    def _apply_action(self, state: DuelState, seat: int, action: Action) -> list[Event]:
        state.shown[seat] = True
        state.turn = (seat + 1) % state.seats
        return [Event("show", {"seat": seat, "card": state.cards[seat]})]

    def view(self, state: DuelState, seat: int) -> View:
        return {
            "mine": state.cards[seat],
            "shown": [c if s else None for c, s in zip(state.cards, state.shown)],
        }

    def spectator_view(self, state: DuelState) -> View:
        return {"shown": [c if s else None for c, s in zip(state.cards, state.shown)]}

    def is_over(self, state: DuelState) -> bool:
        return all(state.shown) or state.escaped is not None

    def _payments(self, winner: int, seats: int, points: int) -> list[dict[str, int]]:
        return [{"from": s, "to": winner, "points": points} for s in range(seats) if s != winner]

    def result(self, state: DuelState) -> Result:
        winner = max(range(state.seats), key=lambda s: state.cards[s])
        scores = tuple(state.seats - 1 if s == winner else -1 for s in range(state.seats))
        return Result(
            scores=scores,
            winners=(winner,),
            extra={"payments": self._payments(winner, state.seats, 1)},
        )

    def escape_result(self, state: DuelState, seat: int) -> Result:
        state.escaped = seat
        others = [s for s in range(state.seats) if s != seat]
        scores = tuple(-2 * len(others) if s == seat else 2 for s in range(state.seats))
        payments = [{"from": seat, "to": s, "points": 2} for s in others]
        return Result(scores=scores, winners=tuple(others), extra={"payments": payments})

    def auto_action(self, state: DuelState, seat: int) -> Action:
        return {"type": "show"}

    def state_to_json(self, state: DuelState) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "cards": state.cards,
            "shown": state.shown,
            "turn": state.turn,
            "escaped": state.escaped,
        }

    def state_from_json(self, data: dict[str, Any]) -> DuelState:
        return DuelState(
            seats=data["seats"],
            cards=list(data["cards"]),
            shown=list(data["shown"]),
            turn=data["turn"],
            escaped=data["escaped"],
        )

    def resample_hidden(self, state: DuelState, seat: int, seed: str) -> DuelState:
        return self.state_from_json(self.state_to_json(state))


@pytest.fixture
def duel() -> Iterator[DuelRuleset]:
    ruleset = registry.register(DuelRuleset())
    yield ruleset  # type: ignore[misc]
    registry._REGISTRY.pop(DuelRuleset.game_id, None)


def _duel_table(make_user, beans: int = 1000) -> tuple[Table, list[Any]]:
    table = seating.table_create(game="test_duel", params={"factor": 10, "rake": 3}, seat_count=3)
    users = [make_user(beans=beans) for _ in range(3)]
    for user in users:
        seating.seat_take(table_id=table.pk, user=user)
    table.refresh_from_db()
    return table, users


@pytest.mark.django_db
def test_a_game_declared_only_by_its_ruleset_plays_and_settles(
    duel, make_user, django_capture_on_commit_callbacks
) -> None:
    """A new game plugs in by its declarations alone: the full table deals it (FIXED), the
    turns run through ``move_submit``, the winner deals next (Dealer.WINNER) and the
    settlement pays the payments × N, then 回收 A from everyone (PAYMENTS)."""
    with django_capture_on_commit_callbacks(execute=False):
        table, users = _duel_table(make_user)
    hand = Hand.objects.get(table=table)
    assert table.status == Table.Status.PLAYING and len(hand.players) == 3
    for _ in range(3):
        state = duel.state_from_json(Hand.objects.get(pk=hand.pk).state)
        seat = next(iter(duel.to_act(state)))
        table.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=False):
            tables.move_submit(
                table_id=table.pk,
                user=users[seat],
                action={"type": "show"},
                expected_seq=table.seq,
                action_id=f"duel-{seat}",
            )
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED
    winner = hand.result["winners"][0]
    assert Table.objects.get(pk=table.pk).dealer == winner  # the winner deals next
    assert settlement.hand_settle(hand.pk) is True
    beans = {seat: balance_for_user(user) - 1000 for seat, user in enumerate(users)}
    assert beans == {s: (2 * 10 - 3 if s == winner else -10 - 3) for s in range(3)}
    assert HandSeat.objects.filter(hand=hand).count() == 3
    assert ledger_drift() == []


@pytest.mark.django_db
def test_leaving_a_declared_game_ends_the_hand_with_its_escape_rule(
    duel, make_user, django_capture_on_commit_callbacks
) -> None:
    """Escape.END_HAND: a player who leaves mid-hand ends it with the ruleset's escape
    result (he pays each other seat 2 × N), and the seat is left empty."""
    with django_capture_on_commit_callbacks(execute=False):
        table, users = _duel_table(make_user)
        assert seating.seat_leave(table_id=table.pk, user=users[1]) is True
    hand = Hand.objects.get(table=table)
    assert hand.status == Hand.Status.ESCAPED and hand.result["escaped_seat"] == 1
    seat = Table.objects.get(pk=table.pk).seats.get(index=1)
    assert (seat.user_id, seat.auto, seat.connections, seat.deadline) == (None, False, 0, None)
    assert settlement.hand_settle(hand.pk) is True
    beans = [balance_for_user(user) - 1000 for user in users]
    assert beans == [2 * 10 - 3, -4 * 10 - 3, 2 * 10 - 3]
    assert ledger_drift() == []


# --- a pot game that exists only here: OPEN seating, stakes in play, FOLD, POT ---------------


@dataclass(frozen=True, slots=True)
class PotConfig:
    ante: int = 5
    dealer: int = 0


@dataclass(slots=True)
class PotState:
    """Each dealt seat antes, then in turn stakes 10 (``bet``) or folds; the best card of the
    seats still in takes the pot once every seat has acted or one is left."""

    seats: int
    ante: int
    cards: list[int]
    status: list[str]
    stakes: list[int]
    turn: int
    acted: list[bool]


class PotRuleset(Ruleset[PotConfig, PotState]):
    """押鍋 (test only): 2–4 players, one round of betting, the best card takes the pot."""

    game_id = "test_pot"
    title = "押鍋"
    min_seats = 2
    max_seats = 4
    table_type = TableType(
        seating=Seating.OPEN,
        stakes_in_play=True,
        escape=Escape.FOLD,
        settlement=Settlement.POT,
    )

    def config_from_params(self, params: dict[str, Any]) -> PotConfig:
        return PotConfig(ante=int(params.get("ante") or 5), dealer=int(params.get("dealer") or 0))

    def deal_minimum(self, config: PotConfig) -> int:
        return config.ante + 10

    def new_game(self, config: PotConfig, seed: str, seats: int) -> PotState:
        deck = Chance(seed, "deal").shuffled(list(range(1, 10)))
        return PotState(
            seats=seats,
            ante=config.ante,
            cards=deck[:seats],
            status=["in"] * seats,
            stakes=[config.ante] * seats,
            turn=(config.dealer + 1) % seats,
            acted=[False] * seats,
        )

    def opening_stakes(self, state: PotState) -> list[Event]:
        return [Event("stake", {"seat": s, "amount": state.ante}) for s in range(state.seats)]

    def escape_action(self, state: PotState, seat: int) -> Action | None:
        return {"type": "fold"} if state.status[seat] == "in" else None

    def _live(self, state: PotState) -> list[int]:
        return [s for s in range(state.seats) if state.status[s] == "in"]

    action_types = frozenset({"bet", "fold"})
    free_actions = frozenset({"fold"})  # an escaper folds off turn

    def seat_ids(self, state: PotState) -> range:
        return range(state.seats)

    def to_act(self, state: PotState) -> frozenset[int]:
        return frozenset() if self.is_over(state) else frozenset({state.turn})

    def legal_actions(self, state: PotState, seat: int) -> list[Action]:
        return self._legal_actions(state, seat) if seat in self.to_act(state) else []

    def _legal_actions(self, state: PotState, seat: int) -> list[Action]:
        return [{"type": "bet"}, {"type": "fold"}]

    def apply(self, state: PotState, seat: int, action: Action) -> list[Event]:
        if self.is_over(state):
            raise IllegalAction(ErrorCode.GAME_OVER, "over")
        return self._apply_action(state, seat, action)

    def _apply_action(self, state: PotState, seat: int, action: Action) -> list[Event]:
        kind = action.get("type")
        if kind == "fold" and state.status[seat] == "in":  # legal off turn (an escape)
            state.status[seat], state.acted[seat] = "out", True
            events = [Event("fold", {"seat": seat})]
        elif kind == "bet" and seat in self.to_act(state):
            state.stakes[seat] += 10
            state.acted[seat] = True
            events = [Event("stake", {"seat": seat, "amount": 10})]
        else:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "not now")
        waiting = [s for s in self._live(state) if not state.acted[s]]
        if waiting:
            state.turn = min(waiting, key=lambda s: (s - state.turn) % state.seats)
        return events

    def view(self, state: PotState, seat: int) -> View:
        return {"mine": state.cards[seat], "stakes": state.stakes, "status": state.status}

    def spectator_view(self, state: PotState) -> View:
        return {"stakes": state.stakes, "status": state.status}

    def is_over(self, state: PotState) -> bool:
        live = self._live(state)
        return len(live) <= 1 or all(state.acted[s] for s in live)

    def result(self, state: PotState) -> Result:
        winner = max(self._live(state), key=lambda s: state.cards[s])
        pot = sum(state.stakes)
        scores = tuple(
            pot - state.stakes[s] if s == winner else -state.stakes[s] for s in range(state.seats)
        )
        return Result(scores=scores, winners=(winner,), extra={"stakes": list(state.stakes)})

    def auto_action(self, state: PotState, seat: int) -> Action:
        return {"type": "fold"}

    def bot_action(self, state: PotState, seat: int) -> Action:
        return {"type": "bet"}

    def state_to_json(self, state: PotState) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "ante": state.ante,
            "cards": state.cards,
            "status": state.status,
            "stakes": state.stakes,
            "turn": state.turn,
            "acted": state.acted,
        }

    def state_from_json(self, data: dict[str, Any]) -> PotState:
        return PotState(
            seats=data["seats"],
            ante=data["ante"],
            cards=list(data["cards"]),
            status=list(data["status"]),
            stakes=list(data["stakes"]),
            turn=data["turn"],
            acted=list(data["acted"]),
        )

    def resample_hidden(self, state: PotState, seat: int, seed: str) -> PotState:
        return self.state_from_json(self.state_to_json(state))


@pytest.fixture
def pot_game() -> Iterator[PotRuleset]:
    ruleset = registry.register(PotRuleset())
    yield ruleset  # type: ignore[misc]
    registry._REGISTRY.pop(PotRuleset.game_id, None)


@pytest.mark.django_db
def test_a_declared_pot_game_deals_the_seated_takes_stakes_and_folds_an_escaper(
    pot_game, make_user, django_capture_on_commit_callbacks
) -> None:
    """OPEN seating deals the room's minimum of seated players who hold ``deal_minimum``
    (a poor one waits), the antes and each bet leave the players' accounts as they are made
    (stakes_in_play), a leaver folds and pays the escape penalty while the hand goes on (FOLD),
    and the pot pays the winner minus A, the settlement only recording it (POT)."""
    params = {"min_players": 2, "rake": 2, "escape_penalty": 7, "factor": 1}
    table = seating.table_create(game="test_pot", params=params, seat_count=4)
    rich = [make_user(beans=100) for _ in range(3)]
    poor = make_user(beans=10)  # below deal_minimum (15): seated, not dealt in
    with django_capture_on_commit_callbacks(execute=False):
        seating.seat_take(table_id=table.pk, user=poor)
        seating.seat_take(table_id=table.pk, user=rich[0])
        assert not Hand.objects.filter(table=table).exists()  # one dealable player: no deal
        seating.seat_take(table_id=table.pk, user=rich[1])
    hand = Hand.objects.get(table=table)
    assert [p["user_id"] for p in hand.players] == [rich[0].pk, rich[1].pk]
    assert [balance_for_user(u) for u in rich[:2]] == [95, 95]  # antes taken at the deal
    with django_capture_on_commit_callbacks(execute=False):
        seating.seat_take(table_id=table.pk, user=rich[2])  # sits down during the hand: waits
    state = pot_game.state_from_json(Hand.objects.get(pk=hand.pk).state)
    first = next(iter(pot_game.to_act(state)))
    mover, leaver = rich[first], rich[1 - first]
    table.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=False):
        tables.move_submit(
            table_id=table.pk,
            user=mover,
            action={"type": "bet"},
            expected_seq=table.seq,
            action_id="pot-bet",
        )
    assert balance_for_user(mover) == 85  # the bet left his account with the move
    with django_capture_on_commit_callbacks(execute=False):
        assert seating.seat_leave(table_id=table.pk, user=leaver) is True
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand.result["winners"] == [first]
    assert balance_for_user(leaver) == 95 - 7  # his ante stays in the pot, plus the penalty
    assert balance_for_user(mover) == 85 + (5 + 5 + 10) - 2  # the pot minus 回收 A
    assert settlement.hand_settle(hand.pk) is True
    assert balance_for_user(mover) == 103 and balance_for_user(leaver) == 88  # nothing again
    assert balance_for_user(rich[2]) == 100 and balance_for_user(poor) == 10
    assert ledger_drift() == []


@pytest.mark.parametrize("package", ["zhajinhua", "paohuzi", "doudizhu", "mahjong"])
def test_a_bot_takes_the_ruleset_it_is_given(package: str) -> None:
    """No bot module imports its game's ruleset, not even for types: the ruleset imports the
    bot and hands itself in (no import circle)."""
    for path in (GAMES_DIR / "rules" / package).rglob("bot*.py"):
        modules = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                modules.append(node.module or "")
                modules += [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                modules += [alias.name for alias in node.names]
        assert not [m for m in modules if "ruleset" in m.split(".")], path
