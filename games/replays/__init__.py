"""Replays (回放): every finished hand re-derived from its seed and event log, all hands open.

A replay draws each step with the game's own live board (``templates/games/boards/<game>.jinja``)
in its replay mode (``replay`` in the context: no buttons, no 托管 / 離開), from an *open view*:
the engine's per-seat views merged so that every seat's concealed cards are shown (each game's
``games.replays.<module>.open_view``). An open view is served only through
the replay views, behind ``games.selectors.hands.hand_get_finished``, i.e. to whoever
``replay_access`` allows, and only for a hand that has ended (docs/privacy.md).

A step is ``0`` (the deal) or ``k`` (after the k-th logged event). Each step's caption names the
actor by nickname and the action by the label the live board's button carries (the same tables:
``games.boards.<game>``). The seed check: sha256(seed) equals the hash committed at the deal, and
seed + log re-derive exactly the engine state the table stored at the end.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import rendering
from games.engine import registry
from games.engine.protocol import Ruleset
from games.fx import board_fx
from games.models import Hand, HandEvent

# game id → the module that opens its hands and labels its actions
MODULES: dict[str, str] = {
    "doudizhu": "games.replays.doudizhu",
    "zhajinhua": "games.replays.zhajinhua",
    "paohuzi": "games.replays.paohuzi",
    "mahjong_huanle": "games.replays.mahjong",
    "mahjong_yongzhou": "games.replays.mahjong",
    "mahjong_yueqing": "games.replays.mahjong",
}


class GameReplay(Protocol):
    """What a game's replay module provides."""

    def open_view(
        self, ruleset: Ruleset[Any, Any], state: Any, bottom: int, names: list[str]
    ) -> dict[str, Any]: ...

    def caption(
        self,
        ruleset: Ruleset[Any, Any],
        before: Any,
        seat: int,
        action: dict[str, Any],
        names: list[str],
    ) -> dict[str, Any]: ...

    def deal_check(
        self, ruleset: Ruleset[Any, Any], game: str, config: Any, seed: str, seats: int
    ) -> tuple[dict[str, Any], dict[str, Any]]: ...


@dataclass(slots=True)
class Replay:
    """A finished hand re-derived: the engine state JSON after the deal and after each event."""

    hand: Hand
    states: list[dict[str, Any]]
    events: list[dict[str, Any]]  # {"seq", "seat", "action"} per logged event
    captions: list[dict[str, Any]] = field(default_factory=list)
    consistent: bool = False  # seed + log re-derive the state the table stored

    @property
    def last(self) -> int:
        return len(self.events)


# (hand id, state hash, language) → replay: the captions are words in the viewer's language
_cache: OrderedDict[tuple[int, str, str], Replay] = OrderedDict()
_CACHE_MAX = 32


def supports(game: str) -> bool:
    return game in MODULES


def title_of(hand: Hand) -> str:
    """The replay's title: the game's, or its 玩法's when the game's module names one."""
    ruleset = registry.get(hand.game)
    title = getattr(_module(hand.game), "title", None) if supports(hand.game) else None
    return str(title(ruleset, hand.params)) if title else ruleset.title


def _module(game: str) -> GameReplay:
    module: GameReplay = importlib.import_module(MODULES[game])
    return module


def names_of(hand: Hand) -> list[str]:
    """Each engine seat's nickname (never "座N")."""
    return [str(p.get("name") or _("玩家")) for p in hand.players]


def replay_build(hand: Hand) -> Replay:
    """Re-derive the hand from seed + log (cached per process; a finished hand never changes).

    The cache is keyed by the active language too: the captions are translated words, and a
    replay first built for an English viewer must not caption a 繁體 viewer's page.

    A game's module may split one logged move into several steps (``apply_steps``: 跑胡子's
    draws from the 墩 that nobody takes happen inside the move that passed them on); each
    extra step carries an event ``{"type": "draw"}`` of the drawing seat under the move's seq.
    """
    key = (
        hand.pk,
        hashlib.sha256(json.dumps(hand.state, sort_keys=True).encode()).hexdigest(),
        get_language() or "",
    )
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached
    ruleset = registry.get(hand.game)
    module = _module(hand.game)
    names = names_of(hand)
    state = ruleset.new_game(ruleset.config_from_params(hand.params), hand.seed, len(hand.players))
    states = [ruleset.state_to_json(state)]
    events: list[dict[str, Any]] = []
    captions: list[dict[str, Any]] = []
    for event in HandEvent.objects.filter(hand=hand).order_by("seq"):
        action = dict(event.action)
        events.append({"seq": event.seq, "seat": event.seat, "action": action})
        if action.get("type") == "escape":  # the service's, not the engine's: the hand ends
            captions.append({"who": names[event.seat], "label": _("逃跑"), "kind": "escape"})
            states.append(states[-1])
            continue
        own = module.caption(ruleset, state, event.seat, action, names)
        apply_steps = getattr(module, "apply_steps", None)
        if apply_steps is None:
            ruleset.apply(state, event.seat, action)
            captions.append(own)
            states.append(ruleset.state_to_json(state))
            continue
        steps = apply_steps(ruleset, state, event.seat, action, names)
        for index, (caption, after) in enumerate(steps):
            if index:
                seat = caption["seat"] if caption else event.seat
                events.append({"seq": event.seq, "seat": seat, "action": {"type": "draw"}})
            captions.append(caption or own)
            states.append(after)
    replay = Replay(
        hand=hand,
        states=states,
        events=events,
        captions=captions,
        consistent=states[-1] == hand.state,
    )
    _cache[key] = replay
    if len(_cache) > _CACHE_MAX:
        _cache.popitem(last=False)
    return replay


