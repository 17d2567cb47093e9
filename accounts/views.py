from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import selectors, services
from accounts.forms import RegisterForm
from ledger import services as ledger_services
from ledger.exceptions import LedgerError


def register(request):
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_register(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"],
                nickname=form.cleaned_data.get("nickname") or "",
            )
        except IntegrityError:
            form.add_error("username", _("這個帳號已被使用"))
        else:
            # several backends (axes first): a new account logs in through the model backend
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("註冊成功，已送你歡樂豆！"))
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
        messages.success(request, _("已領取救濟歡樂豆"))
    return redirect("accounts:profile")
