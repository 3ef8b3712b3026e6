"""Request throttles on the shared cache (Redis in production), per scope:
``register`` and ``login`` per client IP, ``play`` per player. Rates come from settings
(``THROTTLE_*`` environment variables). A cache outage lets requests through rather than
failing them: throttling protects the service, it must not take it down.

The count is a sliding window counter, not DRF's request log: the requests of the
current fixed window (one rate period long) plus those of the window before, weighted
by the share of that window still within one period of now. That is the log's count
when the previous window's requests were spread evenly, and at most one window's count
away from it otherwise; a client can never pass the rate by more than that. It costs
one Redis round trip and two small counters per client (``config.cache.Cache.window_hit``,
a Lua script), where DRF reads the client's whole history of timestamps and writes it
back, two round trips and up to a rate's worth of pickled floats, on every request.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.base import BaseCache
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

logger = logging.getLogger(__name__)


class ScopedThrottle(ScopedRateThrottle):
    _wait: float | None = None

    def get_rate(self) -> str | None:
        # Read the rates on each request, not once at import, so settings overrides apply.
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        return rates.get(self.scope) if self.scope else None

    def allow_request(self, request: Request, view: Any) -> bool:
        self.scope = getattr(view, self.scope_attr, None)
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        limit, period = self.num_requests, self.duration = self.parse_rate(self.rate)
        key = self.get_cache_key(request, view)
        if key is None or limit is None or period is None:
            return True
        try:
            self._wait = window_hit(self.cache, key, limit=limit, period=period, now=self.timer())
        except Exception as exc:
            logger.warning("throttle cache unavailable (%s); request allowed", type(exc).__name__)
            return True
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


def window_hit(cache: BaseCache, key: str, *, limit: int, period: int, now: float) -> float | None:
    """Count a request against ``limit`` per ``period`` seconds for ``key``: ``None`` if it
    is within the limit (and counted), else the seconds until one would be (not counted).
    """
    window = int(now // period)
    elapsed = now - window * period
    weight = 1 - elapsed / period  # the share of the previous window still in the period
    current_key, previous_key = f"{key}:{window}", f"{key}:{window - 1}"
    current: int
    previous: int
    hit = getattr(cache, "window_hit", None)
    if hit is not None:  # config.cache.Cache: one round trip, atomic
        current, previous, counted = hit(
            current_key, previous_key, limit=limit, weight=weight, timeout=2 * period
        )
    else:  # a process's own memory (the embedded default): no other process to race
        counts = cache.get_many([current_key, previous_key])
        current, previous = counts.get(current_key, 0), counts.get(previous_key, 0)
        counted = previous * weight + current < limit
        if counted:
            cache.add(current_key, 0, 2 * period)
            current = cache.incr(current_key)
    if counted:
        return None
    if current >= limit:
        # Not before the next window, and there until this window's count, weighted
        # down as it ages, falls under the limit.
        return period - elapsed + period * (1 - limit / current)
    # The previous window's weight must fall until the sum is under the limit.
    return max(period * (1 - (limit - current) / previous) - elapsed, 0.0) + 0.001
