"""Chat and spectators on the real database (and the Redis throttle): issue 15 §1–§2."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import caches, chat_rendering, rendering
from games.engine import registry
from games.exceptions import TableError
from games.models import (
    ChatMute,
    HandEvent,
    PlayerMute,
    Seat,
    SeatLease,
    Table,
    WatchPreference,
    WordFilter,
)
from games.selectors import chat as chat_selectors
from games.selectors import spectating
from games.selectors import tables as selectors
from games.services import chat, spectators, tables
from games.tests.helpers import current_state
from lobby import services as lobby_services
from lobby.models import Room, room_errors

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The channel-layer messages the services publish, in order."""
    out: list[tuple[str, dict]] = []
    monkeypatch.setattr(
        "games.realtime.publish", lambda group, message: out.append((group, message))
    )
    return out


def _full_table(room, make_user):
    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    return Table.objects.get(pk=table.pk), users


def _private_table(room, make_user):
    owner = make_user(beans=5000)
    table = lobby_services.private_create(user=owner, room_id=room.pk)
    return table, owner


def _refused(code: str, **kwargs) -> TableError:
    with pytest.raises(TableError) as caught:
        chat.chat_send(**kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


def _chats(sent) -> list[dict]:
    return [m for _, m in sent if m["type"] == "table.chat"]


def test_a_phrase_is_broadcast_and_never_enters_the_event_log(room, make_user, sent):
    """A seated player's quick phrase goes to the table group; no HandEvent, no seq moves."""
    table, users = _full_table(room, make_user)
    events, seq = HandEvent.objects.count(), Table.objects.get(pk=table.pk).seq
    bubble = chat.chat_send(table_id=table.pk, user=users[1], phrase="hurry")
    assert (bubble.seat, bubble.kind, bubble.value) == (1, "phrase", "hurry")
    assert _chats(sent) == [bubble.message()]
    assert sent[-1][0] == f"table.{table.pk}"
    assert HandEvent.objects.count() == events
    assert Table.objects.get(pk=table.pk).seq == seq
    html = chat_rendering.bubble_frame(bubble.message(), "doudizhu", mine=False, as_json=False)
    assert "快點吧，我等到花兒都謝了" in html and 'data-seat="1"' in html


def test_throttle_per_user_refuses_and_a_refusal_does_not_use_the_turn(room, make_user, sent):
    """One message per chat_throttle_seconds per user; a bad message does not count."""
    room.extra = {**room.extra, "chat_throttle_seconds": 1}
    room.save()
    table, users = _full_table(room, make_user)
    _refused("unknown_phrase", table_id=table.pk, user=users[0], phrase="no_such_phrase")
    chat.chat_send(table_id=table.pk, user=users[0], emote="smile")
    error = _refused("chat_too_fast", table_id=table.pk, user=users[0], phrase="hello")
    assert "1 秒" in error.message
    chat.chat_send(table_id=table.pk, user=users[1], phrase="hello")  # another user is free
    time.sleep(1.1)
    chat.chat_send(table_id=table.pk, user=users[0], phrase="hello")
    assert [m["user_id"] for m in _chats(sent)] == [users[0].pk, users[1].pk, users[0].pk]


def test_bad_chat_is_refused_with_a_code_and_publishes_nothing(room, make_user, sent):
    """Unknown phrase/emote, a watcher speaking, two kinds at once: clear errors, no broadcast."""
    table, users = _full_table(room, make_user)
    watcher = make_user(beans=100)
    _refused("unknown_emote", table_id=table.pk, user=users[0], emote="nope")
    _refused("not_seated", table_id=table.pk, user=watcher, phrase="hurry")
    _refused("malformed", table_id=table.pk, user=users[0], phrase="hurry", emote="smile")
    _refused("text_private_only", table_id=table.pk, user=users[0], text="hi")
    with pytest.raises(TableError):
        chat.chat_send(table_id=10**9, user=users[0], phrase="hurry")
    assert _chats(sent) == []


def test_free_text_only_at_private_tables_limited_filtered_and_escaped(room, make_user, sent):
    """Private table: text is NFKC-normalised, masked or blocked by the word filter, length
    limited, and escaped in the bubble."""
    table, owner = _private_table(room, make_user)
    WordFilter.objects.create(word="笨蛋", action=WordFilter.Action.MASK)
    WordFilter.objects.create(word="BADWORD", action=WordFilter.Action.BLOCK)
    _refused("text_blocked", table_id=table.pk, user=owner, text="you ｂａｄｗｏｒｄ!")
    _refused("text_too_long", table_id=table.pk, user=owner, text="長" * 41)
    _refused("text_empty", table_id=table.pk, user=owner, text="   ")
    bubble = chat.chat_send(table_id=table.pk, user=owner, text="<script>x</script> 你這笨蛋")
    assert bubble.value == "<script>x</script> 你這＊＊"
    html = chat_rendering.bubble_frame(bubble.message(), table.game, mine=True, as_json=False)
    assert "<script>" not in html and "&lt;script&gt;x&lt;/script&gt; 你這＊＊" in html
    assert "chat-mute" not in html  # no mute button on one's own bubble
    assert len(_chats(sent)) == 1


def test_staff_mute_refuses_until_its_time_and_says_so(room, make_user, sent):
    """A user muted by staff is told until when; an expired mute no longer applies."""
    table, users = _full_table(room, make_user)
    mute = ChatMute.objects.create(
        user=users[2], until=timezone.now() + timedelta(hours=1), reason="洗版"
    )
    error = _refused("chat_muted", table_id=table.pk, user=users[2], emote="cry")
    assert "禁言至" in error.message and "洗版" in error.message
    ChatMute.objects.filter(pk=mute.pk).update(until=timezone.now() - timedelta(seconds=1))
    chat.chat_send(table_id=table.pk, user=users[2], emote="cry")
    assert len(_chats(sent)) == 1


def test_player_mute_is_for_oneself_and_bad_targets_change_nothing(make_user, sent):
    """a mutes b: hidden for a only; muting oneself or nobody is refused; unmute restores."""
    a, b, c = make_user(), make_user(), make_user()
    assert chat.player_mute_set(owner=a, muted_id=b.pk, on=True, table_id=None)
    assert not chat.player_mute_set(owner=a, muted_id=b.pk, on=True)  # already
    assert chat.is_hidden_for(a, b) and not chat.is_hidden_for(b, a)
    assert not chat.is_hidden_for(c, b)
    assert chat.hidden_speakers_for(a.pk) == frozenset({b.pk})
    for target, code in ((a.pk, "mute_self"), (10**9, "unknown_player")):
        with pytest.raises(TableError) as caught:
            chat.player_mute_set(owner=a, muted_id=target, on=True)
        assert caught.value.code == code
    assert PlayerMute.objects.count() == 1
    assert chat_selectors.muted_users_for(a.pk) == [{"user_id": b.pk, "name": str(b)}]
    assert chat.player_mute_set(owner=a, muted_id=b.pk, on=False)
    assert not chat.is_hidden_for(a, b)


def test_watching_off_refuses_watchers_and_hides_the_table_from_the_lobby(
    room, make_user, sent, django_capture_on_commit_callbacks
):
    """A seated player turning 允許觀戰 off closes his table to watchers, at once."""
    table, users = _full_table(room, make_user)
    assert spectating.watching_allowed(table.pk)
    assert table.pk in [t["id"] for t in spectating.tables_watchable()]
    with django_capture_on_commit_callbacks(execute=True):
        spectators.watching_set(user=users[1], allow=False)
    assert not spectating.watching_allowed(table.pk)
    assert not spectating.watch_preference(users[1])
    assert table.pk not in [t["id"] for t in spectating.tables_watchable()]
    assert (f"table.{table.pk}", {"type": "table.watch_closed"}) in sent
    spectators.watching_set(user=users[1], allow=True)
    assert spectating.watching_allowed(table.pk)
    assert WatchPreference.objects.get(user=users[1]).allow_watching


def test_watcher_count_counts_unseated_users_with_a_socket(room, make_user, sent):
    """Watchers are users with a lease at the table and no seat (one per user); the count goes
    to the table's sockets and the lobby is told (its watch list shows the count)."""
    table, users = _full_table(room, make_user)
    watcher = make_user()
    now = timezone.now()
    for key, user in (("a", users[0]), ("b", watcher), ("c", watcher)):
        SeatLease.objects.create(key=key, table=table, user=user, process="p", renewed_at=now)
    assert spectating.watchers_count(table.pk) == 1
    assert spectators.watchers_announce(table_id=table.pk) == 1
    assert (f"table.{table.pk}", {"type": "table.watchers", "count": 1}) in sent
    assert sent[-1] == ("lobby", {"type": "lobby.changed"})  # the lobby's watch list shows it
    assert [t["watchers"] for t in spectating.tables_watchable() if t["id"] == table.pk] == [1]


def _drive(table_id: int, moves: int) -> None:
    for _ in range(moves):
        table, hand, state = current_state(table_id)
        index = min(registry.get(hand.game).to_act(state))
        Seat.objects.filter(table=table, index=index).update(deadline=timezone.now())
        tables.due_seat_act(table_id=table_id, seat_index=index)


def test_bean_room_watchers_see_one_turn_late_or_after_the_seconds(room, make_user, sent):
    """Default one turn or 15 s: the last move is hidden until a later move or 15 s pass."""
    table, _users = _full_table(room, make_user)
    _drive(table.pk, 3)
    live = selectors.table_snapshot(table.pk)
    late, reveal_at = spectating.spectator_snapshot(table.pk)
    events = list(HandEvent.objects.filter(table=table).order_by("seq"))
    assert late["delayed"] and late["table"]["seq"] == events[-2].seq < live["table"]["seq"]
    assert reveal_at == events[-1].created_at + timedelta(seconds=15)
    ruleset = registry.get("doudizhu")
    # the state shown is the log's state after the events shown (re-derived from the seed)
    config = ruleset.config_from_params(events[0].hand.params)
    state = ruleset.new_game(config, events[0].hand.seed, 3)
    for event in events[:-1]:
        ruleset.apply(state, event.seat, event.action)
    assert late["hand"]["state"] == ruleset.state_to_json(state)
    later, _ = spectating.spectator_snapshot(table.pk, now=timezone.now() + timedelta(seconds=16))
    assert "delayed" not in later and later["table"]["seq"] == live["table"]["seq"]
    room.extra = {"spectator_delay_turns": 0, "spectator_delay_seconds": 0}
    Table.objects.filter(pk=table.pk).update(params={**live["table"]["params"], **room.extra})
    assert "delayed" not in spectating.spectator_snapshot(table.pk)[0]


def test_rooms_without_beans_are_not_delayed(room, make_user):
    """Only bean rooms (房間係數 N > 0) delay the watchers."""
    assert spectating.spectator_delay({"factor": 0}) == (0, 0)
    assert spectating.spectator_delay({"factor": 10}) == (1, 15)
    assert spectating.spectator_delay({"factor": 10, "spectator_delay_turns": 2}) == (2, 15)


def _no_clock(html: str) -> str:
    return re.sub(r'data-now="[^"]*"', "", html)


def test_spectator_html_has_no_concealed_card(room, make_user):
    """No-leak: re-deal what any seat cannot see; the spectator's HTML does not change."""
    table, _users = _full_table(room, make_user)
    _drive(table.pk, 2)
    snapshot = selectors.table_snapshot(table.pk)
    ruleset = registry.get("doudizhu")
    state = ruleset.state_from_json(snapshot["hand"]["state"])
    viewer = make_user()
    caches.clear_all()
    base = _no_clock(rendering.render_html(snapshot, None, viewer))
    for seat in range(3):
        other = ruleset.resample_hidden(state, seat, f"leak:{seat}")
        assert ruleset.state_to_json(other) != snapshot["hand"]["state"]  # cards did move
        changed = {**snapshot, "hand": {**snapshot["hand"], "state": ruleset.state_to_json(other)}}
        caches.clear_all()
        assert _no_clock(rendering.render_html(changed, None, viewer)) == base
    caches.clear_all()


def test_room_form_checks_the_shared_chat_and_spectator_params(make_user):
    """The shared params are declared for every table game and checked on their field."""
    for game in ("doudizhu", "zhajinhua", "paohuzi", "mahjong_huanle"):
        names = [p.name for p in registry.get(game).room_params]
        assert {
            "chat_throttle_seconds",
            "spectator_chat_hidden",
            "spectator_delay_turns",
            "spectator_delay_seconds",
        } <= set(names)
    room = Room(
        name="x", game="doudizhu", variant="classic", seats=3, extra={"chat_throttle_seconds": 0}
    )
    assert "chat_throttle_seconds" in room_errors(room)
    room.extra = {"spectator_delay_seconds": 301}
    assert "spectator_delay_seconds" in room_errors(room)


def test_operators_edit_the_word_filter_and_mute_a_user_in_the_admin(admin_client, make_user):
    """The admin adds a 屏蔽詞 and a 禁言 (its author recorded); the lists show them."""
    from django.contrib.auth import get_user_model

    target = make_user()
    response = admin_client.post(
        "/admin/games/wordfilter/add/", {"word": "作弊", "action": "block", "is_active": "on"}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert WordFilter.objects.get(word="作弊").action == "block"
    until = timezone.localtime(timezone.now() + timedelta(hours=2))
    response = admin_client.post(
        "/admin/games/chatmute/add/",
        {
            "user": target.pk,
            "until_0": until.strftime("%Y-%m-%d"),
            "until_1": until.strftime("%H:%M:%S"),
            "reason": "辱罵",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    mute = ChatMute.objects.get(user=target)
    assert mute.created_by == get_user_model().objects.get(username="admin")
    assert chat.mute_active(target.pk) == mute
    for url in (
        "/admin/games/wordfilter/",
        "/admin/games/chatmute/",
        "/admin/games/playermute/",
        "/admin/games/watchpreference/",
    ):
        assert admin_client.get(url).status_code == 200


def test_a_hall_block_hides_the_blocked_players_chat(make_user):
    """封鎖 in the hall (accounts.services.block_create) hides the blocked user's chat from
    the blocker only (``is_hidden_for``), like a table mute."""
    from accounts import services as account_services

    a, b = make_user(), make_user()
    assert not chat.is_hidden_for(a, b)
    account_services.block_create(user=a, other_id=b.pk)
    assert chat.is_hidden_for(a, b) and not chat.is_hidden_for(b, a)
