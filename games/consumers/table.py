"""The table's WebSocket: authenticate, parse, call one table service, render. Nothing else.

Client → server frames are JSON (the htmx ws extension's form of them):
``{"kind": "move", "action": {...}, "seq": 12, "action_id": "…"}``, ``{"kind": "resync"}``,
``{"kind": "auto", "on": true}``, ``{"kind": "leave"}``, ``{"kind": "ready"}`` (繼續 between
hands), ``{"kind": "bots"}``; chat and
spectator frames (``chat``, ``mute``, ``watching``) go to ``games.consumers.chat``.
Server → client frames are HTML fragments with top-level ids (swapped out of band by htmx), or
JSON (``?format=json``, for scripted clients and benchmarks) — both rendered from the same
per-seat view. Every push carries the table's ``seq``.
"""

from __future__ import annotations

import json
import time

from channels.consumer import get_handler_name
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import frames, presence_server, realtime, rendering
from games.consumers.base import (
    CLOSE_UNAUTHORISED,
    CLOSE_UNKNOWN_TABLE,
    LimitedJsonConsumer,
    TokenBucket,
    db,
)
from games.consumers.chat import CHAT_KINDS, ChatSpectatorMixin  # chat and spectators
from games.engine.errors import IllegalAction
from games.exceptions import (
    ReconnectTooSoon,
    StaleSeq,
    TableError,
    TooManySockets,
    UnknownTable,
)
from games.selectors import hands as hand_selectors
from games.selectors import tables as table_selectors
from games.services import between, items, presence, seating, spectators, tables
from ops import metrics


def _access(scope: dict, user, table_id: int) -> str | None:
    """``table_selectors.table_access`` with the invite codes this socket's session presented."""
    session = scope.get("session")
    codes = session.get(table_selectors.INVITE_CODES_KEY, []) if session is not None else []
    return table_selectors.table_access_by_id(user=user, table_id=table_id, codes=codes)


RESYNC_FRESH_SECONDS = 1.0


