"""The token cache (issue #25, item 1): a token found once is taken from the shared
cache by the next requests, without a query, and every change that must end or alter
it (log-out, a log-in beyond the limit, a profile change, a deactivation) reaches the
very next request. Runs on the configured cache: local memory by default, Redis with
``REDIS_URL``."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from knox.crypto import hash_token
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import services
from accounts.auth import _token_cache_key
from accounts.models import User
from tests.factories import make_player

pytestmark = pytest.mark.django_db

ME = "/api/v1/accounts/me/"


@pytest.fixture(autouse=True)
def token_cache():
    with override_settings(AUTH_TOKEN_CACHE_SECONDS=30):
        cache.clear()
        yield
    cache.clear()


def authed(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def new_token(user: User) -> tuple[str, APIClient]:
    key = services.user_token_create(user=user)
    return key, authed(key)


def test_a_token_seen_once_is_checked_without_a_query():
    user, _ = make_player()
    _key, client = new_token(user)
    assert client.get(ME).status_code == 200  # from the database, then kept
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(ME)
    assert answer.status_code == 200 and answer.json()["username"] == user.username
    assert len(queries) == 0, [q["sql"] for q in queries]


def test_a_logged_out_token_is_refused_by_the_next_request():
    user, _ = make_player()
    _key, laptop = new_token(user)
    _key, phone = new_token(user)
    for client in (laptop, phone):
        assert client.get(ME).status_code == 200  # both cached
    assert phone.post("/api/v1/accounts/logout/").status_code == 204
    assert phone.get(ME).status_code == 401
    assert phone.post("/api/v1/games/", {"mode": "solo"}, format="json").status_code == 401
    assert laptop.get(ME).status_code == 200


def test_a_request_that_read_the_token_before_the_log_out_cannot_put_it_back():
    user, _ = make_player()
    key, client = new_token(user)
    token = AuthToken.objects.select_related("user").get(digest=hash_token(key))
    assert client.get(ME).status_code == 200
    assert client.post("/api/v1/accounts/logout/").status_code == 204
    # What a request still holding the token it read before the log-out would store.
    assert cache.add(_token_cache_key(token.digest), token, 30) is False
    assert client.get(ME).status_code == 401


def test_a_token_ended_by_a_log_in_beyond_the_limit_is_refused_at_once():
    user, _ = make_player()
    key, oldest = new_token(user)
    assert oldest.get(ME).status_code == 200
    for _ in range(services.TOKENS_PER_PLAYER):
        services.user_token_create(user=user)
    assert not AuthToken.objects.filter(digest=hash_token(key)).exists()
    assert oldest.get(ME).status_code == 401


def test_a_profile_change_shows_in_the_next_request():
    user, _ = make_player()
    _key, client = new_token(user)
    assert client.get(ME).json()["display_name"] == user.display_name
    # Saved elsewhere (another process, the admin), not through this client.
    services.user_update(user=User.objects.get(pk=user.pk), data={"display_name": "Renamed"})
    assert client.get(ME).json()["display_name"] == "Renamed"
    answer = client.patch(ME, {"language": "de"}, format="json")
    assert answer.status_code == 200
    assert client.get(ME).json()["language"] == "de"
    # The player's language answers their errors from the next request on.
    refused = client.post("/api/v1/games/", {"mode": "nonsense"}, format="json")
    assert refused.status_code == 400 and refused.headers["Content-Language"] == "de"


def test_a_deactivated_player_is_refused_at_once():
    user, _ = make_player()
    _key, client = new_token(user)
    assert client.get(ME).status_code == 200
    user.is_active = False
    user.save()
    assert client.get(ME).status_code == 401


def test_a_new_password_ends_every_token_at_once():
    user, _ = make_player()
    _key, laptop = new_token(user)
    _key, phone = new_token(user)
    assert laptop.get(ME).status_code == 200 and phone.get(ME).status_code == 200
    user.set_password("a-brand-new-passphrase-42")
    user.save()
    assert laptop.get(ME).status_code == 401
    assert phone.get(ME).status_code == 401


def test_a_deleted_player_is_refused_at_once():
    user, _ = make_player()
    _key, client = new_token(user)
    assert client.get(ME).status_code == 200
    services.user_delete(user=user)
    assert client.get(ME).status_code == 401


@override_settings(
    CACHES={
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            # Nothing listens there: every cache call fails at once.
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
)
def test_without_a_cache_tokens_are_checked_in_the_database():
    user, _ = make_player()
    key, client = new_token(user)
    assert client.get(ME).status_code == 200
    assert client.get(ME).status_code == 200
    assert client.post("/api/v1/accounts/logout/").status_code == 204
    assert client.get(ME).status_code == 401
    assert not AuthToken.objects.filter(digest=hash_token(key)).exists()
