"""快捷語 and 表情: the quick phrases of each game and the emotes, by stable id.

A client names a phrase or an emote by its id (``{"kind": "chat", "phrase": "hurry"}``); the
text shown is looked up here, in the viewer's language (Traditional Chinese is the source,
the classic QQ-game wording). A game has the common phrases plus its own. The emotes are the
project's own SVGs in ``static/img/emotes/<id>.svg``.

Glossary: 快捷語 quick phrase (``phrase``) · 表情 emote (``emote``).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

COMMON: tuple[tuple[str, Promise], ...] = (
    ("hello", _("大家好，很高興見到各位")),
    ("hurry", _("快點吧，我等到花兒都謝了")),
    ("well_played", _("你的牌打得也太好了")),
    ("stay", _("不要走，決戰到天亮")),
    ("partner", _("和你合作真是太愉快了")),
    ("quiet", _("不要吵了，專心玩遊戲吧")),
    ("network", _("又斷線了，網路怎麼這麼差啊")),
    ("brb", _("各位，真不好意思，我要離開一會")),
    ("bye", _("下次再玩吧，我要走了")),
)

_CARDS: tuple[tuple[str, Promise], ...] = (
    ("mm_gg", _("你是妹妹還是哥哥啊")),
    ("bomb", _("炸得好！")),
)

_MAHJONG: tuple[tuple[str, Promise], ...] = (
    ("good_tiles", _("你的牌好靚哦")),
    ("hu_soon", _("我快要胡了，大家小心")),
)

_ZIPAI: tuple[tuple[str, Promise], ...] = (
    ("huxi", _("胡息夠了沒有啊")),
    ("hu_soon", _("我快要胡了，大家小心")),
)

_ZHAJINHUA: tuple[tuple[str, Promise], ...] = (
    ("follow", _("跟到底，誰怕誰")),
    ("all_in", _("我全押了，敢不敢跟")),
    ("your_move", _("看你的了")),
)

BY_GAME: dict[str, tuple[tuple[str, Promise], ...]] = {
    "doudizhu": COMMON + _CARDS,
    "zhajinhua": COMMON + _ZHAJINHUA,
    "paohuzi": COMMON + _ZIPAI,
    "mahjong_huanle": COMMON + _MAHJONG,
    "mahjong_yongzhou": COMMON + _MAHJONG,
    "mahjong_yueqing": COMMON + _MAHJONG,
}

EMOTES: tuple[tuple[str, Promise], ...] = (
    ("smile", _("微笑")),
    ("laugh", _("大笑")),
    ("cry", _("大哭")),
    ("angry", _("生氣")),
    ("proud", _("得意")),
    ("thumb", _("讚")),
    ("flower", _("送花")),
    ("bomb", _("炸彈")),
)
_EMOTE_IDS = {emote_id for emote_id, _label in EMOTES}


def phrases_for(game: str) -> tuple[tuple[str, Promise], ...]:
    """The game's quick phrases (id, text), common ones first; a game not listed has those."""
    return BY_GAME.get(game, COMMON)


def phrase_text(game: str, phrase_id: str) -> Promise | None:
    """The text of the game's phrase ``phrase_id`` (None: the game has no such phrase)."""
    return dict(phrases_for(game)).get(phrase_id)


def emote_label(emote_id: str) -> Promise | None:
    """The name of emote ``emote_id`` (None: no such emote)."""
    return dict(EMOTES).get(emote_id) if emote_id in _EMOTE_IDS else None
