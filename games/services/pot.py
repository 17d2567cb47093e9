"""歡樂三張 on the live table: the pot, the seat mapping, escapes. Called from ``tables``.

Only ``zhajinhua`` tables use this module; every function is a no-op (or the identity) for
the other games, so ``tables`` can call it unconditionally where noted.

* Seats. A 三張 table has 2–6 seats; a hand is dealt to the seated players only, packed in
  table order (engine seat e ↔ ``Hand.players[e]["table_seat"]``). A player who sits down
  during a hand waits for the next one (he has no engine seat in this hand).
* Stakes. The ledger takes each stake as it is made, in the transaction that makes it: the
  底注 of every player at the deal, then every engine ``stake`` event, from the player to the
  system account ``ledger.POT``. Each transfer has the key ``pot:<hand>:<table seq>`` (the 底注
  ``pot:<hand>:ante``), so nothing is ever taken twice.
* End. In the transaction that ends the hand the pot goes to the winner, minus the room's
  回收 A (at most the pot) to ``ledger.RAKE`` (key ``pot:<hand>:payout``). The result carries
  ``bean_moves`` (each seat's net for the hand) and ``beans_moved`` so the settlement records
  them without moving beans again.
* Escape (逃跑). A player leaving while still in the hand folds (``{"type": "fold"}``, legal off
  turn, what he staked stays in the pot) and pays the room's ``escape_penalty`` (at most what
  he has) to ``ledger.ESCAPE`` (key ``pot:<hand>:escape:<engine seat>``); the hand goes on.
"""

from __future__ import annotations

from typing import Any

from games.engine import registry
from games.engine.errors import ErrorCode, IllegalAction
from games.models import Hand, HandEvent, Seat, Table

GAME = "zhajinhua"


def is_pot_game(game: str) -> bool:
    return game == GAME


def min_players(params: dict) -> int:
    """The room's minimum to deal a hand (Room.extra["min_players"], at least 2)."""
    try:
        return max(2, int(params.get("min_players") or 2))
    except (TypeError, ValueError):
        return 2


# --- seats ----------------------------------------------------------------------------------


def engine_seat(hand: Hand, seat: Seat) -> int | None:
    """The seat's index in the hand's engine state (None: not dealt in this hand)."""
    if not is_pot_game(hand.game):
        return seat.index
    for e, player in enumerate(hand.players):
        if player.get("table_seat") == seat.index and player.get("user_id") == seat.user_id:
            return e
    return None


def table_seats(hand: Hand | dict, engine_seats) -> frozenset[int]:
    """Engine seats → table seat indices (identity for the other games)."""
    game = hand["game"] if isinstance(hand, dict) else hand.game
    players = hand["players"] if isinstance(hand, dict) else hand.players
    if not is_pot_game(game):
        return frozenset(engine_seats)
    return frozenset(players[e].get("table_seat", e) for e in engine_seats)


def table_seat(hand: Hand, e: int) -> int:
    return hand.players[e].get("table_seat", e) if is_pot_game(hand.game) else e


def ready_to_start(table: Table, seats: list[Seat]) -> bool:
    """A 三張 hand starts once the room's minimum (≥ 2) of players is seated."""
    seated = [s for s in seats if s.user_id is not None]
    return len(seated) >= min_players(table.params)


def target_players(params: dict, seats: int) -> int:
    """How many players a table aims for (Room.extra["target_players"], default 4): at least
    the room's minimum, at most the seats."""
    try:
        wanted = int(params.get("target_players") or 4)
    except (TypeError, ValueError):
        wanted = 4
    return max(min_players(params), min(wanted, seats))


def bots_wanted(table: Table, free: int) -> int:
    """How many empty seats the clock fills with bots: up to the players the table aims for."""
    seated = table.seats.filter(user__isnull=False).count()
    return max(0, min(free, target_players(table.params, table.seat_count) - seated))


def dealt_seats(seats: list[Seat], balances: dict[int, int], ante: int) -> list[Seat]:
    """The seated players who can pay the 底注, in table order."""
    return [s for s in seats if s.user_id is not None and balances.get(s.user_id, 0) >= ante]


def engine_dealer(seats: list[Seat], table_dealer: int) -> int:
    """The engine index of the table's dealer seat, or of the last dealt seat before it."""
    before = [e for e, s in enumerate(seats) if s.index <= table_dealer]
    return before[-1] if before else len(seats) - 1


# --- beans ----------------------------------------------------------------------------------


def _transfer(legs, *, key: str, reason: str, kind=None) -> None:
    from ledger import services as ledger
    from ledger.exceptions import InsufficientBeans
    from ledger.models import Transfer

    try:
        ledger.transfer_create(
            postings=legs, kind=kind or Transfer.Kind.STAKE, reason=reason, idempotency_key=key,
        )
    except InsufficientBeans:
        raise IllegalAction(ErrorCode.OVER_LIMIT, "歡樂豆不足 (not enough beans)") from None


