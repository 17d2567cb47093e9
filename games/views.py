"""Table pages: thin views over selectors and rendering."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe

from games import rendering, selectors, wheel_selectors
from games.boards import dafengshou as wheel_board
from games.engine import registry
from games.services import wheel_rounds


@login_required
def table_page(request, table_id: int):
    codes = request.session.get(selectors.INVITE_CODES_KEY, [])
    if selectors.table_access_by_id(user=request.user, table_id=table_id, codes=codes) is None:
        raise Http404("沒有這張牌桌，或這是私人牌桌（請用邀請碼加入）")
    snapshot = selectors.table_snapshot(table_id)
    if snapshot is None:
        raise Http404("沒有這張牌桌")
    seat = selectors.seat_index_for_user(table_id, request.user)
    board = rendering.render_html(snapshot, seat, request.user)
    return render(request, "games/table.html", {
        "table_id": table_id,
        "game": snapshot["table"]["game"],
        "title": registry.get(snapshot["table"]["game"]).title,
        "board_html": mark_safe(board),
    })


@login_required
def replay_page(request, hand_id: int):
    """Step through a finished hand from its event log (who may: ``selectors.replay_access``)."""
    hand = selectors.hand_get_finished(hand_id, user=request.user)
    if hand is None:
        raise Http404("沒有這一局、牌局尚未結束，或你無權觀看這一局的回放")
    frames = selectors.hand_replay_frames(hand)
    return render(request, "games/replay.html", {
        "hand": hand, "frames": frames, "players": hand.players,
        "title": registry.get(hand.game).title,
        "public_after_hours": settings.LEYOU["REPLAY_PUBLIC_AFTER_HOURS"],
    })


@login_required
def wheel_page(request, room_id: int):
    """大豐收: the room's live round (the socket keeps it current)."""
    try:
        wheel_rounds.round_enter(room_id=room_id)
    except wheel_rounds.UnknownWheelRoom as error:
        raise Http404(error.message) from None
    view = wheel_selectors.wheel_view(room_id, request.user)
    return render(request, "games/wheel.html", {
        "room_id": room_id, "title": "大豐收", "board_html": mark_safe(wheel_board.render_html(view)),
    })


def wheel_verify_page(request, room_id: int, number: int):
    """Re-derive a settled round from its revealed seed: the hash and the spin both check."""
    check = wheel_selectors.wheel_round_verify(room_id, number)
    if check is None:
        raise Http404("沒有這一局，或尚未開獎")
    return render(request, "games/wheel_verify.html", {"check": check, "title": "大豐收驗證"})