def seed_check(hand: Hand, replay: Replay) -> dict[str, Any]:
    """sha256(seed) against the committed hash, and the re-derived end state against the table's."""
    digest = hashlib.sha256(hand.seed.encode()).hexdigest()
    return {
        "hash_ok": digest == hand.seed_hash,
        "digest": digest,
        "replay_ok": replay.consistent,
        "steps": replay.last,
        "ok": digest == hand.seed_hash and replay.consistent,
    }


def deal_check(hand: Hand) -> dict[str, Any]:
    """What the page's own re-deal needs (``static/js/verify_deal.js``, the same as
    ``scripts/verify_deal.py``): the input it deals from (the game, the seed, the options the
    deal depends on), the deal the engine made from it (the record to compare with), the hash
    committed at the deal, and the seats' names to label the hands."""
    ruleset = registry.get(hand.game)
    config = ruleset.config_from_params(hand.params)
    inputs, record = _module(hand.game).deal_check(
        ruleset, hand.game, config, hand.seed, len(hand.players)
    )
    return {
        "input": inputs,
        "record": record,
        "hash": hand.seed_hash,
        "names": names_of(hand),
        "rule": str(getattr(_module(hand.game), "DEAL_RULE", "")),
    }


def bottom_seat(hand: Hand, user: Any) -> int:
    """The seat drawn at the bottom: the viewer's own if he played, else the first."""
    uid = getattr(user, "pk", None)
    for index, player in enumerate(hand.players):
        if uid is not None and player.get("user_id") == uid:
            return index
    return 0


def _room(hand: Hand) -> dict[str, Any]:
    from games.rendering import _base_label

    params = hand.params
    return {
        **{k: params.get(k) for k in ("room_name", "base_score", "factor", "rake", "turn_seconds")},
        "base_label": _base_label(hand.game),
    }


def board_html(hand: Hand, replay: Replay, step: int, user: Any) -> str:
    """Step ``step`` (0 … replay.last) drawn by the game's live board, every hand open."""
    from games.boards import board_extras
    from games.rendering import _rotate

    step = max(0, min(step, replay.last))
    ruleset = registry.get(hand.game)
    state = ruleset.state_from_json(replay.states[step])
    bottom = bottom_seat(hand, user)
    names = names_of(hand)
    view = _module(hand.game).open_view(ruleset, state, bottom, names)
    seats = [
        {
            "index": i,
            "user_id": p.get("user_id"),
            "name": names[i],
            "avatar": p.get("avatar") or 0,
            "is_bot": bool(p.get("is_bot")),
            "auto": False,
            "online": True,
            "deadline": None,
        }
        for i, p in enumerate(hand.players)
    ]
    at_end = step == replay.last
    result = None
    if at_end and hand.result:
        result = {k: v for k, v in hand.result.items() if k != "extra"}
    context = {
        "seq": step,
        "table": {
            "id": hand.table.pk,
            "game": hand.game,
            "status": "replay",
            "is_private": False,
            "owner_id": None,
            "next_hand_at": None,
            "fill_deadline": None,
            "invite_code": None,
        },
        "room": _room(hand),
        "seat": bottom,
        "seats": seats,
        "hand": {
            "id": hand.pk,
            "number": hand.number,
            "status": hand.status,
            "seed_hash": hand.seed_hash,
            "seed": hand.seed if at_end else None,
            "settled": hand.settled_at is not None,
        },
        "view": view,
        "result": result,
        "replay": True,
        "fx": board_fx(hand.game, view, bottom, replay.events[step - 1] if step else None),
        "fx_key": f"replay:{hand.pk}:{step}",
        **board_extras(hand.game, view, bottom),
        "around": _rotate(seats, bottom),
        "is_owner": False,
    }
    return rendering.render_board(hand.game, context)


def step_html(hand: Hand, replay: Replay, step: int, user: Any) -> str:
    """The caption of step ``step`` and its board (what the replay page swaps in)."""
    step = max(0, min(step, replay.last))
    caption = replay.captions[step - 1] if step else {"who": "", "label": _("發牌"), "kind": "deal"}
    return render_to_string(
        "games/replay_step.html",
        {
            "step": step,
            "last": replay.last,
            "caption": caption,
            "game": hand.game,
            "board": board_html(hand, replay, step, user),
        },
    )
