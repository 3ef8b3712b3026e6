"""The Redis cache backend reuses its client (config/cache.py, issue #25): one
``redis.Redis`` per pool for every call, and the cache still does what Django's does."""

from __future__ import annotations

import os

import pytest
from django.core.cache import caches

from config.cache import Cache


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")
def test_the_redis_cache_reuses_one_client_and_still_works():
    cache = caches["default"]
    assert isinstance(cache, Cache)
    client = cache._cache.get_client("k")
    assert cache._cache.get_client("k") is client
    assert cache._cache.get_client("k", write=True) is client  # one server: one pool
    cache.delete("perf-test")
    assert cache.add("perf-test", {"a": [1, 2]}, 30) is True
    assert cache.add("perf-test", "other", 30) is False
    assert cache.get("perf-test") == {"a": [1, 2]}
    cache.set_many({"perf-test": "x"}, 30)
    assert cache.get("perf-test") == "x"
    cache.delete("perf-test")
    assert cache.get("perf-test") is None
