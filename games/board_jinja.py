"""The Jinja2 environment the table boards render with (``templates/games/boards/*.jinja``).

A board is rendered three or more times per action (every seat its own view), so its templates
are compiled Python rather than Django's node tree (docs/performance.md, 5 Dec 2026). The
boards' HTML is what the Django templates wrote, byte for byte (``games/tests/data/
board_digests.json``), so the environment keeps Django's rules where Jinja2's differ:

* escaping is Django's (``'`` → ``&#x27;``, ``"`` → ``&quot;``): ``finalize`` escapes every
  printed value with Django's ``conditional_escape`` and hands Jinja2 a safe string;
* ``a.b`` looks a dict's key up before its attributes (``result.level_changes|items`` for the
  pairs), a missing value prints as nothing, and ``x is given`` says "neither missing nor
  None" (Django's ``is not None`` on a missing value);
* ``default``, ``length`` and ``add`` are Django's filters; ``each`` is Django's ``for`` over
  None (nothing);
* i18n is Django's own: the ``jinja2.ext.i18n`` extension with Django's ``gettext`` and
  ``ngettext`` installed, so ``translation.activate`` picks the language. ``_("x")`` is
  ``{% translate "x" %}``, ``_("第 %(n)s 局", n=…)`` is ``{% blocktranslate %}``: the
  catalog's text as it is (a template literal is safe in Django), the values escaped.

The helpers the board tags were (cards, tiles, 字牌, labels) are plain functions here.
"""

from __future__ import annotations

import functools
import html
from datetime import datetime
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import localize
from jinja2 import ChainableUndefined, Environment, FileSystemLoader, Undefined, pass_context
from markupsafe import Markup

from games.templatetags import cards, tiles, zipai
from games.templatetags.table_extras import action_label, move_vals, seat_in, signed
from games.terms import term

BOARDS_DIR = settings.BASE_DIR / "templates" / "games" / "boards"


def _finalize(value: Any) -> Any:
    """A printed value as Django prints it: safe strings as they are, numbers localized, the
    rest escaped (Django's escape, not markupsafe's)."""
    if hasattr(value, "__html__"):  # Markup, SafeString, a missing value ("")
        return value
    cls = value.__class__
    if cls is str:
        return Markup(html.escape(value))
    if cls is int:
        return value  # no thousands separator on the site (USE_THOUSAND_SEPARATOR)
    if cls is float:
        value = localize(value)
    return Markup(html.escape(str(value)))


def _gettext(message: str, **variables: Any) -> str:
    """Django's gettext of a template literal: the catalog's text as it is (Django marks a
    literal safe, so ``{% translate %}`` does not escape it); with values, ``{% blocktranslate
    %}``: each value escaped."""
    text = translation.gettext(message)
    if not variables:
        return Markup(text)
    return Markup(text % {k: _finalize(v) for k, v in variables.items()})


def _ngettext(singular: str, plural: str, number: int, **variables: Any) -> str:
    text = translation.ngettext(singular, plural, number)
    return Markup(text % {k: _finalize(v) for k, v in {"num": number, **variables}.items()})


# language -> (a template literal -> its catalog text): a board asks for about thirty literals
# per render and Django's gettext finds the active catalog through a context-local each time
# (a fifth of a board's render). The catalogs do not change while a process runs.
_literals: dict[str, dict[str, Markup]] = {}


def _gettext_in(language: str) -> Any:
    """``_gettext`` bound to one language for one render (the render's own ``gettext``)."""
    known = _literals.setdefault(language, {})

    def gettext(message: str, **variables: Any) -> str:
        text = known.get(message)
        if text is None:
            text = known[message] = Markup(translation.gettext(message))
        if variables:  # {% blocktranslate %}: the catalog's text, each value escaped
            return Markup(str(text) % {k: _finalize(v) for k, v in variables.items()})
        return text

    return gettext


@functools.lru_cache(maxsize=8192)
def _term_in(language: str, text: str) -> str:
    with translation.override(language):
        return term(text)


@pass_context
def _term(context: Any, text: object) -> Any:
    """``term`` in the render's language (a game term's script or gloss), remembered."""
    if not isinstance(text, str) or not text:
        return text
    return _term_in(context.get("language_code") or "", text)


