from django.core.management.base import BaseCommand

from games import clock


class Command(BaseCommand):
    help = "Run the turn clock: bots, 托管 on timeout, bot fill, next hands, grace periods."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=None)

    def handle(self, *args, interval=None, **options):
        clock.run_forever(interval)
