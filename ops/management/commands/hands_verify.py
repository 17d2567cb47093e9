"""Replay every finished hand from its seed and log; exit non-zero on any that does not match."""

from django.core.management.base import BaseCommand, CommandError

from ops.drill import hands_replay


class Command(BaseCommand):
    help = (
        "Replay every finished hand: sha256(seed) is the committed hash and seed + event log "
        "re-derive the state the table stored."
    )

    def handle(self, *args, **options):
        replayed, skipped, problems = hands_replay()
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} of {replayed} finished hands do not replay")
        self.stdout.write(
            self.style.SUCCESS(f"hands OK: {replayed} finished hands replayed ({skipped} skipped)")
        )
