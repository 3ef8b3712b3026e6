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
    throttle's request log (:mod:`config.throttling`) in one round trip."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusedClient
        self._script: Any = None

    def throttle_log_hit(self, key: str, *, limit: int, period: int, now: float) -> float | None:
        """A request at ``now`` against ``limit`` per ``period`` seconds for ``key``
        (:mod:`config.throttling`), atomically: ``None`` if it is within the limit (and
        logged), else the seconds until the oldest logged request leaves the period."""
        client = self._cache.get_client(write=True)
        if self._script is None:  # redis-py runs it by its digest, loading it when missing
            self._script = client.register_script(_THROTTLE_LOG_HIT)
        # Its own key: a list where DRF's code kept a pickled one under the plain key.
        log = self.make_and_validate_key(f"{key}:log")
        oldest = self._script(keys=[log], args=[repr(now), limit, period], client=client)
        return None if oldest is None else float(oldest) + period - now


# KEYS: the client's log (a list of request times, newest first). ARGV: now, the limit,
# the period in seconds. Drops the times a period old or older (DRF's rule), then logs
# now and returns nothing if fewer than the limit are left, else returns the oldest.
_THROTTLE_LOG_HIT = """
local cutoff = tonumber(ARGV[1]) - tonumber(ARGV[3])
while true do
  local oldest = redis.call('LINDEX', KEYS[1], -1)
  if not oldest or tonumber(oldest) > cutoff then break end
  redis.call('RPOP', KEYS[1])
end
if redis.call('LLEN', KEYS[1]) >= tonumber(ARGV[2]) then
  return redis.call('LINDEX', KEYS[1], -1)
end
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return false
"""
