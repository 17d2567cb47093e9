"""Incoming WebSocket frames (客戶端訊息): decode and check them before any service sees them.

One layer for the table socket (``games.consumers.table``) and 大豐收's socket
(``games.consumers.dafengshou``). A frame is refused with ``FrameError`` (a stable code and a
message for the player; nothing has changed) when it is

- not JSON, or JSON nested deeper than ``MAX_DEPTH`` (checked before ``json.loads`` recurses),
- carrying ``NaN`` / ``Infinity`` / a number that overflows to infinity (``1e400``) or an integer
  of more than ``MAX_INT_DIGITS`` digits,
- carrying a string anywhere with a NUL or a lone surrogate (PostgreSQL and UTF-8 refuse both),
- not an object, or of an unknown ``kind`` (``unknown_kind``),
- of a known kind with a field of the wrong type or out of range: ``seq`` / ``round`` (輪次) a
  whole number in ``SEQ_RANGE``, ``action_id`` a short printable string, ``action`` (動作) an
  object of at most ``MAX_ACTION_KEYS`` keys with a string ``type``.

The checks are pure (no Django, no I/O); the services check again what they store
(``text_clean``), so no path puts a NUL into the database.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

MAX_DEPTH = 8
MAX_INT_DIGITS = 19
MAX_ACTION_KEYS = 16
MAX_ACTION_ID = 64
SEQ_RANGE = (-(2**31), 2**31 - 1)  # the client sends -1 before its first snapshot

TABLE_KINDS = frozenset(
    {"move", "resync", "auto", "leave", "ready", "counter_buy", "bots", "chat", "mute", "watching"}
)  # the last three: chat and spectators
DAFENGSHOU_KINDS = frozenset({"bet", "resync", "ping"})

_SPECIAL = re.compile(r'[\[\]{}"\\]')
_DIRTY = re.compile("[\x00\ud800-\udfff]")


class FrameError(Exception):
    """A refused frame: ``code`` is stable (``malformed``, ``unknown_kind``), ``message`` 中文."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _malformed(message: object = _("訊息格式不正確")) -> FrameError:
    return FrameError("malformed", message)


def _refuse_constant(name: str) -> Any:
    raise _malformed(format_lazy(_("數字不正確（{name}）"), name=name))


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _malformed(_("數字超出範圍"))
    return value


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _malformed(_("數字超出範圍"))
    return int(text)


def text_clean(value: str) -> bool:
    """Whether a string may be stored: no NUL, no lone surrogate."""
    return _DIRTY.search(value) is None


