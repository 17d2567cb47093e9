"""Chat at the table (快捷語、表情、文字) and the mutes (屏蔽 / 禁言). Never in the event log.

A seated player says a quick phrase of his game, an emote, or — at a private table (私人桌)
only — a short free text. ``chat_send`` checks it and broadcasts a small message to the
table's group (``table.chat``); each socket renders its own bubble (escaped) unless its viewer
muted the speaker (``hidden_speakers_for``), or it is a watcher and the room hides chat from
watchers (``spectator_chat_hidden``). Nothing is written: no ``HandEvent``, no ``Table.seq``.

Refusals raise :class:`ChatRefused` (a ``TableError``: a stable code and a message for the
player) and change nothing; a refused message does not use the speaker's turn to talk:

- ``not_seated`` — only a seated player speaks (watchers read);
- ``chat_muted`` — staff muted the user (``ChatMute``) until a time, which the message names;
- ``unknown_phrase`` / ``unknown_emote`` — not one of the game's phrases / the emotes;
- ``text_private_only`` — free text at a public table;
- ``text_empty`` / ``text_too_long`` (more than ``CHAT_TEXT_MAX`` characters) /
  ``text_blocked`` (a ``WordFilter`` entry that blocks); words that mask become ＊;
- ``chat_too_fast`` — the room's ``chat_throttle_seconds`` (default 3) since the user's last
  message, counted in the shared Redis cache so that every server process agrees.

The frame itself also passes the socket's token buckets (per socket and per user), like moves.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games import chat_phrases, realtime
from games.engine.params import table_params_read
from games.exceptions import TableError, UnknownTable
from games.models import PlayerMute, Seat, Table, WordFilter
from games.selectors import chat as chat_selectors

CHAT_TEXT_MAX_DEFAULT = 40
MASK = "＊"
_SPACES = re.compile(r"\s+")


class ChatRefused(TableError):
    code = "chat_refused"


@dataclass(frozen=True, slots=True)
class Bubble:
    """What was said, as broadcast: the speaker's seat, and one of phrase / emote / text."""

    table_id: int
    seat: int
    user_id: int
    name: str
    kind: str  # "phrase", "emote" or "text"
    value: str  # the phrase or emote id, or the (filtered) text
    watchers_see: bool

    def message(self) -> dict[str, Any]:
        """The channel-layer message (``table.chat``) every socket of the table receives."""
        return {"type": "table.chat", **asdict(self)}


def _text_max() -> int:
    return int(settings.LEYOU.get("CHAT_TEXT_MAX", CHAT_TEXT_MAX_DEFAULT))


def text_filter(text: str) -> str:
    """The free text as shown: NFKC-normalised, spaces collapsed, filtered words masked.

    Raises ChatRefused for an empty or too long text, a control character, or a word whose
    filter entry blocks the message.
    """
    clean = _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip()
    if not clean:
        raise ChatRefused(_("請輸入文字"), code="text_empty")
    limit = _text_max()
    if len(clean) > limit:
        raise ChatRefused(_("文字最多 %(n)d 個字") % {"n": limit}, code="text_too_long")
    if not clean.isprintable():
        raise ChatRefused(_("文字含有不允許的字元"), code="malformed")
    entries = list(WordFilter.objects.filter(is_active=True).values_list("word", "action"))
    for word, action in entries:
        needle = unicodedata.normalize("NFKC", word).strip()
        if not needle:
            continue
        pattern = re.compile(re.escape(needle), re.IGNORECASE)
        if action == WordFilter.Action.BLOCK and pattern.search(clean):
            raise ChatRefused(_("文字含有不允許的字詞，沒有送出"), code="text_blocked")
        if action == WordFilter.Action.MASK:
            clean = pattern.sub(lambda m: MASK * len(m.group()), clean)
    return clean


def _throttle_take(user_id: int, seconds: int) -> bool:
    """Whether the user may speak now; if so his next turn is ``seconds`` away (atomic SET NX)."""
    return bool(caches["ratelimit"].add(f"chat:{user_id}", 1, timeout=seconds))


