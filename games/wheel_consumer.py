"""大豐收's WebSocket: authenticate, parse, call the wheel service, render. Nothing else.

Client → server (JSON, the htmx ws extension's form of it): ``{"kind": "bet", "object":
"apple", "amount": 100, "round": 12, "action_id": "…"}``, ``{"kind": "resync"}``,
``{"kind": "ping"}``. Server → client: the player's whole board as one fragment with a
top-level id (``#wheel-board``), or JSON with ``?format=json``; errors as ``#wheel-toast``.
Every push carries the round number and version, and is rendered from the database.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games import wheel_selectors
from games.boards import dafengshou as board
from games.consumers import CLOSE_POLICY, CLOSE_UNAUTHORISED, CLOSE_UNKNOWN_TABLE, TokenBucket
from games.engine.errors import IllegalAction
from games.exceptions import TableError
from games.services import wheel_rounds


class WheelConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        self.as_json = "format=json" in self.scope.get("query_string", b"").decode()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        conf = settings.LEYOU
        self.bucket = TokenBucket(conf["WS_RATE_PER_SECOND"], conf["WS_RATE_BURST"])
        self.last = (-1, -1)
        try:
            await database_sync_to_async(wheel_rounds.round_enter)(room_id=self.room_id)
        except wheel_rounds.UnknownWheelRoom:
            await self.close(code=CLOSE_UNKNOWN_TABLE)
            return
        self.group = wheel_rounds.wheel_group(self.room_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._push(fresh=True)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if getattr(self, "closing", False):
            return
        if not self.bucket.take():
            self.closing = True
            await self.close(code=CLOSE_POLICY)
            return
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        try:
            if len(raw.encode()) > settings.LEYOU["WS_MAX_FRAME_BYTES"]:
                raise ValueError("too large")
            message = json.loads(raw)
            if not isinstance(message, dict):
                raise ValueError("not an object")
            kind = message.get("kind")
            if kind == "bet":
                number = message.get("round")
                await database_sync_to_async(wheel_rounds.bet_place)(
                    room_id=self.room_id, user=self.user,
                    round_number=int(number) if number not in (None, "") else None,
                    object=message.get("object"), amount=message.get("amount"),
                    action_id=message.get("action_id"),
                )
            elif kind == "resync":
                await self._push(fresh=True)
            elif kind == "ping":
                await database_sync_to_async(wheel_rounds.round_enter)(room_id=self.room_id)
            else:
                await self._error("malformed", "未知的訊息類型")
        except IllegalAction as error:
            await self._error(str(error.code), error.message)
        except TableError as error:
            await self._error(error.code, error.message)
        except (TypeError, ValueError):
            await self._error("malformed", "訊息格式不正確")

    async def wheel_changed(self, event: dict) -> None:
        if getattr(self, "closing", False) or (event["number"], event["version"]) <= self.last:
            return  # already sent a view at least this new
        await self._push()

    async def _push(self, *, fresh: bool = False) -> None:
        frame, key = await database_sync_to_async(self._render)()
        if frame is None or (key < self.last and not fresh):
            return
        self.last = max(self.last, key)
        await self.send(text_data=frame)

    def _render(self) -> tuple[str | None, tuple[int, int]]:
        view = wheel_selectors.wheel_view(self.room_id, self.user)
        if view is None:
            return None, (-1, -1)
        key = (view["number"], view["version"])
        return (board.render_json(view) if self.as_json else board.render_html(view)), key

    async def _error(self, code: str, message: str) -> None:
        await self.send(text_data=board.render_error(code, message, as_json=self.as_json))
