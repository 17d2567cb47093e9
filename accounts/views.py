from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from accounts import selectors, services
from accounts.exceptions import AccountError, UnknownUser
from accounts.forms import RegisterForm
from accounts.models import User
from ledger import services as ledger_services
from ledger.exceptions import LedgerError


def register(request):
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_register(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                nickname=form.cleaned_data.get("nickname") or "",
            )
        except IntegrityError:
            form.add_error("username", gettext("這個帳號已被使用"))
        else:
            # several backends (axes first): a new account logs in through the model backend
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, gettext("註冊成功，已送你歡樂豆！"))
            return redirect("lobby:home")
    return render(request, "accounts/register.html", {"form": form})


@login_required
def profile(request):
    return render(request, "accounts/profile.html", selectors.profile_for_user(request.user))


@login_required
@require_POST
def relief(request):
    try:
        ledger_services.relief_claim(request.user)
    except LedgerError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, gettext("已領取救濟歡樂豆"))
    return redirect("accounts:profile")


def public_profile(request, user_id: int):
    """Another player's page: his levels, and follow / block buttons."""
    other = get_object_or_404(User, pk=user_id, is_active=True)
    return render(
        request, "accounts/public_profile.html", selectors.public_profile(request.user, other)
    )


RELATIONS = {
    "follow": (services.follow_create, gettext_lazy("已關注")),
    "unfollow": (services.follow_delete, gettext_lazy("已取消關注")),
    "block": (services.block_create, gettext_lazy("已封鎖：不會再收到他的邀請和快捷語")),
    "unblock": (services.block_delete, gettext_lazy("已解除封鎖")),
}


@login_required
@require_POST
def relation(request, user_id: int, action: str):
    """Follow, unfollow, block or unblock a player (from his profile or a seat)."""
    if action not in RELATIONS:
        raise Http404
    write, done = RELATIONS[action]
    try:
        write(user=request.user, other_id=user_id)
    except UnknownUser as error:
        messages.error(request, error.message)
        return redirect("lobby:home")  # no profile to go back to
    except AccountError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, str(done))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""
    return redirect(back or "accounts:public_profile", **({} if back else {"user_id": user_id}))


def _back(request, default: str):
    """Where a settings form returns: its ``next`` when it is on this site, else ``default``."""
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect(default)


@login_required
@require_POST
def privacy(request):
    try:
        services.privacy_set(user=request.user, presence=request.POST.get("presence", ""))
    except AccountError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("隱私設定已更新"))
    return _back(request, "lobby:home")


WATCH_CHOICES = {"1": True, "0": False}


@login_required
@require_POST
def watching(request):
    """允許觀戰 on or off (``allow`` = 1 / 0) from the profile page; anything else is refused
    with a message and changes nothing. Off: his table's watchers are sent away at once and the
    lobby's watch list drops it."""
    from games.services import spectators

    choice = WATCH_CHOICES.get(request.POST.get("allow", ""))
    if choice is None:
        messages.error(request, gettext("沒有這個觀戰選項"))
    else:
        spectators.watching_set(user=request.user, allow=choice)
        messages.success(
            request,
            gettext("已允許觀戰") if choice else gettext("已關閉觀戰：沒有人能觀看你的牌桌"),
        )
    return _back(request, "accounts:profile")
