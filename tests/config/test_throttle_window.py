"""The throttles' count (``config.throttling.ScopedThrottle``) on the cache each
deployment has: Redis (``config.cache.Cache``, the request log in one Lua script) where
``REDIS_URL`` is set, and DRF's own code on a process's memory (the embedded default).
Both must say the same at the period's edges; the clock is the throttle's timer."""

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import RequestFactory
from rest_framework.request import Request

from accounts.models import User
from config.cache import Cache
from config.throttling import ScopedThrottle

START = 6000.0


class PlayView:
    throttle_scope = "play"


@pytest.fixture(params=["memory", "redis"])
def cache(request, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"play": "3/minute"},
    }
    if request.param == "memory":
        return LocMemCache(f"throttle-{request.node.name}", {})
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: no Redis to run the script on")
    shared = caches["default"]
    assert isinstance(shared, Cache)
    return shared


@pytest.fixture
def player_request():
    request = Request(RequestFactory().post("/"))
    request.user = User(pk=424242, username="throttled")
    return request


def hit(cache, request, at: float) -> float | None:
    """``None`` if a request at ``at`` is allowed, else the throttle's wait."""
    throttle = ScopedThrottle()
    throttle.cache = cache
    throttle.timer = lambda: at
    return None if throttle.allow_request(request, PlayView()) else throttle.wait()


def test_three_a_minute_counts_three_and_refuses_until_the_first_leaves(cache, player_request):
    assert [hit(cache, player_request, START + t) for t in (0, 10, 20)] == [None] * 3
    refused = [hit(cache, player_request, START + 30) for _ in range(2)]
    # Refusals are not counted; the first request leaves the minute at START + 60.
    assert refused == [pytest.approx(30.0)] * 2
    assert hit(cache, player_request, START + 59.9) is not None
    assert hit(cache, player_request, START + 60) is None  # a period old: it no longer counts
    assert hit(cache, player_request, START + 65) is not None  # START + 10 still counts
    assert hit(cache, player_request, START + 70) is None


def test_the_service_throttles_on_the_redis_log_which_expires_after_a_period():
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set")
    shared = caches["default"]
    assert hasattr(ScopedThrottle().cache, "throttle_log_hit")  # the service's throttle uses it
    assert shared.throttle_log_hit("throttle:expiry", limit=3, period=60, now=START) is None
    client = shared._cache.get_client()
    assert 0 < client.ttl(shared.make_key("throttle:expiry:log")) <= 60
