"""Account reads."""

from __future__ import annotations

from accounts.models import User
from config.api_errors import NotFoundError


def player_get(*, username: str) -> User:
    """The player of ``username``, read as log-in reads it (NFKC, any case); 404
    ``player_not_found`` when there is none.

    A username is public (it is on every board), so looking one up tells nothing new.
    """
    try:
        return User.objects.get_by_natural_key(username)
    except User.DoesNotExist:
        raise NotFoundError("No such player.", code="player_not_found") from None
