"""Lobby reads: rooms with their live counts."""

from __future__ import annotations

from django.db.models import Count, Q

from games import wheel_selectors
from games.models import Seat, Table
from lobby.models import GAME_CHOICES, Room


WHEEL_GAME = "dafengshou"


def room_params(room_id: int) -> dict | None:
    room = Room.objects.filter(pk=room_id).first()
    return room.params() if room else None


def wheel_room_params(room_id: int) -> dict | None:
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
        .values("table__room_id").annotate(n=Count("id", filter=Q(is_bot=False)))
        .values_list("table__room_id", "n")
    )
    running = dict(
        Table.objects.filter(status=Table.Status.PLAYING, room_id__isnull=False)
        .values("room_id").annotate(n=Count("id")).values_list("room_id", "n")
    )
    wheels = wheel_selectors.rooms_live([r.pk for r in rooms if r.game == WHEEL_GAME])
    names = dict(GAME_CHOICES)
    games: dict[str, dict] = {}
    for room in rooms:
        group = games.setdefault(room.game, {"game": room.game, "title": names.get(room.game),
                                             "rooms": []})
        entry = {
            "room": room, "players": seated.get(room.pk, 0), "tables": running.get(room.pk, 0),
        }
        if room.game == WHEEL_GAME:
            # a wheel room has no tables: its card shows the window, chips, limits and the
            # live round's bettor count instead
            live = wheels.get(room.pk)
            entry["wheel"] = {
                **(wheel_selectors.room_card(room.params()) or {}),
                "number": live["number"] if live else None,
                "phase": live["phase"] if live else None,
                "bettors": live["bettors"] if live else 0,
            }
        group["rooms"].append(entry)
    return list(games.values())
