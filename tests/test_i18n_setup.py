"""The language machinery: catalogs built from the project's .po files, the switch remembered per
player, the JavaScript catalog, and engine refusals worded from codes and params."""

from __future__ import annotations

import gettext
import importlib.util
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games.engine import registry
from games.engine.errors import ErrorCode, IllegalAction
from games.terms import is_term

ROOT = Path(settings.BASE_DIR)
PO_FILES = sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po"))


def _compiler():
    spec = importlib.util.spec_from_file_location(
        "compilemessages", ROOT / "scripts" / "compilemessages.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _catalog(mo: bytes) -> dict:
    catalog = dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)
    catalog.pop("", None)  # the header (msgfmt drops POT-Creation-Date from it)
    return catalog


def test_three_languages_with_their_catalogs():
    """zh-hant (the default), zh-hans and en, each with a django and a djangojs catalog."""
    assert settings.LANGUAGE_CODE == "zh-hant"
    assert [code for code, _ in settings.LANGUAGES] == ["zh-hant", "zh-hans", "en"]
    assert {p.parent.parent.name + "/" + p.stem for p in PO_FILES} == {
        f"{lang}/{domain}"
        for lang in ("zh_Hant", "zh_Hans", "en")
        for domain in ("django", "djangojs")
    }


@pytest.mark.parametrize(
    "po",
    [p for p in PO_FILES if "zh_Hant" not in str(p)],
    ids=lambda p: f"{p.parent.parent.name}-{p.stem}",
)
def test_every_string_is_translated(po):
    """Every msgid of the zh-hans and en catalogs has a translation, none fuzzy, and English
    ones are not Chinese text left as it was (msgstr == msgid)."""
    compiler = _compiler()
    text = po.read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]
    assert not [e for e in entries if "#, fuzzy" in e], "fuzzy entries"
    catalog = {k.decode(): v.decode() for k, v in compiler.po_parse(text).items() if k}
    msgids = [
        compiler._unquote(line[6:])
        for line in text.splitlines()
        if line.startswith('msgid "') and line != 'msgid ""'
    ]
    missing = [m for m in msgids if m and m not in catalog]
    assert not missing, missing[:10]
    if "/en/" in str(po):
        same = [m for m in catalog if catalog[m] == m and any("\u4e00" <= c <= "\u9fff" for c in m)]
        assert not same, same[:10]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_the_python_compiler_writes_what_msgfmt_writes(po):
    """scripts/compilemessages.py's own .mo writer (used where msgfmt is missing) gives the
    same catalog as GNU msgfmt."""
    compiler = _compiler()
    ours = compiler.mo_bytes(compiler.po_parse(po.read_text(encoding="utf-8")))
    theirs = subprocess.run(["msgfmt", "-o", "-", str(po)], capture_output=True, check=True)
    assert _catalog(ours) == _catalog(theirs.stdout)
    assert len(_catalog(ours)) > (10 if "djangojs" in po.name else 300) or "zh_Hant" in str(po)


