"""A play request's token read and its throttle in one Redis round trip (issue #25):
once a web process has seen a token's player, the token's cache entry is read and the
view's throttles are counted for that player by one script. The count is the one the
throttle check would make (each request once, on the player's own log), and a
logged-out token is still refused by the very next request. Redis only: the embedded
default keeps no token cache."""

from __future__ import annotations

from typing import Any

import pytest
import redis.connection
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.auth import _TOKEN_PLAYERS
from daily import clock
from games import services
from tests.factories import make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_cache(settings):
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: the token cache and the gate are Redis's")
    settings.AUTH_TOKEN_CACHE_SECONDS = 30
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "play": "4/minute",
        },
    }
    cache.clear()
    _TOKEN_PLAYERS.clear()
    yield
    cache.clear()


@pytest.fixture
def round_trips(monkeypatch):
    """How many commands (or pipelines, or scripts) this process sends to Redis."""
    sent: list[Any] = []
    send = redis.connection.AbstractConnection.send_packed_command

    def counted(self, command, check_health=True):
        sent.append(command)
        return send(self, command, check_health)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counted)
    return sent


def roll(client: APIClient, round_id: str, turn: int, roll: int) -> Any:
    return client.post(
        f"/api/v1/rounds/{round_id}/roll/",
        {"hold": [], "turn": turn, "roll": roll},
        format="json",
    )


def rounds_of(user) -> list[str]:
    """Four practice rounds, one roll each (a turn has three)."""
    first, _ = services.round_start_daily(player=user, day=clock.today())
    ids = [str(first.id)]
    for _ in range(3):
        rnd = services.game_start(player=user, mode="solo", ruleset="maxi")
        ids.append(str(rnd.id))
    return ids


def test_after_the_first_request_token_and_throttle_take_one_round_trip(redis_cache, round_trips):
    user, client = make_player()
    first, second, *_ = rounds_of(user)
    assert roll(client, first, 0, 0).status_code == 200  # player unknown: read, then count
    assert len(round_trips) >= 2
    round_trips.clear()
    assert roll(client, second, 0, 0).status_code == 200
    assert len(round_trips) == 1, round_trips


def test_each_request_counts_once_on_its_players_log(redis_cache):
    user, client = make_player()
    _other, other_client = make_player()
    rounds = rounds_of(user)
    assert [roll(client, rnd, 0, 0).status_code for rnd in rounds] == [200] * 4
    # Another player's requests count on their own log.
    other_round, _ = services.round_start_daily(player=_other, day=clock.today())
    assert roll(other_client, str(other_round.id), 0, 0).status_code == 200
    refused = roll(client, rounds[0], 0, 1)
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert 0 < int(refused.headers["Retry-After"]) <= 60


def test_a_logged_out_token_is_refused_by_the_next_throttled_request(redis_cache):
    user, client = make_player()
    first, second, *_ = rounds_of(user)
    assert roll(client, first, 0, 0).status_code == 200
    assert client.post("/api/v1/accounts/logout/").status_code in (200, 204)
    refused = roll(client, second, 0, 0)
    assert refused.status_code == 401
    assert refused.json()["code"] in ("authentication_failed", "not_authenticated")
