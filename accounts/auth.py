"""The authenticated player of a request, typed as one, the player's language, and the
API's tokens: ``Authorization: Token <key>``, each key stored only as its SHA-512 digest
(django-rest-knox), found by one indexed query."""

from __future__ import annotations

from hmac import compare_digest
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox import auth as knox_auth
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated
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


class TokenAuthentication(knox_auth.TokenAuthentication):
    """``Authorization: Token <key>`` against knox's hashed tokens; ``request.auth`` is
    the ``AuthToken`` in use (log-out deletes that one). The player it finds is answered
    in their profile language from here on: their throttling, validation and service
    errors included. An unknown token is refused in the header's language.

    The look-up is one query on the indexed ``token_key`` (the key's first 15
    characters) with the player joined; the digest is compared in constant time. Knox's
    own look-up also reads all of the player's other tokens on every request, to
    delete expired ones: these tokens have no expiry (``REST_KNOX["TOKEN_TTL"]`` is
    ``None``), so there is nothing to clean."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        found = super().authenticate(request)
        if found is not None:
            player_language_activate(request._request, found[0])
        return found

    def authenticate_credentials(self, token: bytes) -> tuple[Any, AuthToken]:
        key = token.decode("utf-8", "replace")
        candidates = AuthToken.objects.filter(
            token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH]
        ).select_related("user")
        digest = hash_token(key)
        for auth_token in candidates:
            expired = auth_token.expiry is not None and auth_token.expiry < timezone.now()
            if not expired and compare_digest(digest, auth_token.digest):
                user, found = self.validate_user(auth_token)
                return user, found
        raise AuthenticationFailed(_("Invalid token."))


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
