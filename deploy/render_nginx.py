#!/usr/bin/env python3
"""Render deploy/nginx/leyou.conf.template into an nginx http-context file (stdlib only).

    python3 deploy/render_nginx.py --listen 80 --server-name play.example.com \\
        --tls-listen 443 --tls-cert /etc/leyou/tls/cert.pem --tls-key /etc/leyou/tls/key.pem \\
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


def _listen_ok(option: str, listen: str) -> None:
    if not LISTEN.match(listen) or not _port_ok(listen.rsplit(":", 1)[-1]):
        raise RenderError(f"{option}: expected PORT or HOST:PORT, got {listen!r}")


def _path_ok(option: str, value: str) -> Path:
    path = Path(value)
    if not path.is_absolute() or any(c in value for c in ";{}\"'\n "):
        raise RenderError(f"{option}: expected an absolute path, got {value!r}")
    return path


def render(
    *,
    listen: str,
    server_name: str,
    daphne: list[str],
    static_root: str,
    tls_listen: str | None = None,
    tls_cert: str | None = None,
    tls_key: str | None = None,
    web_max_fails: int = 3,
    web_fail_timeout: int = 2,
) -> str:
    """Return the configuration for these ASGI processes; raise RenderError on a bad value.

    With ``tls_listen`` (and the certificate and key) nginx terminates TLS there and ``listen``
    only redirects to it; production settings expect that (X-Forwarded-Proto, SSL redirect).
    """
    _listen_ok("--listen", listen)
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
    root = _path_ok("--static-root", static_root)
    if tls_listen is None:
        if tls_cert or tls_key:
            raise RenderError("--tls-cert/--tls-key need --tls-listen")
        listen_lines, redirect = f"    listen {listen};", ""
    else:
        _listen_ok("--tls-listen", tls_listen)
        if not tls_cert or not tls_key:
            raise RenderError("--tls-listen needs --tls-cert and --tls-key")
        cert, key = _path_ok("--tls-cert", tls_cert), _path_ok("--tls-key", tls_key)
        listen_lines = "\n".join(
            [
                f"    listen {tls_listen} ssl http2;",
                f"    ssl_certificate {cert};",
                f"    ssl_certificate_key {key};",
                "    ssl_protocols TLSv1.2 TLSv1.3;",
                "    ssl_session_cache shared:leyou_tls:10m;",
            ]
        )
        port = tls_listen.rsplit(":", 1)[-1]
        target = "https://$host" + ("" if port == "443" else f":{port}") + "$request_uri"
        redirect = (
            f"server {{\n    listen {listen};\n    server_name {server_name};\n"
            f"    return 301 {target};\n}}\n"
        )
    # Sockets (tables, lobby, 大豐收): max_fails=0, no failure accounting. nginx counts a
    # proxied connection as a success only when it ends, which for a WebSocket is an hour
    # later: one refused connect would mark a process down until one of its sockets closes,
    # and with every process so marked nginx answers "no live upstreams" (502). Without the
    # accounting every reconnect tries its process on the hash ring, and a refused connect
    # (a process stopping: it stops listening first, ops.health) moves to the next at once.
    # Pages are short requests, so their accounting works: a process that refused
    # ``web_max_fails`` times is skipped for ``web_fail_timeout`` seconds.
    sockets = "\n".join(f"    server {address} max_fails=0;" for address in daphne)
    servers = "\n".join(
        f"    server {address} max_fails={web_max_fails} fail_timeout={web_fail_timeout}s;"
        for address in daphne
    )
    values = {
        "LISTEN": listen_lines,
        "REDIRECT_SERVER": redirect,
        "SERVER_NAME": server_name,
        "UPSTREAM_SERVERS": servers,
        "SOCKET_SERVERS": sockets,
        "TRIES": str(len(daphne)),
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
    parser.add_argument(
        "--daphne",
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="an ASGI process; repeat for each",
    )
    parser.add_argument("--static-root", required=True, help="collectstatic's STATIC_ROOT")
    parser.add_argument(
        "--tls-listen",
        help="terminate TLS on PORT or HOST:PORT (e.g. 443); --listen then redirects to it",
    )
    parser.add_argument("--tls-cert", help="certificate chain (PEM), with --tls-listen")
    parser.add_argument("--tls-key", help="its private key (PEM), with --tls-listen")
    parser.add_argument("--out", help="write here instead of standard output")
    args = parser.parse_args(argv)
    try:
        text = render(
            listen=args.listen,
            server_name=args.server_name,
            daphne=args.daphne,
            static_root=args.static_root,
            tls_listen=args.tls_listen,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
        )
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
