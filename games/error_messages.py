"""The one table that words a rule engine's refusal for a player, in the player's language.

Engines raise ``IllegalAction(code, developer_detail, params)`` (games/engine/errors.py) and know
no language; the edges (the table and wheel sockets, and any view) call ``illegal_text`` with the
player's language active. The wording is chosen, most specific first, by the ``reason`` param,
then by the first param this table has a sentence for, then by the code alone. Card codes in
the params are named as the player sees the cards (``cards`` in the poker notation: ``4R`` → 4
大王; ``tile``: ``W5`` → 五萬; ``card`` in the 字牌 notation: ``d5`` → 伍), never shown raw; every
name goes through ``games.terms.term``.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine.cards import RANK_NAMES_ZH, RANKS
from games.engine.errors import ErrorCode, IllegalAction
from games.templatetags.tiles import tile_label
from games.templatetags.zipai import card_zh
from games.terms import term

BY_CODE: dict[str, Promise] = {
    ErrorCode.MALFORMED: _("動作格式不正確"),
    ErrorCode.NOT_YOUR_TURN: _("還沒輪到你"),
    ErrorCode.GAME_OVER: _("這一局已經結束"),
    ErrorCode.ILLEGAL: _("現在不能這樣做"),
    ErrorCode.NOT_HELD: _("你沒有這些牌"),
    ErrorCode.DOES_NOT_BEAT: _("大不過上家的牌"),
    ErrorCode.BAD_PATTERN: _("這些牌不成牌型"),
    ErrorCode.MUST_PLAY: _("輪到你先出牌，不能不出"),
    ErrorCode.NOT_ALLOWED: _("本場不能這樣做"),
    ErrorCode.OVER_LIMIT: _("超過上限或歡樂豆不足"),
    ErrorCode.WINDOW_CLOSED: _("已經過了時機"),
    ErrorCode.LOWER_PRIORITY: _("有人的叫牌優先（胡 > 碰/槓 > 吃）"),
}

# (code, param) → a sentence with that param; the first param of the error found here is used
BY_PARAM: dict[tuple[str, str], Promise] = {
    (ErrorCode.BAD_PATTERN, "cards"): _("%(cards)s 不是有效的牌型"),
    (ErrorCode.DOES_NOT_BEAT, "cards"): _("%(cards)s 大不過上家的牌"),
    (ErrorCode.NOT_HELD, "cards"): _("你手上沒有 %(cards)s"),
    (ErrorCode.NOT_HELD, "tile"): _("你手上沒有 %(tile)s"),
    (ErrorCode.NOT_HELD, "card"): _("你手上沒有 %(card)s"),
    (ErrorCode.OVER_LIMIT, "need"): _("歡樂豆不足：需要 %(need)s"),
}

# params["reason"] → a sentence (it may use the other params)
BY_REASON: dict[str, Promise] = {
    "not_dealt_in": _("你這一局沒有參加，請等下一局"),
    "already_looked": _("已經看過牌了"),
    "menzhua_first": _("悶抓場：請先選擇悶抓或看牌"),
    "ambiguous_laizi": _("這些牌有幾種讀法，請選擇癩子當作哪張"),
    "round_cap": _("已達手數封頂，只能比牌或棄牌"),
    "unit_cap": _("超過單注封頂 %(cap)s"),
    "chip_level": _("不是本房的籌碼級別"),
    "raise_above": _("加注須高於當前單注 %(unit)s"),
    "compare_self": _("不能和自己比牌"),
    "out_of_hand": _("你已不在局中"),
    "discard_after_claim": _("吃或碰之後要打出一張牌"),
    "caishen_meld": _("財神不能用來吃、碰、槓"),
    "not_winning": _("這手牌還不能胡"),
    "below_minimum": _("未達本場的起胡番數"),
    "passed_win": _("漏胡：放過的胡牌要等自己再摸牌後才能胡"),
    "chi_left_only": _("只能吃上家打出的牌"),
    "wang_discard": _("王霸不能打出"),
    "kan_split": _("坎不能拆開打出"),
    "no_hu_on_discard": _("打出的牌不能胡"),
    "wang_self_draw": _("手中有王霸只能自摸"),
    "chou_hu": _("臭胡：放過的胡要等胡息變了才能再胡"),
    "min_huxi": _("胡息不足：%(huxi)s 息，起胡要 %(need)s 息"),
    "chip_size": _("押注須為本場的籌碼"),
    "player_limit": _("超過每人每局上限 %(limit)s 豆"),
    "round_limit": _("超過本局總押注上限 %(limit)s 豆"),
    "betting_done": _("你本局已停止押注"),
    "betting_closed": _("本局已停止押注"),
    "not_enough_beans": _("歡樂豆不足"),
}


def illegal_text(error: IllegalAction) -> str:
    """The player's sentence for an engine's refusal, in the active language."""
    params = {k: _named(k, v) if isinstance(v, str) else v for k, v in error.params.items()}
    reason = params.get("reason")
    if isinstance(reason, str) and reason in BY_REASON:
        return _fill(BY_REASON[reason], params) or str(BY_CODE.get(error.code, BY_CODE["illegal"]))
    for key in params:
        template = BY_PARAM.get((str(error.code), key))
        if template is not None:
            return _fill(template, params) or str(BY_CODE[error.code])
    return str(BY_CODE.get(error.code, BY_CODE[ErrorCode.ILLEGAL]))


def _named(key: str, value: str) -> str:
    """A param as the player reads it: card codes by their names, in the active language."""
    if key == "cards" and value and all(ch in RANKS for ch in value):
        return " ".join(term(RANK_NAMES_ZH.get(ch, ch)) for ch in value)
    if key == "tile":
        return term(tile_label(value))
    if key == "card":
        return term(card_zh(value))
    return term(value)


def _fill(template: Promise, params: dict[str, object]) -> str:
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return ""  # a param the sentence needs is missing: the code's sentence instead