def antes_take(hand: Hand, state: Any) -> None:
    """Debit every dealt-in player's 底注 into the pot (the engine's ante_events)."""
    from games.rules.zhajinhua import ante_events
    from ledger import services as ledger

    pot = ledger.system_account(ledger.POT)
    legs = []
    total = 0
    for event in ante_events(state):
        uid = hand.players[event.data["seat"]]["user_id"]
        legs.append((ledger.account_for_user_id(uid), -event.data["amount"]))
        total += event.data["amount"]
    legs.append((pot, total))
    _transfer(legs, key=f"pot:{hand.pk}:ante", reason=f"三張 底注 牌局 #{hand.pk}")


def stakes_take(hand: Hand, events, seq: int) -> None:
    """Move the beans of each engine ``stake`` event from the player to the pot, now."""
    if not is_pot_game(hand.game):
        return
    from ledger import services as ledger

    legs = []
    total = 0
    for event in events:
        if event.type != "stake" or not event.data.get("amount"):
            continue
        uid = hand.players[event.data["seat"]]["user_id"]
        legs.append((ledger.account_for_user_id(uid), -event.data["amount"]))
        total += event.data["amount"]
    if total:
        legs.append((ledger.system_account(ledger.POT), total))
        _transfer(legs, key=f"pot:{hand.pk}:{seq}", reason=f"三張 下注 牌局 #{hand.pk}")


def _penalties(hand: Hand) -> dict[int, int]:
    out: dict[int, int] = {}
    for event in HandEvent.objects.filter(hand=hand, by="escape"):
        out[event.seat] = out.get(event.seat, 0) + int(event.action.get("penalty") or 0)
    return out


def hand_finish(hand: Hand) -> None:
    """The pot to the winner minus 回收 A; record each seat's net in the result's extra."""
    if not is_pot_game(hand.game):
        return
    from ledger import services as ledger
    from ledger.models import Transfer

    result = hand.result
    extra = result.setdefault("extra", {})
    stakes = list(extra.get("stakes") or [])
    pot = sum(stakes)
    winner = (result.get("winners") or [None])[0]
    rake = min(pot, int(hand.params.get("rake") or 0))
    if winner is not None and pot:
        uid = hand.players[winner]["user_id"]
        legs = [(ledger.system_account(ledger.POT), -pot),
                (ledger.account_for_user_id(uid), pot - rake)]
        if rake:
            legs.append((ledger.system_account(ledger.RAKE), rake))
        _transfer(legs, key=f"pot:{hand.pk}:payout", reason=f"三張 鍋底 牌局 #{hand.pk}",
                  kind=Transfer.Kind.PAYOUT)
    penalties = _penalties(hand)
    moves = {}
    for e in range(len(hand.players)):
        won = pot - rake if e == winner else 0
        moves[str(e)] = won - stakes[e] - penalties.get(e, 0)
    extra["bean_moves"] = moves
    extra["beans_moved"] = True  # taken during play: the settlement only records them
    extra["rake_total"] = rake
    extra["escape_penalties"] = {str(e): p for e, p in penalties.items()}
    if penalties:
        result["escaped_seat"] = min(penalties)


# --- escape ---------------------------------------------------------------------------------


def escape(table: Table, hand: Hand, seat: Seat) -> bool:
    """逃跑 from a 三張 hand: fold (if still in) and pay the room's penalty. True if it was one.

    A seat not dealt in, or already out (folded or beaten), leaves freely: its stakes are
    already forfeit and nothing more is taken.
    """
    from games.services import tables
    from ledger import services as ledger
    from ledger.models import Transfer
    from ledger.selectors import balance_for_user

    e = engine_seat(hand, seat)
    if e is None:
        return False
    ruleset = registry.get(hand.game)
    state = ruleset.state_from_json(hand.state)
    if state.status[e] != "in" or ruleset.is_over(state):
        return False
    penalty = min(int(hand.params.get("escape_penalty") or 0), balance_for_user(seat.user))
    if penalty > 0:
        ledger.transfer_create(
            postings=[(ledger.account_for_user(seat.user), -penalty),
                      (ledger.system_account(ledger.ESCAPE), penalty)],
            kind=Transfer.Kind.ESCAPE, reason=f"三張 逃跑 牌局 #{hand.pk}",
            idempotency_key=f"pot:{hand.pk}:escape:{e}",
        )
    tables._apply(table, hand, seat, {"type": "fold", "escape": True, "penalty": penalty},
                  action_id=None, by="escape")
    return True
