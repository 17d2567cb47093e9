"""Frame fuzz, long: the suite's hostile-frame run (``tests/live/test_frame_fuzz.py``) with more
frames and seeds.

Benchmark, not a test: it runs that test with ``LEYOU_FUZZ_FRAMES`` / ``LEYOU_FUZZ_SEED`` set, on
the PostgreSQL and Redis of ``DATABASE_URL`` / ``REDIS_URL`` (as ``scripts/test.sh`` does), once
per seed, and prints the figures of each run (sent, error frames, closes by code, tracebacks in
the server's log); they are also in ``var/frame-fuzz.json`` after each run.

    .venv/bin/python bench/frame_fuzz.py --frames 100000 --seeds 1 2 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[12])
    args = parser.parse_args()
    failed = 0
    for seed in args.seeds:
        env = {**os.environ, "LEYOU_FUZZ_FRAMES": str(args.frames), "LEYOU_FUZZ_SEED": str(seed)}
        run = subprocess.run(
            [
                "bash",
                "scripts/test.sh",
                "-q",
                "-x",
                "-p",
                "no:cacheprovider",
                "tests/live/test_frame_fuzz.py",
            ],
            cwd=ROOT,
            env=env,
        )
        with open(os.path.join(ROOT, "var", "frame-fuzz.json")) as figures:
            print(
                json.dumps(
                    {"seed": seed, "passed": run.returncode == 0, **json.load(figures)},
                    ensure_ascii=False,
                )
            )
        failed += run.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
