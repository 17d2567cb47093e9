"""Create the demo hall on first start: the rooms (場次), a check-in ladder (簽到獎勵) and a few
daily tasks (每日任務). What exists is left as operators set it in the admin: a room is found by
its game and name, a ladder day by its day, a task by its code."""

from django.core.management.base import BaseCommand

from accounts.models import CheckinReward, TaskDefinition
from lobby.models import Room

# the demo rooms' names on English pages (简体 pages convert the 繁體 name)
ENGLISH_NAMES = {
    "新手場": "Beginners' room",
    "初級場": "Elementary room",
    "癩子場": "Wild-card room",
    "悶抓場": "Blind-grab room",
    "大眾場": "Standard room",
    "8番場": "8-fan room",
    "永州麻將": "Yongzhou Mahjong",
    "樂清麻將": "Yueqing Mahjong",
    "跑胡子": "Hunan Paohuzi",
    "雙王扯胡子": "Two-King Paohuzi",
    "歡樂三張": "Three Cards",
    "豐收轉盤": "Harvest Wheel",
}

# 簽到: beans for the n-th day of a streak; the last day's reward pays every later day
CHECKIN_LADDER = [(1, 200), (2, 300), (3, 400), (4, 500), (5, 600), (6, 800), (7, 1000)]

DEMO_TASKS = [
    dict(code="play-3", title="任意遊戲玩 3 局", title_en="Play 3 hands of any game",
         game="", kind="play", target=3, reward=300, order=1),
    dict(code="ddz-win-1", title="斗地主贏 1 局", title_en="Win a hand of Fight the Landlord",
         game="doudizhu", kind="win", target=1, reward=200, order=2),
    dict(code="ddz-bomb", title="斗地主打出炸彈", title_en="Play a bomb in Fight the Landlord",
         game="doudizhu", kind="line", line_label="*炸彈", target=1, reward=300, order=3),
    dict(code="mj-win-1", title="歡樂麻將胡 1 局", title_en="Win a hand of Happy Mahjong",
         game="mahjong_huanle", kind="win", target=1, reward=300, order=4),
    dict(code="play-10", title="任意遊戲玩 10 局", title_en="Play 10 hands of any game",
         game="", kind="play", target=10, reward=1000, order=5),
]  # fmt: skip

DEMO_ROOMS = [
    dict(
        name="新手場",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=50,
        rake=10,
        min_beans=0,
        max_beans=100000,
        double_threshold=2000,
        turn_seconds=20,
        bot_wait_seconds=3,
        sort_order=1,
        # 單局封頂: a newcomer's first hands cannot take a large part of his welcome beans
        extra={"hand_cap": 1000},
    ),
    dict(
        name="初級場",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=100,
        rake=30,
        min_beans=2000,
        max_beans=None,
        double_threshold=5000,
        turn_seconds=20,
        bot_wait_seconds=5,
        sort_order=2,
    ),
    dict(
        name="癩子場",
        game="doudizhu",
        variant="laizi",
        seats=3,
        base_score=1,
        factor=100,
        rake=30,
        min_beans=2000,
        max_beans=None,
        double_threshold=5000,
        turn_seconds=20,
        bot_wait_seconds=5,
        sort_order=3,
    ),
    dict(
        name="悶抓場",
        game="doudizhu",
        variant="menzhua",
        seats=3,
        base_score=1,
        factor=100,
        rake=30,
        min_beans=2000,
        max_beans=None,
        double_threshold=5000,
        turn_seconds=20,
        bot_wait_seconds=5,
        sort_order=4,
    ),
    dict(
        name="大眾場",
        game="mahjong_huanle",
        variant="dazhong",
        seats=4,
        base_score=1,
        factor=20,
        rake=10,
        min_beans=1000,
        max_beans=None,
        turn_seconds=20,
        bot_wait_seconds=5,
        sort_order=1,
        extra={},
    ),
    dict(
        name="8番場",
        game="mahjong_huanle",
        variant="bafan",
        seats=4,
        base_score=1,
        factor=20,
        rake=10,
        min_beans=2000,
        max_beans=None,
        turn_seconds=20,
        bot_wait_seconds=5,
        sort_order=2,
        extra={},
    ),
    dict(
        name="永州麻將",
        game="mahjong_yongzhou",
        variant="bao5",
        seats=4,
        base_score=1,
        factor=20,
        rake=10,
        min_beans=1000,
        max_beans=None,
        turn_seconds=20,
        bot_wait_seconds=5,
        sort_order=1,
        extra={"qi_hu": 1},
    ),
    dict(
        name="樂清麻將",
        game="mahjong_yueqing",
        variant="wuhanhua",
        seats=4,
        base_score=1,
        factor=10,
        rake=10,
        min_beans=1000,
        max_beans=None,
        turn_seconds=25,
        bot_wait_seconds=5,
        sort_order=1,
        extra={},
    ),
    dict(
        name="跑胡子",
        game="paohuzi",
        variant="hunan",
        seats=3,
        base_score=1,
        factor=20,
        rake=10,
        min_beans=1000,
        max_beans=None,
        turn_seconds=20,
        bot_wait_seconds=5,
        sort_order=1,
        extra={},
    ),
    dict(
        name="雙王扯胡子",
        game="paohuzi",
        variant="shuangwang",
        seats=3,
        base_score=1,
        factor=20,
        rake=10,
        min_beans=1000,
        max_beans=None,
        turn_seconds=20,
        bot_wait_seconds=5,
        sort_order=2,
        extra={},
    ),
    dict(
        name="歡樂三張",
        game="zhajinhua",
        variant="classic",
        seats=6,
        base_score=10,
        factor=1,
        rake=0,
        min_beans=500,
        max_beans=None,
        turn_seconds=15,
        bot_wait_seconds=5,
        sort_order=1,
        extra={
            "chip_levels": [10, 20, 50, 100],
            "unit_cap": 200,
            "round_cap": 20,
            "compare_from_round": 2,
        },
    ),
    dict(
        name="豐收轉盤",
        game="dafengshou",
        variant="classic",
        seats=1,
        base_score=1,
        factor=1,
        rake=0,
        min_beans=0,
        max_beans=None,
        turn_seconds=15,
        bot_wait_seconds=0,
        sort_order=1,
        extra={
            "bet_seconds": 15,
            "spin_seconds": 6,
            "chips": [10, 100, 1000, 10000],
            "player_limit": 100000,
            "round_limit": 10000000,
        },
    ),
]


class Command(BaseCommand):
    help = "Create the demo rooms that do not exist yet."

    def handle(self, *args, **options):
        created = 0
        for spec in DEMO_ROOMS:
            english = ENGLISH_NAMES.get(spec["name"], "")
            # a demo room is created once (by game and name); operators' edits are kept
            room, made = Room.objects.get_or_create(
                game=spec["game"], name=spec["name"], defaults={**spec, "name_en": english}
            )
            if not made and not room.name_en and english:  # a room from before English names
                Room.objects.filter(pk=room.pk).update(name_en=english)
            created += made
        days = 0
        for day, beans in CHECKIN_LADDER:
            days += CheckinReward.objects.get_or_create(day=day, defaults={"beans": beans})[1]
        tasks = 0
        for task in DEMO_TASKS:
            tasks += TaskDefinition.objects.get_or_create(code=task["code"], defaults=task)[1]
        self.stdout.write(
            self.style.SUCCESS(
                f"created {created} demo rooms, {days} check-in days and {tasks} daily tasks"
            )
        )
