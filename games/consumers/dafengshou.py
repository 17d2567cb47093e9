"""大豐收's WebSocket: authenticate, parse, call the 大豐收 service, render. Nothing else.

Client → server (JSON, the htmx ws extension's form of it): ``{"kind": "bet", "object":
"apple", "amount": 100, "round": 12, "action_id": "…"}``, ``{"kind": "resync"}``,
``{"kind": "ping"}``. Server → client: the player's whole board as one fragment with a
top-level id (``#wheel-board``), or JSON with ``?format=json``; errors as ``#wheel-toast``.
A phase change (``dafengshou.changed``) and the bettor's own accepted bet push the whole board,
rendered from the database for this player. Other players' bets (``dafengshou.bet``) push only
the public totals (``#wheel-total-<crop>``, ``#wheel-round-total``, ``#wheel-bettors``, or
``{"type": "totals"}``), rendered from the message with no database read and coalesced to
at most one frame per ``TOTALS_INTERVAL`` per socket, so a busy room costs each socket a few
small frames a second. Every push carries the round number and version; nothing older than
what the socket already has is sent.
"""

from __future__ import annotations

import asyncio
import time

from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import frames, realtime
from games.boards import dafengshou as board
from games.consumers.base import CLOSE_UNAUTHORISED, CLOSE_UNKNOWN_TABLE, LimitedJsonConsumer
from games.engine.errors import IllegalAction
from games.exceptions import (
    ReconnectTooSoon,
    TableError,
    TooManySockets,
    UnknownDafengshouRoom,
)
from games.selectors import dafengshou as dafengshou_selectors
from games.services import dafengshou

TOTALS_INTERVAL = 0.3  # seconds: at most about three totals frames a second per socket
PING_ENTER_SECONDS = 5.0  # a ping marks the room watched at most this often per socket


class DafengshouConsumer(LimitedJsonConsumer):
    kinds = frames.DAFENGSHOU_KINDS
    socket_kind = "wheel"
    entered_at = -1e9

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        self.as_json = "format=json" in self.scope.get("query_string", b"").decode()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        self.limits_set()
        self.last = (-1, -1)
        self.totals_pending: dict | None = None
        self.totals_task: asyncio.Task | None = None
        self.totals_sent_at = 0.0
        try:
            await database_sync_to_async(dafengshou.round_enter)(room_id=self.room_id)
            self.entered_at = time.monotonic()
        except UnknownDafengshouRoom:
            await self.close(code=CLOSE_UNKNOWN_TABLE)
            return
        try:  # the user's cap of 大豐收 sockets, and no reopening at once after a rate close
            await self.socket_open(self.user)
        except (TooManySockets, ReconnectTooSoon) as error:
            await self.socket_refuse(error)
            return
        self.group = realtime.dafengshou_group(self.room_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._push(fresh=True)

    async def disconnect(self, code: int) -> None:
        task = getattr(self, "totals_task", None)
        if task is not None:
            task.cancel()
        if getattr(self, "group", None):
            await self.groups_leave(self.group)

    def layer_groups(self) -> list[str]:
        return [self.group] if getattr(self, "group", None) else []

    async def layer_resync(self) -> None:
        if getattr(self, "group", None) and not self.closing:
            await self._push(fresh=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = await self.frame_parse(text_data, bytes_data)
        if message is None:
            return
        try:
            kind = message.get("kind")
            if kind == "bet":
                bet = frames.bet_fields(message)
                await database_sync_to_async(dafengshou.bet_place)(
                    room_id=self.room_id,
                    user=self.user,
                    round_number=bet.round_number,
                    object=bet.object,
                    amount=bet.amount,
                    action_id=bet.action_id,
                )
                await self._push_own()  # the bettor's own chips, stake and balance at once
            elif kind == "resync":
                await self._push(fresh=True)
            elif kind == "ping":  # keeps the room's round going: a write at most every 5 s
                if time.monotonic() - self.entered_at >= PING_ENTER_SECONDS:
                    self.entered_at = time.monotonic()
                    await database_sync_to_async(dafengshou.round_enter)(room_id=self.room_id)
        except frames.FrameError as error:
            await self.send_error(error.code, error.message)
        except IllegalAction as error:
            await self.send_error(str(error.code), self.illegal_worded(error))
        except TableError as error:
            await self.send_error(error.code, error.message)
        except (TypeError, ValueError):
            await self.send_error("malformed", _("訊息格式不正確"))
        except Exception as error:  # noqa: BLE001 — see frame_failed
            await self.frame_failed(error)

    async def dafengshou_changed(self, event: dict) -> None:
        if getattr(self, "closing", False) or (event["number"], event["version"]) <= self.last:
            return  # already sent a view at least this new
        await self._push()

    async def dafengshou_bet(self, event: dict) -> None:
        """Someone's bet: queue the round's public totals; send them at most every interval."""
        if getattr(self, "closing", False):
            return
        key = (event["number"], event["version"])
        if key <= self.last:
            return
        if event["number"] != self.last[0]:
            await self._push()  # a round this socket has not seen: the whole board first
            return
        if self.totals_pending is None or key > (
            self.totals_pending["number"],
            self.totals_pending["version"],
        ):
            self.totals_pending = event
        if self.totals_task is None or self.totals_task.done():
            self.totals_task = asyncio.ensure_future(self._totals_flush())

    async def _totals_flush(self) -> None:
        wait = self.totals_sent_at + TOTALS_INTERVAL - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)  # bets arriving meanwhile only replace the pending totals
        event, self.totals_pending = self.totals_pending, None
        if event is None or getattr(self, "closing", False):
            return
        key = (event["number"], event["version"])
        if key <= self.last or event["number"] != self.last[0]:
            return  # a whole board at least this new went out meanwhile
        self.last = key
        self.totals_sent_at = time.monotonic()
        self.totals_sent = event
        with translation.override(self.language):
            frame = board.render_totals(event, as_json=self.as_json)
        await self.send(text_data=frame)

    async def _push_own(self) -> None:
        """After this player's bet: his board, even if newer totals went out meanwhile."""
        before = self.last
        key = await self._push(fresh=True)
        sent = getattr(self, "totals_sent", None)
        if (
            key is not None
            and key < before
            and sent is not None
            and (sent["number"], sent["version"]) == before
        ):
            # the board was read before a later bet's totals: put those back on top
            with translation.override(self.language):
                frame = board.render_totals(sent, as_json=self.as_json)
            await self.send(text_data=frame)

    async def _push(self, *, fresh: bool = False) -> tuple[int, int] | None:
        frame, key = await database_sync_to_async(self._render)()
        if frame is None or (key < self.last and not fresh):
            return None
        self.last = max(self.last, key)
        await self.send(text_data=frame)
        return key

    def _render(self) -> tuple[str | None, tuple[int, int]]:
        view = dafengshou_selectors.dafengshou_view(self.room_id, self.user)
        if view is None:
            return None, (-1, -1)
        key = (view["number"], view["version"])
        if self.as_json:
            return board.render_json(view), key
        with translation.override(self.language):  # rendered in this player's language
            return board.render_html(view), key

    async def send_error(self, code: str, message: object) -> None:
        await self.send(
            text_data=board.render_error(code, self.worded(message), as_json=self.as_json)
        )
