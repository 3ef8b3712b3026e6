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
    """``django.core.cache.backends.redis.RedisCache`` with its client reused."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusedClient
