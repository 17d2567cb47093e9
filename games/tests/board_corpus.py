"""A corpus of ≈ 1,000 board renders: every table game and variant, whole seeded hands.

Each case is a table snapshot built without the database (what ``snapshot_build`` gives the
sockets), a viewer (every seat and the spectator) and a language; the hands are played by the
engines' 托管 actions from fixed seeds, and the snapshots vary what the table adds: 托管 and
離線 marks, seat clocks, the waiting board with its fill clock and invite code, nicknames that
need escaping, the result before and after the settlement (beans, 以所持為限, level changes,
the next hand's clock), an escape, 記牌器 owned or for sale.

``games/tests/data/board_digests.json`` holds the sha256 of each case's HTML (``data-now``
removed: the render's own clock), written from the Django templates the boards had before
Jinja2 (commit 8615a07, the last with both); ``test_board_digests`` renders the same cases and
requires every digest equal. A change meant to change the boards' HTML rewrites them:
``python -m games.tests.board_corpus --write``.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

DIGESTS = Path(__file__).resolve().parent / "data" / "board_digests.json"
LANGUAGES = ("zh-hant", "zh-hans", "en")
NAMES = ["阿明", "<script>alert(1)</script>", 'O\'Brien & "Co"', "小美", "老王", "Ann"]
_NOW = re.compile(r' data-now="[^"]*"')

# game -> (variants, seeds per variant, table seats, snapshots kept per hand)
PLAN: dict[str, tuple[tuple[str, ...], int, int, int]] = {
    "doudizhu": (("classic", "laizi", "menzhua"), 2, 3, 9),
    "zhajinhua": (("classic",), 4, 5, 8),
    "paohuzi": (("hunan", "shuangwang"), 2, 3, 9),
    "mahjong_huanle": (("dazhong", "bafan", "wufan"), 1, 4, 8),
    "mahjong_yongzhou": (("bao5", "bao3"), 1, 4, 8),
    "mahjong_yueqing": (("wuhanhua",), 2, 4, 8),
}


def _seat_rows(n: int, k: int, *, to_act: frozenset[int] | set[int], empty: int | None) -> list:
    """The table's seats: marks vary with ``k`` (the snapshot's number in its hand)."""
    rows = []
    for i in range(n):
        if i == empty:
            rows.append(
                {
                    "index": i,
                    "user_id": None,
                    "name": None,
                    "avatar": 0,
                    "is_bot": False,
                    "auto": False,
                    "online": False,
                    "deadline": None,
                }
            )
            continue
        rows.append(
            {
                "index": i,
                "user_id": 100 + i,
                "name": NAMES[(i + k) % len(NAMES)],
                "avatar": 7 * i + k,
                "is_bot": (i + k) % 4 == 3,
                "auto": (i + k) % 3 == 1,
                "online": (i + 2 * k) % 5 != 4,
                "deadline": f"2026-12-04T23:{10 + k % 50:02d}:05+00:00"
                if i in to_act and k % 4 != 2
                else None,
            }
        )
    return rows


def _result(ruleset: Any, state: Any, k: int, players: int) -> dict[str, Any]:
    res = ruleset.result(state)
    result: dict[str, Any] = {
        "scores": list(res.scores),
        "winners": list(res.winners),
        "lines": [{"label": ln.label, "value": ln.value, "seat": ln.seat} for ln in res.lines],
        "extra": res.extra,
    }
    if k % 2:  # settled
        result.update(
            beans=[s * 10 - 5 for s in res.scores],
            short=[players - 1] if k % 4 == 1 else [],
            rake=5 * players,
            factor=10,
            rake_each=5,
            level_changes={"0": {"from": "包身工", "to": "短工"}} if k % 4 == 3 else {},
        )
    return result


def _snapshot(
    game: str,
    *,
    hand_id: int,
    seq: int,
    table_seats: int,
    players: list[int],
    state_json: Any,
    params: dict[str, Any],
    result: dict[str, Any] | None,
    last: dict[str, Any] | None,
    k: int,
    to_act: frozenset[int],
    finished: bool,
) -> dict[str, Any]:
    table_to_act = {players[e] for e in to_act if e < len(players)}
    empty = None
    seats = _seat_rows(table_seats, k, to_act=table_to_act, empty=empty)
    return {
        "table": {
            "id": hand_id,
            "game": game,
            "seq": seq,
            "move_seq": seq - (k % 2),
            "status": "playing",
            "params": {
                "room_name": ("大眾場", "癩子場 高手", "悶抓 新手", "", None)[k % 5],
                "base_score": 1 + k % 3,
                "factor": 10,
                "rake": 5,
                "turn_seconds": 20,
            },
            "is_private": k % 3 == 0,
            "invite_code": "AB12CD" if k % 3 == 0 else "",
            "owner_id": 100,
            "next_hand_at": "2026-12-04T23:59:00+00:00" if finished and k % 2 else None,
            "fill_deadline": None,
        },
        "seats": seats,
        "hand": {
            "id": hand_id,
            "number": 1 + k,
            "status": "finished" if finished else "playing",
            "seed_hash": f"{hand_id:08x}" * 8,
            "seed": f"seed-{hand_id}" if finished else None,
            "state": state_json,
            "result": result,
            "params": params,
            "players": [
                {
                    "user_id": seats[t]["user_id"],
                    "name": seats[t]["name"],
                    "is_bot": seats[t]["is_bot"],
                    "avatar": seats[t]["avatar"],
                    "table_seat": t,
                }
                for t in players
            ],
            "settled": bool(result and "beans" in result),
            "counter_seats": [0] if k % 2 else [],
            "last": last,
        },
    }


def _waiting(game: str, hand_id: int, n: int, k: int) -> dict[str, Any]:
    seats = _seat_rows(n, k, to_act=set(), empty=n - 1)
    return {
        "table": {
            "id": hand_id,
            "game": game,
            "seq": 1,
            "move_seq": 0,
            "status": "waiting",
            "params": {"room_name": "好友房" if k else None, "base_score": 2},
            "is_private": bool(k),
            "invite_code": "QW34ER" if k else "",
            "owner_id": 100,
            "next_hand_at": None,
            "fill_deadline": "2026-12-04T23:30:00+00:00" if not k else None,
        },
        "seats": seats,
        "hand": None,
    }


def _hands(game: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(label, snapshot) through whole seeded hands of the game."""
    from games.engine import registry

    ruleset = registry.get(game)
    variants, seeds, table_seats, keep = PLAN[game]
    hand_id = 1000 * (list(PLAN).index(game) + 1)
    for k in range(2):
        hand_id += 1
        yield f"{game}/waiting{k}", _waiting(game, hand_id, table_seats, k)
    for variant in variants:
        for s in range(seeds):
            hand_id += 1
            if game == "zhajinhua":
                players = [0, 1, 3, 4] if s % 2 else [0, 1, 2, 3, 4]  # seat 2: the next hand's
            else:
                players = list(range(table_seats))
            params: dict[str, Any] = {
                "variant": variant,
                "dealer": s % len(players),
                "base_score": 1,
                "seat_beans": [5000] * len(players),
            }
            if game == "doudizhu":
                params["counter_price"] = 0 if s % 2 else 200
            config = ruleset.config_from_params(params)
            state = ruleset.new_game(config, f"corpus-{game}-{variant}-{s}", len(players))
            steps: list[tuple[Any, dict[str, Any] | None, frozenset[int]]] = []
            last = None
            for _ in range(600):
                steps.append((ruleset.state_to_json(state), last, frozenset(ruleset.to_act(state))))
                if ruleset.is_over(state):
                    break
                e = min(ruleset.to_act(state))
                # 斗地主: the bot without its sampled search (托管 never bids), the same every run
                play = ruleset.bot_fallback_action if game == "doudizhu" else ruleset.auto_action
                action = play(state, e)
                ruleset.apply(state, e, action)
                last = {"seat": e, "action": action}
            over = ruleset.is_over(state)
            picks = sorted({round(i * (len(steps) - 1) / (keep - 1)) for i in range(keep)})
            for k, i in enumerate(picks):
                state_json, last_move, to_act = steps[i]
                finished = over and i == len(steps) - 1
                result = None
                if finished:
                    final = ruleset.state_from_json(state_json)
                    result = _result(ruleset, final, k + s, len(players))
                    if s == 1 and game in ("doudizhu", "mahjong_huanle"):
                        result["escaped_seat"] = 1
                snapshot = _snapshot(
                    game,
                    hand_id=hand_id,
                    seq=10 + i,
                    table_seats=table_seats,
                    players=players,
                    state_json=state_json,
                    params=params,
                    result=result,
                    last=last_move,
                    k=k + s,
                    to_act=to_act,
                    finished=finished,
                )
                yield f"{game}/{variant}/{s}/step{i}", snapshot
                if finished and result is not None and "beans" not in result:
                    settled = json.loads(json.dumps(snapshot))
                    settled["hand"]["result"] = _result(ruleset, final, 1, len(players))
                    settled["hand"]["settled"] = True
                    settled["table"]["seq"] += 1
                    settled["table"]["next_hand_at"] = "2026-12-04T23:59:30+00:00"
                    yield f"{game}/{variant}/{s}/settled", settled


