"""Chromium through Playwright (Debian's chromium, never a downloaded browser)."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.live.conftest import servers  # noqa: F401  (re-exported fixture)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "var", "shots")


@pytest.fixture
def browser():
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # ORM checks beside Playwright's loop
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()


def shot(page, name: str) -> str:
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, f"{name}.png")
    page.screenshot(path=path, full_page=True)
    return path


def register(page, base: str, name: str) -> None:
    """Register through the form, as a new player does; lands on the lobby."""
    page.goto(f"{base}/accounts/register/")
    page.fill("#id_username", name)
    page.fill("#id_nickname", "測試玩家")
    page.fill("#id_password1", "a-Long-pass-2026")
    page.fill("#id_password2", "a-Long-pass-2026")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
