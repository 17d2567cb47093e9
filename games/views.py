"""Table pages: thin views over selectors and rendering."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe

from games import rendering, selectors
from games.engine import registry


@login_required
def table_page(request, table_id: int):
    snapshot = selectors.table_snapshot(table_id)
    if snapshot is None:
        raise Http404("沒有這張牌桌")
    seat = selectors.seat_index_for_user(table_id, request.user)
    board = rendering.render_html(snapshot, seat, request.user)
    return render(request, "games/table.html", {
        "table_id": table_id,
        "title": registry.get(snapshot["table"]["game"]).title,
        "board_html": mark_safe(board),
    })


def replay_page(request, hand_id: int):
    """Step through a finished hand from its event log; every hand is open after its end."""
    hand = selectors.hand_get_finished(hand_id)
    if hand is None:
        raise Http404("沒有這一局，或牌局尚未結束")
    frames = selectors.hand_replay_frames(hand)
    return render(request, "games/replay.html", {
        "hand": hand, "frames": frames, "players": hand.players,
        "title": registry.get(hand.game).title,
    })
