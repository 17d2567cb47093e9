"""Fragments of chat and spectators: the bubble, the watcher count, the mute list, the toggle.

HTML (swapped out of band by htmx, each with a top-level id) or JSON for ``?format=json``
sockets. The text of a bubble is escaped by the template; a phrase is shown in the viewer's
language from its id (``games.chat_phrases``). What a viewer may see was decided before
(``services.chat``, the consumer's filters): this only lays it out.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string

from games import chat_phrases
from games.services.chat import CHAT_TEXT_MAX_DEFAULT


def _json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False)


def bubble_frame(event: dict[str, Any], game: str, *, mine: bool, as_json: bool) -> str:
    """The bubble of one ``table.chat`` message, at the speaker's seat."""
    kind, value = event["kind"], event["value"]
    if kind == "phrase":
        text = str(chat_phrases.phrase_text(game, value) or "")
    elif kind == "emote":
        text = str(chat_phrases.emote_label(value) or "")
    else:
        text = value
    if as_json:
        return _json(
            {
                "type": "chat",
                "seat": event["seat"],
                "user_id": event["user_id"],
                "name": event["name"],
                "kind": kind,
                "value": value,
                "text": text,
            }
        )
    return render_to_string(
        "games/chat/_bubble.html",
        {
            "kind": kind,
            "value": value,
            "text": text,
            "label": text,
            "seat": event["seat"],
            "user_id": event["user_id"],
            "name": event["name"],
            "mine": mine,
        },
    )


def watchers_frame(count: int, *, as_json: bool) -> str:
    if as_json:
        return _json({"type": "watchers", "count": count})
    return render_to_string("games/chat/_watchers.html", {"count": count, "oob": True})


def mutes_frame(muted: list[dict[str, Any]], *, as_json: bool) -> str:
    if as_json:
        return _json({"type": "mutes", "muted": muted})
    return render_to_string("games/chat/_mutes.html", {"muted": muted, "oob": True})


def watch_toggle_frame(allow: bool, *, as_json: bool) -> str:
    if as_json:
        return _json({"type": "watching", "allow": allow})
    return render_to_string("games/chat/_watch_toggle.html", {"allow": allow, "oob": True})


def bar_context(
    *,
    game: str,
    is_private: bool,
    watchers: int,
    muted: list[dict[str, Any]],
    allow: bool,
    delay: tuple[int, int],
    can_speak: bool,
) -> dict[str, Any]:
    """What the table page's chat bar (``games/chat/_bar.html``) shows at load."""
    return {
        "phrases": [(pid, str(text)) for pid, text in chat_phrases.phrases_for(game)],
        "emotes": [(eid, str(label)) for eid, label in chat_phrases.EMOTES],
        "is_private": is_private,
        "can_speak": can_speak,
        "count": watchers,
        "muted": muted,
        "allow": allow,
        "delayed": any(delay),
        "delay_turns": delay[0],
        "delay_seconds": delay[1],
        "text_max": int(settings.LEYOU.get("CHAT_TEXT_MAX", CHAT_TEXT_MAX_DEFAULT)),
    }
