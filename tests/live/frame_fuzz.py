"""Hostile frames for the table and wheel sockets: a seeded generator and an asyncio driver.

Every hostile frame is built around at least one field that no legal frame has (so the only
right answer is an error frame and no change); legal frames are interleaved on the same
sockets to show the table and the round still work. The driver waits for each frame's answer
before sending the next (at most ``RATE`` frames a second per socket, under the server's
per-socket token bucket), reconnects after a close and counts what happened.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field

RATE = 7.0  # frames a second per socket; the server allows 8/s after a burst of 20
ANSWER_TIMEOUT = float(os.environ.get("LEYOU_FUZZ_ANSWER_TIMEOUT", "10"))
MOVE_TYPES = ("pass", "play", "bid", "start", "ready", "rob", "double")
JUNK = (
    "\u0000",
    "\ud800",
    "\udfff",
    "\u202e",
    "\ufeff",
    "\U0001f004",
    "e\u0301",
    "\uffff",
    "牌",
    "\x7f",
    "\n",
    "\\",
    '"',
    "\u2028",
)


def _junk(rng: random.Random, n: int | None = None) -> str:
    n = rng.randint(1, 12) if n is None else n
    out = []
    for _ in range(n):
        pick = rng.random()
        if pick < 0.4:
            out.append(rng.choice(JUNK))
        elif pick < 0.7:
            out.append(chr(rng.randint(0x20, 0x7E)))
        else:
            out.append(chr(rng.randint(0x80, 0x10FFFF)))
    return "".join(out)


def _dump(value) -> str:
    return json.dumps(value)  # ensure_ascii: lone surrogates become \udxxx escapes


def _nested(rng: random.Random, inner: str = "1") -> str:
    k = rng.choice([9, 50, 200, 900, 1000, 2000])
    if rng.random() < 0.5:
        return "[" * k + "]" * k
    k = min(k, 700)
    return '{"a":' * k + inner + "}" * k


def _bad_seq(rng: random.Random, seq: int) -> str:
    """A seq no legal frame carries right now: stale, negative, huge, non-finite or mistyped."""
    return rng.choice(
        [
            str(seq - rng.randint(1, 50)),
            str(-rng.randint(2, 10**6)),
            str(2**31 + rng.randint(0, 9)),
            str(10 ** rng.randint(19, 60)),
            "Infinity",
            "-Infinity",
            "NaN",
            "1e400",
            "-1e400",
            "1.5",
            '"abc"',
            "[]",
            "{}",
            "true",
            _dump("x" + _junk(rng)),
            str(seq) + ".5",
        ]
    )


def _bad_action(rng: random.Random) -> str:
    return rng.choice(
        [
            _dump({"type": rng.choice(["fly", "", "PASS", "pass ", "play\u0000"])}),
            _dump({"type": "play", "cards": "Z" + _junk(rng)}),
            _dump({"type": rng.randint(0, 9)}),
            _dump([{"type": "pass"}]),
            _dump("pass"),
            "null",
            "7",
            _dump({f"k{i}": i for i in range(rng.randint(17, 200))} | {"type": "pass"}),
            _nested(rng),
            _dump({"type": _junk(rng)}),
        ]
    )


def _bad_id(rng: random.Random) -> str:
    return rng.choice(
        [
            _dump("x\u0000" + _junk(rng, 3)),
            _dump("\ud800"),
            _dump("a" * rng.randint(65, 500)),
            "7",
            "[]",
            '{"id": 1}',
            "true",
            _dump("\n\t"),
            _dump(_junk(rng) + "\u0000"),
        ]
    )


def _plausible_seq(rng: random.Random, seq: int) -> str | None:
    return rng.choice([str(seq), None, str(seq - 1), '""'])


def _plausible_id(rng: random.Random) -> str | None:
    return rng.choice([_dump(f"h-{rng.getrandbits(40):x}"), None, '""'])


def _object(fields: dict[str, str | None]) -> str:
    return "{" + ",".join(f"{_dump(k)}:{v}" for k, v in fields.items() if v is not None) + "}"


def _common(rng: random.Random, kinds: tuple[str, ...]) -> str | bytes:
    """Hostile frames that are the same for both sockets."""
    pick = rng.randrange(9)
    if pick == 0:  # not JSON, or JSON that is not an object
        return rng.choice(
            [
                '{"kind":"move",',
                "{kind: move}",
                "",
                "null",
                "[]",
                "123",
                '"s"',
                "{'kind': 'resync'}",
                _junk(rng),
                '{"kind":"resync"}}',
                "\ufeff{}",
            ]
        )
    if pick == 1:  # deeply nested
        return f'{{"kind":"{rng.choice(kinds)}","x":{_nested(rng)}}}'
    if pick == 2:  # over the size limit
        return _dump({"kind": rng.choice(kinds), "pad": "x" * 4100 + _junk(rng)})
    if pick == 3:  # unknown kinds
        return _object(
            {
                "kind": rng.choice(
                    [
                        _dump(_junk(rng)),
                        _dump("MOVE"),
                        _dump("move "),
                        "null",
                        "1",
                        "[]",
                        '{"k":1}',
                        _dump("leave\u0000"),
                    ]
                )
            }
        )
    if pick == 4:  # unicode junk in keys and values of a known kind, with a lone surrogate or NUL
        return _object(
            {
                "kind": _dump(rng.choice(kinds)),
                _junk(rng): _dump(_junk(rng) + rng.choice(["\u0000", "\ud800"])),
            }
        )
    if pick == 5:  # binary frames: random bytes, invalid UTF-8
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 64)))
    if pick == 6:  # non-finite and huge numbers anywhere
        return '{{"kind":"{}","x":{}}}'.format(
            rng.choice(kinds),
            rng.choice(["Infinity", "NaN", "1e400", "-1e999", "1" * 4000]),
        )
    if pick == 7:  # kinds that take no arguments, with a NUL beside them
        return _dump({"kind": rng.choice(kinds), "action_id": "\u0000"})
    return _dump({"kind": rng.choice(kinds), "x": "\ud800" * rng.randint(1, 50)})


def table_hostile(
    rng: random.Random, view: dict | None, seat: int, seq: int, sent_ids: list[tuple[str, int]]
) -> str | bytes:
    """One frame for the table socket that must be refused (an error frame, no change)."""
    pick = rng.randrange(10)
    if pick <= 2:
        return _common(rng, ("move", "resync", "auto", "leave", "bots", "counter_buy"))
    if pick == 3 and view is not None and seat not in view.get("to_act", ()):
        # another seat's turn: a plausible action at the current seq
        action = rng.choice(
            [
                {"type": "pass"},
                {"type": "bid", "call": True},
                {"type": "ready"},
                {"type": "start", "mingpai": False},
            ]
        )
        return _object(
            {
                "kind": '"move"',
                "action": _dump(action),
                "seq": str(seq),
                "action_id": _plausible_id(rng),
            }
        )
    if pick == 4 and sent_ids:
        # a legal frame's id again, against the seq it was first sent at (now passed)
        old_id, old_seq = rng.choice(sent_ids)
        if old_seq < seq:
            return _object(
                {
                    "kind": '"move"',
                    "action": _dump({"type": "pass"}),
                    "seq": str(old_seq),
                    "action_id": _dump(old_id),
                }
            )
    if pick == 5:  # a bad "on" for 托管
        return _object(
            {
                "kind": '"auto"',
                "on": rng.choice(['"maybe"', "[]", "{}", "2", "Infinity", _dump(_junk(rng))]),
            }
        )
    bad = rng.choice(("seq", "action", "action_id"))
    fields = {
        "kind": '"move"',
        "action": _bad_action(rng)
        if bad == "action"
        else _dump(
            rng.choice([{"type": "pass"}, {"type": "bid", "call": True}, {"type": "ready"}])
        ),
        "seq": _bad_seq(rng, seq) if bad == "seq" else _plausible_seq(rng, seq),
        "action_id": _bad_id(rng) if bad == "action_id" else _plausible_id(rng),
    }
    if bad != "seq" and fields["seq"] is None and bad == "action_id" and rng.random() < 0.5:
        fields.pop("seq")  # a NUL-bearing id with no seq at all
    return _object(fields)


def wheel_hostile(rng: random.Random, number: int, sent_ids: list[str]) -> str | bytes:
    """One frame for the wheel socket that must be refused."""
    pick = rng.randrange(8)
    if pick <= 2:
        return _common(rng, ("bet", "resync", "ping"))
    if pick == 3 and sent_ids:  # an accepted (or refused for good) bet's id again
        return _dump(
            {
                "kind": "bet",
                "object": "apple",
                "amount": 10,
                "round": number,
                "action_id": rng.choice(sent_ids),
            }
        )
    bad = rng.choice(("round", "object", "amount", "action_id"))
    fields = {
        "kind": '"bet"',
        "object": rng.choice(
            [
                _dump("durian"),
                "7",
                "null",
                "[]",
                _dump("apple\u0000"),
                _dump(_junk(rng)),
                _dump("x" * 100),
            ]
        )
        if bad == "object"
        else _dump("apple"),
        "amount": rng.choice(
            [
                "10.5",
                "-10",
                "0",
                str(10**30),
                '"10x"',
                "null",
                "Infinity",
                "1e400",
                "[]",
                '"\u0000"',
                "3",
            ]
        )
        if bad == "amount"
        else "10",
        "round": rng.choice(
            [
                "Infinity",
                "-Infinity",
                "NaN",
                "1e400",
                str(number + 1000),
                str(-rng.randint(1, 99)),
                '"abc"',
                "[]",
                "1.5",
                str(10 ** rng.randint(19, 50)),
            ]
        )
        if bad == "round"
        else rng.choice([str(number), None]),
        "action_id": _bad_id(rng) if bad == "action_id" else _plausible_id(rng),
    }
    if bad != "action_id" and fields["action_id"] in (None, '""') and bad == "round":
        fields["action_id"] = _dump(f"h-{rng.getrandbits(40):x}")
    return _object(fields)


@dataclass
class Stats:
    sent: int = 0
    hostile: int = 0
    errors: int = 0
    unanswered: int = 0
    legal_sent: int = 0
    legal_accepted: int = 0
    closes: Counter = field(default_factory=Counter)
    codes: Counter = field(default_factory=Counter)
    handshake_retries: int = 0

    def as_dict(self) -> dict:
        return {
            "sent": self.sent,
            "hostile": self.hostile,
            "errors": self.errors,
            "unanswered": self.unanswered,
            "legal_sent": self.legal_sent,
            "legal_accepted": self.legal_accepted,
            "closes": {str(k): v for k, v in self.closes.items()},
            "codes": dict(self.codes.most_common()),
            "handshake_retries": self.handshake_retries,
        }


class Socket:
    """One client socket that reconnects after a close and reads its frames in order."""

    def __init__(self, url: str, cookie: str, origin: str, stats: Stats) -> None:
        self.url, self.cookie, self.origin, self.stats = url, cookie, origin, stats
        self.ws = None
        self.latest: dict | None = None

    async def open(self) -> None:
        """Connect (again), as a browser does: a handshake the server never answered (a Daphne
        starved of CPU on a loaded machine drops it) is retried twice; a refusal is not."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidMessage

        for attempt in range(3):
            try:
                self.ws = await connect(
                    self.url,
                    additional_headers={"Cookie": self.cookie, "Origin": self.origin},
                    open_timeout=20,
                    max_size=2**22,
                )
                break
            except (InvalidMessage, ConnectionResetError):
                if attempt == 2:
                    raise
                self.stats.handshake_retries += 1
                await asyncio.sleep(0.5)
        self.latest = await self.recv()

    async def recv(self, timeout: float = ANSWER_TIMEOUT) -> dict:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if frame.get("type") in ("table", "wheel"):
            key = frame.get("seq", frame.get("version"))
            mine = (self.latest or {}).get("seq", (self.latest or {}).get("version", -1))
            if self.latest is None or frame.get("type") == "wheel" or key >= mine:
                self.latest = frame
        return frame

    async def send(self, raw: str | bytes, until) -> dict | None:
        """Send one frame and read up to the frame ``until`` accepts; None on a close."""
        from websockets.exceptions import ConnectionClosed

        self.stats.sent += 1
        if isinstance(raw, str):
            try:
                raw.encode()
            except UnicodeEncodeError:  # a raw lone surrogate: only a binary frame carries it
                raw = raw.encode("utf-8", "surrogatepass")
        try:
            await self.ws.send(raw)
            deadline = time.monotonic() + ANSWER_TIMEOUT
            while True:
                frame = await self.recv(max(0.01, deadline - time.monotonic()))
                if until(frame):
                    return frame
        except ConnectionClosed as closed:
            self.stats.closes[closed.rcvd.code if closed.rcvd else None] += 1
            await self.open()
            return None
        except TimeoutError:
            self.stats.unanswered += 1
            return None

    async def close(self) -> None:
        await self.ws.close()


