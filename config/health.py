"""``GET /health/``: the database, the cache (Redis in production) and, when a real
broker is configured, a Celery worker ping. 200 when all pass, else 503, so a load
balancer or orchestrator takes the instance out of rotation."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from health_check.views import HealthCheckView


def configured_checks() -> list[Any]:
    checks: list[Any] = ["health_check.checks.Database", "health_check.checks.Cache"]
    if settings.REDIS_URL:
        from redis.asyncio import Redis

        checks.append(
            (
                "health_check.contrib.redis.Redis",
                {"client_factory": lambda: Redis.from_url(settings.REDIS_URL)},
            )
        )
    if not settings.CELERY_BROKER_URL.startswith("filesystem://"):
        # The filesystem broker (embedded default) has no broadcast channel to ping on.
        checks.append("health_check.contrib.celery.Ping")
    return checks


class HealthView(HealthCheckView):
    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = await super().get(request, *args, **kwargs)
        if response.status_code == 500:
            response.status_code = 503
        return response