def chat_send(
    *,
    table_id: int,
    user: Any,
    phrase: str | None = None,
    emote: str | None = None,
    text: str | None = None,
) -> Bubble:
    """Say one phrase, emote or (private tables) text at the table; broadcast it.

    Exactly one of ``phrase``, ``emote``, ``text``. Raises UnknownTable or ChatRefused (see
    the module docstring); nothing is stored either way.
    """
    if sum(value is not None for value in (phrase, emote, text)) != 1:
        raise ChatRefused(_("請選一句快捷語、一個表情或輸入文字"), code="malformed")
    table = Table.objects.filter(pk=table_id).only("id", "game", "is_private", "params").first()
    if table is None:
        raise UnknownTable(_("沒有這張牌桌"))
    seat = (
        Seat.objects.filter(table_id=table_id, user_id=user.pk)
        .values_list("index", flat=True)
        .first()
    )
    if seat is None:
        raise ChatRefused(_("只有入座的玩家可以發言"), code="not_seated")
    muted = mute_active(user.pk)
    if muted is not None:
        until = date_format(timezone.localtime(muted.until), "Y-m-d H:i")
        reason = f"（{muted.reason}）" if muted.reason else ""
        raise ChatRefused(
            _("你已被禁言至 %(until)s%(reason)s") % {"until": until, "reason": reason},
            code="chat_muted",
        )
    if phrase is not None:
        if chat_phrases.phrase_text(table.game, phrase) is None:
            raise ChatRefused(_("沒有這句快捷語"), code="unknown_phrase")
        kind, value = "phrase", phrase
    elif emote is not None:
        if chat_phrases.emote_label(emote) is None:
            raise ChatRefused(_("沒有這個表情"), code="unknown_emote")
        kind, value = "emote", emote
    else:
        assert text is not None
        if not table.is_private:
            raise ChatRefused(
                _("只有私人桌可以輸入文字，請用快捷語或表情"), code="text_private_only"
            )
        kind, value = "text", text_filter(text)
    room = table_params_read(table.params or {})
    seconds = int(room["chat_throttle_seconds"])
    if not _throttle_take(user.pk, seconds):
        raise ChatRefused(
            _("發言太頻繁：每 %(n)d 秒最多一句") % {"n": seconds}, code="chat_too_fast"
        )
    bubble = Bubble(
        table_id=table_id,
        seat=int(seat),
        user_id=user.pk,
        name=str(user),
        kind=kind,
        value=value,
        watchers_see=not room["spectator_chat_hidden"],
    )
    realtime.publish(realtime.table_group(table_id), bubble.message())
    return bubble


# --- mutes -----------------------------------------------------------------------------------


# the viewer's filter and the staff mute are reads (games.selectors.chat), named here too
hidden_speakers_for = chat_selectors.hidden_speakers_for
mute_active = chat_selectors.mute_active


def is_hidden_for(viewer: Any, speaker: Any) -> bool:
    """Whether ``viewer`` must not see ``speaker``'s phrases, emotes and text (users or ids):
    he muted him at a table (``PlayerMute``) or blocked him in the hall (both in
    ``selectors.chat.hidden_speakers_for``)."""
    viewer_id = getattr(viewer, "pk", viewer)
    speaker_id = getattr(speaker, "pk", speaker)
    return speaker_id in hidden_speakers_for(viewer_id)


def player_mute_set(*, owner: Any, muted_id: int, on: bool, table_id: int | None = None) -> bool:
    """屏蔽 (``on``) or un-mute a user for ``owner`` only; return whether anything changed.

    Raises ChatRefused (``mute_self``, ``unknown_player``). With ``table_id`` the owner's other
    sockets at that table are told (``table.mutes``), after commit.
    """
    from django.contrib.auth import get_user_model

    if muted_id == owner.pk:
        raise ChatRefused(_("不能屏蔽自己"), code="mute_self")
    if not get_user_model().objects.filter(pk=muted_id).exists():
        raise ChatRefused(_("沒有這位玩家"), code="unknown_player")
    with transaction.atomic():
        if on:
            try:
                with transaction.atomic():
                    _mute, changed = PlayerMute.objects.get_or_create(
                        owner=owner, muted_id=muted_id
                    )
            except IntegrityError:  # a concurrent request made it first
                changed = False
        else:
            changed = PlayerMute.objects.filter(owner=owner, muted_id=muted_id).delete()[0] > 0
        if changed and table_id is not None:
            message = {"type": "table.mutes", "owner_id": owner.pk}
            # the owner's sockets re-read his mutes once the change is durable
            transaction.on_commit(lambda: realtime.publish(realtime.table_group(table_id), message))
    return changed
