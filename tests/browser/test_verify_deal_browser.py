"""A deal a player can verify alone: the browser's re-deal, the stand-alone script, the engine.

``static/js/verify_deal.js`` (what the replay and 大豐收 驗證 pages run) and
``scripts/verify_deal.py`` (what a player runs on his own machine) re-derive every game's deal
from the revealed seed without asking the server. Here 1,000 seeds of every game are dealt in
Chromium, by the script and by the engines, and must be equal; then the pages are opened at
390×844 and 1280×800: the algorithm in words, the browser's own ✓ and the hands it dealt.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import replays
from games.engine import registry
from games.rules.dafengshou.wheel import Config as WheelConfig
from games.rules.dafengshou.wheel import lit_cells, spin
from tests.browser.conftest import shot

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "verify_deal.py"
JS = ROOT / "static" / "js" / "verify_deal.js"
SEEDS = 1000
SIZES = [(390, 844), (1280, 800)]

# every game and 玩法 whose deal differs: (game, room params, seats)
DEALS = [
    ("doudizhu", {"variant": "classic"}, 3),
    ("zhajinhua", {}, None),  # 2–6 seats, by seed
    ("paohuzi", {"variant": "hunan"}, 3),
    ("paohuzi", {"variant": "shuangwang"}, 3),
    ("mahjong_huanle", {}, 4),
    ("mahjong_yongzhou", {}, 4),
    ("mahjong_yueqing", {}, 4),
]


def _script():
    spec = importlib.util.spec_from_file_location("verify_deal", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _seed(game: str, n: int) -> str:
    return hashlib.sha256(f"verify:{game}:{n}".encode()).hexdigest()


def _server_cases() -> list[tuple[dict, dict]]:
    """(input, record) for 1,000 seeds of every game, the record as the engine dealt it."""
    cases = []
    for game, params, seats in DEALS:
        ruleset = registry.get(game)
        module = replays._module(game)
        base = ruleset.config_from_params(params)
        for n in range(SEEDS):
            config = base
            if hasattr(base, "dealer"):  # every dealer seat is dealt from
                config = dataclasses.replace(base, dealer=n % (seats or 3))
            cases.append(
                module.deal_check(ruleset, game, config, _seed(game, n), seats or 2 + n % 5)
            )
    # 大豐收: the default wheel and one where the 好運 cells (and 開火車) come up often
    for name, config in (
        ("default", WheelConfig()),
        ("lucky", WheelConfig(luck_weight=5000, special_weights=(1, 1, 1, 6, 1), train_max=9)),
    ):
        for n in range(SEEDS):
            seed = _seed(f"dafengshou-{name}", n)
            outcome = spin(config, seed)
            inputs = {
                "game": "dafengshou",
                "seed": seed,
                "cell_weights": config.cell_weights(),
                "special_weights": list(config.special_weights),
                "train_min": config.train_min,
                "train_max": config.train_max,
            }
            cell, special, train = outcome
            record = {"cell": cell, "special": special, "train": train}
            cases.append((inputs, {**record, "lit": list(lit_cells(outcome))}))
    return cases


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.browser
def test_the_browser_and_the_script_deal_1000_seeds_of_every_game_as_the_server(browser):
    """For 1,000 seeds of every game (斗地主, 三張 with 2–6 seats, 跑胡子 and 雙王扯胡子, the three
    mahjongs with every dealer, 大豐收's wheel twice), the page's script in Chromium and the
    stand-alone Python script re-deal exactly what the engine dealt; sha256 agrees too."""
    cases = _server_cases()
    script = _script()
    for inputs, record in cases:
        assert script.deal(inputs) == record, inputs
    page = browser.new_page()
    page.set_content("<!doctype html><html><body></body></html>")
    page.add_script_tag(path=str(JS))
    dealt = page.evaluate(
        "cases => cases.map(i => LeyouDeal.canonical(LeyouDeal.deal(i)))",
        [inputs for inputs, _record in cases],
    )
    assert len(dealt) == len(cases) == SEEDS * (len(DEALS) + 2)
    wrong = [
        (inputs["game"], inputs["seed"])
        for (inputs, record), js in zip(cases, dealt, strict=True)
        if js != _canonical(record)
    ]
    assert not wrong, wrong[:5]
    seeds = [_seed("hash", n) for n in range(50)] + ["", "樂游", "a" * 200]
    hashes = page.evaluate("ss => ss.map(s => LeyouDeal.sha256Hex(s))", seeds)
    assert hashes == [hashlib.sha256(s.encode()).hexdigest() for s in seeds]
    page.close()


def test_the_script_runs_alone_and_checks_the_hash(tmp_path):
    """The stand-alone script needs nothing of Leyou (copied alone into an empty directory, run by
    the system's Python): it prints the hash check and the deal; a wrong hash exits 1, a bad
    input 2 with a clear message."""
    copy = tmp_path / "verify_deal.py"
    copy.write_text(SCRIPT.read_text(encoding="utf-8"), encoding="utf-8")
    seed = _seed("cli", 0)
    good = hashlib.sha256(seed.encode()).hexdigest()
    inputs = json.dumps({"game": "doudizhu", "seed": seed})
    run = subprocess.run(
        [sys.executable, "-I", str(copy), inputs, "--hash", good],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "equals" in lines[0]
    ruleset = registry.get("doudizhu")
    state = ruleset.new_game(ruleset.config_from_params({}), seed, 3)
    assert json.loads(lines[1]) == {"hands": state.hands, "dipai": state.dipai}
    bad = subprocess.run(
        [sys.executable, "-I", str(copy), inputs, "--hash", "0" * 64],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1 and "DIFFERS" in bad.stdout
    nonsense = subprocess.run(
        [sys.executable, "-I", str(copy), '{"game": "chess"}'],
        capture_output=True,
        text=True,
        check=False,
    )
    assert nonsense.returncode == 2 and "unknown game" in nonsense.stderr


def _wheel_round():
    """A settled 大豐收 round (one bet of 10 on 蘋果, closed and settled by the clock)."""
    from games.tests.test_dafengshou_rounds import first_round_settled
    from lobby.models import Room

    room = Room.objects.create(
        name="大豐收",
        game="dafengshou",
        variant="classic",
        seats=1,
        base_score=1,
        factor=1,
        min_beans=0,
        turn_seconds=15,
        extra={"bet_seconds": 15, "spin_seconds": 5, "chips": [10, 100, 1000]},
    )
    from accounts import services
    from ledger import services as ledger

    user = services.user_register(username="wheeler", password="pw-123456", nickname="轉盤客")
    ledger.staff_grant(staff=None, user=user, amount=10000, reason="test", correction=True)
    return room, first_round_settled(room, user), user


def _open(browser, base, user, url, size, language):
    from accounts.models import User
    from tests.live.conftest import login_cookie

    User.objects.filter(pk=user.pk).update(language=language)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    name, value = login_cookie(user).split("=", 1)
    context.add_cookies([{"name": name, "value": value, "url": base}])
    page = context.new_page()
    page.goto(base + url)
    page.wait_for_selector("#deal-browser[data-ok='1']", timeout=10000)
    return context, page


WORDS = {  # a phrase of the algorithm's description, per language
    "zh-hant": "洗牌用 Fisher–Yates",
    "zh-hans": "洗牌用 Fisher–Yates",
    "en": "Fisher–Yates",
}


@pytest.mark.browser
@pytest.mark.live
@pytest.mark.slow
def test_the_replay_and_wheel_pages_redeal_in_the_browser_and_say_how(servers, browser):
    """On a finished hand's replay and on a 大豐收 round's 驗證 page, at 390×844 and 1280×800,
    in 繁體, 简体 and English: the algorithm is described in words (no link to a repository
    path), the browser's own SHA-256 and re-deal tick ✓, it lists every seat's hand as it
    dealt them (the wheel's cell and lit cells), and the Python script it names downloads."""
    from games.tests.replay_hands import GAMES, finished_hand, room_for
    from tests.browser.test_replay_browser import _commits, _user

    spec = next(g for g in GAMES if g[:2] == ("paohuzi", "shuangwang"))
    users = [_user(i) for i in range(3)]
    hand = finished_hand(room_for(*spec), users, _commits)
    room, rnd, wheeler = _wheel_round()
    port = servers.daphne()
    base = f"http://127.0.0.1:{port}"
    names = [p["name"] for p in hand.players]
    for language in ("zh-hant", "zh-hans", "en"):
        for size in SIZES:
            context, page = _open(
                browser, base, users[0], f"/games/replay/{hand.pk}/", size, language
            )
            box = page.locator("#deal-browser")
            text = box.inner_text()
            assert WORDS[language] in text and "docs/" not in page.content()
            assert page.locator("#deal-browser .deal-hash.ok").count() == 1
            assert page.locator("#deal-browser .deal-result.ok").count() == 1
            rows = page.locator("#deal-hands li").all_inner_texts()
            for name in names:
                assert any(row.startswith(name) for row in rows), (name, rows)
            assert sum(len(r.split("：", 1)[1].split()) for r in rows[:3]) == 61  # 20+20+21
            assert hand.seed in page.inner_text(".deal-command")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size[0], ("no sideways scrolling", width)
            box.scroll_into_view_if_needed()
            shot(page, f"verify-replay-{language}-{size[0]}")
            download = page.request.get(base + page.get_attribute(".deal-script a", "href"))
            assert download.ok and "def deal_paohuzi" in download.text()
            context.close()
            context, page = _open(
                browser,
                base,
                wheeler,
                f"/games/wheel/{room.pk}/verify/{rnd.number}/",
                size,
                language,
            )
            text = page.inner_text("#deal-browser")
            assert WORDS[language] in text and "docs/" not in page.content()
            assert page.locator("#deal-browser .deal-result.ok").count() == 1
            rows = page.locator("#deal-hands li").all_inner_texts()
            assert any(str(rnd.outcome["cell"]) in row for row in rows), rows
            assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
            shot(page, f"verify-wheel-{language}-{size[0]}")
            context.close()
