"""Room parameter specifications (房間參數說明), in the manner of OpenSpiel's ``GameParameter``.

Each game declares, next to its Config (``games/rules/<game>/params.py``), the room options an
operator may set: a tuple of :class:`Param` (name, type, default, range or choices, 中文 label,
a help line) and the 玩法 it offers (:class:`Variant`). The lobby's admin form is built from
them, and :func:`params_parse` is the one place a room's stored values are read back:

* an unknown key is refused (never silently ignored);
* a value of the wrong type, outside the range or not among the choices is refused;
* each refusal names the parameter (:class:`ParamError` ``.name``), so a form can put the
  message on the field concerned.

Glossary: 參數 parameter · 玩法 variant · 範圍 range (``low``/``high``) · 選項 choices.
Pure Python, no Django (``games/engine`` is below everything).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

INT, BOOL, STR, INT_LIST = "int", "bool", "str", "int_list"


class ParamError(ValueError):
    """A room parameter is not acceptable; ``name`` is the parameter (a form field) concerned.

    ``message`` is the 繁體 sentence (logs, tests); ``reason`` and ``values`` say the same for
    the admin to word in its own language (``lobby.models.param_error_words``): the engine
    names no language. A reason-less error is worded by its message."""

    def __init__(
        self, name: str, message: str, reason: str = "", values: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message
        self.reason = reason
        self.values = dict(values or {})


@dataclass(frozen=True, slots=True)
class Variant:
    """One 玩法 of a game: its stored id and its Chinese name."""

    id: str
    label: str


@dataclass(frozen=True, slots=True)
class Param:
    """One room option of a game.

    * ``kind`` — :data:`INT`, :data:`BOOL`, :data:`STR` or :data:`INT_LIST` (e.g. chip sizes).
    * ``low`` / ``high`` — the inclusive range of an int (of each item of an int list).
    * ``choices`` — ``((value, 中文), …)`` when only those values are allowed.
    * ``length`` — the exact number of items of an int list (None: any, at least one).
    * ``required`` — False: a form may leave it blank, and the default then applies.
    """

    name: str
    kind: str
    default: Any
    label: str
    help: str = ""
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[Any, str], ...] | None = None
    length: int | None = None
    required: bool = True

    def parse(self, raw: Any) -> Any:
        """The value as the engine takes it; :class:`ParamError` if it is not acceptable."""
        if self.kind == BOOL:
            if isinstance(raw, bool):
                return raw
            if raw in (0, 1):
                return bool(raw)
            raise ParamError(self.name, f"「{self.label}」須為是或否", "bool")
        value: Any
        if self.kind == STR:
            value = str(raw)
        elif self.kind == INT:
            value = self._int(raw)
        elif self.kind == INT_LIST:
            if isinstance(raw, str):
                raw = [part for part in raw.replace("，", ",").split(",") if part.strip()]
            if not isinstance(raw, (list, tuple)) or not raw:
                raise ParamError(self.name, f"「{self.label}」須為以逗號分隔的整數", "int_list")
            value = [self._int(item) for item in raw]
            if self.length is not None and len(value) != self.length:
                raise ParamError(
                    self.name,
                    f"「{self.label}」須有 {self.length} 個數",
                    "length",
                    {"n": self.length},
                )
        else:  # pragma: no cover - a spec's own mistake
            raise ParamError(self.name, f"unknown parameter kind {self.kind!r}")
        if self.choices is not None and value not in [c for c, _ in self.choices]:
            allowed = "、".join(str(c) for c, _ in self.choices)
            raise ParamError(
                self.name,
                f"「{self.label}」只可為 {allowed}，不是 {value}",
                "choice",
                {"allowed": allowed, "value": value},
            )
        return value

    def _int(self, raw: Any) -> int:
        if isinstance(raw, bool):
            raise ParamError(self.name, f"「{self.label}」須為整數", "int")
        try:
            value = int(str(raw).strip())
        except (TypeError, ValueError):
            raise ParamError(
                self.name, f"「{self.label}」須為整數，不是 {raw!r}", "int", {"value": raw}
            ) from None
        if self.low is not None and value < self.low:
            raise ParamError(
                self.name, f"「{self.label}」至少為 {self.low}", "low", {"n": self.low}
            )
        if self.high is not None and value > self.high:
            raise ParamError(
                self.name, f"「{self.label}」至多為 {self.high}", "high", {"n": self.high}
            )
        return value


def params_parse(spec: tuple[Param, ...], values: dict[str, Any]) -> dict[str, Any]:
    """Every declared parameter's value (defaults filled in), checked; unknown keys refused."""
    names = {p.name: p for p in spec}
    for key in values:
        if key not in names:
            raise ParamError(key, f"未知的規則參數 {key!r}", "unknown", {"key": key})
    return {p.name: p.parse(values[p.name]) if p.name in values else p.default for p in spec}


