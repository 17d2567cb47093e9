"""The operator's room admin: a form made for each game, a live preview, bulk open/close,
copy, and a change history that names every changed field with its old and new value."""

from __future__ import annotations

from django.contrib import admin, messages
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from games.selectors import dafengshou as dafengshou_selectors
from lobby import selectors
from lobby.forms import DEFAULT_GAME, room_form_for
from lobby.models import Room

COMMON_FIELDS = [
    "name",
    "name_en",
    "game",
    "variant",
    "seats",
    "base_score",
    "factor",
    "rake",
    "min_beans",
    "max_beans",
    "double_threshold",
    "turn_seconds",
    "bot_wait_seconds",
    "is_open",
    "sort_order",
]


def _game_of(request, obj) -> str:
    return (
        request.POST.get("game")
        or request.GET.get("game")
        or (obj.game if obj is not None else DEFAULT_GAME)
    )


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "game",
        "variant",
        "base_score",
        "factor",
        "rake",
        "min_beans",
        "max_beans",
        "turn_seconds",
        "bot_wait_seconds",
        "is_open",
        "wheel_rtp_short",
    ]
    list_editable = ["is_open"]
    list_filter = ["game", "is_open"]
    readonly_fields = ["wheel_rtp"]
    actions = ["rooms_open", "rooms_close", "rooms_copy"]
    change_form_template = "admin/lobby/room/change_form.html"

    # -- the form made for the chosen game ------------------------------------------------------
    def get_form(self, request, obj=None, **kwargs):
        kwargs["form"] = room_form_for(_game_of(request, obj))
        return super().get_form(request, obj, **kwargs)

    def get_fieldsets(self, request, obj=None):
        form = room_form_for(_game_of(request, obj))
        own = list(form.param_names)
        sets = [(None, {"fields": COMMON_FIELDS})]
        if own:
            sets.append(("本遊戲的規則參數", {"fields": own}))
        if _game_of(request, obj) == selectors.WHEEL_GAME:
            sets.append(("返獎率", {"fields": ["wheel_rtp"]}))
        return sets

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        initial.setdefault("game", DEFAULT_GAME)
        return initial

    def get_urls(self):
        return [
            path(
                "preview/", self.admin_site.admin_view(self.preview_view), name="lobby_room_preview"
            ),
            *super().get_urls(),
        ]

    def preview_view(self, request):
        """Staff only (admin_view): the preview of the posted, unsaved settings."""
        if not self.has_view_or_change_permission(request):
            return HttpResponse(status=403)
        form_class = self.get_form(request, None)
        form = form_class(request.POST or None)
        form.is_valid()
        instance = form.instance
        if form.errors:
            # each refusal under its field's label (as the form shows it), never its key
            labels = {name: str(field.label or name) for name, field in form.fields.items()}
            preview = {
                "errors": {
                    labels.get(k, ""): " ".join(str(m) for m in v) for k, v in form.errors.items()
                }
            }
        else:
            preview = selectors.room_preview(instance)
        return HttpResponse(
            render_to_string("admin/lobby/room/_preview.html", {"preview": preview})
        )

    def render_change_form(self, request, context, *args, **kwargs):
        context["preview_url"] = reverse("admin:lobby_room_preview")
        return super().render_change_form(request, context, *args, **kwargs)

    # -- the change history: every changed field with its old and new value ---------------------
    def construct_change_message(self, request, form, formsets, add=False):
        if add or not form.changed_data:
            return super().construct_change_message(request, form, formsets, add)
        parts = []
        for name in form.changed_data:
            field = form.fields[name]
            before = form.initial.get(name, field.initial)
            after = form.cleaned_data.get(name)
            parts.append(f"{field.label}：{_shown(before)} → {_shown(after)}")
        return "修改 " + "；".join(parts)

    # -- operator actions -----------------------------------------------------------------------
    @admin.action(description="開放所選場次")
    def rooms_open(self, request, queryset):
        self._rooms_set_open(request, queryset, True)

    @admin.action(description="關閉所選場次")
    def rooms_close(self, request, queryset):
        self._rooms_set_open(request, queryset, False)

    def _rooms_set_open(self, request, queryset, is_open: bool) -> None:
        word = "開放" if is_open else "關閉"
        changed = list(queryset.exclude(is_open=is_open))
        queryset.filter(pk__in=[r.pk for r in changed]).update(is_open=is_open)
        for room in changed:
            self.log_change(
                request, room, f"{word}場次（開放：{_shown(not is_open)} → {_shown(is_open)}）"
            )
        self.message_user(request, f"已{word} {len(changed)} 個場次", messages.SUCCESS)

    @admin.action(description="複製所選場次（複本先不開放）")
    def rooms_copy(self, request, queryset):
        made = 0
        for room in queryset:
            source = room.pk
            room.pk = None
            room.name = f"{room.name}（複本）"[:40]
            room.is_open = False
            room.save()
            self.log_addition(request, room, f"複製自場次 #{source}")
            made += 1
        self.message_user(request, f"已複製 {made} 個場次（複本暫不開放）", messages.SUCCESS)

    # -- 大豐收 return-to-player ----------------------------------------------------------------
    def _rtp(self, obj):
        if obj is None or obj.pk is None or obj.game != selectors.WHEEL_GAME:
            return None
        try:
            return dafengshou_selectors.room_rtp(obj.pk, obj.params())
        except (ValueError, TypeError, KeyError):
            return None

    @admin.display(description="返獎率 實測/設定")
    def wheel_rtp_short(self, obj):
        rtp = self._rtp(obj)
        if rtp is None:
            return ""
        measured = f"{rtp['measured']:.2%}" if rtp["measured"] is not None else "—"
        return f"{measured} / {rtp['expected']:.2%}"

    @admin.display(description="大豐收返獎率 (RTP)")
    def wheel_rtp(self, obj):
        rtp = self._rtp(obj)
        if rtp is None:
            return "（只適用於已儲存的大豐收場次）"
        measured = f"{rtp['measured']:.4f}" if rtp["measured"] is not None else "尚無已派彩的局"
        per_object = format_html_join(
            "", "<li>{}：{}</li>", ((k, f"{v:.4f}") for k, v in rtp["per_object"].items())
        )
        return format_html(
            "<p>實測（已派彩 {} 局，押注 {} 豆，派彩 {} 豆）：<b>{}</b></p>"
            "<p>按目前賠率與權重的理論值：<b>{}</b></p><ul>{}</ul>",
            rtp["rounds"],
            rtp["staked"],
            rtp["paid"],
            measured,
            f"{rtp['expected']:.4f}",
            per_object,
        )


def _shown(value) -> str:
    if value is None or value == "":
        return "（空）"
    if value is True:
        return "是"
    if value is False:
        return "否"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)