def cases() -> Iterator[tuple[str, dict[str, Any], int | None, str]]:
    """(key, snapshot, viewer seat or None, language): every seat and the spectator of every
    snapshot, the languages taken in turn (each snapshot's first viewer in all three)."""
    n = 0
    for game in PLAN:
        for label, snapshot in _hands(game):
            viewers: list[int | None] = [s["index"] for s in snapshot["seats"] if s["user_id"]]
            viewers.append(None)
            for j, seat in enumerate(viewers):
                languages = LANGUAGES if j == 0 else (LANGUAGES[n % 3],)
                n += 1
                for lang in languages:
                    who = "watch" if seat is None else f"seat{seat}"
                    yield f"{label}/{who}/{lang}", snapshot, seat, lang


def render_case(snapshot: dict[str, Any], seat: int | None, lang: str) -> str:
    """The board HTML of one case (the viewer is the seat's user; the owner is user 100)."""
    from django.utils import translation

    from games import rendering

    user = None
    if seat is not None:
        user = SimpleNamespace(pk=snapshot["seats"][seat]["user_id"])
    with translation.override(lang):
        return rendering.render_html(snapshot, seat, user)


def digest(html: str) -> str:
    return hashlib.sha256(_NOW.sub("", html).encode()).hexdigest()


def digests() -> dict[str, str]:
    """Every case's digest, by key."""
    from games import caches

    caches.clear_all()
    out = {}
    for key, snapshot, seat, lang in cases():
        if key in out:
            raise AssertionError(f"two cases named {key}")
        out[key] = digest(render_case(snapshot, seat, lang))
    return out


if __name__ == "__main__":
    import os

    import django

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    django.setup()
    found = digests()
    if "--write" in sys.argv:
        DIGESTS.parent.mkdir(exist_ok=True)
        DIGESTS.write_text(json.dumps(found, indent=0, sort_keys=True) + "\n")
    print(len(found), "boards")
