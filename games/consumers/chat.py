"""The table socket's chat and spectator part (a mixin of ``consumers.TableConsumer``).

Frames in: ``{"kind": "chat", "phrase" | "emote" | "text": …}``, ``{"kind": "mute", "user":
id, "on": bool}`` (屏蔽, for oneself), ``{"kind": "watching", "on": bool}`` (允許觀戰). They
pass the socket's rate limits and frame checks like every frame; each is one service call.

Group messages handled: ``table.chat`` (a bubble, unless this viewer muted the speaker, or is
a watcher and the room hides chat from watchers), ``table.mutes`` (this viewer changed his
mutes on another socket), ``table.watchers`` (the count), ``table.watch_closed`` (a seated
player turned watching off: a watcher's socket gets ``watching_off`` and is closed 4403).

A watcher of a bean room sees the table late (``games.selectors.spectating``): such a socket
never renders a pushed live snapshot; on every change, and when the next hidden move is due, it
renders ``spectating.spectator_snapshot`` instead (a database read and, when the state shown
is not yet in this process, a replay of the hand up to it).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from games import chat_rendering, frames, rendering
from games.consumers.base import db
from games.selectors import chat as chat_selectors
from games.selectors import spectating
from games.selectors import tables as table_selectors
from games.services import chat, spectators

logger = logging.getLogger(__name__)

CLOSE_WATCHING_OFF = 4403
CHAT_KINDS = frozenset({"chat", "mute", "watching"})


class ChatSpectatorMixin:
    """Chat, mutes and watching for ``TableConsumer`` (it provides ``db``-wrapped calls)."""

    user: Any
    table_id: int
    as_json: bool

    # -- set-up -----------------------------------------------------------------------------
    def chat_init(self, access: str | None) -> None:
        self.hidden: frozenset[int] = frozenset()
        self.seat_now: int | None = None
        self.late = False  # a watcher of a delayed (bean) room: late frames only
        self.watch_key: tuple[int, int] | None = None
        self.reveal_handle: asyncio.TimerHandle | None = None
        self.watch_lock = asyncio.Lock()
        self.seated_ids: tuple[int, ...] | None = None
        self.watching = access == table_selectors.WATCHER
        self.loop = asyncio.get_running_loop()  # renders also run on database threads
        self.game = ""

    def watch_terms(self) -> tuple[bool, bool, frozenset[int]]:
        """(may watch, late, muted speakers) — on a database thread at connect."""
        from games.models import Table

        hidden = chat_selectors.hidden_speakers_for(self.user.pk)
        row = Table.objects.filter(pk=self.table_id).values_list("game", "params").first()
        self.game = row[0] if row else ""
        if not self.watching:
            return True, False, hidden
        late = row is not None and any(spectating.spectator_delay(row[1] or {}))
        return spectating.watching_allowed(self.table_id), late, hidden

    async def watching_refuse(self) -> None:
        """Refuse or end watching: an error frame, then close 4403."""
        await self.send_error("watching_off", _("這桌有玩家不允許觀戰"))  # type: ignore[attr-defined]
        self.closing = True
        await self.close(code=CLOSE_WATCHING_OFF)  # type: ignore[attr-defined]

    def chat_stop(self) -> None:
        if self.reveal_handle is not None:
            self.reveal_handle.cancel()
            self.reveal_handle = None

    # -- frames in --------------------------------------------------------------------------
    async def chat_receive(self, kind: str, message: dict[str, Any]) -> None:
        if kind == "chat":
            said = frames.chat_fields(message)
            await db(chat.chat_send)(
                table_id=self.table_id,
                user=self.user,
                phrase=said.phrase,
                emote=said.emote,
                text=said.text,
            )
        elif kind == "mute":
            muted_id, on = frames.user_field(message), frames.flag_field(message, "on")
            await db(chat.player_mute_set)(
                owner=self.user, muted_id=muted_id, on=on, table_id=self.table_id
            )
            await self._mutes_push()
        elif kind == "watching":
            allow = await db(spectators.watching_set)(
                user=self.user, allow=frames.flag_field(message, "on")
            )
            with translation.override(self.language):  # type: ignore[attr-defined]
                frame = chat_rendering.watch_toggle_frame(allow, as_json=self.as_json)
            await self.send(text_data=frame)  # type: ignore[attr-defined]

    async def _mutes_push(self) -> None:
        def read() -> tuple[frozenset[int], list[dict[str, Any]]]:
            return (
                chat_selectors.hidden_speakers_for(self.user.pk),
                chat_selectors.muted_users_for(self.user.pk),
            )

        self.hidden, muted = await db(read)()
        with translation.override(self.language):  # type: ignore[attr-defined]
            frame = chat_rendering.mutes_frame(muted, as_json=self.as_json)
        await self.send(text_data=frame)  # type: ignore[attr-defined]

    # -- group messages ---------------------------------------------------------------------
    async def table_chat(self, event: dict[str, Any]) -> None:
        if getattr(self, "closing", False) or event["user_id"] in self.hidden:
            return  # muted or blocked (selectors.chat.hidden_speakers_for, read at connect)
        if self.seat_now is None and not event["watchers_see"]:
            return  # the room hides chat from watchers
        await self.send(
            text_data=chat_rendering.bubble_frame(  # type: ignore[attr-defined]
                event, self.game, mine=event["user_id"] == self.user.pk, as_json=self.as_json
            )
        )

    async def table_mutes(self, event: dict[str, Any]) -> None:
        if event["owner_id"] == self.user.pk and not getattr(self, "closing", False):
            await self._mutes_push()

    async def table_watchers(self, event: dict[str, Any]) -> None:
        if not getattr(self, "closing", False):
            with translation.override(self.language):  # type: ignore[attr-defined]
                frame = chat_rendering.watchers_frame(event["count"], as_json=self.as_json)
            await self.send(text_data=frame)  # type: ignore[attr-defined]

    async def table_watch_closed(self, event: dict[str, Any]) -> None:
        if self.seat_now is None and not getattr(self, "closing", False):
            await self.watching_refuse()

    # -- the watcher's view -----------------------------------------------------------------
    def watcher_seen(self, snapshot: dict[str, Any], seat: int | None) -> bool:
        """Called on every render: note the seat; False when this frame must not be sent live
        (a watcher of a delayed room), in which case the late frame is scheduled instead."""
        self.seat_now = seat
        ids = tuple(s["user_id"] for s in snapshot["seats"] if s["user_id"] is not None)
        if seat is None and self.seated_ids is not None and ids != self.seated_ids:
            self._soon(self._watch_recheck)
        self.seated_ids = ids
        if (
            seat is None
            and not self.late
            and not snapshot.get("delayed")
            and any(spectating.spectator_delay(snapshot["table"]["params"] or {}))
        ):
            self.late = True  # stood up at a bean table: from now on late frames only
            self._soon(self.watcher_push)
        return not (seat is None and self.late)

    def _soon(self, coroutine_function: Any) -> None:
        """Run ``coroutine_function()`` on the socket's loop, from the loop or a thread."""
        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(coroutine_function()))

    async def _watch_recheck(self) -> None:
        if not await db(spectating.watching_allowed)(self.table_id):
            await self.watching_refuse()

    def _render_late(self) -> tuple[str | None, tuple[int, int] | None, Any, bool | None]:
        """(frame, its key, when the next move shows, seated) on a database thread; seated is
        None when watching is no longer allowed (a player who disallows it sat down)."""
        snapshot, reveal_at = spectating.spectator_snapshot(self.table_id)
        if snapshot is None:
            return None, None, None, False
        if table_selectors.seat_in_snapshot(snapshot, self.user.pk) is not None:
            return None, None, None, True  # sat down: the live seat view from now on
        ids = tuple(s["user_id"] for s in snapshot["seats"] if s["user_id"] is not None)
        if ids != self.seated_ids:
            self.seated_ids = ids
            if not spectating.watching_allowed(self.table_id):
                return None, None, None, None
        hand = snapshot["hand"]
        key = (hand["id"] if hand else 0, snapshot["table"]["seq"])
        with translation.override(self.language):  # type: ignore[attr-defined]  # his language
            if self.as_json:
                frame = rendering.render_json(snapshot, None, self.user)
            else:
                frame = rendering.render_html(snapshot, None, self.user)
        return frame, key, reveal_at, False

    async def watcher_push(self) -> None:
        """Send the late view if it changed; schedule the next reveal."""
        from django.utils import timezone

        if getattr(self, "closing", False):
            return
        async with self.watch_lock:
            frame, key, reveal_at, seated = await db(self._render_late)()
            if seated is None:
                await self.watching_refuse()
                return
            if seated:
                self.late = False
                await self._push_snapshot(fresh=True)  # type: ignore[attr-defined]
                return
            self.seat_now = None
            if frame is not None and key != self.watch_key:
                self.watch_key = key
                await self.send(text_data=frame)  # type: ignore[attr-defined]
            self.chat_stop()
            if reveal_at is not None:
                wait = max(0.05, (reveal_at - timezone.now()).total_seconds() + 0.05)
                loop = asyncio.get_running_loop()
                self.reveal_handle = loop.call_later(
                    wait, lambda: loop.create_task(self.watcher_push())
                )
