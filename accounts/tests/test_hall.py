"""Friends, block, privacy, daily check-in and tasks on the real database (issue #15 §3, §5)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from accounts import selectors, services
from accounts.exceptions import AlreadyCheckedIn, FollowRefused, TaskNotClaimable, UnknownUser
from accounts.models import (
    Block,
    Checkin,
    CheckinReward,
    Follow,
    Invitation,
    PresenceVisibility,
    Standing,
    TaskDefinition,
    TaskProgress,
)
from games.models import Hand, HandSeat, Seat
from games.services import settlement
from games.tests.test_tables_service import _full_table, _play_out
from ledger.models import Transfer
from ledger.selectors import balance_for_user, ledger_drift
from lobby import services as lobby_services
from lobby.exceptions import UnknownInvite

pytestmark = pytest.mark.django_db


# -- friends ----------------------------------------------------------------------------------


def test_follow_and_unfollow_and_bad_targets_change_nothing(make_user):
    """Following twice makes one row; self, bots and unknown ids are refused with no row."""
    a, b = make_user(), make_user()
    services.follow_create(user=a, other_id=b.pk)
    services.follow_create(user=a, other_id=str(b.pk))
    assert Follow.objects.filter(follower=a, followee=b).count() == 1
    with pytest.raises(FollowRefused):
        services.follow_create(user=a, other_id=a.pk)
    with pytest.raises(UnknownUser):
        services.follow_create(user=a, other_id="999999999")
    with pytest.raises(UnknownUser):
        services.follow_create(user=a, other_id="x'; drop")
    b.is_bot = True
    b.save()
    c = make_user()
    c.is_bot = True
    c.save()
    with pytest.raises(FollowRefused):
        services.follow_create(user=a, other_id=c.pk)
    assert Follow.objects.count() == 1
    assert services.follow_delete(user=a, other_id=b.pk) is True
    assert services.follow_delete(user=a, other_id=b.pk) is False
    assert Follow.objects.count() == 0


def test_block_stops_invitations_and_is_what_chat_asks(make_user, room):
    """A blocked player cannot invite (clear error, no row); is_blocked says so; his follow and
    pending invitations to the blocker end."""
    owner, friend = make_user(beans=5000), make_user(beans=5000)
    services.follow_create(user=owner, other_id=friend.pk)
    services.follow_create(user=friend, other_id=owner.pk)
    lobby_services.private_create(user=owner, room_id=room.pk)
    pending = lobby_services.invitation_send(user=owner, recipient_id=friend.pk)
    services.block_create(user=friend, other_id=owner.pk)
    assert selectors.is_blocked(friend, owner) is True
    assert selectors.is_blocked(owner, friend) is False
    assert not Follow.objects.filter(follower=owner, followee=friend).exists()
    pending.refresh_from_db()
    assert pending.status == Invitation.Status.DECLINED
    services.follow_create(user=owner, other_id=friend.pk)  # he may still follow
    with pytest.raises(UnknownInvite) as error:
        lobby_services.invitation_send(user=owner, recipient_id=friend.pk)
    assert error.value.code == "invite_refused"
    assert Invitation.objects.filter(status=Invitation.Status.PENDING).count() == 0
    assert selectors.invitations_for_user(friend) == []
    services.block_delete(user=friend, other_id=owner.pk)
    assert selectors.is_blocked(friend, owner) is False


def test_invitation_needs_a_followed_player_and_a_private_table(make_user, room):
    """Inviting someone you do not follow, or from no private table, is refused; nothing
    written. Accepting takes the seat once; another player cannot accept it."""
    owner, friend, stranger = make_user(beans=5000), make_user(beans=5000), make_user()
    with pytest.raises(UnknownInvite) as error:
        lobby_services.invitation_send(user=owner, recipient_id=friend.pk)
    assert error.value.code == "not_following"
    services.follow_create(user=owner, other_id=friend.pk)
    with pytest.raises(UnknownInvite) as error:
        lobby_services.invitation_send(user=owner, recipient_id=friend.pk)
    assert error.value.code == "no_private_table"
    with pytest.raises(UnknownInvite):
        lobby_services.invitation_send(user=owner, recipient_id=owner.pk)
    assert Invitation.objects.count() == 0
    table = lobby_services.private_create(user=owner, room_id=room.pk)
    invitation = lobby_services.invitation_send(user=owner, recipient_id=friend.pk)
    again = lobby_services.invitation_send(user=owner, recipient_id=friend.pk)
    assert again.pk == invitation.pk and Invitation.objects.count() == 1
    with pytest.raises(UnknownInvite):
        lobby_services.invitation_accept(user=stranger, invitation_id=invitation.pk)
    with pytest.raises(UnknownInvite):
        lobby_services.invitation_accept(user=friend, invitation_id="nope")
    joined = lobby_services.invitation_accept(user=friend, invitation_id=invitation.pk)
    assert joined.pk == table.pk
    assert Seat.objects.get(user=friend).table_id == table.pk
    with pytest.raises(UnknownInvite):
        lobby_services.invitation_accept(user=friend, invitation_id=invitation.pk)
    assert Seat.objects.filter(user=friend).count() == 1


def test_friends_list_shows_where_a_friend_is_only_as_his_setting_allows(make_user, room):
    """Default (friends): only a mutual follower sees him at his table; 'followers': anyone
    following; 'nobody' and a block hide it. The lobby mark shows 在大廳."""
    viewer, friend = make_user(beans=5000), make_user(beans=5000)
    services.follow_create(user=viewer, other_id=friend.pk)
    lobby_services.quick_join(user=friend, room_id=room.pk)

    def seen():
        (row,) = selectors.friends_for_user(viewer)
        return row["presence"]["kind"]

    assert seen() == "hidden"  # he does not follow the viewer back
    services.follow_create(user=friend, other_id=viewer.pk)
    assert seen() == "table"
    services.privacy_set(user=friend, presence=PresenceVisibility.NOBODY)
    assert seen() == "hidden"
    services.follow_delete(user=friend, other_id=viewer.pk)
    services.privacy_set(user=friend, presence=PresenceVisibility.FOLLOWERS)
    assert seen() == "table"
    with pytest.raises(services.AccountError):
        services.privacy_set(user=friend, presence="everyone-and-their-dog")
    assert selectors.presence_setting(friend.pk) == PresenceVisibility.FOLLOWERS
    Seat.objects.filter(user=friend).update(user=None)
    assert seen() == "offline"
    services.lobby_presence_mark(friend.pk)
    assert seen() == "lobby"
    services.lobby_presence_clear(friend.pk)
    assert seen() == "offline"
    Block.objects.create(blocker=friend, blocked=viewer)
    services.lobby_presence_mark(friend.pk)
    assert seen() == "hidden"
    services.lobby_presence_clear(friend.pk)


# -- check-in ---------------------------------------------------------------------------------


def _rewards():
    for day, beans in ((1, 100), (2, 200), (3, 500)):
        CheckinReward.objects.create(day=day, beans=beans)


def test_checkin_once_a_day_with_a_streak_and_the_operators_rewards(make_user):
    """簽到 pays the streak day's reward once a day; a second try pays nothing; the streak
    continues from yesterday and the last configured day pays every later one."""
    _rewards()
    user = make_user(beans=0)
    first = services.checkin_claim(user=user)
    assert (first.streak, first.beans) == (1, 100) and balance_for_user(user) == 100
    with pytest.raises(AlreadyCheckedIn):
        services.checkin_claim(user=user)
    assert balance_for_user(user) == 100
    assert Transfer.objects.filter(kind=Transfer.Kind.CHECKIN).count() == 1
    today = timezone.localdate()
    Checkin.objects.filter(pk=first.pk).update(day=today - timedelta(days=1), streak=3)
    again = services.checkin_claim(user=user)
    assert (again.streak, again.beans) == (4, 500)  # past day 3: day 3's reward
    Checkin.objects.all().delete()
    Checkin.objects.create(user=user, day=today - timedelta(days=2), streak=2, beans=0)
    broken = services.checkin_claim(user=user)
    assert broken.streak == 1  # a missed day starts the streak again
    status = selectors.checkin_status(user)
    assert status["done"] and status["streak"] == 1
    assert ledger_drift() == []


def _in_threads(n: int, target) -> list[object]:
    """Run ``target`` in n threads released together; return what each returned or raised."""
    barrier = threading.Barrier(n)
    results: list[object] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = target()
        except Exception as error:  # noqa: BLE001 — the test inspects it
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


@pytest.mark.django_db(transaction=True)
def test_concurrent_checkins_pay_once_and_the_ledger_verifies(make_user):
    """Four simultaneous 簽到 of one player: one succeeds, three get already_checked_in, one
    transfer, the balance up by one reward, ledger_verify passes."""
    _rewards()
    user = make_user(beans=1000)
    results = _in_threads(4, lambda: services.checkin_claim(user=user))
    assert sum(isinstance(r, Checkin) for r in results) == 1
    assert sum(isinstance(r, AlreadyCheckedIn) for r in results) == 3
    assert Transfer.objects.filter(kind=Transfer.Kind.CHECKIN).count() == 1
    assert balance_for_user(user) == 1100
    call_command("ledger_verify")


# -- tasks ------------------------------------------------------------------------------------


def _tasks():
    play = TaskDefinition.objects.create(
        code="play1", title="玩 1 局斗地主", game="doudizhu", kind="play", target=1, reward=300
    )
    win = TaskDefinition.objects.create(
        code="win1", title="贏 1 局", kind="win", target=1, reward=500
    )
    landlord = TaskDefinition.objects.create(
        code="dizhu", title="當 1 次地主", kind="line", line_label="地主", target=1, reward=700
    )
    other = TaskDefinition.objects.create(
        code="mj", title="玩 1 局麻將", game="mahjong_huanle", kind="play", target=1, reward=100
    )
    return play, win, landlord, other


def _settled_hand(room, make_user, capture):
    table, users = _full_table(room, make_user)
    Seat.objects.filter(table=table).update(auto=True)
    with capture(execute=True):
        _play_out(table.pk)
    hand = Hand.objects.get(table=table)
    assert hand.settled_at is not None
    return hand, users


def test_a_settled_hand_counts_for_tasks_and_boards_once(
    room, make_user, django_capture_on_commit_callbacks
):
    """Settling a hand counts it for each player's matching tasks (game, win, a result line)
    and his day and week standings, once: a repeated record changes nothing."""
    play, *_ = _tasks()
    hand, users = _settled_hand(room, make_user, django_capture_on_commit_callbacks)
    rows = {hs.user_id: hs for hs in HandSeat.objects.filter(hand=hand)}
    landlord_seat = next(line["seat"] for line in hand.result["lines"] if line["label"] == "地主")
    for user in users:
        counts = dict(TaskProgress.objects.filter(user=user).values_list("task__code", "count"))
        assert counts.get("play1") == 1
        assert counts.get("win1", 0) == int(rows[user.pk].won)
        landlord_user = hand.players[landlord_seat]["user_id"]  # engine seat → player
        assert counts.get("dizhu", 0) == int(user.pk == landlord_user)
        assert "mj" not in counts
        for period in ("day", "week"):
            st = Standing.objects.get(user=user, game="doudizhu", period=period)
            assert (st.score, st.beans, st.hands) == (rows[user.pk].score, rows[user.pk].beans, 1)
    assert services.hand_record(hand.pk) == 0
    assert TaskProgress.objects.filter(task=play).values_list("count", flat=True).distinct()[0] == 1


def test_a_line_task_counts_its_own_line_not_one_whose_name_contains_it():
    """ "當 1 次地主" (line 地主) counts for the landlord only, not for a farmer who 搶地主 (CI
    found it: the label was matched as a substring); "*炸彈" counts every bomb line of a 癩子
    room, "炸彈" only the classic one; a line of the whole hand (no seat) counts for winners."""
    lines = [
        {"label": "搶地主", "value": "×2", "seat": 1},
        {"label": "地主", "value": "", "seat": 0},
        {"label": "軟炸彈", "value": "×2", "seat": 2},
        {"label": "春天", "value": "×2", "seat": None},
    ]
    result = {"lines": lines}
    hit = services._line_hit
    assert [hit(result, s, "地主", False) for s in range(3)] == [True, False, False]
    assert [hit(result, s, "搶地主", False) for s in range(3)] == [False, True, False]
    assert [hit(result, s, "*炸彈", False) for s in range(3)] == [False, False, True]
    assert not any(hit(result, s, "炸彈", False) for s in range(3))
    assert hit(result, 1, "春天", True) and not hit(result, 1, "春天", False)
    assert not hit(result, 0, "", True)


def test_a_hand_whose_settlement_rolls_back_counts_for_nothing(
    room, make_user, django_capture_on_commit_callbacks
):
    """Tasks count only hands that really settled: a settlement undone counts nothing, and an
    unsettled hand is not counted."""
    _tasks()
    table, _users = _full_table(room, make_user)
    Seat.objects.filter(table=table).update(auto=True)
    # finish the hand without settling it (the settlement task is captured, not run)
    with django_capture_on_commit_callbacks(execute=False):
        _play_out(table.pk)
    hand = Hand.objects.get(table=table)
    assert hand.settled_at is None
    assert services.hand_record(hand.pk) == 0
    with pytest.raises(RuntimeError), transaction.atomic():
        settlement.hand_settle(hand.pk)
        raise RuntimeError("the worker died before the commit")
    assert TaskProgress.objects.count() == 0 and Standing.objects.count() == 0
    assert settlement.hand_settle(hand.pk) is True
    assert TaskProgress.objects.filter(task__code="play1").count() == 3


def test_task_claim_pays_once_and_refuses_what_is_not_due(
    room, make_user, django_capture_on_commit_callbacks
):
    """A task not done, unknown or claimed is refused with nothing paid; a done task pays its
    reward once through the ledger (key task:user:day:task)."""
    play, _win, _landlord, other = _tasks()
    _hand, users = _settled_hand(room, make_user, django_capture_on_commit_callbacks)
    user = users[0]
    with pytest.raises(TaskNotClaimable):
        services.task_claim(user=user, task_id=other.pk)  # not played
    with pytest.raises(TaskNotClaimable):
        services.task_claim(user=user, task_id="12abc")
    before = balance_for_user(user)
    services.task_claim(user=user, task_id=play.pk)
    assert balance_for_user(user) == before + 300
    with pytest.raises(TaskNotClaimable):
        services.task_claim(user=user, task_id=play.pk)
    assert balance_for_user(user) == before + 300
    key = f"task:{user.pk}:{timezone.localdate().isoformat()}:{play.pk}"
    assert Transfer.objects.filter(idempotency_key=key).count() == 1
    tasks = {t["task"].code: t for t in selectors.tasks_for_user(user)}
    assert tasks["play1"]["claimed"] and not tasks["mj"]["claimable"]
    assert ledger_drift() == []


@pytest.mark.django_db(transaction=True)
def test_concurrent_task_claims_pay_once_and_the_ledger_verifies(make_user):
    """Four simultaneous claims of one finished task: paid once, three refused, ledger OK."""
    play = TaskDefinition.objects.create(
        code="p", title="玩 1 局", kind="play", target=1, reward=250
    )
    user = make_user(beans=0)
    TaskProgress.objects.create(user=user, task=play, day=timezone.localdate(), count=1)
    results = _in_threads(4, lambda: services.task_claim(user=user, task_id=play.pk))
    assert sum(isinstance(r, TaskProgress) for r in results) == 1
    assert sum(isinstance(r, TaskNotClaimable) for r in results) == 3
    assert balance_for_user(user) == 250
    assert Transfer.objects.filter(kind=Transfer.Kind.TASK).count() == 1
    call_command("ledger_verify")


def test_backfill_counts_old_hands_once(room, make_user, django_capture_on_commit_callbacks):
    """Hands settled before the hall (no standings) are counted by standings_backfill, once
    however often it runs."""
    hand, users = _settled_hand(room, make_user, django_capture_on_commit_callbacks)
    from accounts.models import TaskHand

    Standing.objects.all().delete()
    TaskHand.objects.all().delete()
    call_command("standings_backfill")
    call_command("standings_backfill")
    row = HandSeat.objects.get(hand=hand, user=users[0])
    st = Standing.objects.get(user=users[0], period="week")
    assert (st.score, st.hands) == (row.score, 1)


def test_counting_a_hand_is_six_statements_under_the_table_lock(
    room, make_user, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """hand_record runs inside the settlement (the table row locked): 6 statements for a hand
    of 3 players and 4 tasks (hand, seats, tasks, then one upsert each for the counted
    players, the standings and the task progress)."""
    from accounts.models import TaskHand

    _tasks()
    hand, _users = _settled_hand(room, make_user, django_capture_on_commit_callbacks)
    TaskHand.objects.all().delete()
    Standing.objects.all().delete()
    TaskProgress.objects.all().delete()
    with django_assert_num_queries(6):
        assert services.hand_record(hand.pk) >= 3  # at least 玩 1 局 for each


def test_a_blocked_players_quick_phrases_are_hidden_from_the_blocker(make_user):
    """The chat's filter (is_hidden_for / hidden_speakers_for) includes whom the viewer
    blocked, for him only; unblocking shows the phrases again."""
    from games.services import chat

    viewer, speaker = make_user(), make_user()
    assert not chat.is_hidden_for(viewer, speaker)
    services.block_create(user=viewer, other_id=speaker.pk)
    assert chat.is_hidden_for(viewer, speaker) and not chat.is_hidden_for(speaker, viewer)
    assert chat.hidden_speakers_for(viewer.pk) == frozenset({speaker.pk})
    services.block_delete(user=viewer, other_id=speaker.pk)
    assert not chat.is_hidden_for(viewer, speaker)
