"""Account writes: registration (with the signup grant) and per-game scores."""

from __future__ import annotations

import fnmatch
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.exceptions import (
    AccountError,
    AlreadyCheckedIn,
    FollowRefused,
    TaskNotClaimable,
    UnknownUser,
)
from accounts.levels import Level, level_for_score
from accounts.models import (
    Block,
    Checkin,
    CheckinReward,
    Follow,
    GameStat,
    Invitation,
    PresenceVisibility,
    Privacy,
    Standing,
    TaskDefinition,
    TaskHand,
    TaskProgress,
    User,
)
from ledger import services as ledger


def user_register(*, username: str, password: str, nickname: str = "") -> User:
    """Create a player and pay the operator-set signup grant, in one transaction."""
    with transaction.atomic():
        user = User(
            username=username, nickname=nickname or username, avatar_seed=secrets.randbelow(10_000)
        )
        user.set_password(password)
        user.full_clean(exclude=["password"])
        user.save()
        ledger.grant_signup(user)
    return user


def score_add(
    *, user_id: int, game: str, score: int, won: bool, escaped: bool = False
) -> tuple[Level, Level]:
    """Add a hand's score to the player's game stat; return (level before, level after)."""
    stat, _ = GameStat.objects.select_for_update().get_or_create(user_id=user_id, game=game)
    before = level_for_score(stat.score)
    stat.score += score
    stat.hands += 1
    stat.wins += int(won)
    stat.escapes += int(escaped)
    stat.save()
    return before, level_for_score(stat.score)


# -- friends (issue #15 §3) -------------------------------------------------------------------


def _other_user(user_id: object) -> User:
    try:
        other = User.objects.filter(pk=int(str(user_id)), is_active=True).first()
    except (TypeError, ValueError):
        other = None
    if other is None:
        raise UnknownUser(gettext("沒有這位玩家"))
    return other


def follow_create(*, user: User, other_id: object) -> Follow:
    """關注: follow another player (again: nothing changes). Raises UnknownUser, FollowRefused."""
    other = _other_user(other_id)
    if other.pk == user.pk:
        raise FollowRefused(gettext("不能關注自己"))
    if other.is_bot:
        raise FollowRefused(gettext("不能關注機器人"))
    follow, _ = Follow.objects.get_or_create(follower=user, followee=other)
    return follow


def follow_delete(*, user: User, other_id: object) -> bool:
    """取消關注; True if a follow was removed. Raises UnknownUser."""
    other = _other_user(other_id)
    deleted, _ = Follow.objects.filter(follower=user, followee=other).delete()
    return bool(deleted)


def block_create(*, user: User, other_id: object) -> Block:
    """封鎖: no invitations and no quick phrases from him; his follow of me ends too."""
    other = _other_user(other_id)
    if other.pk == user.pk:
        raise FollowRefused(gettext("不能封鎖自己"))
    with transaction.atomic():
        block, _ = Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(follower=other, followee=user).delete()
        Invitation.objects.filter(
            sender=other, recipient=user, status=Invitation.Status.PENDING
        ).update(status=Invitation.Status.DECLINED)
    return block


def block_delete(*, user: User, other_id: object) -> bool:
    """解除封鎖; True if a block was removed."""
    other = _other_user(other_id)
    deleted, _ = Block.objects.filter(blocker=user, blocked=other).delete()
    return bool(deleted)


def privacy_set(*, user: User, presence: str) -> Privacy:
    """Set who may see where the player is. Raises AccountError for an unknown choice."""
    if presence not in PresenceVisibility.values:
        raise AccountError(gettext("沒有這個隱私選項"), code="bad_privacy")
    privacy, _ = Privacy.objects.update_or_create(user=user, defaults={"presence": presence})
    return privacy


# -- daily check-in and tasks (issue #15 §5) --------------------------------------------------