class BoardEnvironment(Environment):
    """Jinja2 with Django's lookup order for dicts (the boards' data are JSON dicts)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if obj.__class__ is dict:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def _plain(value: Any) -> Any:
    """A missing value as Django hands it to a filter: ``""``."""
    return "" if isinstance(value, Undefined) else value


def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` for a dict (int or str key) or a list; None when there is none."""
    if mapping.__class__ is dict:
        return mapping.get(key, mapping.get(str(_plain(key))))
    if mapping is None or isinstance(mapping, Undefined):
        return None
    try:
        return mapping[int(_plain(key))]
    except (IndexError, ValueError, TypeError):
        return None


def _seat_in(seat_index: Any, seats: Any) -> bool:
    if isinstance(seats, Undefined):
        return False  # Django: a missing argument makes the condition false
    return seat_in(seat_index, seats)


def _default(value: Any, arg: Any = "") -> Any:
    return value or arg


def _length(value: Any) -> int:
    try:
        return len(value)
    except (ValueError, TypeError):
        return 0


def _add(value: Any, arg: Any) -> Any:
    value, arg = _plain(value), _plain(arg)
    try:
        return int(value) + int(arg)
    except (ValueError, TypeError):
        try:
            return value + arg
        except Exception:
            return ""


def _each(value: Any) -> Any:
    return () if value is None else value


def _items(value: Any) -> Any:
    return value.items() if isinstance(value, dict) else ()


def _given(value: Any) -> bool:
    return value is not None and not isinstance(value, Undefined)


def _widthratio(value: Any, max_value: Any, max_width: Any) -> str:
    """Django's ``{% widthratio %}``: ``round(value / max_value * max_width)`` as text."""
    try:
        return str(round(float(value) / float(max_value) * int(max_width)))
    except ZeroDivisionError:
        return "0"
    except (ValueError, TypeError, OverflowError):
        return ""


def _now_iso() -> str:
    """``{% now "c" %}``: the render's clock (``data-now``)."""
    return datetime.now(tz=timezone.get_current_timezone() if settings.USE_TZ else None).isoformat()


def _url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def _filter(func: Any) -> Any:
    """A Django filter whose value may be missing (Django hands it ``""``)."""

    def call(value: Any, *args: Any) -> Any:
        return func(_plain(value), *(_plain(a) for a in args))

    call.__name__ = func.__name__
    return call


env = BoardEnvironment(
    loader=FileSystemLoader(BOARDS_DIR),
    autoescape=True,
    undefined=ChainableUndefined,
    finalize=_finalize,
    keep_trailing_newline=True,
    auto_reload=settings.DEBUG,
    extensions=["jinja2.ext.i18n"],
)
env.install_gettext_callables(gettext=_gettext, ngettext=_ngettext, newstyle=False)  # type: ignore[attr-defined]
env.filters.update(
    {
        "default": _default,
        "length": _length,
        "add": _add,
        "each": _each,
        "items": _items,
        "get_item": get_item,
        "seat_in": _seat_in,
        "term": _term,
        "signed": _filter(signed),
        "move_vals": move_vals,
        "action_label": action_label,
        "seat_names": _filter(tiles.seat_names),
        "tile_codes": _filter(tiles.tile_codes),
        "tile_name": _filter(tiles.tile_name),
        "tile_names": _filter(tiles.tile_names),
        "trad": _filter(tiles.trad),
        "zh": _filter(zipai.zh),
    }
)
env.tests["given"] = _given
env.globals.update(
    {
        "avatar": cards.avatar,
        "card_row": cards.card_row,
        "card_backs": cards.card_backs,
        "zipai": zipai.zipai,
        "zipai_row": zipai.zipai_row,
        "zipai_backs": zipai.zipai_backs,
        "widthratio": _widthratio,
        "now_iso": _now_iso,
        "url": _url,
    }
)


def board_render(game: str, context: dict[str, Any]) -> str:
    """The board of ``game`` (``templates/games/boards/<game>.jinja``) for this context."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    return env.get_template(f"{game}.jinja").render(
        context, mjt=tiles.TileSheet(), gettext=_gettext_in(language), language_code=language
    )


def board_template_exists(game: str) -> bool:
    """Whether ``game`` has a board template (the system check ``leyou.E002``)."""
    return (BOARDS_DIR / f"{game}.jinja").is_file()


def board_source(name: str) -> str:
    """The text of one board template (``doudizhu.jinja``), for the catalog's test."""
    return (BOARDS_DIR / name).read_text(encoding="utf-8")
