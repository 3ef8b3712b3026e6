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
from rest_framework.throttling import ScopedRateThrottle

logger = logging.getLogger(__name__)


class ScopedThrottle(ScopedRateThrottle):
    _wait: float | None = None

    def get_rate(self) -> str | None:
        # Read the rates on each request, not once at import, so settings overrides apply.
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        return rates.get(self.scope) if self.scope else None

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return self._allow(request, view)
        except Exception as exc:
            logger.warning("throttle cache unavailable (%s); request allowed", type(exc).__name__)
            return True

    def _allow(self, request: Request, view: Any) -> bool:
        log_hit = getattr(self.cache, "throttle_log_hit", None)
        if log_hit is None:
            return bool(super().allow_request(request, view))
        self.scope = getattr(view, self.scope_attr, None)
        self.rate = self.get_rate()
        limit, period = self.num_requests, self.duration = self.parse_rate(self.rate)
        key = self.get_cache_key(request, view) if self.rate else None
        if key is None or limit is None or period is None:
            return True
        self._wait = log_hit(key, limit=limit, period=period, now=self.timer())
        return self._wait is None

    def wait(self) -> float | None:
        if hasattr(self.cache, "throttle_log_hit"):
            return self._wait
        return super().wait()
