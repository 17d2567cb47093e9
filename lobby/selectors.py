"""Lobby reads: rooms with their live counts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q

from games.engine import registry
from games.models import Seat, Table
from games.selectors import dafengshou as dafengshou_selectors
from lobby.models import Room

if TYPE_CHECKING:
    from accounts.models import User

WHEEL_GAME = "dafengshou"


def _base_label(game: str) -> str | None:
    try:
        return registry.get(game).base_label
    except KeyError:
        return "底分"


def room_params(room_id: int) -> dict | None:
    room = Room.objects.filter(pk=room_id).first()
    return room.params() if room else None


def dafengshou_room_params(room_id: int) -> dict | None:
    """An open 大豐收 room's params (its odds table, chips, limits, clocks), else None."""
    room = Room.objects.filter(pk=room_id, game="dafengshou", is_open=True).first()
    return room.params() if room else None


def room_get(room_id: int) -> Room | None:
    return Room.objects.filter(pk=room_id).first()


def rooms_with_counts() -> list[dict]:
    """Every room grouped by game, with players seated and tables running (for the live list);
    a 大豐收 room has ``wheel`` instead: its window, chips, limits and live round."""
    rooms = list(Room.objects.all())
    seated = dict(
        Seat.objects.filter(user__isnull=False, table__room_id__isnull=False)
        .exclude(table__status=Table.Status.CLOSED)
        .values("table__room_id")
        .annotate(n=Count("id", filter=Q(is_bot=False)))
        .values_list("table__room_id", "n")
    )
    running = dict(
        Table.objects.filter(status=Table.Status.PLAYING, room_id__isnull=False)
        .values("room_id")
        .annotate(n=Count("id"))
        .values_list("room_id", "n")
    )
    wheels = dafengshou_selectors.rooms_live([r.pk for r in rooms if r.game == WHEEL_GAME])
    names = dict(registry.choices())
    games: dict[str, dict] = {}
    for room in rooms:
        group = games.setdefault(
            room.game, {"game": room.game, "title": names.get(room.game), "rooms": []}
        )
        entry = {
            "room": room,
            "players": seated.get(room.pk, 0),
            "tables": running.get(room.pk, 0),
            "base_label": _base_label(room.game),  # what the table calls 底分 (None: unused)
        }
        if room.game == WHEEL_GAME:
            # a wheel room has no tables: its card shows the window, chips, limits and the
            # live round's bettor count instead
            live = wheels.get(room.pk)
            entry["wheel"] = {
                **(dafengshou_selectors.room_card(room.params()) or {}),
                "number": live["number"] if live else None,
                "phase": live["phase"] if live else None,
                "bettors": live["bettors"] if live else 0,
            }
        group["rooms"].append(entry)
    return list(games.values())


def room_preview(room: Room, *, seed: str = "preview") -> dict:
    """What a room's settings mean for a player (the admin's live preview): the entry range,
    the rake per hand, and an example settlement — a seeded bot hand played by the game's own
    rules with these settings, its lines and each seat's 積分 × N − A. For 大豐收 (no table)
    the configured return-to-player. ``errors`` (field → message) when the settings are refused.
    Reads only; nothing is stored."""
    from games.rules.dafengshou.wheel import expected_rtp
    from lobby.models import room_buy_in, room_errors

    errors = room_errors(room)
    if errors:
        return {"errors": errors}
    ruleset = registry.get(room.game)
    params = room.params()
    config = ruleset.config_from_params(params)
    out: dict = {
        "title": ruleset.title,
        "variant": {v.id: v.label for v in ruleset.variants}.get(room.variant, room.variant),
        "min_beans": room.min_beans,
        "max_beans": room.max_beans,
        "buy_in": room_buy_in(room, config),
        "rake": room.rake,
        "factor": room.factor,
        "base_score": room.base_score,
    }
    if room.game == WHEEL_GAME:
        out["rtp"] = expected_rtp(config)
        return out
    seats = room.seats
    for attempt in range(12):
        state = ruleset.new_game(config, f"{seed}-{attempt}", seats)
        for _ in range(5000):
            if ruleset.is_over(state):
                break
            seat = min(ruleset.to_act(state))
            ruleset.apply(state, seat, ruleset.bot_action(state, seat))
        if not ruleset.is_over(state):
            continue
        result = ruleset.result(state)
        if not any(result.scores):
            continue  # a drawn hand shows nothing: try the next seed
        pot = getattr(config, "ante", None) is not None  # stakes moved during play (三張)
        winners = set(result.winners)
        out["example"] = {
            "pot": pot,
            "lines": [
                {"label": line.label, "value": line.value, "seat": line.seat}
                for line in result.lines
            ],
            # a pot game's scores are the beans staked and won; the 回收 comes out of the
            # pot, shared by its winners; elsewhere each seat moves 積分 × N − A
            "seats": [
                {
                    "seat": s,
                    "score": score,
                    "winner": s in winners,
                    "beans": (score - room.rake // max(1, len(winners)) if s in winners else score)
                    if pot
                    else score * room.factor - room.rake,
                }
                for s, score in enumerate(result.scores)
            ],
        }
        break
    return out


def table_panel(*, user: User, table_id: int) -> dict[str, Any]:
    """The players at a table the viewer may follow, and (at his own private table, seated)
    the friends he may invite. The caller has checked the viewer may see the table."""
    from accounts import selectors as account_selectors
    from games.selectors import tables as table_selectors

    table = Table.objects.get(pk=table_id)
    seats = list(
        Seat.objects.filter(table=table, user__isnull=False, is_bot=False)
        .exclude(user=user)
        .select_related("user")
        .order_by("index")
    )
    following = set(account_selectors.following_ids(user, [s.user_id for s in seats]))
    seated = table.seats.filter(user=user).exists()
    at_table = {s.user_id for s in seats}
    friends = (
        [f for f in account_selectors.friends_for_user(user) if f["user"].pk not in at_table]
        if seated and table.is_private and table.status != Table.Status.CLOSED
        else []
    )
    return {
        "table_id": table.pk,
        "players": [
            {"seat": s.index, "user": s.user, "following": s.user_id in following} for s in seats
        ],
        "friends": friends,
        "can_invite": bool(friends),
        "can_return": not seated and table_selectors.may_return(user, table),
    }
