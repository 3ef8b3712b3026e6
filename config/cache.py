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
        self._scripts: dict[str, Any] = {}

    def throttle_log_hit(self, key: str, *, limit: int, period: int, now: float) -> float | None:
        """A request at ``now`` against ``limit`` per ``period`` seconds for ``key``
        (:mod:`config.throttling`), atomically: ``None`` if it is within the limit (and
        logged), else the seconds until the oldest logged request leaves the period."""
        client = self._cache.get_client(write=True)
        script = self._registered(client, _THROTTLE_LOG_HIT)
        oldest = script(keys=[self._log_key(key)], args=[repr(now), limit, period], client=client)
        return _wait(oldest, period, now)

    def get_and_log_hits(
        self, key: str, hits: list[tuple[str, int, int]], *, now: float
    ) -> tuple[Any, list[float | None]]:
        """``get(key)`` and :meth:`throttle_log_hit` for each (key, limit, period) of
        ``hits``, in one round trip: one script, atomic as a whole."""
        client = self._cache.get_client(write=True)
        script = self._registered(client, _GET_AND_LOG_HITS)
        args: list[Any] = [repr(now)]
        for _log, limit, period in hits:
            args += [limit, period]
        logs = [self._log_key(log) for log, _limit, _period in hits]
        raw, *oldest = script(
            keys=[self.make_and_validate_key(key), *logs], args=args, client=client
        )
        waits = [
            _wait(answer, period, now) for (_, _, period), answer in zip(hits, oldest, strict=True)
        ]
        serializer: Any = self._cache._serializer  # type: ignore[attr-defined]
        return (None if raw is None else serializer.loads(raw)), waits

    def _registered(self, client: Any, source: str) -> Any:
        # redis-py runs a script by its digest, loading it where Redis does not have it.
        script = self._scripts.get(source)
        if script is None:
            script = self._scripts[source] = client.register_script(source)
        return script

    def _log_key(self, key: str) -> str:
        # Its own key: a list where DRF's code kept a pickled one under the plain key.
        return self.make_and_validate_key(f"{key}:log")


def _wait(oldest: Any, period: int, now: float) -> float | None:
    return None if oldest is None else float(oldest) + period - now


# A request at `now` against a client's log (a list of request times, newest first):
# drops the times a period old or older (DRF's rule), then logs `now` and returns false
# if fewer than the limit are left, else returns the oldest (and logs nothing).
_LOG_HIT = """
local function log_hit(log, now, limit, period)
  local cutoff = tonumber(now) - tonumber(period)
  while true do
    local oldest = redis.call('LINDEX', log, -1)
    if not oldest or tonumber(oldest) > cutoff then break end
    redis.call('RPOP', log)
  end
  if redis.call('LLEN', log) >= tonumber(limit) then
    return redis.call('LINDEX', log, -1)
  end
  redis.call('LPUSH', log, now)
  redis.call('EXPIRE', log, period)
  return false
end
"""

# KEYS: the log. ARGV: now, the limit, the period in seconds.
_THROTTLE_LOG_HIT = _LOG_HIT + "return log_hit(KEYS[1], ARGV[1], ARGV[2], ARGV[3])\n"

# KEYS: a key to read, then logs. ARGV: now, then each log's limit and period. Returns
# the key's value (false if none), then each log's answer.
_GET_AND_LOG_HITS = (
    _LOG_HIT
    + """
local answers = {redis.call('GET', KEYS[1])}
for i = 2, #KEYS do
  answers[i] = log_hit(KEYS[i], ARGV[1], ARGV[2 * i - 2], ARGV[2 * i - 1])
end
return answers
"""
)