def checkin_claim(*, user: User) -> Checkin:
    """簽到: once a (local) day; the streak continues from yesterday's, the reward is the
    operator's for that streak day (the last configured day pays every later one).

    Raises AlreadyCheckedIn (nothing paid). Two concurrent claims: the unique (user, day) row
    lets one through, and the reward's idempotency key ``checkin:<user>:<day>`` pays once.
    """
    today = timezone.localdate()
    with transaction.atomic():
        yesterday = Checkin.objects.filter(user=user, day=today - timedelta(days=1)).first()
        streak = yesterday.streak + 1 if yesterday else 1
        reward = (
            CheckinReward.objects.filter(day__lte=streak).order_by("-day").first()
            or CheckinReward.objects.order_by("day").first()
        )
        beans = reward.beans if reward else 0
        try:
            with transaction.atomic():  # the loser of a race waits here, then fails
                checkin = Checkin.objects.create(user=user, day=today, streak=streak, beans=beans)
        except IntegrityError:
            raise AlreadyCheckedIn(gettext("今天已經簽到過了")) from None
        if beans:
            ledger.grant_checkin(
                user_id=user.pk, day=today.isoformat(), amount=beans, streak=streak
            )
    return checkin


def label_matches(pattern: str, label: str) -> bool:
    """Does a result line's label count for a task's ``line_label``? The whole label, or with
    ``*`` (any run of characters) a family of them: "地主" is the landlord's line and not
    "搶地主"'s, "*炸彈" is every bomb line of a 癩子 room (軟炸彈, 硬炸彈, 純癩子炸彈)."""
    if "*" not in pattern:
        return pattern == label
    return fnmatch.fnmatchcase(label, pattern)


def _line_hit(result: dict, seat: int, label: str, won: bool) -> bool:
    for line in result.get("lines") or []:
        if label and label_matches(label, str(line.get("label", ""))):
            who = line.get("seat")
            if who == seat or (who is None and won):
                return True
    return False


def hand_record(hand_id: int) -> int:
    """Count a settled hand for its players' leaderboards and daily tasks; return the task
    increments made.

    Called by ``games.services.settlement.hand_settle`` inside its transaction, after the
    hand's result rows (HandSeat) are written: a hand counts if and only if its settlement
    commits (an ``on_commit`` callback could be lost to a crash between the commit and the
    call). Each (player, hand) is counted once (TaskHand), so a repeated call changes nothing.
    The day is the settlement's local day; bots count for nothing. Six statements whatever
    the number of seats and tasks (three upserts), since it runs under the table's lock.
    """
    from games.models import Hand, HandSeat

    hand = Hand.objects.filter(pk=hand_id, settled_at__isnull=False).first()
    if hand is None or not hand.result:
        return 0
    seats = list(HandSeat.objects.filter(hand=hand, user__is_bot=False).order_by("seat"))
    if not seats:
        return 0
    tasks = [
        t
        for t in TaskDefinition.objects.filter(is_active=True)
        if not t.game or t.game == hand.game
    ]
    day = timezone.localdate(hand.settled_at)
    week = day - timedelta(days=day.weekday())
    with connection.cursor() as cursor:
        # the players this hand has not been counted for yet (a repeated call: none)
        cursor.execute(
            f"INSERT INTO {TaskHand._meta.db_table} (user_id, hand_id) VALUES "
            + ", ".join(["(%s, %s)"] * len(seats))
            + " ON CONFLICT (user_id, hand_id) DO NOTHING RETURNING user_id",
            [v for row in seats for v in (row.user_id, hand.pk)],
        )
        new = {uid for (uid,) in cursor.fetchall()}
        counted = [row for row in seats if row.user_id in new]
        if not counted:
            return 0
        # the leaderboards' cached tops are stale: now (a board read inside this transaction's
        # window would then be cached under the new version from rows not yet committed) and
        # again once the rows are committed, so no board cached meanwhile outlives the commit
        standings_changed(hand.game)
        transaction.on_commit(lambda: standings_changed(hand.game))
        standing = Standing._meta.db_table
        cursor.execute(
            f'INSERT INTO {standing} (user_id, game, period, "start", score, beans, hands) '
            "VALUES "
            + ", ".join(["(%s, %s, %s, %s, %s, %s, 1)"] * (2 * len(counted)))
            + ' ON CONFLICT (user_id, game, period, "start") DO UPDATE SET '
            f"score = {standing}.score + EXCLUDED.score, "
            f"beans = {standing}.beans + EXCLUDED.beans, hands = {standing}.hands + 1",
            [
                v
                for row in counted
                for period, start in ((Standing.Period.DAY, day), (Standing.Period.WEEK, week))
                for v in (row.user_id, hand.game, period, start, row.score, row.beans)
            ],
        )
        hits = [
            (row.user_id, task.pk)
            for row in counted
            for task in tasks
            if _task_hit(task, row, hand.result)
        ]
        if hits:
            progress = TaskProgress._meta.db_table
            cursor.execute(
                f"INSERT INTO {progress} (user_id, task_id, day, count) VALUES "
                + ", ".join(["(%s, %s, %s, 1)"] * len(hits))
                + f" ON CONFLICT (user_id, task_id, day) DO UPDATE SET "
                f"count = {progress}.count + 1",
                [v for uid, task_id in hits for v in (uid, task_id, day)],
            )
    return len(hits)


