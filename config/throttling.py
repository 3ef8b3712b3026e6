"""Request throttles on the shared cache (Redis in production), per scope:
``register`` and ``login`` per client IP, ``play`` per player. Rates come from settings
(``THROTTLE_*`` environment variables). A cache outage lets requests through rather than
failing them: throttling protects the service, it must not take it down."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

logger = logging.getLogger(__name__)


class ScopedThrottle(ScopedRateThrottle):
    def get_rate(self) -> str | None:
        # Read the rates on each request, not once at import, so settings overrides apply.
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        return rates.get(self.scope) if self.scope else None

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception as exc:
            logger.warning("throttle cache unavailable (%s); request allowed", type(exc).__name__)
            return True
