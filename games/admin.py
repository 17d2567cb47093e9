"""Tables and hands in the admin: read-only, with the event log and a replay link."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from games.models import (
    ChatMute,
    Hand,
    HandEvent,
    HandSeat,
    PlayerMute,
    Seat,
    Table,
    WatchPreference,
    WheelRound,
    WheelWin,
    WordFilter,
)
from games.titles import GameFilter, game_column


class ReadOnly:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["index", "user", "is_bot", "auto", "connections", "deadline"]
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin):
    list_display = [
        "pk",
        game_column,
        "room_id",
        "status",
        "is_private",
        "invite_code",
        "seq",
        "hands_played",
        "created_at",
    ]
    list_filter = [GameFilter, "status", "is_private"]
    inlines = [SeatInline]


class EventInline(ReadOnly, admin.TabularInline):
    model = HandEvent
    extra = 0
    fields = ["seq", "seat", "by", "action", "action_id", "created_at"]
    readonly_fields = fields


class HandSeatInline(ReadOnly, admin.TabularInline):
    model = HandSeat
    extra = 0
    fields = ["seat", "user", "score", "beans", "won", "escaped"]
    readonly_fields = fields


@admin.register(Hand)
class HandAdmin(ReadOnly, admin.ModelAdmin):
    list_display = [
        "pk",
        game_column,
        "table",
        "number",
        "status",
        "started_at",
        "settled_at",
        "replay",
    ]
    list_filter = [GameFilter, "status"]
    readonly_fields = ["seed_hash", "params", "players", "result"]
    exclude = ["state", "seed"]
    inlines = [HandSeatInline, EventInline]

    @admin.display(description="回放")
    def replay(self, obj):
        if obj.status == Hand.Status.PLAYING:
            return "—"
        return format_html('<a href="{}">回放</a>', reverse("games:replay", args=[obj.pk]))


class WheelWinInline(ReadOnly, admin.TabularInline):
    model = WheelWin
    extra = 0
    fields = ["user", "staked", "payout"]
    readonly_fields = fields


@admin.register(WheelRound)
class WheelRoundAdmin(ReadOnly, admin.ModelAdmin):
    """大豐收 rounds: what was staked and paid, the committed hash and (once settled) the seed."""

    list_display = [
        "pk",
        "room_id",
        "number",
        "phase",
        "staked_total",
        "paid_total",
        "result_cell",
        "opened_at",
    ]
    list_filter = ["phase", "room_id"]
    fields = [
        "room_id",
        "number",
        "phase",
        "seed_hash",
        "revealed_seed",
        "totals",
        "staked_total",
        "paid_total",
        "outcome",
        "params",
        "opened_at",
        "closes_at",
        "settle_at",
        "settled_at",
    ]
    readonly_fields = fields
    inlines = [WheelWinInline]

    @admin.display(description="結果格")
    def result_cell(self, obj):
        return (obj.outcome or {}).get("cell", "")

    @admin.display(description="種子（派彩後公開）")
    def revealed_seed(self, obj):
        return obj.seed if obj.phase == WheelRound.Phase.SETTLED else "（未公開）"


# --- chat and spectators: operators edit the word filter and staff mute users for a time -------


@admin.register(WordFilter)
class WordFilterAdmin(admin.ModelAdmin):
    list_display = ["word", "action", "is_active", "created_at"]
    list_filter = ["action", "is_active"]
    list_editable = ["action", "is_active"]
    search_fields = ["word"]


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    """禁言: the user is refused (and told until when) while ``until`` is in the future."""

    list_display = ["user", "until", "reason", "created_by", "created_at"]
    search_fields = ["user__username", "user__nickname", "reason"]
    autocomplete_fields = ["user"]
    readonly_fields = ["created_by", "created_at"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(PlayerMute)
class PlayerMuteAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["owner", "muted", "created_at"]
    search_fields = ["owner__username", "muted__username"]


@admin.register(WatchPreference)
class WatchPreferenceAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["user", "allow_watching", "updated_at"]
    list_filter = ["allow_watching"]
