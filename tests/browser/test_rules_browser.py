"""玩法說明, room names and the operator's pages in Chromium, at 390×844 and 1280×800.

The demo hall (seed_demo) in the three languages: a lobby card's 玩法說明 link opens its rules
page, which fits the screen (no sideways scrolling); the table page's header links the table's
rules; room names are in the page's language. The admin's room form and economy page in the
operator's language. Screenshots go to var/shots/rules-*.png.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from accounts.models import User
from tests.browser.conftest import register, shot
from tests.live.conftest import login_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]

SIZES = {"390": (390, 844), "1280": (1280, 800)}
HAN = re.compile(r"[\u3400-\u9fff]")


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, f"{page.url}: {width}px wide"


def _language(context, base: str, code: str) -> None:
    context.add_cookies([{"name": "django_language", "value": code, "url": base}])


@pytest.mark.parametrize("size", list(SIZES))
def test_rules_pages_from_the_lobby_and_the_table(servers, browser, size):
    """From a lobby card to its rules page in three languages (fits the screen, names the
    玩法), rooms named in the page's language, and the table page's rules link in its header."""
    call_command("seed_demo")
    base = f"http://127.0.0.1:{servers.daphne('web')}"
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    register(page, base, f"rules{size}")
    card = page.locator(".room-card", has_text="癩子場")
    card.locator(".rules-link").click()
    page.wait_for_url(re.compile(r"/rules/doudizhu/laizi/"))
    assert page.locator("h1").inner_text().startswith("歡樂斗地主 玩法說明")
    assert page.locator(".rules-variants .tab.active").inner_text() == "癩子場"
    assert "軟炸彈" in page.inner_text(".rules-body")
    _fits(page)
    shot(page, f"rules-doudizhu-laizi-zh-hant-{size}")
    for code, heading in (("zh-hans", "欢乐斗地主 玩法说明"), ("en", "How to play")):
        _language(context, base, code)
        page.goto(f"{base}/rules/mahjong_yueqing/wuhanhua/" if code == "en" else page.url)
        assert (
            page.locator("h1")
            .inner_text()
            .startswith(heading if code != "en" else "How to play Yueqing Mahjong")
        )
        _fits(page)
        shot(page, f"rules-{'mahjong_yueqing' if code == 'en' else 'doudizhu-laizi'}-{code}-{size}")
        page.goto(f"{base}/")
        names = page.locator(".room-name").all_inner_texts()
        if code == "en":
            assert "Wild-card room" in names and not any(HAN.search(n) for n in names), names
        else:
            assert "癞子场" in names, names
        _fits(page)
        shot(page, f"rules-lobby-{code}-{size}")
    _language(context, base, "zh-hant")
    page.goto(f"{base}/")
    page.locator(".room-card", has_text="新手場").locator(".quick-join").click()
    page.wait_for_url(re.compile(r"/games/table/\d+/"))
    link = page.locator("#table-rules")
    assert link.is_visible()
    assert link.get_attribute("href") == "/rules/doudizhu/classic/"
    box = link.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    shot(page, f"rules-table-link-{size}")
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_operators_room_form_and_economy_in_his_language(servers, browser, size):
    """An English-speaking operator adds a 三張 room with impossible settings: every refusal is
    English, on its field; a new 樂清 room offers 4 seats; the economy page lists bots apart."""
    call_command("seed_demo")
    staff = User.objects.create(username=f"op{size}", is_staff=True, is_superuser=True)
    base = f"http://127.0.0.1:{servers.daphne('web')}"
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies(
        [
            {"name": "sessionid", "value": login_cookie(staff).split("=", 1)[1], "url": base},
            {"name": "django_language", "value": "en", "url": base},
        ]
    )
    page = context.new_page()
    page.goto(f"{base}/admin/lobby/room/add/?game=mahjong_yueqing")
    assert page.input_value("#id_seats") == "4"
    page.goto(f"{base}/admin/lobby/room/add/?game=zhajinhua")
    page.fill("#id_name", "Bad room")
    page.fill("#id_base_score", "0")
    page.fill("#id_seats", "9")
    page.fill("#id_min_beans", "5000")
    page.fill("#id_max_beans", "100")
    page.fill("#id_turn_seconds", "0")
    page.click("input[name=_save]")
    page.wait_for_selector(".errornote")
    errors = " ".join(page.locator(".errorlist").all_inner_texts())
    assert "The base must be at least 1" in errors
    assert "Most beans 100 is below the fewest beans 5000" in errors
    assert "The turn clock must be at least 3 seconds" in errors
    # only game terms with their English gloss, as every English page shows them
    assert not HAN.search(re.sub(r"[\u3400-\u9fff]+ \([^)]*\)", "", errors)), errors
    assert "constraint" not in errors.lower() and "ante" not in errors
    shot(page, f"rules-admin-room-refused-en-{size}")
    page.goto(f"{base}/admin/")
    index = page.inner_text("#content-main")
    assert "Transfers" in index and "Postings" in index and "Login attempts" in index
    _language(context, base, "zh-hant")
    page.goto(f"{base}/admin/")
    index = page.inner_text("#content-main")
    assert "轉帳" in index and "分錄" in index and "登入嘗試" in index
    assert "Transfers" not in index and "Access attempts" not in index
    page.goto(f"{base}/admin/accounts/taskdefinition/add/")
    options = page.locator("#id_game option").all_inner_texts()
    assert "歡樂斗地主" in options and "xyz" not in options
    shot(page, f"rules-admin-task-game-zh-hant-{size}")
    page.goto(f"{base}/admin/economy/")
    assert page.locator("#econ-bots-created").is_visible()
    shot(page, f"rules-admin-economy-zh-hant-{size}")
    context.close()
