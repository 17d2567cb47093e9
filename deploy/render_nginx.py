#!/usr/bin/env python3
"""Render deploy/nginx/leyou.conf.template into an nginx http-context file (stdlib only).

    python3 deploy/render_nginx.py --listen 80 --server-name play.example.com \\
        --daphne 127.0.0.1:8001 --daphne 127.0.0.1:8002 \\
        --static-root /var/lib/leyou/staticfiles > /etc/nginx/conf.d/leyou.conf

Each ``--daphne`` is one ASGI process (one ``leyou-daphne@<port>`` unit), on this machine or
another. A bad value is refused with a message and exit status 2, and nothing is written.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "nginx" / "leyou.conf.template"
FIELD = re.compile(r"\{\{([A-Z_]+)\}\}")
HOST_PORT = re.compile(r"^(?P<host>[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:]+\]):(?P<port>[0-9]{1,5})$")
LISTEN = re.compile(r"^([A-Za-z0-9.\-]+:|\[[0-9A-Fa-f:]+\]:)?[0-9]{1,5}$")
NAMES = re.compile(r"^[A-Za-z0-9.\-_* ~^$\\]+$")


class RenderError(ValueError):
    """A value the template cannot take."""


def _port_ok(port: str) -> bool:
    return 0 < int(port) < 65536


def render(*, listen: str, server_name: str, daphne: list[str], static_root: str,
           max_fails: int = 1, fail_timeout: int = 5) -> str:
    """Return the configuration for these ASGI processes; raise RenderError on a bad value."""
    if not LISTEN.match(listen) or not _port_ok(listen.rsplit(":", 1)[-1]):
        raise RenderError(f"--listen: expected PORT or HOST:PORT, got {listen!r}")
    if not NAMES.match(server_name):
        raise RenderError(f"--server-name: not a server name list: {server_name!r}")
    if not daphne:
        raise RenderError("--daphne: name at least one ASGI process (HOST:PORT)")
    if len(set(daphne)) != len(daphne):
        raise RenderError("--daphne: an ASGI process is named twice")
    for address in daphne:
        match = HOST_PORT.match(address)
        if not match or not _port_ok(match["port"]):
            raise RenderError(f"--daphne: expected HOST:PORT, got {address!r}")
    root = Path(static_root)
    if not root.is_absolute() or any(c in static_root for c in ';{}"\'\n'):
        raise RenderError(f"--static-root: expected an absolute path, got {static_root!r}")
    # max_fails / fail_timeout: a process that refused a connection is skipped for that long,
    # so the sockets of a restarting process go to the next one on the hash ring at once.
    servers = "\n".join(
        f"    server {address} max_fails={max_fails} fail_timeout={fail_timeout}s;"
        for address in daphne
    )
    values = {
        "LISTEN": listen,
        "SERVER_NAME": server_name,
        "UPSTREAM_SERVERS": servers,
        "STATIC_ROOT": str(root).rstrip("/"),
    }
    text = TEMPLATE.read_text()
    missing = set(FIELD.findall(text)) - set(values)
    if missing:
        raise RenderError(f"template fields without a value: {sorted(missing)}")
    return FIELD.sub(lambda m: values[m[1]], text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", default="80", help="PORT or HOST:PORT (default 80)")
    parser.add_argument("--server-name", default="_", help="nginx server_name (default _)")
    parser.add_argument("--daphne", action="append", default=[], metavar="HOST:PORT",
                        help="an ASGI process; repeat for each")
    parser.add_argument("--static-root", required=True, help="collectstatic's STATIC_ROOT")
    parser.add_argument("--out", help="write here instead of standard output")
    args = parser.parse_args(argv)
    try:
        text = render(listen=args.listen, server_name=args.server_name, daphne=args.daphne,
                      static_root=args.static_root)
    except RenderError as error:
        print(f"render_nginx: {error}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
