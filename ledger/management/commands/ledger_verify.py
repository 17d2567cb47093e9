"""Recompute every balance from the postings; exit non-zero on any drift."""

from django.core.management.base import BaseCommand, CommandError

from ledger.selectors import ledger_drift


class Command(BaseCommand):
    help = "Verify the bean ledger: balances equal postings, transfers balance, total is zero."

    def handle(self, *args, **options):
        problems = ledger_drift()
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"ledger drift: {len(problems)} problem(s)")
        self.stdout.write(self.style.SUCCESS("ledger OK"))
