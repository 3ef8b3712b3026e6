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

A request with an API token found in the shared cache has its throttles counted in the
same round trip as the token's read (:func:`cache_get_counting`, called by
``accounts.auth``): the token's player is known before the token is read, since a
token never changes player, and the view's throttles are counted for that player as
they would be after authentication. The throttle check then takes the count already
made instead of asking Redis again.
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
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
        counted: dict[str, float | None] = getattr(request, _COUNTED, {})
        if key in counted:  # counted with the token's read (cache_get_counting)
            self._wait = counted.pop(key)
        else:
            self._wait = log_hit(key, limit=limit, period=period, now=self.timer())
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait if self._logged else super().wait()


class ScopedThrottle(ScopedRateThrottle, _LoggedRateThrottle):
    def get_rate(self) -> str | None:
        # Read the rates on each request, not once at import, so settings overrides apply.
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        return rates.get(self.scope) if self.scope else None

    def log_of(self, view: Any, player: Any) -> tuple[str, int, int] | None:
        """What :meth:`allow_request` would count a request of authenticated ``player``
        (a primary key) on ``view`` under: the log's key, the limit and the period; None
        where it counts nothing. The same scope, rate and key as DRF sets up."""
        self.scope = getattr(view, self.scope_attr, None)
        rate = self.get_rate()
        if rate is None:
            return None
        limit, period = self.parse_rate(rate)
        if limit is None or period is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": player}, limit, period

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return bool(super().allow_request(request, view))
        except Exception as exc:
            logger.warning("throttle cache unavailable (%s); request allowed", type(exc).__name__)
            return True


# Where a request keeps the counts made with its token's read: {log key: wait or None}.
_COUNTED = "_throttles_counted"


def cache_get_counting(request: Request, key: str, *, player: Any) -> Any:
    """``cache.get(key)``, and the throttles of the request's view counted for ``player``
    in the same round trip where the cache can (``config.cache.Cache``); the throttle
    check then uses those counts. For the token's read in ``accounts.auth``, which
    knows the token's player before reading it. Raises what the cache raises."""
    cache: Any = ScopedThrottle.cache
    view = (getattr(request, "parser_context", None) or {}).get("view")
    get_and_log = getattr(cache, "get_and_log_hits", None)
    if view is None or get_and_log is None:
        return cache.get(key)
    logs = [
        log
        for throttle in view.get_throttles()
        if isinstance(throttle, ScopedThrottle) and (log := throttle.log_of(view, player))
    ]
    if not logs:
        return cache.get(key)
    value, waits = get_and_log(key, logs, now=ScopedThrottle.timer())
    setattr(request, _COUNTED, {log[0]: wait for log, wait in zip(logs, waits, strict=True)})
    return value


class _Scope:
    """What DRF's throttle reads from a view: its scope."""

    def __init__(self, scope: str) -> None:
        self.throttle_scope = scope


def over_budget(request: HttpRequest, scope: str) -> tuple[str, int] | None:
    """For requests outside the API's views (the pages, the admin's log-in), which share
    its budgets (per player, else per client address), so that no door lets more
    through: ``None`` while ``request`` is within ``scope``'s budget (and counted), else
    the message to show and the seconds to wait."""
    throttle = ScopedThrottle()
    if throttle.allow_request(request, _Scope(scope)):  # type: ignore[arg-type]
        return None
    wait = int(throttle.wait() or 60) + 1
    return _("Too many attempts; try again in %(seconds)s seconds.") % {"seconds": wait}, wait
