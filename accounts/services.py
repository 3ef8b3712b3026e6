"""Account writes: registration, tokens and profile changes."""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.cache import cache
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken

import yatzy
from accounts import hooks
from accounts.models import SHOWN_NAME_TAKEN, USERNAME_TAKEN, User, shown_name_taken
from accounts.names import display_name_clean, name_key, username_check, username_normalize
from config.api_errors import ConflictError, ServiceError

logger = logging.getLogger(__name__)


def user_create(
    *, username: str, password: str, display_name: str = "", form_key: str = ""
) -> User:
    """Create a player (the pages' sign-up, which logs in with a session).

    Usernames are NFKC-normalised and unique by their key (NFKC + case folding). Raises
    ``ServiceError`` with code ``invalid_username`` or ``invisible_name`` for a name
    that is not one, ``weak_password`` when Django's validators refuse the password and
    ``ConflictError(code="username_taken")`` when the name is in use (as a username, or
    as the name another player is shown by); ``display_name_taken`` when the display
    name is another player's shown name.

    ``form_key`` is the sign-up form's one-time key (new each time the form is shown):
    the form that created a player, posted again within ``FORM_KEY_SECONDS`` with the
    same username and password (a double click, a post retried after a lost answer),
    returns that player instead of ``username_taken``. Another form (another browser)
    or another password is still refused as taken.
    """
    candidate = _user_candidate(username, password, display_name)
    posted_before = False
    if form_key:
        # Kept before the insert (a second post may find the name taken while the first
        # is still between its insert and its answer), and only by the form's first post.
        try:
            posted_before = not cache.add(
                _form_key_cache_key(form_key), name_key(candidate.username), FORM_KEY_SECONDS
            )
        except Exception as exc:  # the sign-up goes on; a second post is then refused
            logger.warning("sign-up form key not kept: cache unavailable (%s)", type(exc).__name__)
    try:
        return _user_insert(candidate)
    except ConflictError as exc:
        taken = exc.code == "username_taken"
        again = _created_by_form(form_key, username, password) if taken and posted_before else None
        if again is None:
            raise
        return again


# How long a sign-up form's key remembers the name it was posted with.
FORM_KEY_SECONDS = 600


def _form_key_cache_key(form_key: str) -> str:
    return "accounts:signup-form:" + hashlib.sha256(form_key.encode()).hexdigest()


def _created_by_form(form_key: str, username: str, password: str) -> User | None:
    """The player of ``username`` where the sign-up form ``form_key`` was posted with
    that name before and ``password`` is theirs (the form's first post created them);
    else None."""
    if not form_key:
        return None
    try:
        posted = cache.get(_form_key_cache_key(form_key))
    except Exception as exc:
        logger.warning("sign-up form key not read: cache unavailable (%s)", type(exc).__name__)
        return None
    key = name_key(username_normalize(username))
    user = User.objects.filter(username_key=key).first() if posted == key else None
    return user if user is not None and user.check_password(password) else None


def user_register(*, username: str, password: str, display_name: str = "") -> tuple[User, str]:
    """Create a player (:func:`user_create`) and their first API token; returns both
    (``POST accounts/register/``)."""
    # The checks and the password's hash (a fifth of a second of CPU) come before the
    # transaction: SQLite holds its one write lock from a transaction's start, and
    # concurrent sign-ups would queue behind each other's hashing until they time out.
    candidate = _user_candidate(username, password, display_name)
    with transaction.atomic():
        user = _user_insert(candidate)
        return user, user_token_create(user=user)


def _user_candidate(username: str, password: str, display_name: str) -> User:
    """The new player, checked and with the password hashed, not yet stored."""
    name = username_normalize(username)
    try:
        username_check(name)
    except DjangoValidationError as exc:
        raise ServiceError(" ".join(exc.messages), code="invalid_username") from exc
    candidate = User(username=name, display_name=_display_name(display_name))
    if not password.strip():  # taken as typed, spaces are no password (they were blank)
        raise ServiceError(_("A password needs more than spaces."), code="weak_password")
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise ServiceError(" ".join(exc.messages), code="weak_password") from exc
    candidate.set_password(password)
    return candidate


def _user_insert(candidate: User) -> User:
    # ON CONFLICT DO NOTHING: a taken name is no database error, so the server never
    # logs the refused INSERT with the password hash in it. (The insert computes the
    # candidate's username_key.)
    User.objects.bulk_create([candidate], ignore_conflicts=True)
    created = User.objects.filter(
        username_key=candidate.username_key, password=candidate.password
    ).first()
    if created is None:
        # Refused by a unique key: the username's, or the shown name's (the display
        # name given, or a username another player shows as their display name).
        if (
            candidate.display_name
            and not User.objects.filter(username_key=candidate.username_key).exists()
        ):
            raise _shown_name_taken()
        raise ConflictError(USERNAME_TAKEN, code="username_taken")
    return created


