"""The authenticated player of a request, typed as one."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotAuthenticated

from accounts.models import User


def player_of(request: Any) -> User:
    """The request's player. Views behind ``IsAuthenticated`` always have one; anything
    else (an anonymous user) is 401, never a type confusion further down."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user
