"""Pages and the admin answer a logged-in player in their profile language."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.auth import player_language_activate


class PlayerLanguageMiddleware:
    """After Django's AuthenticationMiddleware: the session's player, when they set a
    language, overrides the Accept-Language choice of ``config.i18n``. The session is
    only read when the request has one (API requests with a token do not)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        player_language_activate(request, request.user)
        return self.get_response(request)
