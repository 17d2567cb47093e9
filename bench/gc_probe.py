"""Run Daphne with a probe of the garbage collector: ``python bench/gc_probe.py OUT daphne-args…``.

Benchmark helper, not platform code. Installs a ``gc.callbacks`` probe that adds up, per
generation, the collections and the process time they took and the longest one, writes the
totals as JSON to ``OUT`` every second (a thread: the last write survives any way the server
ends), then runs Daphne's command line with the remaining arguments. ``table_load.py
--gc-probe`` starts its Daphnes through it and reports each process's collector time in the
measured window.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import threading
import time


def main() -> None:
    out = sys.argv[1]
    sys.argv = ["daphne", *sys.argv[2:]]
    totals = {str(gen): {"n": 0, "ms": 0.0, "max_ms": 0.0} for gen in range(3)}
    started = [0.0]

    def probe(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.thread_time()
            return
        ms = 1000 * (time.thread_time() - started[0])  # the collecting thread's CPU
        entry = totals[str(info["generation"])]
        entry["n"] += 1
        entry["ms"] += ms
        entry["max_ms"] = max(entry["max_ms"], ms)

    gc.callbacks.append(probe)

    def write() -> None:
        while True:
            time.sleep(1.0)
            tmp = f"{out}.tmp"
            with open(tmp, "w") as fh:
                json.dump({"pid": os.getpid(), "at": time.time(), "gc": totals}, fh)
            os.replace(tmp, out)

    threading.Thread(target=write, name="gc-probe", daemon=True).start()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
