"""The deal: a new hand when the table's seating allows it, from the room as it is now."""

from __future__ import annotations

from games.engine.chance import new_seed, seed_commitment
from games.engine.table_type import Seating
from games.models import Hand, Seat, Table
from games.services import stakes
from games.services.tables.clocks import deadlines_set
from games.services.tables.seatmap import dealer_engine_seat, min_players
from games.services.tables.working import WorkingSet, seq_bump
from ledger import selectors as ledger_selectors

# lobby registers a function room_id -> current params, so a new hand uses the room as it is now
_room_params_source = None


def room_params_source_set(func) -> None:
    """Let the lobby supply the live room params for each new hand (games never imports lobby)."""
    global _room_params_source
    _room_params_source = func


def hand_start_if_ready(work: WorkingSet) -> Hand | None:
    """Deal a hand if the table's seating allows it (``table_type.seating``)."""
    table = work.table
    seats = list(table.seats.select_related("user").order_by("index"))
    work.seats_set(seats)  # read afresh: the caller may have changed seats by other queries
    seated = [seat for seat in seats if seat.user_id is not None]
    if work.ruleset.table_type.seating is Seating.OPEN:
        if len(seated) < min_players(table):
            return None
    elif len(seated) < len(seats):
        return None
    if work.hand is not None:
        return None
    if table.status == Table.Status.CLOSED:
        return None
    return _hand_start(work, seats)


def _hand_start(work: WorkingSet, seats: list[Seat]) -> Hand | None:
    table, ruleset = work.table, work.ruleset
    if _room_params_source is not None and table.room_id:
        fresh = _room_params_source(table.room_id)
        if fresh:
            table.params = fresh
    seats = [seat for seat in seats if seat.user_id is not None]
    balances = ledger_selectors.balances_for_users([seat.user_id for seat in seats])
    # deal the seated players who can pay the game's minimum (0 for most), in table order
    least = ruleset.deal_minimum(ruleset.config_from_params(table.params))
    seats = [seat for seat in seats if balances.get(seat.user_id, 0) >= least]
    if len(seats) < ruleset.min_seats:
        return None
    dealer = dealer_engine_seat(seats, table.dealer)
    params = {
        **table.params,
        **table.carry,
        "seat_beans": [balances[seat.user_id] for seat in seats],
        "dealer": dealer,
    }
    config = ruleset.config_from_params(params)
    seed = new_seed()
    state = ruleset.new_game(config, seed, len(seats))
    table.hands_played += 1
    hand = Hand.objects.create(
        table=table,
        number=table.hands_played,
        game=table.game,
        seed=seed,
        seed_hash=seed_commitment(seed),
        params=params,
        players=[
            {
                "user_id": s.user_id,
                "name": str(s.user),
                "is_bot": s.is_bot,
                "avatar": s.user.avatar_seed,
                "table_seat": s.index,
            }
            for s in seats
        ],
        state=ruleset.state_to_json(state),
        engine_version=ruleset.engine_version,
    )
    work.hand_set(hand, state)
    table.status = Table.Status.PLAYING
    table.fill_deadline = None
    table.next_hand_at = None
    seq_bump(table)
    table.move_seq = table.seq  # a new deal
    table.save()
    if ruleset.table_type.stakes_in_play:
        stakes.opening_take(hand, ruleset.opening_stakes(state))  # e.g. the 底注, at the deal
    deadlines_set(work, previous=frozenset(), actor=None)
    return hand
