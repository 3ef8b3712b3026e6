"""The authenticated player of a request, typed as one, and the player's language."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest
from rest_framework import authentication
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request

from accounts.models import User
from config.i18n import language_activate_for_player


def player_of(request: Any) -> User:
    """The request's player. Views behind ``IsAuthenticated`` always have one; anything
    else (an anonymous user) is 401, never a type confusion further down."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


def player_language_activate(request: HttpRequest, user: AbstractBaseUser | AnonymousUser) -> None:
    """Answer in the player's profile language when they set one (blank: they follow
    their browser's Accept-Language, which config.i18n already applied)."""
    if isinstance(user, User) and user.language:
        language_activate_for_player(request, user.language)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's ``Authorization: Token …``; the player it finds is answered in their
    profile language from here on: their throttling, validation and service errors
    included. An unknown token is refused in the header's language."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        found = super().authenticate(request)
        if found is not None:
            player_language_activate(request._request, found[0])
        return found
