"""Lobby pages: the game and room list (live), quick join, private rooms."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.exceptions import AccountError
from config.client_address import client_address
from games.engine import registry
from games.exceptions import TableError
from games.selectors import hands as game_hands
from games.selectors import spectating as game_spectating
from games.selectors import tables as game_selectors
from lobby import leaderboards, selectors, services
from lobby import rules as game_rules
from lobby.exceptions import TooManyGuesses, UnknownInvite


def _left_table(request) -> int | None:
    raw = request.GET.get("left", "")
    return int(raw) if raw.isdigit() and len(raw) < 12 else None


def home(request):
    current = game_selectors.table_for_user(request.user) if request.user.is_authenticated else None
    left = _left_table(request) if request.user.is_authenticated else None
    hall = _hall_context(request.user) if request.user.is_authenticated else {}
    return render(
        request,
        "lobby/home.html",
        {
            "games": selectors.rooms_with_counts(),
            "current_table": current,
            **hall,
            # 觀戰: running public tables to watch (games.selectors.spectating)
            "watchable": game_spectating.tables_watchable()
            if request.user.is_authenticated
            else [],
            # after 離開 mid-hand: what the escape cost (#14 §5)
            "table_id": left,
            "cost": game_hands.escape_cost_for_user(request.user, left) if left else None,
        },
    )


@login_required
def escape_cost(request, table_id: int):
    """The lobby's word on what leaving the table cost (polled until it is settled)."""
    return render(
        request,
        "lobby/_escape_cost.html",
        {
            "table_id": table_id,
            "cost": game_hands.escape_cost_for_user(request.user, table_id),
        },
    )


def room_list(request):
    """The room list fragment (pushed live by the lobby socket, also fetched on demand)."""
    return render(request, "lobby/_rooms.html", {"games": selectors.rooms_with_counts()})


@login_required
@require_POST
def quick_join(request, room_id: int):
    room = selectors.room_get(room_id)
    if room is not None and room.game == "dafengshou":
        return redirect("games:dafengshou", room_id=room_id)  # one room-wide round, no tables
    try:
        table = services.quick_join(user=request.user, room_id=room_id)
    except TableError as error:
        messages.error(request, error.message)
        return redirect("lobby:home")
    return redirect("games:table", table_id=table.pk)


@login_required
@require_POST
def table_switch(request, table_id: int):
    """換桌 from the table page (an htmx POST): the browser goes to the new table, or back to
    this one with the refusal shown (he is still seated there)."""
    try:
        table = services.table_switch(user=request.user, table_id=table_id)
    except TableError as error:
        messages.error(request, error.message)
        return HttpResponseClientRedirect(reverse("games:table", args=[table_id]))
    return HttpResponseClientRedirect(reverse("games:table", args=[table.pk]))


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
            user=request.user,
            code=request.POST.get("code", ""),
            address=client_address(request),
        )
    except TooManyGuesses as error:
        return render(
            request, "lobby/too_many_guesses.html", {"message": error.message}, status=429
        )
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


@login_required
@require_POST
def table_return(request, table_id: int):
    """回到座位 at a private table the player was dealt in at (no code needed)."""
    try:
        services.private_return(user=request.user, table_id=table_id)
    except UnknownInvite:
        raise Http404 from None
    except TableError as error:
        messages.error(request, error.message)
    return redirect("games:table", table_id=table_id)


# -- the hall: friends, invitations, leaderboards, check-in and tasks (issue #15 §3–§5) -------


def _hall_context(user) -> dict:
    return {
        "friends": account_selectors.friends_for_user(user),
        "invitations": account_selectors.invitations_for_user(user),
        "checkin": account_selectors.checkin_status(user),
        "tasks": account_selectors.tasks_for_user(user),
        "presence_setting": account_selectors.presence_setting(user.pk),
        "presence_choices": account_selectors.presence_choices(),
        "can_invite": _at_private_table(user),
    }