def _shown_name_taken() -> ConflictError:
    return ConflictError(SHOWN_NAME_TAKEN, code="display_name_taken")


# A player may be logged in with this many tokens at once (a terminal client on each
# machine, scripts); a log-in beyond it ends the oldest one.
TOKENS_PER_PLAYER = 20


def user_authenticate(*, request: HttpRequest | None, username: str, password: str) -> User | None:
    """The player whose username and password these are, else ``None``: the log-in of
    the pages and of the API. The password as typed, spaces at its ends included; one
    stored before 2026-12-06 was stored without them (sign-up trimmed them, on the API
    and on the page, and the API's log-in did too), and its player may still type them:
    such a password that does not match as typed is tried without them."""
    user = authenticate(request=request, username=username, password=password)
    if user is None and password.strip() != password:
        user = authenticate(request=request, username=username, password=password.strip())
    return user if isinstance(user, User) else None


def user_token_create(*, user: User) -> str:
    """A new API token for the player (one per log-in): the key is returned this once
    and only its digest is stored, so neither a database dump nor the admin shows a
    usable token. The player's oldest tokens beyond ``TOKENS_PER_PLAYER`` are deleted,
    under the player's lock: concurrent log-ins each counted only their own new token
    and left more."""
    with transaction.atomic():
        player_lock(player=user)
        _row, key = AuthToken.objects.create(user=user, expiry=None)
        keep = AuthToken.objects.filter(user=user).order_by("-created", "-pk")
        stale = keep.values_list("pk", flat=True)[TOKENS_PER_PLAYER:]
        AuthToken.objects.filter(pk__in=list(stale)).delete()
    return str(key)


def user_logout(*, user: User, token: AuthToken | None) -> None:
    """End the log-in of ``token`` (the one the request came with): the player's other
    tokens (another machine, another client) stay valid. A request without a token (a
    page's session) has none to end."""
    if token is not None:
        AuthToken.objects.filter(pk=token.pk, user=user).delete()


def _display_name(name: str) -> str:
    try:
        return display_name_clean(name)
    except DjangoValidationError as exc:
        raise ServiceError(" ".join(exc.messages), code="invisible_name") from exc


def player_lock(*, player: User) -> None:
    """Inside a transaction: wait for, then hold, the player's row lock until it ends,
    so that one player's concurrent requests checking a quota (unfinished games, custom
    tables, rounds on one seed) and then writing run one after the other. PostgreSQL:
    ``SELECT … FOR UPDATE`` on the player's row (a statement after it sees what the
    previous holder committed); SQLite: every transaction already holds the database's
    write lock from its start (``transaction_mode`` IMMEDIATE, config/settings.py)."""
    User.objects.select_for_update().filter(pk=player.pk).values_list("pk").first()


PROFILE_FIELDS = ("display_name", "language", "time_zone", "ruleset", "options")


def user_update(*, user: User, data: dict[str, Any]) -> User:
    """Apply profile fields. The ruleset and options of new games are checked by the
    engine (its ``RulesetError``, 400 with its code, changes nothing); a new ruleset
    without options starts from that ruleset's defaults. A display name another player
    is shown by (their display name, or their username without one; compared by
    :func:`accounts.names.name_key`) is 409 ``display_name_taken``."""
    changes = {field: data[field] for field in PROFILE_FIELDS if field in data}
    if "display_name" in changes:
        changes["display_name"] = _display_name(changes["display_name"])
    try:
        with transaction.atomic():
            if "ruleset" in changes or "options" in changes:
                # Checked against the ruleset and options as stored now, under the
                # player's lock: a concurrent change of the other one (the ruleset
                # beside new options) had stored options the ruleset does not have.
                player_lock(player=user)
                stored = User.objects.values("ruleset", "options").get(pk=user.pk)
                ruleset = changes.get("ruleset", stored["ruleset"])
                if "options" not in changes and ruleset != stored["ruleset"]:
                    changes["options"] = {}  # a new ruleset starts from its defaults
                # Raises for a bad name, option or value. The options are stored as
                # given, not with every default spelled out.
                yatzy.get_ruleset(ruleset, **changes.get("options", stored["options"]))
            if "display_name" in changes and shown_name_taken(
                User(pk=user.pk, username=user.username, **changes)
            ):
                raise _shown_name_taken()
            for field, value in changes.items():
                setattr(user, field, value)
            user.save(update_fields=list(changes))
    except IntegrityError:  # the same name taken by a concurrent change since the check
        user.refresh_from_db()
        raise _shown_name_taken() from None
    return user


def user_delete(*, user: User) -> None:
    """Delete a player with everything they played. Their lines leave the boards first,
    so every other player's rank and every board's count stay right at once, not only
    after the nightly reconcile."""
    with transaction.atomic():
        hooks.player_deleting(player_id=user.pk)
        user.delete()
