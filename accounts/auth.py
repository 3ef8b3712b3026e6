"""The authenticated player of a request, typed as one, the player's language, and the
API's tokens: ``Authorization: Token <key>``, each key stored only as its SHA-512 digest
(django-rest-knox), found by one indexed query, or by its digest in the shared cache
for ``AUTH_TOKEN_CACHE_SECONDS`` after that (see :class:`TokenAuthentication`)."""

from __future__ import annotations

import logging
from hmac import compare_digest
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox import auth as knox_auth
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS, knox_settings
from rest_framework.authentication import get_authorization_header
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated
from rest_framework.request import Request

from accounts.models import User
from config.i18n import language_activate_for_player
from config.throttling import cache_get_counting

logger = logging.getLogger(__name__)

# What an invalidated token's cache entry holds instead of the token: "ask the
# database", for longer than any request that read the token before the change can run
# (gunicorn kills a worker after 30 s), so such a request cannot put it back.
_STALE = "stale"
_STALE_MARGIN_SECONDS = 120


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


# The scheme word of TokenAuthentication's header ("Token"), as knox compares it.
_TOKEN_SCHEME = knox_settings.AUTH_HEADER_PREFIX.encode().lower()


def is_token_request(request: HttpRequest) -> bool:
    """Whether :class:`TokenAuthentication` decides who sends this request: its
    ``Authorization`` header names the token scheme (knox's own test, case-insensitive),
    so the request is authenticated by its token or refused, and no other way of
    authenticating (the session's) is ever consulted."""
    parts = get_authorization_header(request).split()  # type: ignore[arg-type]  # reads META
    return bool(parts) and parts[0].lower() == _TOKEN_SCHEME


def _token_cache_key(digest: str) -> str:
    return f"auth:token:{digest}"


def _token_cache_seconds() -> int:
    seconds: int = settings.AUTH_TOKEN_CACHE_SECONDS
    return seconds


class TokenAuthentication(knox_auth.TokenAuthentication):
    """``Authorization: Token <key>`` against knox's hashed tokens; ``request.auth`` is
    the ``AuthToken`` in use (log-out deletes that one). The player it finds is answered
    in their profile language from here on: their throttling, validation and service
    errors included. An unknown token is refused in the header's language.

    The look-up is one query on the indexed ``token_key`` (the key's first 15
    characters) with the player joined; the digest is compared in constant time. Knox's
    own look-up also reads all of the player's other tokens on every request, to
    delete expired ones: these tokens have no expiry (``REST_KNOX["TOKEN_TTL"]`` is
    ``None``), so there is nothing to clean.

    With ``AUTH_TOKEN_CACHE_SECONDS`` (on where the cache is shared by every web
    process: Redis), a token found in the database is kept, with its player, in the
    cache under its digest for that long, and the next requests take it from there:
    one cache read instead of a query. Deleting a token (log-out, a log-in beyond the
    limit, the player deleted) or saving its player (profile, password, deactivation)
    replaces the entries of the player's tokens by a marker that sends the look-up to
    the database (:func:`token_cache_invalidate`), so a logged-out token is refused by
    the next request in every process. Entries are only ever added where none is, so a
    request that read the token before the change cannot put it back. A cache that
    does not answer sends the look-up to the database."""

    _request: Request | None = None

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        self._request = request
        found = super().authenticate(request)
        if found is not None:
            player_language_activate(request._request, found[0])
        return found

    def authenticate_credentials(self, token: bytes) -> tuple[Any, AuthToken]:
        key = token.decode("utf-8", "replace")
        digest = hash_token(key)
        seconds = _token_cache_seconds()
        cached: Any = None
        if seconds:
            try:
                cached = self._cached(digest)
            except Exception as exc:
                logger.warning("token cache unavailable (%s)", type(exc).__name__)
                cached = _STALE
            if isinstance(cached, AuthToken) and cached.expiry is None:
                user, found = self.validate_user(cached)
                _token_player_remember(digest, user.pk)
                return user, found
        candidates = AuthToken.objects.filter(
            token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH]
        ).select_related("user")
        for auth_token in candidates:
            expired = auth_token.expiry is not None and auth_token.expiry < timezone.now()
            if not expired and compare_digest(digest, auth_token.digest):
                user, found = self.validate_user(auth_token)
                _token_player_remember(digest, user.pk)
                if seconds and cached is None:
                    try:
                        cache.add(_token_cache_key(digest), auth_token, seconds)
                    except Exception as exc:
                        logger.warning("token cache unavailable (%s)", type(exc).__name__)
                return user, found
        raise AuthenticationFailed(_("Invalid token."))

    def _cached(self, digest: str) -> Any:
        """The token's cache entry. Once this process has seen the token's player, the
        request's throttles are counted for that player in the same round trip
        (``config.throttling.cache_get_counting``): a token never changes player, so
        the count is the one the throttle check would make after authentication."""
        player = _TOKEN_PLAYERS.get(digest)
        if player is None or self._request is None:
            return cache.get(_token_cache_key(digest))
        return cache_get_counting(self._request, _token_cache_key(digest), player=player)


# The player of each token digest this process has authenticated: a fact that never
# changes (a token is deleted, never moved), so no entry is ever stale; only bounded.
_TOKEN_PLAYERS: dict[str, int] = {}
_TOKEN_PLAYERS_MAX = 50_000


def _token_player_remember(digest: str, player: int) -> None:
    if len(_TOKEN_PLAYERS) >= _TOKEN_PLAYERS_MAX:
        _TOKEN_PLAYERS.clear()
    _TOKEN_PLAYERS[digest] = player


def token_cache_invalidate(digests: list[str]) -> None:
    """Send the next look-up of these tokens to the database (see
    :class:`TokenAuthentication`). A cache that does not answer is logged: its entries
    end within ``AUTH_TOKEN_CACHE_SECONDS`` anyway."""
    seconds = _token_cache_seconds()
    if not seconds or not digests:
        return
    try:
        cache.set_many(
            dict.fromkeys(map(_token_cache_key, digests), _STALE),
            seconds + _STALE_MARGIN_SECONDS,
        )
    except Exception as exc:
        logger.error("token cache not invalidated (%s)", type(exc).__name__)


@receiver(post_delete, sender=AuthToken)
def _token_deleted(sender: Any, instance: AuthToken, **kwargs: Any) -> None:
    token_cache_invalidate([instance.digest])


@receiver(post_save, sender=User)
def _player_saved(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
    if created:
        return
    # A new password (``set_password`` since the last save: the admin's form,
    # ``changepassword``) ends every log-in, as it ends Django's sessions: whoever held
    # a token is shut out. Deleting them invalidates their cache entries
    # (``_token_deleted``). A log-in that stores the same password hashed anew
    # (``check_password``'s upgrade) has cleared ``_password`` before saving.
    if getattr(instance, "_password", None) is not None:
        AuthToken.objects.filter(user_id=instance.pk).delete()
        return
    if _token_cache_seconds():
        token_cache_invalidate(
            list(AuthToken.objects.filter(user_id=instance.pk).values_list("digest", flat=True))
        )


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The schema's security scheme for these tokens, under the name it always had
    (``tokenAuth``), so generated clients keep their ``Authorization: Token`` setting."""

    target_class = "accounts.auth.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        scheme: dict[str, Any] = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )
        return scheme