def json_storable(value: Any) -> bool:
    """Whether a decoded JSON value may go into a JSONB column: every string (keys too) clean,
    as ``text_clean`` (PostgreSQL refuses NUL and lone surrogates with a DataError)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and not text_clean(item):
            return False
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _depth(raw: str) -> int:
    """The deepest nesting of arrays and objects in ``raw``, strings skipped; one linear pass."""
    depth = deepest = 0
    in_string, escaped_at = False, -1
    for match in _SPECIAL.finditer(raw):
        char, at = match.group(), match.start()
        if at == escaped_at:
            continue
        if in_string:
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _check_strings(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not text_clean(item):
                raise _malformed(_("訊息含有不允許的字元"))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def frame_decode(raw: str, *, kinds: frozenset[str]) -> dict:
    """Decode one client frame into a dict of a kind in ``kinds``; raise FrameError if not."""
    if _depth(raw) > MAX_DEPTH:
        raise _malformed(_("訊息層次太深"))
    try:
        message = json.loads(
            raw, parse_constant=_refuse_constant, parse_float=_parse_float, parse_int=_parse_int
        )
    except ValueError:
        raise _malformed() from None
    if not isinstance(message, dict):
        raise _malformed()
    _check_strings(message)
    kind = message.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise FrameError("unknown_kind", _("未知的訊息類型"))
    return message


def seq_field(message: dict, name: str = "seq") -> int | None:
    """``seq`` (or ``round``): absent, null or "" → None; a whole number in range, or a string
    of digits (form values arrive as strings); anything else is malformed."""
    value = message.get(name)
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.isascii() and re.fullmatch(r"-?\d{1,10}", value):
        value = int(value)
    if type(value) is not int or not SEQ_RANGE[0] <= value <= SEQ_RANGE[1]:
        raise _malformed(format_lazy(_("{name} 不正確"), name=name))
    return value


def action_id_field(message: dict, *, max_length: int = MAX_ACTION_ID) -> str | None:
    """``action_id``: absent, null or "" → None; else a printable string of at most
    ``max_length`` characters."""
    value = message.get("action_id")
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > max_length or not value.isprintable():
        raise _malformed(_("action_id 不正確"))
    return value


@dataclass(frozen=True, slots=True)
class Move:
    action: dict
    seq: int | None
    action_id: str | None


def move_fields(message: dict) -> Move:
    """The fields of a ``move`` frame, checked."""
    action = message.get("action")
    if (
        not isinstance(action, dict)
        or not isinstance(action.get("type"), str)
        or len(action) > MAX_ACTION_KEYS
    ):
        raise _malformed(_("動作格式不正確"))
    return Move(action, seq_field(message), action_id_field(message))


def flag_field(message: dict, name: str) -> bool:
    """A yes/no field: a JSON boolean, or the strings a form sends; anything else malformed."""
    value = message.get(name)
    if isinstance(value, bool):
        return value
    if value in (None, "", "false", "off", "0", 0):
        return False
    if value in ("true", "on", "1", 1):
        return True
    raise _malformed(format_lazy(_("{name} 不正確"), name=name))


@dataclass(frozen=True, slots=True)
class Bet:
    round_number: int | None
    object: str
    amount: int | str
    action_id: str | None


def bet_fields(message: dict) -> Bet:
    """The fields of a 大豐收 ``bet`` frame, checked for type (the service checks the values)."""
    obj, amount = message.get("object"), message.get("amount")
    if not isinstance(obj, str) or len(obj) > 32:
        raise _malformed(_("押注的對象不正確"))
    if isinstance(amount, str):
        if not (amount.isascii() and amount.isdigit() and len(amount) <= 12):
            raise _malformed(_("押注的數目不正確"))
    elif type(amount) is not int:
        raise _malformed(_("押注的數目不正確"))
    return Bet(seq_field(message, "round"), obj, amount, action_id_field(message, max_length=40))


# --- chat and spectators (games.services.chat): 快捷語 / 表情 / 文字, 屏蔽, 允許觀戰
# ----------------

MAX_CHAT_ID = 32
MAX_CHAT_TEXT_CHARS = 200  # a first bound; the service's own limit (CHAT_TEXT_MAX) is smaller


@dataclass(frozen=True, slots=True)
class Chat:
    """One ``chat`` frame: exactly one of a phrase id, an emote id or a free text."""

    phrase: str | None
    emote: str | None
    text: str | None


def chat_fields(message: dict) -> Chat:
    """``{"kind": "chat", "phrase": id}`` / ``"emote": id`` / ``"text": "…"``, exactly one."""
    given = {
        name: message.get(name)
        for name in ("phrase", "emote", "text")
        if message.get(name) not in (None, "")
    }
    if len(given) != 1:
        raise _malformed("請選一句快捷語、一個表情或輸入文字")
    ((name, value),) = given.items()
    if not isinstance(value, str):
        raise _malformed(f"{name} 不正確")
    if name == "text":
        if len(value) > MAX_CHAT_TEXT_CHARS:
            raise FrameError("text_too_long", "文字太長")
        return Chat(None, None, value)
    if len(value) > MAX_CHAT_ID or not re.fullmatch(r"[a-z0-9_]+", value):
        raise _malformed(f"{name} 不正確")
    return Chat(value if name == "phrase" else None, value if name == "emote" else None, None)


def user_field(message: dict, name: str = "user") -> int:
    """A user id: a positive whole number (or a string of digits); else malformed."""
    value = message.get(name)
    if isinstance(value, str) and value.isascii() and re.fullmatch(r"\d{1,10}", value):
        value = int(value)
    if type(value) is not int or not 0 < value <= SEQ_RANGE[1]:
        raise _malformed(f"{name} 不正確")
    return value
