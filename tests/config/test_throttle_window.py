"""The throttles' sliding window counter (``config.throttling.window_hit``), on the
cache each deployment has: Redis (``config.cache.Cache``, one Lua script) where
``REDIS_URL`` is set, and a process's own memory (the embedded default) always. The
clock is passed in, so the windows' edges are exact."""

import uuid

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache

from config.cache import Cache
from config.throttling import window_hit

START = 6000.0  # the start of a 60 s window


@pytest.fixture(params=["memory", "redis"])
def cache(request):
    if request.param == "memory":
        return LocMemCache(f"throttle-{uuid.uuid4()}", {})
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: no Redis to test the script on")
    shared = caches["default"]
    assert isinstance(shared, Cache)
    return shared


def hits(cache, at: float, n: int, key: str) -> list[float | None]:
    return [window_hit(cache, key, limit=3, period=60, now=at) for _ in range(n)]


def test_three_a_minute_counts_three_and_refuses_the_rest_of_the_window(cache):
    key = f"throttle:{uuid.uuid4()}"
    assert hits(cache, START, 3, key) == [None, None, None]
    refused = hits(cache, START + 20, 2, key)
    assert refused == [pytest.approx(40.0), pytest.approx(40.0)]  # refusals are not counted


def test_the_previous_window_counts_as_much_of_it_as_is_still_within_a_minute(cache):
    key = f"throttle:{uuid.uuid4()}"
    assert hits(cache, START, 3, key) == [None] * 3
    # At the next window's start the three are still a whole minute's worth…
    assert window_hit(cache, key, limit=3, period=60, now=START + 60) == pytest.approx(0.001)
    # …half-way through it they weigh 1.5: two more fit (1.5 + 1, then 1.5 + 2 is over).
    assert hits(cache, START + 90, 3, key)[:2] == [None, None]
    # The next fits once their weight is under 1 (3 × 1/3 + 2 = 3 is not under 3):
    # at START + 100, that is 10 s after the refusal at START + 90.
    assert window_hit(cache, key, limit=3, period=60, now=START + 90) == pytest.approx(10.001)
    assert window_hit(cache, key, limit=3, period=60, now=START + 99) is not None
    assert window_hit(cache, key, limit=3, period=60, now=START + 101) is None


def test_a_window_two_minutes_back_counts_for_nothing(cache):
    key = f"throttle:{uuid.uuid4()}"
    assert hits(cache, START, 3, key) == [None] * 3
    assert hits(cache, START + 120, 3, key) == [None] * 3


def test_the_redis_counters_expire_after_two_periods():
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set")
    shared = caches["default"]
    key = f"throttle:{uuid.uuid4()}"
    assert window_hit(shared, key, limit=3, period=60, now=START) is None
    client = shared._cache.get_client()
    ttl = client.ttl(shared.make_key(f"{key}:{int(START // 60)}"))
    assert 0 < ttl <= 120
