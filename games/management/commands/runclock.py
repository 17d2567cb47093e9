from django.core.management.base import BaseCommand, CommandError

from games import clock


class Command(BaseCommand):
    help = "Run the turn clock: bots, 托管 on timeout, bot fill, next hands, grace periods."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=None)
        parser.add_argument(
            "--shard",
            default="",
            help="i/n: the i-th (from 0) of n clock processes; each runs the tables whose id is "
            "i modulo n (the first also 大豐收 rounds, leases and settlement re-sends)",
        )

    def handle(self, *args, interval=None, shard="", **options):
        try:
            parsed = clock.shard_parse(shard)
        except ValueError as error:
            raise CommandError(str(error)) from None
        from ops import metrics

        metrics.serve("clock")  # /metrics on LEYOU_METRICS_PORT, when set
        clock.run_forever(interval, parsed)
