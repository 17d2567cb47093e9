from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "牌桌 Tables"

    def ready(self) -> None:
        from games import checks  # noqa: F401  (registers the system checks leyou.E001–E003)
