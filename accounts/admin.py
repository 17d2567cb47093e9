from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _

from accounts.models import (
    Block,
    Checkin,
    CheckinReward,
    Follow,
    GameStat,
    Invitation,
    TaskDefinition,
    TaskProgress,
    User,
)
from games.titles import GameFilter, game_column, game_title
from ledger import services as ledger_services
from ledger.selectors import balance_for_user


class GameStatInline(admin.TabularInline):
    model = GameStat
    extra = 0
    fields = ["title", "score", "hands", "wins", "escapes"]
    readonly_fields = fields
    can_delete = False

    @admin.display(description=_("遊戲"))
    def title(self, obj):
        return game_title(obj.game)


class GrantForm(forms.Form):
    amount = forms.IntegerField(label="歡樂豆（負數為扣除）")
    reason = forms.CharField(label="原因", max_length=200)
    correction = forms.BooleanField(label="更正（而非贈送）", required=False)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ["username", "nickname", "beans", "is_bot", "is_staff", "date_joined"]
    list_filter = ["is_bot", "is_staff", "is_active"]
    search_fields = ["username", "nickname"]
    fieldsets = BaseUserAdmin.fieldsets + (
        ("樂游", {"fields": ["nickname", "avatar_seed", "is_bot"]}),
    )
    inlines = [GameStatInline]

    @admin.display(description="歡樂豆")
    def beans(self, obj):
        return balance_for_user(obj)

    def get_urls(self):
        return [
            path(
                "<int:user_id>/grant/",
                self.admin_site.admin_view(self.grant_view),
                name="accounts_user_grant",
            ),
            *super().get_urls(),
        ]

    def grant_view(self, request, user_id: int):
        """A staff grant or correction: a balanced transfer with the reason and the staff user."""
        user = get_object_or_404(User, pk=user_id)
        if not self.has_change_permission(request, user):
            raise PermissionDenied  # minting beans needs change_user, not just is_staff
        form = GrantForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                ledger_services.staff_grant(
                    staff=request.user,
                    user=user,
                    amount=form.cleaned_data["amount"],
                    reason=form.cleaned_data["reason"],
                    correction=form.cleaned_data["correction"],
                )
            except Exception as error:  # shown to the staff member; nothing was written
                messages.error(request, f"未執行：{error}")
            else:
                messages.success(request, "已入帳")
                return redirect(reverse("admin:accounts_user_change", args=[user.pk]))
        return render(
            request,
            "admin/grant.html",
            {
                "form": form,
                "target": user,
                "beans": balance_for_user(user),
                "title": f"贈送 / 更正歡樂豆：{user}",
                **self.admin_site.each_context(request),
            },
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "grant_url": reverse("admin:accounts_user_grant", args=[object_id]),
        }
        return super().change_view(request, object_id, form_url, extra_context)


# -- the hall (issue #15 §3, §5): what operators configure, and what they may look at --------


@admin.register(CheckinReward)
class CheckinRewardAdmin(admin.ModelAdmin):
    """簽到獎勵 per streak day; the last day's reward pays every later day of a streak."""

    list_display = ["day", "beans"]
    ordering = ["day"]


@admin.register(TaskDefinition)
class TaskDefinitionAdmin(admin.ModelAdmin):
    list_display = [
        "title",
        "code",
        game_column,
        "kind",
        "line_label",
        "target",
        "reward",
        "is_active",
        "order",
    ]
    list_editable = ["is_active", "order"]
    list_filter = ["is_active", "kind", GameFilter]
    prepopulated_fields = {"code": ["title"]}


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Checkin)
class CheckinAdmin(_ReadOnly):
    list_display = ["user", "day", "streak", "beans"]
    list_filter = ["day"]
    search_fields = ["user__username"]


@admin.register(TaskProgress)
class TaskProgressAdmin(_ReadOnly):
    list_display = ["user", "task", "day", "count", "claimed_at"]
    list_filter = ["day", "task"]
    search_fields = ["user__username"]


@admin.register(Follow)
class FollowAdmin(_ReadOnly):
    list_display = ["follower", "followee", "created_at"]
    search_fields = ["follower__username", "followee__username"]


@admin.register(Block)
class BlockAdmin(_ReadOnly):
    list_display = ["blocker", "blocked", "created_at"]
    search_fields = ["blocker__username", "blocked__username"]


@admin.register(Invitation)
class InvitationAdmin(_ReadOnly):
    list_display = ["sender", "recipient", "table_id", game_column, "status", "created_at"]
    list_filter = ["status"]


def _axes_names() -> None:
    """django-axes' models under names the admin's language has (its own are English only).

    Only the display names of the loaded models are set, not their declared options: no
    migration of axes follows from it."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    from django.apps import apps

    for model, name in (
        (AccessAttempt, _("登入嘗試")),
        (AccessFailureLog, _("登入失敗紀錄")),
        (AccessLog, _("登入紀錄")),
    ):
        model._meta.verbose_name = name
        model._meta.verbose_name_plural = name
    apps.get_app_config("axes").verbose_name = _("登入保護")


_axes_names()
