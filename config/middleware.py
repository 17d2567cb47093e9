"""Language selection: the switch (cookie) or the signed-in player's stored choice, never the
browser's Accept-Language header."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin


class ChineseFirstMiddleware(MiddlewareMixin):
    def process_request(self, request: HttpRequest) -> None:
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)


class UserLanguageMiddleware:
    """Apply a signed-in player's stored language, and store the switch's choice on him.

    Runs after the session's user is known (after AuthenticationMiddleware). A POST to Django's
    ``set_language`` that succeeded (it redirects) saves the chosen language on the user; on any
    other request the user's stored language is activated, and the language cookie is brought in
    line with it so the page stays in that language after logging out.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from accounts import services

        user = getattr(request, "user", None)
        stored = getattr(user, "language", "") if user and user.is_authenticated else ""
        if stored and stored != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(stored)
            request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        if user is None or not user.is_authenticated:
            return response
        match = getattr(request, "resolver_match", None)
        if match and match.view_name == "set_language" and request.method == "POST":
            chosen = request.POST.get("language", "")
            if response.status_code in (302, 204) and services.user_language_set(
                user=user, language=chosen
            ):
                stored = chosen
        cookie = settings.LANGUAGE_COOKIE_NAME
        if stored and request.COOKIES.get(cookie) != stored and not response.cookies.get(cookie):
            response.set_cookie(
                cookie,
                stored,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
