"""``{% memo a b.c … %}…{% endmemo %}``: a board fragment rendered once per distinct input.

A table's change is rendered once per socket (every seat its own view), and most of a board
is the same for every seat and for many changes in a row: the seat boxes, an opponent's card
count and last play, the header. ``memo`` renders its body from the variables it names and
nothing else, and keeps the result per process keyed by those values (and the language), so
the second seat to render the same inputs reuses the first one's HTML.

Why this cannot show a seat anything it would not have seen: the body is rendered in a
context that holds only the named values (``b.c`` becomes ``{"b": {"c": …}}``), so its output
is a function of those values alone, and a stored fragment is reused only for a viewer whose
own context has exactly the same values. A name the body reads but the tag does not list
renders as missing; ``LEYOU["BOARD_MEMO_VERIFY"]`` (on in the tests) renders every fragment
both ways and raises when they differ, and ``LEYOU["BOARD_MEMO"] = False`` turns the tag into
a plain pass-through (the path the boards had before).

The key is the named values as JSON (``1``, ``1.0``, ``True`` and ``"1"`` differ); a value that
is not plain data (a lazy translation, an object) makes that render skip the store and render
the body with the full context. JSON does not tell a tuple from a list, an int dict key from a
str one, or a safe string from a plain one: the values come from the snapshot (decoded JSON)
and the board extras, where each name always holds one type, and the verifying tests would
see a fragment that differs.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from django import template
from django.conf import settings
from django.template.base import VariableDoesNotExist
from django.utils import translation

register = template.Library()

_MISSING = object()
# Fragments per process (a few KiB each), in two generations: new fragments go into ``_store``;
# when it holds half the bound it becomes ``_store_old`` (the older one is dropped) and a hit
# there moves the fragment back. So what the tables in play keep using survives the roll-over,
# where clearing the whole store made every table's next renders miss at once (each full store,
# every ≈ 2,000 actions of a process: a burst of CPU on the event loop).
_STORE_MAX = 20_000
_store: dict[tuple, str] = {}
_store_old: dict[tuple, str] = {}
_uids = itertools.count()


def _refuse(value: Any) -> Any:
    raise TypeError(type(value).__name__)


def _key_text(inputs: dict[str, Any]) -> str | None:
    """The inputs as JSON (None when a value is not plain data: that render is not stored)."""
    try:
        return json.dumps(inputs, ensure_ascii=False, check_circular=False, default=_refuse)
    except (TypeError, ValueError):
        return None


def memo_store_clear() -> None:
    """Forget every stored fragment (tests; a template reload does not need it)."""
    _store.clear()
    _store_old.clear()


def memo_store_size() -> int:
    """How many fragments this process keeps (both generations)."""
    return len(_store) + len(_store_old)


def _stored(key: tuple) -> str | None:
    html = _store.get(key)
    if html is None:
        html = _store_old.get(key)
        if html is not None:
            _store_put(key, html)  # still in use: into the young generation
    return html


def _store_put(key: tuple, html: str) -> None:
    global _store, _store_old
    if len(_store) >= _STORE_MAX // 2:
        _store_old, _store = _store, {}  # the oldest generation goes
    _store[key] = html


class MemoNode(template.Node):
    def __init__(self, nodelist: template.NodeList, paths: list[str]) -> None:
        self.nodelist = nodelist
        self.paths = paths
        self.variables = [template.Variable(p) for p in paths]
        self.split = [tuple(p.split(".")) for p in paths]
        self.uid = next(_uids)

    def _resolve(self, context: template.Context, i: int) -> tuple[Any, Any]:
        """(the path's head, its value), ``_MISSING`` for either when it does not exist.

        Plain dicts and lists are walked directly, as Django's lookup would (a dict key
        first, then a list index); anything else goes through ``Variable.resolve``."""
        head, *rest = self.split[i]
        try:
            parent = context[head]
        except KeyError:
            return _MISSING, _MISSING
        value = parent
        for bit in rest:
            if type(value) is dict and bit in value:
                value = value[bit]
            elif type(value) is list and bit.isdigit() and int(bit) < len(value):
                value = value[int(bit)]
            else:
                try:
                    value = self.variables[i].resolve(context)
                except VariableDoesNotExist:
                    value = _MISSING
                break
        if callable(value):  # Django calls it: leave that to Variable.resolve
            try:
                value = self.variables[i].resolve(context)
            except VariableDoesNotExist:
                value = _MISSING
        return parent, value

    def _inputs(self, context: template.Context) -> dict[str, Any]:
        """The named values, as nested dicts (``view.to_act`` → ``{"view": {"to_act": …}}``)."""
        values: dict[str, Any] = {}
        for i, (head, *rest) in enumerate(self.split):
            parent, value = self._resolve(context, i)
            if not rest:
                if value is not _MISSING:
                    values[head] = value
                continue
            if parent is _MISSING or parent is None:
                continue
            if not isinstance(parent, dict | list):  # ``seats.0.auto``: {"seats": {"0": …}}
                raise template.TemplateSyntaxError(
                    f"memo: {head!r} is neither a dict nor a list: name it whole, not "
                    f"{self.paths[i]!r}"
                )
            node = values.setdefault(head, {})
            for key in rest[:-1]:
                node = node.setdefault(key, {})
            if value is not _MISSING:
                node[rest[-1]] = value
        return values

    def render(self, context: template.Context) -> str:
        conf = settings.LEYOU
        if not conf.get("BOARD_MEMO", True):
            return self.nodelist.render(context)
        inputs = self._inputs(context)
        text = _key_text(inputs)
        if text is None:
            return self.nodelist.render(context)
        key = (self.uid, translation.get_language(), context.autoescape, text)
        html = _stored(key)
        if html is None:
            html = self.nodelist.render(context.new(inputs))
            _store_put(key, html)
        if conf.get("BOARD_MEMO_VERIFY", False):
            full = self.nodelist.render(context)
            if full != html:
                raise AssertionError(
                    f"memo fragment (line {self.token.lineno if self.token else '?'} of "
                    f"{self.origin.name if self.origin else '?'}) reads more than {self.paths}"
                )
        return html


@register.tag
def memo(parser: template.base.Parser, token: template.base.Token) -> MemoNode:
    """``{% memo name other.key … %}`` … ``{% endmemo %}`` (see the module docstring)."""
    paths = token.split_contents()[1:]
    if not paths:
        raise template.TemplateSyntaxError("memo names at least one variable")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, paths)
