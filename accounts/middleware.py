"""The middleware of pages and the admin: sessions, Django's authentication, the
session player's language and messages, none of which an API request with a token uses.

A request under ``/api/`` whose ``Authorization`` header names the token scheme
(:func:`accounts.auth.is_token_request`) is authenticated by its token in DRF or
refused there (``accounts.auth.TokenAuthentication``, which also answers in that
player's profile language); the session is never consulted, and no API view reads a
session or a message. So these four pass such a request straight on: a play request
spends 3.7 % fewer instructions and ``GET accounts/me/`` 9 % (issue #25,
``docs/benchmarks.md``), and their answers no longer say ``Vary: Cookie``, since no
cookie decides them. Every other request, the API's without a token
included, goes through them as through Django's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.middleware import (
    AuthenticationMiddleware as DjangoAuthenticationMiddleware,
)
from django.contrib.messages.middleware import MessageMiddleware as DjangoMessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.http import HttpRequest, HttpResponse

from accounts.auth import is_token_request, player_language_activate
from config.api_guard import API_PREFIX


def is_token_api_request(request: HttpRequest) -> bool:
    """An API request that carries a token (the header's presence tested first: the
    one test that every other request pays in each of these middleware)."""
    return (
        "HTTP_AUTHORIZATION" in request.META
        and request.path.startswith(API_PREFIX)
        and is_token_request(request)
    )


class _BrowserOnly:
    """Mixed in before a Django middleware: a token API request skips it."""

    get_response: Callable[[HttpRequest], Any]

    def __call__(self, request: HttpRequest) -> Any:
        if is_token_api_request(request):
            return self.get_response(request)
        return super().__call__(request)  # type: ignore[misc]


class SessionMiddleware(_BrowserOnly, DjangoSessionMiddleware):
    pass


class AuthenticationMiddleware(_BrowserOnly, DjangoAuthenticationMiddleware):
    pass


class MessageMiddleware(_BrowserOnly, DjangoMessageMiddleware):
    pass


class PlayerLanguageMiddleware:
    """After the authentication middleware: the session's player, when they set a
    language, overrides the Accept-Language choice of ``config.i18n``. The session is
    only read when the request has one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_token_api_request(request):
            player_language_activate(request, request.user)
        return self.get_response(request)