def test_the_python_compiler_builds_every_catalog(tmp_path):
    """Without msgfmt, ``compile_python`` turns every .po into a readable .mo."""
    compiler = _compiler()
    shutil.copytree(ROOT / "locale", tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    written = compiler.compile_python(tmp_path / "locale")
    assert len(written) == len(PO_FILES)
    en = gettext.GNUTranslations(
        io.BytesIO((tmp_path / "locale/en/LC_MESSAGES/django.mo").read_bytes())
    )
    assert en.gettext("登入") == "Log in"
    assert en.gettext("地主") == "地主 (landlord)"


@pytest.mark.django_db
def test_the_switch_is_remembered_for_the_player(client, make_user):
    """A signed-in player's choice in the switch is stored on him and used at his next login
    from a fresh browser (no cookie); an unknown language is refused and stores nothing."""
    from django.test import Client

    user = make_user(name="switcher")
    client.force_login(user)
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.language == "en"
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    user.refresh_from_db()
    assert user.language == "en"
    fresh = Client()
    fresh.force_login(user)
    html = fresh.get("/").content.decode()
    assert '<html lang="en">' in html and "Lobby" in html
    assert fresh.cookies["django_language"].value == "en", "the cookie follows the stored choice"
    anonymous = Client()
    assert '<html lang="zh-hant">' in anonymous.get("/").content.decode()
    assert "遊戲大廳" in anonymous.get("/").content.decode()


@pytest.mark.django_db
def test_the_javascript_catalog(client):
    """/jsi18n/ serves the table's JavaScript text in the page's language."""
    client.cookies["django_language"] = "en"
    assert "Please log in first" in client.get("/jsi18n/").content.decode()
    client.cookies["django_language"] = "zh-hans"
    assert "\\u8bf7\\u5148\\u767b\\u5165" in client.get("/jsi18n/").content.decode()  # 请先登入


def test_a_bad_doudizhu_play_raises_a_code_with_params():
    """The engine says what is wrong as a code and params, not as words for a player."""
    rules = registry.get("doudizhu")
    state = rules.new_game(rules.config_from_params({}), "ab" * 32, 3)
    for _ in range(60):
        if state.phase == "playing":
            break
        seat = min(rules.to_act(state))
        action = (
            {"type": "start", "mingpai": False}
            if state.phase == "start"
            else rules.bot_action(state, seat)
        )
        rules.apply(state, seat, action)
    seat = min(rules.to_act(state))
    hand = rules.view(state, seat)["hand"]
    cards = hand[0] + next(c for c in reversed(hand) if c != hand[0] and {c, hand[0]} != {"B", "R"})
    with pytest.raises(IllegalAction) as refused:
        rules.apply(state, seat, {"type": "play", "cards": cards})
    assert refused.value.code == ErrorCode.BAD_PATTERN
    assert refused.value.params == {"cards": cards}


def test_every_refusal_has_words_in_every_language():
    """Each code, reason and param sentence of games.error_messages is worded in each language
    (English differs from the Chinese), and a refusal's words never show its developer text."""
    from games import error_messages

    refusals = [IllegalAction(code, "dev detail") for code in ErrorCode]
    refusals += [
        IllegalAction(
            ErrorCode.ILLEGAL,
            "dev detail",
            {"reason": r, "cap": 1, "unit": 2, "huxi": 3, "need": 4, "limit": 5},
        )
        for r in error_messages.BY_REASON
    ]
    refusals += [
        IllegalAction(ErrorCode(code), "dev detail", {key: "56"})
        for code, key in error_messages.BY_PARAM
    ]
    for error in refusals:
        words = {}
        for language in ("zh-hant", "zh-hans", "en"):
            with translation.override(language):
                words[language] = error_messages.illegal_text(error)
        assert "dev detail" not in "".join(words.values())
        assert words["en"] != words["zh-hant"], words
        for run in re.finditer(r"[\u3400-\u9fff]+", words["en"]):  # only glossed game terms
            assert is_term(run.group(0)), words["en"]
            assert words["en"][run.end() :].lstrip().startswith("("), words["en"]
        assert "%(" not in "".join(words.values()), words


def _msgids(text: str) -> set[str]:
    """Every msgid of a .po file, translated or not (obsolete ``#~`` entries left out)."""
    unquote = _compiler()._unquote
    found: set[str] = set()
    current: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("msgid "):
            current = unquote(line[6:])
        elif line.startswith('"') and current is not None:
            current += unquote(line)
        else:
            if current:
                found.add(current)
            current = None
    return found


def _board_strings() -> dict[str, str]:
    """Each translatable string of the board templates (``_()``/``gettext`` calls, found by
    Jinja2's own parse) → the template and line it is on."""
    from games import board_jinja

    strings: dict[str, str] = {}
    for path in sorted(board_jinja.BOARDS_DIR.glob("*.jinja")):
        source = board_jinja.board_source(path.name)
        for line, _func, message in board_jinja.env.extract_translations(source):
            for text in message if isinstance(message, tuple) else (message,):
                if isinstance(text, str):
                    strings.setdefault(text, f"{path.name}:{line}")
    return strings


def _catalog_gaps(strings: dict[str, str]) -> dict[str, list[str]]:
    """Per language, the strings its django.po lacks: no entry in zh_Hant (whose msgstr stay
    empty: the msgid is the text shown), no non-empty translation in zh_Hans and en."""
    compiler = _compiler()
    gaps: dict[str, list[str]] = {}
    for lang in ("zh_Hant", "zh_Hans", "en"):
        text = (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
        if lang == "zh_Hant":
            have = _msgids(text)
        else:
            have = {k.decode() for k, v in compiler.po_parse(text).items() if k and v}
        gaps[lang] = [f"{where}: {s!r}" for s, where in strings.items() if s not in have]
    return gaps


def test_every_string_a_board_writes_is_in_the_catalog():
    """makemessages reads no .jinja file by itself: every string the board templates translate
    (Jinja2's parse of ``_()`` calls) has its entry in the three django.po, translated in
    zh_Hans and en; a string added to a board and not to the catalogs is found."""
    strings = _board_strings()
    assert len(strings) > 100  # the parse found the boards' words
    assert {"地主", "等待玩家入座…", "第 %(number)s 局", "底分 <b>%(base_score)s</b>"} <= set(
        strings
    )
    assert _catalog_gaps(strings) == {"zh_Hant": [], "zh_Hans": [], "en": []}
    # a string no catalog has is reported in every language
    new = {**strings, "一句新的話": "doudizhu.jinja:1"}
    assert all(gap == ["doudizhu.jinja:1: '一句新的話'"] for gap in _catalog_gaps(new).values())
