from django.contrib import admin
from django.utils.html import format_html, format_html_join

from games import wheel_selectors
from lobby.models import Room

WHEEL_HELP = (
    "大豐收：在「其他規則參數」設定賠率表與轉盤，例如 "
    '{"odds": {"apple": 5, "orange": 10, "grape": 15, "corn": 20, "watermelon": 20, '
    '"peach": 30, "pumpkin": 40, "rice": 100}, "small_odds": 2, "bet_seconds": 15, '
    '"spin_seconds": 6, "chips": [10, 100, 1000, 10000], "player_limit": 100000, '
    '"round_limit": 10000000}；權重 big_weights / small_weights / luck_weight / '
    "special_weights 決定返獎率。修改從下一局起生效。"
)


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "variant", "base_score", "factor", "rake", "min_beans",
                    "max_beans", "turn_seconds", "bot_wait_seconds", "is_open", "wheel_rtp_short"]
    list_editable = ["is_open"]
    list_filter = ["game", "is_open"]
    readonly_fields = ["wheel_rtp"]

    def get_form(self, request, obj=None, **kwargs):
        kwargs.setdefault("help_texts", {})["extra"] = WHEEL_HELP
        return super().get_form(request, obj, **kwargs)

    def _rtp(self, obj):
        if obj is None or obj.pk is None or obj.game != "dafengshou":
            return None
        try:
            return wheel_selectors.room_rtp(obj.pk, obj.params())
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
            return "（只適用於大豐收場次）"
        measured = f"{rtp['measured']:.4f}" if rtp["measured"] is not None else "尚無已派彩的局"
        per_object = format_html_join(
            "", "<li>{}：{}</li>", ((k, f"{v:.4f}") for k, v in rtp["per_object"].items())
        )
        return format_html(
            "<p>實測（已派彩 {} 局，押注 {} 豆，派彩 {} 豆）：<b>{}</b></p>"
            "<p>按目前賠率與權重的理論值：<b>{}</b></p><ul>{}</ul>",
            rtp["rounds"], rtp["staked"], rtp["paid"], measured, f"{rtp['expected']:.4f}",
            per_object,
        )
