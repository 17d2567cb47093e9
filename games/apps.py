from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "牌桌 Tables"

    def ready(self) -> None:
        import time

        from games import checks  # noqa: F401  (registers the system checks leyou.E001–E003)
        from games.engine import budget

        # the platform's bots may stop a search on the wall clock (games/engine/budget.py)
        budget.WALL_CLOCK = time.perf_counter
