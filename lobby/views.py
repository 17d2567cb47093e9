"""Lobby pages: the game and room list (live), quick join, private rooms."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from config.client_address import client_address
from games import selectors as game_selectors
from games.exceptions import TableError
from lobby import selectors, services
from lobby.exceptions import TooManyGuesses


def _left_table(request) -> int | None:
    raw = request.GET.get("left", "")
    return int(raw) if raw.isdigit() and len(raw) < 12 else None


def home(request):
    current = game_selectors.table_for_user(request.user) if request.user.is_authenticated else None
    left = _left_table(request) if request.user.is_authenticated else None
    return render(request, "lobby/home.html", {
        "games": selectors.rooms_with_counts(), "current_table": current,
        "table_id": left,
        "cost": game_selectors.escape_cost_for_user(request.user, left) if left else None,
    })


@login_required
def escape_cost(request, table_id: int):
    """The lobby's word on what leaving the table cost (polled until it is settled)."""
    return render(request, "lobby/_escape_cost.html", {
        "table_id": table_id, "cost": game_selectors.escape_cost_for_user(request.user, table_id),
    })


def room_list(request):
    """The room list fragment (pushed live by the lobby socket, also fetched on demand)."""
    return render(request, "lobby/_rooms.html", {"games": selectors.rooms_with_counts()})


@login_required
@require_POST
def quick_join(request, room_id: int):
    room = selectors.room_get(room_id)
    if room is not None and room.game == "dafengshou":
        return redirect("games:wheel", room_id=room_id)  # one room-wide round, no tables
    try:
        table = services.quick_join(user=request.user, room_id=room_id)
    except TableError as error:
        messages.error(request, error.message)
        return redirect("lobby:home")
    return redirect("games:table", table_id=table.pk)


@login_required
@require_POST
def private_create(request, room_id: int):
    try:
        table = services.private_create(user=request.user, room_id=room_id)
    except TableError as error:
        messages.error(request, error.message)
        return redirect("lobby:home")
    return redirect("games:table", table_id=table.pk)


@login_required
@require_POST
def private_join(request):
    try:
        table = services.private_join(
            user=request.user, code=request.POST.get("code", ""),
            address=client_address(request),
        )
    except TooManyGuesses as error:
        return render(request, "lobby/too_many_guesses.html", {"message": error.message},
                      status=429)
    except TableError as error:
        messages.error(request, error.message)
        table = getattr(error, "table", None)  # a right code for a full table: watch it
        if table is None:
            return redirect("lobby:home")
    # the page and the socket let in whoever presented the code (games.selectors.table_access)
    codes = request.session.get(game_selectors.INVITE_CODES_KEY, [])
    if table.invite_code not in codes:
        request.session[game_selectors.INVITE_CODES_KEY] = [*codes, table.invite_code][-20:]
    return redirect("games:table", table_id=table.pk)
