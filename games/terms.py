"""Game terms (遊戲術語) in the reader's language: their Chinese names, converted or glossed.

Game terms keep their Chinese names in every language (docs/i18n.md): 繁體中文 shows them as the
engines and rule texts write them, 简体中文 converts their characters (``hans_table``, generated
from OpenCC), and English keeps the Chinese followed by a short gloss, ``地主 (landlord)``.
``term`` is for text that reaches a page as data — an engine's result line, a button label from
a Python table, a card type's name — where the template's ``{% translate %}`` cannot reach;
fixed strings in templates and Python go through Django's catalogs as usual.
"""

from __future__ import annotations

import re

from django.utils import translation

from games.hans_table import SIMP, TRAD

_T2S = str.maketrans(TRAD, SIMP)
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")

# 中文 term → a short English gloss. A term missing here stays Chinese without a gloss in English
# (tests/test_i18n_pages.py fails on such a term on any page).
GLOSSARY: dict[str, str] = {
    # platform and games
    "樂游棋牌": "Leyou Games", "樂游游戲": "Leyou Games", "歡樂豆": "beans", "豆": "beans",
    "斗地主": "Fight the Landlord", "歡樂斗地主": "Happy Fight the Landlord",
    "歡樂三張": "Three Cards", "大豐收": "Harvest wheel", "跑胡子": "Paohuzi",
    "雙王扯胡子": "Two-king Paohuzi", "歡樂麻將": "Happy Mahjong", "永州麻將": "Yongzhou Mahjong",
    "樂清麻將": "Yueqing Mahjong", "麻將": "mahjong", "湖南跑胡子": "Hunan Paohuzi",
    # levels (包身工 → 帝王, seed 003)
    "包身工": "bond labourer", "短工": "day labourer", "長工": "farmhand", "佃戶": "tenant",
    "貧農": "poor peasant", "漁夫": "fisherman", "獵人": "hunter", "中農": "middle peasant",
    "富農": "rich peasant", "掌櫃": "shopkeeper", "商人": "merchant", "衙役": "constable",
    "小財主": "small squire", "大財主": "great squire", "小地主": "small landlord",
    "大地主": "great landlord", "知縣": "magistrate", "通判": "assistant prefect",
    "知府": "prefect", "總督": "viceroy", "巡撫": "governor", "丞相": "chancellor",
    "帝王": "emperor",
}


def _gloss(text: str) -> str:
    """Each glossary term in the text followed by its gloss (once: a glossed text is kept)."""

    def one(m: re.Match[str]) -> str:
        run = m.group(0)
        if run not in GLOSSARY or text[m.end():m.end() + 2].lstrip().startswith("("):
            return run
        return f"{run} ({GLOSSARY[run]})"

    return _HAN_RUN.sub(one, text)


def hans(text: str) -> str:
    """The text with its Traditional characters replaced by Simplified ones."""
    return text.translate(_T2S)


def term(text: object) -> str:
    """A game term (or a line of them) as the active language shows it; non-text as it is."""
    if not isinstance(text, str) or not text:
        return text  # type: ignore[return-value]
    language = translation.get_language() or ""
    if language.startswith("zh-hans"):
        return hans(text)
    if language.startswith("en"):
        return _gloss(text)
    return text
