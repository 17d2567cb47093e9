"""The lobby's live room list: the seated and running counts, pushed when seats or tables change.

A logged-in visitor's sockets also join his own group (``lobby.realtime.user_group``): an
invitation to a friend's table is pushed there at once, and while a socket is open he is
marked 在大廳 for his friends' lists; every ``LEYOU["LOBBY_PRESENCE_SECONDS"]`` his own
friends list is read and pushed (out of band, no form) when it changed.

A logged-in visitor's push on a lobby change (a seat taken or left, a table started or closed,
a watcher come or gone, a player's 允許觀戰 changed) also carries the watch list (觀戰,
``#watch-list``: the running public tables nobody seated refuses to be watched, each with its
watcher count) and, when where his friends are has changed, his friends list; everything is
worded in the visitor's language (his stored choice, else the switch's cookie).

Only the counts are pushed (out-of-band swaps by id), never the forms: those carry the
visitor's CSRF token and belong to the page the visitor loaded.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from accounts import selectors as account_selectors
from accounts import services as account_services
from games.consumers.base import TokenBucket, TrackedSocketMixin, socket_language
from games.exceptions import ReconnectTooSoon, TooManySockets
from games.realtime import LOBBY_GROUP
from lobby import selectors
from lobby.realtime import user_group

logger = logging.getLogger("leyou.lobby")

MIN_INTERVAL = 1.0  # at most one list push per second per socket


class LobbyConsumer(TrackedSocketMixin, AsyncWebsocketConsumer):
    socket_kind = "lobby"

    async def connect(self) -> None:
        self.last_push = 0.0
        self.pending = False
        self.presence_task: asyncio.Task | None = None
        self.friends_html: str | None = None  # the friends list as last rendered
        self.language = socket_language(self.scope)
        conf = settings.LEYOU
        self.bucket = TokenBucket(conf["WS_RATE_PER_SECOND"], conf["WS_RATE_BURST"])
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        try:  # a player's lobby sockets are capped (every process); every one is listed
            await self.socket_open(user)
        except (TooManySockets, ReconnectTooSoon) as error:
            await self.socket_refuse(error)
            return
        self.joined = True
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        if self.user_id is not None:  # his invitations reach every lobby socket of his
            await self.channel_layer.group_add(user_group(self.user_id), self.channel_name)
            self.presence_task = asyncio.ensure_future(self._presence_loop())
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if not getattr(self, "joined", False):
            return  # refused: it joined nothing
        await self.groups_leave(*self.layer_groups())
        if self.user_id is not None:
            if self.presence_task is not None:
                self.presence_task.cancel()
            await database_sync_to_async(account_services.lobby_presence_clear)(self.user_id)

    def layer_groups(self) -> list[str]:
        if not getattr(self, "joined", False):
            return []
        return [LOBBY_GROUP] + ([user_group(self.user_id)] if self.user_id is not None else [])

    async def layer_resync(self) -> None:
        await self.lobby_changed({})

    async def send_error(self, code: str, message: object) -> None:
        """The lobby page has no place for a socket's error: the close code (1008) says it."""

    async def _presence_loop(self) -> None:
        """Mark the player 在大廳 while this socket is open (friends' lists read the mark), and
        push his friends list when where they are has changed since the last look."""
        while True:
            try:
                await database_sync_to_async(account_services.lobby_presence_mark)(self.user_id)
                await self._friends_push()
            except Exception:
                logger.warning("lobby presence beat failed", exc_info=True)
            await asyncio.sleep(settings.LEYOU["LOBBY_PRESENCE_SECONDS"])

    async def _friends_push(self) -> None:
        """Send the friends list when it differs from the last one rendered (the first
        rendering is the page's own: nothing is sent for it)."""
        html = await database_sync_to_async(self._render_friends)()
        if self.friends_html is not None and html != self.friends_html:
            await self.send(text_data=html)
        self.friends_html = html

    def _render_friends(self) -> str:
        from accounts.models import User
        from games.selectors import tables as game_selectors

        user = User.objects.get(pk=self.user_id)
        table = game_selectors.table_for_user(user)
        with translation.override(self.language):
            return render_to_string(
                "lobby/_friend_list.html",
                {
                    "friends": account_selectors.friends_for_user(user),
                    "oob": True,
                    "can_invite": table is not None and table.is_private,
                },
            )

    async def lobby_invitation(self, event: dict) -> None:
        """An invitation to this player: his invitation list, swapped in out of band."""
        html = await database_sync_to_async(self._render_invitations)()
        await self.send(text_data=html)

    def _render_invitations(self) -> str:
        from accounts.models import User

        user = User.objects.get(pk=self.user_id)
        with translation.override(self.language):
            return render_to_string(
                "lobby/_invitations.html",
                {
                    "invitations": account_selectors.invitations_for_user(user),
                    "oob": True,
                },
            )

    async def receive(self, text_data=None, bytes_data=None) -> None:
        """The lobby socket only listens; a client sending past the sockets' frame rate is
        closed 1008 and waits before it may open another (as on a table)."""
        if not self.bucket.take():
            await self.rate_close()

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
        if self.user_id is not None:  # a friend may have sat down, left or begun watching
            await self._friends_push()

    def _render(self) -> str:
        from games.selectors import spectating

        with translation.override(self.language):
            html = render_to_string(
                "lobby/_room_counts.html", {"games": selectors.rooms_with_counts()}
            )
            if self.user_id is not None:  # the watch list is shown to logged-in players
                html += render_to_string(
                    "lobby/_watch_list.html",
                    {"watchable": spectating.tables_watchable(), "oob": True},
                )
        return html
