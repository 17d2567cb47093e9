"""Create the demo rooms (場次) on first start; existing rooms are left as operators set them."""

from django.core.management.base import BaseCommand

from lobby.models import Room

DEMO_ROOMS = [
    dict(name="新手場", game="doudizhu", variant="classic", seats=3, base_score=1, factor=50,
         rake=10, min_beans=0, max_beans=100000, double_threshold=2000, turn_seconds=20,
         bot_wait_seconds=3, sort_order=1),
    dict(name="初級場", game="doudizhu", variant="classic", seats=3, base_score=1, factor=100,
         rake=30, min_beans=2000, max_beans=None, double_threshold=5000, turn_seconds=20,
         bot_wait_seconds=5, sort_order=2),
    dict(name="癩子場", game="doudizhu", variant="laizi", seats=3, base_score=1, factor=100,
         rake=30, min_beans=2000, max_beans=None, double_threshold=5000, turn_seconds=20,
         bot_wait_seconds=5, sort_order=3),
    dict(name="悶抓場", game="doudizhu", variant="menzhua", seats=3, base_score=1, factor=100,
         rake=30, min_beans=2000, max_beans=None, double_threshold=5000, turn_seconds=20,
         bot_wait_seconds=5, sort_order=4),
    dict(name="大眾場", game="mahjong_huanle", variant="dazhong", seats=4, base_score=1,
         factor=20, rake=10, min_beans=1000, max_beans=None, turn_seconds=20,
         bot_wait_seconds=5, sort_order=1, extra={}),
    dict(name="8番場", game="mahjong_huanle", variant="bafan", seats=4, base_score=1,
         factor=20, rake=10, min_beans=2000, max_beans=None, turn_seconds=20,
         bot_wait_seconds=5, sort_order=2, extra={}),
    dict(name="永州麻將", game="mahjong_yongzhou", variant="bao5", seats=4, base_score=1,
         factor=20, rake=10, min_beans=1000, max_beans=None, turn_seconds=20,
         bot_wait_seconds=5, sort_order=1, extra={"qi_hu": 1}),
    dict(name="樂清麻將", game="mahjong_yueqing", variant="wuhanhua", seats=4, base_score=1,
         factor=10, rake=10, min_beans=1000, max_beans=None, turn_seconds=25,
         bot_wait_seconds=5, sort_order=1, extra={}),
    dict(name="跑胡子", game="paohuzi", variant="hunan", seats=3, base_score=1, factor=20,
         rake=10, min_beans=1000, max_beans=None, turn_seconds=20, bot_wait_seconds=5,
         sort_order=1, extra={}),
    dict(name="雙王扯胡子", game="paohuzi", variant="shuangwang", seats=3, base_score=1,
         factor=20, rake=10, min_beans=1000, max_beans=None, turn_seconds=20,
         bot_wait_seconds=5, sort_order=2, extra={}),
    dict(name="歡樂三張", game="zhajinhua", variant="classic", seats=6, base_score=10, factor=1,
         rake=0, min_beans=500, max_beans=None, turn_seconds=15, bot_wait_seconds=5,
         sort_order=1, extra={"chip_levels": [10, 20, 50, 100], "unit_cap": 200,
                              "round_cap": 20, "compare_from_round": 2}),
    dict(name="豐收轉盤", game="dafengshou", variant="classic", seats=1, base_score=1,
         factor=1, rake=0, min_beans=0, max_beans=None, turn_seconds=15, bot_wait_seconds=0,
         sort_order=1, extra={"bet_seconds": 15, "spin_seconds": 6,
                              "chips": [10, 100, 1000, 10000], "player_limit": 100000,
                              "round_limit": 10000000}),
]


class Command(BaseCommand):
    help = "Create the demo rooms that do not exist yet."

    def handle(self, *args, **options):
        created = 0
        for spec in DEMO_ROOMS:
            # a demo room is created once (by game and name); operators' edits are kept
            _, made = Room.objects.get_or_create(
                game=spec["game"], name=spec["name"], defaults=spec
            )
            created += made
        self.stdout.write(self.style.SUCCESS(f"created {created} demo rooms"))
