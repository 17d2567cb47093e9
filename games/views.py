"""Table pages: thin views over selectors and rendering."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import chat_rendering, rendering, replays
from games.boards import dafengshou as dafengshou_board
from games.engine import registry
from games.exceptions import UnknownDafengshouRoom
from games.models import Table
from games.selectors import chat as chat_selectors
from games.selectors import dafengshou as dafengshou_selectors
from games.selectors import hands as hand_selectors
from games.selectors import spectating
from games.selectors import tables as table_selectors
from games.services import dafengshou


@login_required
def table_page(request, table_id: int):
    codes = request.session.get(table_selectors.INVITE_CODES_KEY, [])
    access = table_selectors.table_access_by_id(user=request.user, table_id=table_id, codes=codes)
    if access is None:
        raise Http404(_("沒有這張牌桌，或這是私人牌桌（請用邀請碼加入）"))
    if access == table_selectors.WATCHER and not spectating.watching_allowed(table_id):
        # nobody watches; a player dealt in here who was stood up may still sit down again
        back = table_selectors.may_return(request.user, Table.objects.get(pk=table_id))
        return render(
            request,
            "games/watch_refused.html",
            {"title": _("觀戰"), "return_table_id": table_id if back else None},
            status=403,
        )
    seat = table_selectors.seat_index_for_user(table_id, request.user)
    # a watcher of a bean room sees the table late (games.selectors.spectating)
    snapshot = (
        table_selectors.table_snapshot(table_id)
        if seat is not None
        else spectating.spectator_snapshot(table_id)[0]
    )
    if snapshot is None:
        raise Http404(_("沒有這張牌桌"))
    board = rendering.render_html(snapshot, seat, request.user)
    table = snapshot["table"]
    chat_bar = chat_rendering.bar_context(
        game=table["game"],
        is_private=table["is_private"],
        watchers=spectating.watchers_count(table_id),
        muted=chat_selectors.muted_users_for(request.user.pk),
        allow=spectating.watch_preference(request.user),
        delay=spectating.spectator_delay(table["params"] or {}) if seat is None else (0, 0),
        can_speak=seat is not None,
    )
    return render(
        request,
        "games/table.html",
        {
            "table_id": table_id,
            "game": snapshot["table"]["game"],
            "variant": (table["params"] or {}).get("variant") or "",  # its 玩法說明 link
            "title": registry.get(snapshot["table"]["game"]).title,
            "board_html": mark_safe(board),
            **chat_bar,
        },
    )


@login_required
def replay_page(request, hand_id: int):
    """Step through a finished hand with its own board, every hand open (who may:
    ``hands.replay_access``)."""
    hand = hand_selectors.hand_get_finished(hand_id, user=request.user)
    if hand is None or not replays.supports(hand.game):
        raise Http404(_("沒有這一局、牌局尚未結束，或你無權觀看這一局的回放"))
    replay = replays.replay_build(hand)
    return render(
        request,
        "games/replay.html",
        {
            "hand": hand,
            "last": replay.last,
            "names": replays.names_of(hand),
            "first_step": mark_safe(replays.step_html(hand, replay, 0, request.user)),
            "check": replays.seed_check(hand, replay),
            **_deal_context(replays.deal_check(hand)),
            "title": replays.title_of(hand),
            "public_after_hours": settings.LEYOU["REPLAY_PUBLIC_AFTER_HOURS"],
        },
    )


@login_required
def replay_step(request, hand_id: int, step: int):
    """One step of a replay (caption + board), for the replay page's controls."""
    hand = hand_selectors.hand_get_finished(hand_id, user=request.user)
    if hand is None or not replays.supports(hand.game):
        raise Http404("沒有這一局、牌局尚未結束，或你無權觀看這一局的回放")
    replay = replays.replay_build(hand)
    return HttpResponse(replays.step_html(hand, replay, step, request.user))


@login_required
def dafengshou_page(request, room_id: int):
    """大豐收: the room's live round (the socket keeps it current)."""
    try:
        dafengshou.round_enter(room_id=room_id)
    except UnknownDafengshouRoom as error:
        raise Http404(error.message) from None
    view = dafengshou_selectors.dafengshou_view(room_id, request.user)
    return render(
        request,
        "games/dafengshou.html",
        {
            "room_id": room_id,
            "title": "大豐收",
            "board_html": mark_safe(dafengshou_board.render_html(view)),
        },
    )


def dafengshou_verify_page(request, room_id: int, number: int):
    """Re-derive a settled round from its revealed seed: the hash and the spin both check."""
    check = dafengshou_selectors.round_verify(room_id, number)
    if check is None:
        raise Http404(_("沒有這一局，或尚未開獎"))
    return render(
        request,
        "games/dafengshou_verify.html",
        {"check": check, "title": _("大豐收驗證"), **_deal_context(check["deal"])},
    )


def _deal_context(deal: dict) -> dict:
    """The re-deal's data for ``games/_deal_check.html`` and the script's command line."""
    return {
        "deal": deal,
        "deal_input_json": json.dumps(deal["input"], ensure_ascii=False, separators=(",", ":")),
    }


def verify_script(request):
    """The stand-alone re-deal (scripts/verify_deal.py) for a player to run on his own machine."""
    path = settings.BASE_DIR / "scripts" / "verify_deal.py"
    response = HttpResponse(path.read_bytes(), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="verify_deal.py"'
    return response