class TableConsumer(ChatSpectatorMixin, LimitedJsonConsumer):
    kinds = frames.TABLE_KINDS
    socket_kind = "table"
    resynced_at = -1e9

    async def dispatch(self, message: dict) -> None:
        """Channels' dispatch without its per-message ``close_old_connections`` hop.

        Stock Channels runs ``close_old_connections`` on the database thread before every
        handler: one extra hop per frame per socket, queued behind the process's moves. Every
        handler here that touches the database does so through ``database_sync_to_async``,
        which closes old connections itself, and a pushed snapshot is rendered without the
        database at all.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except Exception:
            # a handler that raises ends the socket without disconnect(): give its lease up
            if getattr(self, "group", None) and not getattr(self, "lease_gone", False):
                self.lease_gone = True
                presence_server.socket_remove(self.lease_key)
                await db(presence.connection_close)(
                    table_id=self.table_id, user=self.user, lease_key=self.lease_key
                )
            raise

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        query = self.scope.get("query_string", b"").decode()
        self.as_json = "format=json" in query
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        self.lease_key = presence.lease_key_new()
        try:  # the user's cap over every table and his wait after a rate close, before any
            # database work; listed before the lease is taken
            await self.socket_open(self.user, self.lease_key)
        except (TooManySockets, ReconnectTooSoon) as error:
            await self.socket_refuse(error)
            return
        access = await db(_access)(self.scope, self.user, self.table_id)
        if access is None:
            await self.socket_untrack()
            await self.close(code=CLOSE_UNKNOWN_TABLE)  # a private table is not shown to be there
            return
        self.limits_set()
        # chat and spectators: a watcher is refused while a seated player disallows watching
        self.chat_init(access)
        may_watch, self.late, self.hidden = await db(self.watch_terms)()
        if not may_watch:
            await self.socket_untrack()
            await self.accept()
            await self.watching_refuse()
            return
        self.last_seq = -1
        away = await db(hand_selectors.away_summary)(user=self.user, table_id=self.table_id)
        try:
            await db(presence.connection_open)(
                table_id=self.table_id,
                user=self.user,
                lease_key=self.lease_key,
                listed=presence_server.socket_listed,  # only this process's open sockets count
            )
            self.lease_taken = True  # the heartbeat may now miss it
        except UnknownTable:
            await self.socket_untrack()
            await self.close(code=CLOSE_UNKNOWN_TABLE)
            return
        except (TooManySockets, ReconnectTooSoon) as error:  # caps, or a wait after 1008
            await self.socket_refuse(error)
            return
        conf = settings.LEYOU
        self.user_bucket = presence_server.user_bucket(
            self.user.pk,
            lambda: TokenBucket(conf["WS_USER_RATE_PER_SECOND"], conf["WS_USER_RATE_BURST"]),
        )
        self.group = realtime.table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._push_snapshot(fresh=True)
        if away is not None and not self.as_json:  # back: what 托管 did while he was away
            with translation.override(self.language):
                await self.send(text_data=rendering.render_away(away["hands"], away["beans"]))
        if self.watching:  # chat and spectators: the table shows how many watch
            await db(spectators.watchers_announce)(table_id=self.table_id)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None) and not getattr(self, "lease_gone", False):
            self.lease_gone = True
            presence_server.socket_remove(self.lease_key)
            presence_server.user_bucket_release(self.user.pk)
            await self.groups_leave(self.group)  # with Redis down, the lease still goes
            await db(presence.connection_close)(
                table_id=self.table_id, user=self.user, lease_key=self.lease_key
            )
            self.chat_stop()  # chat and spectators
            if self.watching:
                await db(spectators.watchers_announce)(table_id=self.table_id)

    def layer_groups(self) -> list[str]:
        return [self.group] if getattr(self, "group", None) else []

    async def layer_resync(self) -> None:
        if getattr(self, "group", None) and not self.closing:
            await self._push_snapshot(fresh=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = await self.frame_parse(text_data, bytes_data)
        if message is None:
            return
        kind = message.get("kind")
        try:
            if kind == "move":
                move = frames.move_fields(message)
                await db(metrics.timed("move", tables.move_submit))(
                    table_id=self.table_id,
                    user=self.user,
                    action=move.action,
                    expected_seq=move.seq,
                    action_id=move.action_id,
                )
            elif kind == "resync":
                # a fresh read at most once a second per socket; a client asking more often
                # gets this process's latest snapshot (a flood of resyncs costs no database)
                now = time.monotonic()
                fresh = now - self.resynced_at >= RESYNC_FRESH_SECONDS
                if fresh:
                    self.resynced_at = now
                await self._push_snapshot(fresh=fresh)
            elif kind == "auto":
                await db(tables.auto_set)(
                    table_id=self.table_id, user=self.user, on=frames.flag_field(message, "on")
                )
            elif kind == "leave":
                await db(seating.seat_leave)(table_id=self.table_id, user=self.user)
            elif kind == "ready":
                await db(between.seat_ready)(table_id=self.table_id, user=self.user)
            elif kind == "counter_buy":
                await db(items.counter_buy)(table_id=self.table_id, user=self.user)
            elif kind == "bots":
                await db(seating.bots_fill)(table_id=self.table_id, by_user=self.user)
            elif kind in CHAT_KINDS:  # chat and spectators (games.consumers.chat)
                await self.chat_receive(kind, message)
        except frames.FrameError as error:
            await self.send_error(error.code, error.message)
        except IllegalAction as error:
            await self.send_error(str(error.code), self.illegal_worded(error))
        except (TypeError, ValueError):
            await self.send_error("malformed", _("訊息格式不正確"))
        except StaleSeq as error:
            await self.send_error(error.code, error.message)
            if error.seq is not None:  # this process's snapshot will do if it is that new
                await self._push_snapshot(at_least=error.seq)
            else:
                await self._push_snapshot(fresh=True)
        except TableError as error:
            await self.send_error(error.code, error.message)
        except Exception as error:  # noqa: BLE001 — see frame_failed
            await self.frame_failed(error)

    async def table_balances(self, event: dict) -> None:
        """The settlement moved the players' beans: this player's page updates its top bar."""
        beans = (event.get("balances") or {}).get(str(self.user.pk))
        if beans is not None and not self.as_json and not getattr(self, "closing", False):
            await self.send(text_data=rendering.render_balance(int(beans)))

    async def table_changed(self, event: dict) -> None:
        if getattr(self, "closing", False):
            return
        if self.late:  # chat and spectators: a watcher of a bean room sees the table late
            await self.watcher_push()
            return
        if event["seq"] <= self.last_seq:
            return  # already sent a snapshot at least this new
        encoded = event.get("snapshot")
        if encoded is None:  # a broadcast without its snapshot: read the table
            await self._push_snapshot(at_least=event["seq"])
            return
        # The writer's snapshot, decoded once per process: render this seat's view from it on
        # the event loop (pure CPU, no database, no thread hop).
        snapshot = table_selectors.table_snapshot_pushed(self.table_id, event["seq"], encoded)
        frame, seq = self._render_snapshot(snapshot)
        if frame is not None and seq > self.last_seq:
            self.last_seq = seq
            await self.send(text_data=frame)

    async def _push_snapshot(self, *, at_least: int = -1, fresh: bool = False) -> None:
        if self.late:  # chat and spectators: a watcher of a bean room sees the table late
            await self.watcher_push()
            return
        cached = None if fresh else table_selectors.table_snapshot_in_cache(self.table_id, at_least)
        if cached is not None:  # this process already holds a snapshot that new
            frame, seq = self._render_snapshot(cached)
        else:
            frame, seq = await db(self._render)(at_least, fresh)
        if frame is None or seq < self.last_seq:
            return
        self.last_seq = seq
        await self.send(text_data=frame)

    def _render(self, at_least: int, fresh: bool) -> tuple[str | None, int]:
        # One database read per process and change: the sockets of a table share the snapshot;
        # a (re)connect or resync reads afresh.
        snapshot = table_selectors.table_snapshot_cached(self.table_id, None if fresh else at_least)
        return self._render_snapshot(snapshot)

    def _render_snapshot(self, snapshot: dict | None) -> tuple[str | None, int]:
        if snapshot is None:
            return None, -1
        seat = table_selectors.seat_in_snapshot(snapshot, self.user.pk)
        if not self.watcher_seen(snapshot, seat):  # chat and spectators: a late watcher
            return None, -1
        if self.as_json:
            return rendering.render_json(snapshot, seat, self.user), snapshot["table"]["seq"]
        with translation.override(self.language):  # each socket renders in its player's language
            return rendering.render_html(snapshot, seat, self.user), snapshot["table"]["seq"]

    async def send_error(self, code: str, message: object) -> None:
        message = self.worded(message)
        if self.as_json:
            await self.send(
                text_data=json.dumps(
                    {"type": "error", "code": code, "message": message}, ensure_ascii=False
                )
            )
        else:
            await self.send(text_data=rendering.render_error(code, message))
