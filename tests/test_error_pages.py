"""Our own 404 and 500 pages (Chinese, with the way back) and the icon at /favicon.ico."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.views import defaults

pytestmark = pytest.mark.django_db


def test_an_unknown_address_gets_the_chinese_404_page():
    """A 404 is the site's page in the UI's language with a link to the lobby, not Django's."""
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'id="error-page"' in html and "找不到這個頁面" in html and 'href="/"' in html
    assert "Not Found" not in html and "tried" not in html


def test_a_view_s_own_reason_shows_on_the_404_page(make_user):
    """A table that does not exist: the page says so in the view's words."""
    client = Client()
    client.force_login(make_user())
    html = client.get("/games/table/999999/").content.decode()
    assert "沒有這張牌桌" in html and 'id="error-page"' in html


def test_the_500_page_renders_without_a_request_context():
    """The 500 page needs no database or user (it may be the database that failed)."""
    response = defaults.server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert "伺服器出錯了" in html and 'id="error-page"' in html and "Server Error" not in html


def test_the_favicon_is_served_at_favicon_ico():
    """/favicon.ico answers with the project's own SVG icon (no 404 in every browser log)."""
    response = Client().get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content and "max-age" in response["Cache-Control"]
