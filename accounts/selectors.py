"""Account reads: the profile page's model."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.core.cache import caches
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.levels import level_for_score
from accounts.models import (
    Block,
    Checkin,
    CheckinReward,
    Follow,
    GameStat,
    Invitation,
    PresenceVisibility,
    Privacy,
    TaskDefinition,
    TaskProgress,
    User,
)
from games.engine import registry
from games.selectors.hands import hand_history_for_user
from ledger.selectors import balance_for_user, balance_history_for_user

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from games.models import Table


def _title(game: str) -> str:
    try:
        return registry.get(game).title
    except (KeyError, ImportError):
        return game


def profile_for_user(user) -> dict:
    stats = [
        {
            "game": s.game,
            "title": _title(s.game),
            "score": s.score,
            "hands": s.hands,
            "wins": s.wins,
            "escapes": s.escapes,
            "level": level_for_score(s.score),
        }
        for s in GameStat.objects.filter(user=user).order_by("game")
    ]
    from games.selectors.spectating import watch_preference

    history = balance_history_for_user(user)
    return {
        # 隱私: who sees where he is (his friends' lists), and 允許觀戰
        "presence_setting": presence_setting(user.pk),
        "presence_choices": presence_choices(),
        "allow_watching": watch_preference(user),
        "beans": balance_for_user(user),
        "stats": stats,
        "chart": balance_chart(history),
        "hands": [
            {
                "hand": hs.hand,
                "title": _title(hs.hand.game),
                "score": hs.score,
                "beans": hs.beans,
                "won": hs.won,
                "escaped": hs.escaped,
            }
            for hs in hand_history_for_user(user)
        ],
    }


def balance_chart(history: list[tuple], width: int = 600, height: int = 160) -> dict:
    """An SVG polyline of the balance over the latest postings."""
    if not history:
        return {"points": "", "width": width, "height": height, "min": 0, "max": 0, "n": 0}
    values = [b for _, b, _ in history]
    low, high = min(values + [0]), max(values)
    span = max(1, high - low)
    n = len(values)
    step = width / max(1, n - 1)
    points = " ".join(
        f"{i * step:.1f},{height - 10 - (v - low) / span * (height - 20):.1f}"
        for i, v in enumerate(values)
    )
    return {
        "points": points,
        "width": width,
        "height": height,
        "min": low,
        "max": high,
        "n": n,
        "last": values[-1],
    }


# -- friends, presence, check-in and tasks (issue #15 §3, §5) ---------------------------------

LOBBY_PRESENCE_CACHE = "ratelimit"  # the shared cache (Redis when configured): every process
# the mark lasts at least this long; a lobby socket renews it every LEYOU["LOBBY_PRESENCE_SECONDS"]
LOBBY_PRESENCE_SECONDS = 45


def lobby_key(user_id: int) -> str:
    return f"hall:lobby:{user_id}"


# -- leaderboards' cache version (lobby/leaderboards.py caches each board's top rows) --------

STANDINGS_CACHE = LOBBY_PRESENCE_CACHE  # shared by every process, so one bump reaches them all


def standings_key(game: str) -> str:
    return f"hall:standings:{game}"


def standings_version(game: str) -> int:
    """The version of the game's standings: changed by every settlement that counts a hand of
    it (``accounts.services.standings_changed``); a cached board of another version is stale."""
    return int(caches[STANDINGS_CACHE].get(standings_key(game)) or 0)


def is_blocked(viewer: User | int | None, other: User | int | None) -> bool:
    """Has ``viewer`` blocked ``other``? (No invitations, no quick phrases seen from him.)

    The chat's ``is_hidden_for(viewer, speaker)`` calls this.
    """
    viewer_id = getattr(viewer, "pk", viewer)
    other_id = getattr(other, "pk", other)
    if not viewer_id or not other_id:
        return False
    return Block.objects.filter(blocker_id=viewer_id, blocked_id=other_id).exists()


def blocked_ids_for(viewer_id: int) -> frozenset[int]:
    """The users the viewer blocked (the chat hides their phrases from him)."""
    return frozenset(
        Block.objects.filter(blocker_id=viewer_id).values_list("blocked_id", flat=True)
    )


def is_following(user: User, other: User) -> bool:
    return Follow.objects.filter(follower_id=user.pk, followee_id=other.pk).exists()


# the privacy choices as a player reads them (the model's labels are the admin's, untranslated)
PRESENCE_LABELS = {
    PresenceVisibility.FOLLOWERS: gettext_lazy("關注我的人"),
    PresenceVisibility.FRIENDS: gettext_lazy("互相關注的好友"),
    PresenceVisibility.NOBODY: gettext_lazy("不公開"),
}


def presence_choices() -> list[tuple[str, Any]]:
    """(value, label in the reader's language) for 誰能看到我在哪裡."""
    return [(value, PRESENCE_LABELS[value]) for value in PresenceVisibility.values]


def presence_setting(user_id: int) -> str:
    row = Privacy.objects.filter(user_id=user_id).values_list("presence", flat=True).first()
    return row or PresenceVisibility.FRIENDS


def _may_see_presence(setting: str, *, follows_viewer: bool, blocked_viewer: bool) -> bool:
    if blocked_viewer or setting == PresenceVisibility.NOBODY:
        return False
    if setting == PresenceVisibility.FRIENDS:
        return follows_viewer
    return True  # FOLLOWERS: the viewer follows him (he is in the viewer's list)


def presence_for_users(user_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Where each user is: at a table (seated), watching one, in the lobby, or offline."""
    from games.models import Seat, SeatLease, Table

    where: dict[int, dict[str, Any]] = {uid: {"kind": "offline"} for uid in user_ids}
    lobby = caches[LOBBY_PRESENCE_CACHE].get_many([lobby_key(uid) for uid in user_ids])
    for uid in user_ids:
        if lobby_key(uid) in lobby:
            where[uid] = {"kind": "lobby"}
    for lease in SeatLease.objects.filter(user_id__in=user_ids).select_related("table"):
        where[lease.user_id] = _at_table("watching", lease.table)
    seats = list(
        Seat.objects.filter(user_id__in=user_ids)
        .exclude(table__status=Table.Status.CLOSED)
        .select_related("table")
    )
    # a friend's table gets a 觀戰 link only while it may be watched: public, and nobody
    # seated there has turned 允許觀戰 off
    refusing = set(
        Seat.objects.filter(
            table_id__in=[s.table_id for s in seats],
            user__watch_preference__allow_watching=False,
        ).values_list("table_id", flat=True)
    )
    for seat in seats:
        at = _at_table("table", seat.table)
        at["watchable"] = at["table_id"] is not None and seat.table_id not in refusing
        where[seat.user_id] = at
    return where


def _at_table(kind: str, table: Table) -> dict[str, Any]:
    # a private table's number is not shown: its page is refused to others anyway
    return {
        "kind": kind,
        "game": table.game,
        "title": _title(table.game),
        "table_id": None if table.is_private else table.pk,
    }


def friends_for_user(user: User) -> list[dict[str, Any]]:
    """The players the user follows, each with where he is as far as his setting allows."""
    follows = list(
        Follow.objects.filter(follower=user).select_related("followee").order_by("-created_at")
    )
    ids = [f.followee_id for f in follows]
    back = set(
        Follow.objects.filter(follower_id__in=ids, followee=user).values_list(
            "follower_id", flat=True
        )
    )
    blocked_me = set(
        Block.objects.filter(blocker_id__in=ids, blocked=user).values_list("blocker_id", flat=True)
    )
    settings_rows = dict(Privacy.objects.filter(user_id__in=ids).values_list("user_id", "presence"))
    visible = [
        uid
        for uid in ids
        if _may_see_presence(
            settings_rows.get(uid, PresenceVisibility.FRIENDS),
            follows_viewer=uid in back,
            blocked_viewer=uid in blocked_me,
        )
    ]
    where = presence_for_users(visible)
    return [
        {
            "user": f.followee,
            "mutual": f.followee_id in back,
            "presence": where.get(f.followee_id, {"kind": "hidden"}),
        }
        for f in follows
    ]


def invitations_for_user(user: User) -> list[Invitation]:
    """Pending invitations to the user, newest first: none from a player he blocked, none to a
    table that has closed since."""
    from games.models import Table

    blocked = Block.objects.filter(blocker=user).values("blocked_id")
    closed = Table.objects.filter(status=Table.Status.CLOSED).values("pk")
    return list(
        Invitation.objects.filter(recipient=user, status=Invitation.Status.PENDING)
        .exclude(sender_id__in=blocked)
        .exclude(table_id__in=closed)
        .select_related("sender")
        .order_by("-created_at")[:10]
    )


def public_profile(viewer: User | AnonymousUser, other: User) -> dict[str, Any]:
    """Another player's public page: name, levels, and the viewer's follow / block state."""
    stats = [
        {
            "game": s.game,
            "title": _title(s.game),
            "score": s.score,
            "hands": s.hands,
            "wins": s.wins,
            "level": level_for_score(s.score),
        }
        for s in GameStat.objects.filter(user=other).order_by("game")
    ]
    mine = viewer.is_authenticated and viewer.pk == other.pk
    return {
        "other": other,
        "stats": stats,
        "mine": mine,
        "following": viewer.is_authenticated and not mine and is_following(viewer, other),
        "blocking": viewer.is_authenticated and not mine and is_blocked(viewer, other),
    }


def checkin_status(user: User) -> dict[str, Any]:
    """Today's 簽到: done or not, the streak, and the reward today's (or the next) one pays."""
    today = timezone.localdate()
    done = Checkin.objects.filter(user=user, day=today).first()
    if done is not None:
        streak, next_streak = done.streak, None
    else:
        yesterday = Checkin.objects.filter(user=user, day=today - timedelta(days=1)).first()
        streak, next_streak = (yesterday.streak if yesterday else 0), None
        next_streak = streak + 1
    rewards = list(CheckinReward.objects.order_by("day").values_list("day", "beans"))
    upcoming = None
    if next_streak is not None:
        upcoming = next(
            (b for d, b in reversed(rewards) if d <= next_streak), rewards[0][1] if rewards else 0
        )
    return {
        "done": done is not None,
        "streak": streak,
        "beans_today": done.beans if done else 0,
        "reward": upcoming,
        "rewards": rewards,
    }


def tasks_for_user(user: User) -> list[dict[str, Any]]:
    """Today's active tasks with the user's progress and whether the reward can be claimed."""
    today = timezone.localdate()
    progress = {p.task_id: p for p in TaskProgress.objects.filter(user=user, day=today)}
    out = []
    for task in TaskDefinition.objects.filter(is_active=True):
        p = progress.get(task.pk)
        count = min(p.count, task.target) if p else 0
        claimed = bool(p and p.claimed_at)
        out.append(
            {
                "task": task,
                "count": count,
                "target": task.target,
                "claimed": claimed,
                "claimable": bool(p) and not claimed and p.count >= task.target,
                "game_title": _title(task.game) if task.game else "",
            }
        )
    return out


def following_ids(user: User, ids: list[int]) -> list[int]:
    """Which of ``ids`` the user follows."""
    return list(
        Follow.objects.filter(follower=user, followee_id__in=ids).values_list(
            "followee_id", flat=True
        )
    )
