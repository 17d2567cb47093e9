"""Account reads: the profile page's model."""

from __future__ import annotations

from accounts.levels import level_for_score
from accounts.models import GameStat
from games.engine import registry
from games.selectors.hands import hand_history_for_user
from ledger.selectors import balance_for_user, balance_history_for_user


def _title(game: str) -> str:
    try:
        return registry.get(game).title
    except (KeyError, ImportError):
        return game


def profile_for_user(user) -> dict:
    stats = [
        {"game": s.game, "title": _title(s.game), "score": s.score, "hands": s.hands,
         "wins": s.wins, "escapes": s.escapes, "level": level_for_score(s.score)}
        for s in GameStat.objects.filter(user=user).order_by("game")
    ]
    history = balance_history_for_user(user)
    return {
        "beans": balance_for_user(user),
        "stats": stats,
        "chart": balance_chart(history),
        "hands": [
            {"hand": hs.hand, "title": _title(hs.hand.game), "score": hs.score, "beans": hs.beans,
             "won": hs.won, "escaped": hs.escaped}
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
    return {"points": points, "width": width, "height": height, "min": low, "max": high, "n": n,
            "last": values[-1]}
