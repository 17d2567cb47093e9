from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "大廳 Lobby"

    def ready(self) -> None:
        # games never imports lobby: the lobby hands games the live room params for new hands.
        from games.services import dafengshou, tables
        from lobby import checks, selectors  # noqa: F401  (checks: leyou.E004, E005)

        tables.room_params_source_set(selectors.room_params)
        dafengshou.room_source_set(selectors.dafengshou_room_params)
