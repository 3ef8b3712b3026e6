"""The shared cache's Redis backend: Django's, with one Redis client per connection
pool instead of a new one on every cache call.

Django's ``RedisCacheClient.get_client`` builds a ``redis.Redis`` for each ``get`` and
``set`` (its pool is kept); building one registers some 170 response callbacks, about
as much CPU as the round trip itself. An API request reads the cache two to three times
(its token, its throttle), so the client is built once per pool here and reused: the
client is safe to share between threads, and its pool already reconnects after a fork.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class _ReusedClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # the stubs do not list Django's private helpers used here
        index = django._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = django._client(
                connection_pool=django._get_connection_pool(write)
            )
        return client


class Cache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with its client reused, and the
    throttle's counters (:mod:`config.throttling`) in one round trip."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusedClient
        self._scripts: dict[int, Any] = {}

    def window_hit(
        self, current_key: str, previous_key: str, *, limit: int, weight: float, timeout: int
    ) -> tuple[int, int, bool]:
        """Atomically: count a request in ``current_key`` if ``previous_key``'s count
        times ``weight`` plus ``current_key``'s is under ``limit``. Returns both counts
        (the current one after counting) and whether it counted."""
        client = self._cache.get_client(write=True)
        script = self._scripts.get(id(client))
        if script is None:  # registered once per client; redis-py runs it by its digest
            script = self._scripts[id(client)] = client.register_script(_WINDOW_HIT)
        keys = [self.make_and_validate_key(key) for key in (current_key, previous_key)]
        current, previous, counted = script(keys=keys, args=[limit, repr(weight), timeout])
        return int(current), int(previous), bool(counted)


# KEYS: this window's counter, the previous window's. ARGV: the limit, the previous
# window's weight, the counter's lifetime in seconds. Counts the request only if the
# weighted sum is under the limit; returns both counts and whether it counted.
_WINDOW_HIT = """
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
if previous * tonumber(ARGV[2]) + current >= tonumber(ARGV[1]) then
  return {current, previous, 0}
end
current = redis.call('INCR', KEYS[1])
if current == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[3])
end
return {current, previous, 1}
"""
