"""玩法說明: one rules page per game and 玩法, in the page's language.

The rules are prose, written once per script: ``templates/lobby/rules/<game>.zh.html`` in
繁體中文 (简体 pages show it converted character by character, ``games.terms.hans``, as
every game term of the site is) and ``<game>.en.html`` in English — a paragraph is not split
into msgids. Each page says the game's general rules and the chosen 玩法's own, and links the
game's other 玩法. Which games and 玩法 exist comes from the game registry.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe

from games.engine import registry
from games.terms import GLOSSARY, hans, term

# English names of the 玩法 (the registry's labels are Chinese)
VARIANT_EN = {
    ("doudizhu", "classic"): "Classic",
    ("doudizhu", "laizi"): "Wild card (laizi)",
    ("doudizhu", "menzhua"): "Blind grab (menzhua)",
    ("zhajinhua", "classic"): "Classic",
    ("dafengshou", "classic"): "Classic",
    ("paohuzi", "hunan"): "Hunan (Changde full bonuses)",
    ("paohuzi", "shuangwang"): "Two kings (shuangwang)",
    ("mahjong_huanle", "dazhong"): "Standard",
    ("mahjong_huanle", "bafan"): "8 fan minimum",
    ("mahjong_huanle", "wufan"): "No minimum",
    ("mahjong_yongzhou", "bao5"): "Capped at 5 fan",
    ("mahjong_yongzhou", "bao3"): "Capped at 3 fan",
    ("mahjong_yueqing", "wuhanhua"): "Wuhan flowers",
}


class NoRules(LookupError):
    """No such game or 玩法 (the page answers 404)."""


@dataclass(frozen=True, slots=True)
class Variant:
    id: str
    name: str
    url: str
    chosen: bool


def _english() -> bool:
    return (translation.get_language() or "").startswith("en")


def game_name(game: str) -> str:
    """The game's title in the active language (English without the Chinese)."""
    title = registry.get(game).title
    if _english():
        return GLOSSARY.get(title, game)
    return term(title)


def variant_name(game: str, variant: str) -> str:
    """The 玩法's name in the active language."""
    if _english():
        return VARIANT_EN.get((game, variant), variant)
    labels = {v.id: v.label for v in registry.get(game).variants}
    return term(labels.get(variant, variant))


def rules_url(game: str, variant: str | None = None) -> str:
    """The rules page of the game (its first 玩法) or of one 玩法."""
    if variant:
        return reverse("lobby:rules_variant", args=[game, variant])
    return reverse("lobby:rules", args=[game])


def rules_page(game: str, variant: str | None = None) -> dict:
    """The page's title, its 玩法 links and its rules as HTML, in the active language.

    Raises NoRules for a game the registry does not know or a 玩法 it does not declare."""
    if game not in registry.available():
        raise NoRules(game)
    ruleset = registry.get(game)
    ids = [v.id for v in ruleset.variants]
    if variant is not None and variant not in ids:
        raise NoRules(f"{game}/{variant}")
    chosen = variant or (ids[0] if ids else "")
    language = translation.get_language() or ""
    body = render_to_string(
        f"lobby/rules/{game}.{'en' if _english() else 'zh'}.html", {"variant": chosen}
    )
    if language.startswith("zh-hans"):
        body = hans(body)
    return {
        "game": game,
        "title": game_name(game),
        "variant_name": variant_name(game, chosen) if len(ids) > 1 else "",
        "variants": [
            Variant(v, variant_name(game, v), rules_url(game, v), v == chosen) for v in ids
        ]
        if len(ids) > 1
        else [],
        "body": mark_safe(body),  # our own template's output (converted to 简体 above)
    }
