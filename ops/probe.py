"""Wait until a local process answers its readiness probe (stdlib only, no Django).

    python -m ops.probe 8001                 # /readyz of 127.0.0.1:8001, up to 60 s
    python -m ops.probe 8001 --timeout 90 --path /healthz

Exit 0 as soon as it answers 200, 1 when the time is up (the last answer is printed). The
Daphne unit runs it as ``ExecStartPost``, so ``systemctl restart leyou-daphne@8001`` returns
only once that process can serve: a rolling restart then simply restarts one after another.
"""

from __future__ import annotations

import argparse
import http.client
import sys
import time


def wait(port: int, *, host: str = "127.0.0.1", path: str = "/readyz", timeout: float = 60) -> str:
    """Poll until 200; return "" then, else the last answer or error seen."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while True:
        try:
            conn = http.client.HTTPConnection(host, port, timeout=3)
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read(500).decode(errors="replace").strip()
            conn.close()
            if response.status == 200:
                return ""
            last = f"{response.status} {body}"
        except OSError as error:
            last = repr(error)
        if time.monotonic() >= deadline:
            return last
        time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("port", type=int)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--path", default="/readyz")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args(argv)
    last = wait(args.port, host=args.host, path=args.path, timeout=args.timeout)
    if last:
        print(f"{args.host}:{args.port}{args.path} not ready: {last}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
