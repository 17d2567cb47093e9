"""Chinese first: the language comes from the switch (cookie), never from the browser's header."""

from django.utils.deprecation import MiddlewareMixin


class ChineseFirstMiddleware(MiddlewareMixin):
    def process_request(self, request):
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
