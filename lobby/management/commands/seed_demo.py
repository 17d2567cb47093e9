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
]


class Command(BaseCommand):
    help = "Create the demo rooms if there are none."

    def handle(self, *args, **options):
        if Room.objects.exists():
            self.stdout.write("rooms exist; left as they are")
            return
        for spec in DEMO_ROOMS:
            Room.objects.create(**spec)
        self.stdout.write(self.style.SUCCESS(f"created {len(DEMO_ROOMS)} demo rooms"))
