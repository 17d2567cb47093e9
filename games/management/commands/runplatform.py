"""Start the whole platform: Daphne, a Celery worker and the clock, and watch over them."""

import os
import signal
import subprocess
import sys
import time

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run Daphne (ASGI), a Celery worker and the clock together; Ctrl-C stops all three."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default="127.0.0.1")
        parser.add_argument("--port", default="8000")

    def handle(self, *args, bind, port, **options):
        python = sys.executable
        bindir = os.path.dirname(python)
        commands = {
            "web": [
                os.path.join(bindir, "daphne"),
                "-b",
                bind,
                "-p",
                str(port),
                "config.asgi:application",
            ],
            "worker": [
                os.path.join(bindir, "celery"),
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--loglevel=WARNING",
                "--without-gossip",
                "--without-mingle",
            ],
            "clock": [python, "manage.py", "runclock"],
        }
        env = dict(os.environ)
        from config import env as config_env

        if not config_env.REDIS_URL:
            # in-memory channel layer: only the web process reaches the sockets, so the clock
            # runs inside it (see config/asgi.py)
            del commands["clock"]
            env["LEYOU_CLOCK_IN_SERVER"] = "1"
            # and a worker process could not push the settlement it posts to them (the table
            # showed 結算中… until its next change, #14 §5): settle inside the web process, as
            # soon as the hand's end commits
            del commands["worker"]
            env["CELERY_TASK_ALWAYS_EAGER"] = "1"
        procs = {name: subprocess.Popen(cmd, env=env) for name, cmd in commands.items()}
        self.stdout.write(self.style.SUCCESS(f"樂游棋牌 running on http://{bind}:{port}/"))

        def stop(*_):
            for proc in procs.values():
                if proc.poll() is None:
                    proc.terminate()
            for proc in procs.values():
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
            sys.exit(0)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        while True:  # restart a part that died; tables and beans are in the database
            time.sleep(1)
            for name, proc in list(procs.items()):
                if proc.poll() is not None:
                    self.stderr.write(f"{name} exited ({proc.returncode}); restarting")
                    procs[name] = subprocess.Popen(commands[name], env=env)