def variant_check(variants: tuple[Variant, ...], variant: Any, default: str) -> str:
    """The variant id (the default when absent); :class:`ParamError` on ``variant`` if unknown."""
    if variant is None:
        return default
    if variant not in [v.id for v in variants]:
        allowed = "、".join(f"{v.id}（{v.label}）" for v in variants)
        raise ParamError(
            "variant",
            f"未知的玩法 {variant!r}，可選 {allowed}",
            "variant",
            {"variant": variant, "allowed": allowed},
        )
    return str(variant)


# 新手場: the room asks for a weaker bot (issue #16 §1: "a room setting may ask for a weaker
# bot"). Every table game with a bot of its own declares it; what "novice" plays is the game's
# (斗地主: its heuristic without the search; mahjong, 跑胡子 and 三張: the game's baseline player,
# the yardstick of bench/bots_vs_baseline.py). 托管 plays the same bot, so it follows too.
NOVICE = "novice"
BOT_LEVEL = Param(
    "bot_level",
    STR,
    "normal",
    "機器人強度",
    "新手場的機器人只按本遊戲最簡單的基準打法出牌（較弱）；標準為完整的機器人。托管同樣適用。",
    choices=(("normal", "標準"), (NOVICE, "新手場")),
)

# Shared by every table game (not 大豐收, which has no table): chat and spectators. Each table
# game's ruleset adds them to its own ``room_params`` (docs/architecture.md, "Chat and
# spectators"); the consumer reads them from the table's params, defaults filled in.
TABLE_PARAMS = (
    Param(
        "chat_throttle_seconds",
        INT,
        3,
        "發言間隔（秒）",
        "每位玩家每隔幾秒最多發一句快捷語、表情或文字。",
        low=1,
        high=120,
        required=False,
    ),
    Param(
        "spectator_chat_hidden",
        BOOL,
        False,
        "對觀戰者隱藏聊天",
        "勾選後觀戰者看不到玩家的快捷語、表情與文字。",
    ),
    Param(
        "spectator_delay_turns",
        INT,
        1,
        "觀戰延遲（手）",
        "歡樂豆場的觀戰畫面落後幾手；與秒數先到者為準；兩者皆 0 為即時。",
        low=0,
        high=10,
        required=False,
    ),
    Param(
        "spectator_delay_seconds",
        INT,
        15,
        "觀戰延遲（秒）",
        "歡樂豆場的觀戰畫面最多落後幾秒；與手數先到者為準；兩者皆 0 為即時。",
        low=0,
        high=300,
        required=False,
    ),
    # between hands: the player answers 繼續 / 換桌 / 離開 (the seating service reads these)
    Param(
        "between_hands_seconds",
        INT,
        15,
        "局間等待（秒）",
        "一局結束後等玩家按「繼續」的秒數；人人都按了就立即開下一局，時間到未按者照常發牌。",
        low=3,
        high=120,
        required=False,
    ),
    Param(
        "idle_hands_limit",
        INT,
        3,
        "連續未回應局數",
        "玩家連續這麼多局在局間沒有回應（也沒有自己出牌），就讓他離座，而不是一直托管下去。",
        low=1,
        high=20,
        required=False,
    ),
    Param(
        "hand_cap",
        INT,
        0,
        "單局封頂（歡樂豆）",
        "一局中每位玩家最多輸或贏多少歡樂豆（回收 A 另計；三張的下注在局中已付，不在此列）；"
        "0 為不封頂。",
        low=0,
        high=100_000_000,
        required=False,
    ),
)


def table_params_read(params: dict[str, Any]) -> dict[str, Any]:
    """The :data:`TABLE_PARAMS` of a table's stored params, defaults filled in.

    A stored value that no longer parses (the spec changed) falls back to the default, so an
    old table keeps working; rooms are checked when saved.
    """
    out: dict[str, Any] = {}
    for param in TABLE_PARAMS:
        try:
            out[param.name] = (
                param.parse(params[param.name]) if param.name in params else param.default
            )
        except ParamError:
            out[param.name] = param.default
    return out
