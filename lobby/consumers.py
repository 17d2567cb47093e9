"""The lobby's live room list: the seated and running counts, pushed when seats or tables change.

Only the counts are pushed (out-of-band swaps by id), never the forms: those carry the
visitor's CSRF token and belong to the page the visitor loaded.
"""

from __future__ import annotations

import asyncio
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games.realtime import LOBBY_GROUP
from lobby import selectors

MIN_INTERVAL = 1.0  # at most one list push per second per socket


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.last_push = 0.0
        self.pending = False
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        return  # the lobby socket only listens

    async def lobby_changed(self, event: dict) -> None:
        wait = self.last_push + MIN_INTERVAL - time.monotonic()
        if wait > 0:
            if self.pending:
                return
            self.pending = True
            await asyncio.sleep(wait)
            self.pending = False
        self.last_push = time.monotonic()
        html = await database_sync_to_async(self._render)()
        await self.send(text_data=html)

    def _render(self) -> str:
        return render_to_string("lobby/_room_counts.html",
                                {"games": selectors.rooms_with_counts()})
