from django.contrib import admin

from lobby.models import Room


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "variant", "base_score", "factor", "rake", "min_beans",
                    "max_beans", "turn_seconds", "bot_wait_seconds", "is_open"]
    list_editable = ["is_open"]
    list_filter = ["game", "is_open"]