def _is_error(frame: dict) -> bool:
    return frame.get("type") == "error"


async def table_client(
    sock: Socket, seat: int, frames: int, rng: random.Random, choose, legal_budget: list[int]
) -> None:
    """Send ``frames`` frames on the open socket: hostile ones, now and then a legal move."""
    sent_ids: list[tuple[str, int]] = []
    for n in range(frames):
        started = time.monotonic()
        view = (sock.latest or {}).get("view")
        seq = (sock.latest or {}).get("seq", 0)
        action = choose(view, seat) if view and view.get("phase") != "over" else None
        if action is not None and n % 15 == 0 and legal_budget[0] > 0:
            legal_budget[0] -= 1
            action_id = f"L-{seat}-{n}-{rng.getrandbits(32):x}"
            sock.stats.legal_sent += 1
            answer = await sock.send(
                _dump({"kind": "move", "action": action, "seq": seq, "action_id": action_id}),
                lambda f, s=seq: _is_error(f) or (f.get("type") == "table" and f["seq"] > s),
            )
            if answer is not None and not _is_error(answer):
                sock.stats.legal_accepted += 1
            sent_ids.append((action_id, seq))
        else:
            sock.stats.hostile += 1
            answer = await sock.send(table_hostile(rng, view, seat, seq, sent_ids), _is_error)
            if answer is not None:
                sock.stats.errors += 1
                sock.stats.codes[answer.get("code")] += 1
        await asyncio.sleep(max(0.0, 1 / RATE - (time.monotonic() - started)))


async def wheel_client(sock: Socket, frames: int, rng: random.Random, tag: str) -> None:
    """Send ``frames`` frames to the wheel socket: hostile bets, and now and then a legal one."""
    sent_ids: list[str] = []
    for n in range(frames):
        started = time.monotonic()
        number = (sock.latest or {}).get("number", 0)
        if n % 25 == 0:
            action_id = f"L-{tag}-{n}"
            sock.stats.legal_sent += 1
            answer = await sock.send(
                _dump(
                    {
                        "kind": "bet",
                        "object": "apple",
                        "amount": 10,
                        "round": number,
                        "action_id": action_id,
                    }
                ),
                lambda f: _is_error(f) or (f.get("type") == "wheel" and f.get("my_total")),
            )
            if answer is not None and not _is_error(answer):
                sock.stats.legal_accepted += 1
            sent_ids.append(action_id)
        else:
            sock.stats.hostile += 1
            answer = await sock.send(wheel_hostile(rng, number, sent_ids), _is_error)
            if answer is not None:
                sock.stats.errors += 1
                sock.stats.codes[answer.get("code")] += 1
        await asyncio.sleep(max(0.0, 1 / RATE - (time.monotonic() - started)))