def _at_private_table(user) -> bool:
    table = game_selectors.table_for_user(user)
    return table is not None and table.is_private


def leaderboard(request):
    """排行榜: a game's board for a period and a metric, with the viewer's own rank."""
    game = request.GET.get("game", "doudizhu")
    period = request.GET.get("period", "week")
    metric = request.GET.get("metric", "score")
    viewer = request.user.pk if request.user.is_authenticated else None
    status = 200
    try:
        board = leaderboards.leaderboard(game=game, period=period, metric=metric, viewer_id=viewer)
    except leaderboards.BadBoard as error:
        messages.error(request, error.message)
        board, status = None, 400
    titles = dict(registry.choices())
    return render(
        request,
        "lobby/leaderboard.html",
        {
            "board": board,
            "game": game,
            "period": period,
            "metric": metric,
            "games": [(g, titles.get(g, g)) for g in leaderboards.GAMES],
        },
        status=status,
    )


@login_required
@require_POST
def checkin(request):
    try:
        done = account_services.checkin_claim(user=request.user)
    except AccountError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            gettext("簽到成功：連續第 %(streak)s 天，獲得 %(beans)s 歡樂豆")
            % {"streak": done.streak, "beans": done.beans},
        )
    return redirect("lobby:home")


@login_required
@require_POST
def task_claim(request, task_id: int):
    try:
        progress = account_services.task_claim(user=request.user, task_id=task_id)
    except AccountError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, gettext("已領取任務獎勵 %(beans)s 歡樂豆") % {"beans": progress.task.reward}
        )
    return redirect("lobby:home")


@login_required
@require_POST
def invite(request, user_id: int):
    """Invite a friend to the private table the player sits at."""
    try:
        services.invitation_send(user=request.user, recipient_id=user_id)
    except TableError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("邀請已送出"))
    table = game_selectors.table_for_user(request.user)
    if request.POST.get("next") == "table" and table is not None:
        return _go(request, reverse("games:table", args=[table.pk]))
    return _go(request, reverse("lobby:home"))


def _go(request, url: str) -> HttpResponse:
    """A redirect that also works for an htmx request (the lobby's pushed invitations)."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
@require_POST
def invitation_accept(request, invitation_id: int):
    """Join an invitation's table with one click."""
    try:
        table = services.invitation_accept(user=request.user, invitation_id=invitation_id)
    except TableError as error:
        messages.error(request, error.message)
        table = getattr(error, "table", None)  # full: he may watch it, as with the code
        if table is None:
            return _go(request, reverse("lobby:home"))
    codes = request.session.get(game_selectors.INVITE_CODES_KEY, [])
    if table.invite_code and table.invite_code not in codes:
        request.session[game_selectors.INVITE_CODES_KEY] = [*codes, table.invite_code][-20:]
    return _go(request, reverse("games:table", args=[table.pk]))


@login_required
@require_POST
def invitation_decline(request, invitation_id: int):
    try:
        services.invitation_decline(user=request.user, invitation_id=invitation_id)
    except TableError as error:
        messages.error(request, error.message)
    return _go(request, reverse("lobby:home"))


@login_required
def table_panel(request, table_id: int):
    """The hall's panel on a table page: follow the players at the table (from their seat), and
    at one's own private table invite friends. Refused like the table itself (404)."""
    codes = request.session.get(game_selectors.INVITE_CODES_KEY, [])
    if game_selectors.table_access_by_id(user=request.user, table_id=table_id, codes=codes) is None:
        raise Http404
    return render(
        request,
        "lobby/_table_panel.html",
        selectors.table_panel(user=request.user, table_id=table_id),
    )


def rules_page(request, game: str, variant: str | None = None):
    """玩法說明: a game's rules and one 玩法's (open to everyone, signed in or not)."""
    try:
        page = game_rules.rules_page(game, variant)
    except game_rules.NoRules:
        raise Http404(gettext("沒有這個遊戲或玩法的說明")) from None
    return render(request, "lobby/rules.html", page)
