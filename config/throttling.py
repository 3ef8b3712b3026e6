"""Request throttles on the shared cache (Redis in production), per scope:
``register`` and ``login`` per client IP, ``play`` per player. Rates come from settings
(``THROTTLE_*`` environment variables). A cache outage lets requests through rather than
failing them: throttling protects the service, it must not take it down.

The count is DRF's: a log of the client's request times within the last period, a
request refused while it holds ``rate`` of them. On Redis (``config.cache.Cache``) the
log is a Redis list, trimmed, checked and appended by one Lua script, so a request costs
one round trip and sends one timestamp; DRF's own code (kept for the embedded default's
in-process cache) reads the whole log, pickled, and writes it back on every request: two
round trips and up to a period's worth of timestamps each way.
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

logger = logging.getLogger(__name__)


class _LoggedRateThrottle(SimpleRateThrottle):
    """DRF's request log, kept by the cache in one round trip where it can (Redis:
    ``config.cache.Cache.throttle_log_hit``), else by DRF's own code. It sits under
    :class:`ScopedRateThrottle` in the order of classes, so DRF's scope and rate set-up
    runs first, as for DRF's own log."""

    _wait: float | None = None
    _logged = False

    def allow_request(self, request: Request, view: Any) -> bool:
        log_hit = getattr(self.cache, "throttle_log_hit", None)
        # Set by ScopedRateThrottle.allow_request from the scope's rate.
        limit, period = getattr(self, "num_requests", None), getattr(self, "duration", None)
        if log_hit is None or limit is None or period is None:
            return bool(super().allow_request(request, view))
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self._logged = True
        self._wait = log_hit(key, limit=limit, period=period, now=self.timer())
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait if self._logged else super().wait()


class ScopedThrottle(ScopedRateThrottle, _LoggedRateThrottle):
    def get_rate(self) -> str | None:
        # Read the rates on each request, not once at import, so settings overrides apply.
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        return rates.get(self.scope) if self.scope else None

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return bool(super().allow_request(request, view))
        except Exception as exc:
            logger.warning("throttle cache unavailable (%s); request allowed", type(exc).__name__)
            return True
