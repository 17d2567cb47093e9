"""The backup drill: dump the live database, restore it into a fresh one, verify it there."""

from django.core.management.base import BaseCommand, CommandError

from ops.drill import DrillError, drill_run


class Command(BaseCommand):
    help = (
        "pg_dump the database (a consistent snapshot, safe during play), restore it into a "
        "fresh database, run ledger_verify and hands_verify there, then drop it."
    )

    def add_arguments(self, parser):
        parser.add_argument("--keep", action="store_true", help="keep the restored database")
        parser.add_argument("--dump", help="also keep the dump file here (pg_dump -Fc)")

    def handle(self, *args, keep=False, dump=None, **options):
        try:
            report = drill_run(keep=keep, dump_path=dump, log=self.stdout.write)
        except DrillError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS(report))