def standings_changed(game: str) -> None:
    """The game's standings (``Standing``, ``GameStat``) changed: cached boards are stale.

    The version is a fresh random number in the shared cache (every process reads it), so a
    board cached before the change is never read again (it expires on its own).
    """
    from accounts.selectors import STANDINGS_CACHE, standings_key

    caches[STANDINGS_CACHE].set(standings_key(game), secrets.randbits(62), timeout=None)


def _task_hit(task: TaskDefinition, row: Any, result: dict[str, Any]) -> bool:
    """Does this seat's line of a settled hand count for the task?"""
    if task.kind == TaskDefinition.Kind.PLAY:
        return not row.escaped
    if task.kind == TaskDefinition.Kind.WIN:
        return bool(row.won)
    return _line_hit(result, row.seat, task.line_label, row.won)


def task_claim(*, user: User, task_id: object) -> TaskProgress:
    """Claim today's reward of a finished task: paid once, through the ledger.

    Raises TaskNotClaimable (unknown task, not done yet, already claimed; nothing paid). The
    progress row is locked, and the transfer's key (user, day, task) pays once even so.
    """
    today = timezone.localdate()
    try:
        pk = int(str(task_id))
    except (TypeError, ValueError):
        pk = 0
    with transaction.atomic():
        # lock the row: a doubled claim waits here and then sees it claimed
        progress = (
            TaskProgress.objects.select_for_update()
            .select_related("task")
            .filter(user=user, task_id=pk, day=today, task__is_active=True)
            .first()
        )
        if progress is None:
            if not TaskDefinition.objects.filter(pk=pk, is_active=True).exists():
                raise TaskNotClaimable(gettext("沒有這個任務"))
            raise TaskNotClaimable(gettext("任務尚未完成"))
        if progress.claimed_at is not None:
            raise TaskNotClaimable(gettext("今天已經領過這個任務的獎勵"))
        if progress.count < progress.task.target:
            raise TaskNotClaimable(gettext("任務尚未完成"))
        progress.claimed_at = timezone.now()
        progress.save(update_fields=["claimed_at"])
        if progress.task.reward:
            ledger.grant_task(
                user_id=user.pk,
                day=today.isoformat(),
                task_id=progress.task_id,
                amount=progress.task.reward,
                title=progress.task.title,
            )
    return progress


def lobby_presence_mark(user_id: int) -> None:
    """A lobby socket of the user is open: mark him 在大廳 (renewed by the socket; the mark
    outlives three renewals, and is cleared when a socket closes)."""
    from accounts.selectors import LOBBY_PRESENCE_CACHE, LOBBY_PRESENCE_SECONDS, lobby_key

    ttl = max(LOBBY_PRESENCE_SECONDS, 3 * settings.LEYOU["LOBBY_PRESENCE_SECONDS"])
    caches[LOBBY_PRESENCE_CACHE].set(lobby_key(user_id), 1, timeout=ttl)


def lobby_presence_clear(user_id: int) -> None:
    """The user's lobby socket closed (another open tab marks him again within 20 s)."""
    from accounts.selectors import LOBBY_PRESENCE_CACHE, lobby_key

    caches[LOBBY_PRESENCE_CACHE].delete(lobby_key(user_id))


def user_language_set(*, user: User, language: str) -> bool:
    """Store the player's chosen UI language; False (and nothing stored) for an unknown code."""
    if language not in {code for code, _name in settings.LANGUAGES}:
        return False
    if user.language != language:
        User.objects.filter(pk=user.pk).update(language=language)
        user.language = language
    return True
