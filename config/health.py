"""``GET /health/``: the database, the cache (Redis in production) and a Celery worker.
200 when all pass, else 503, so a load balancer or orchestrator takes the instance out
of rotation.

The worker check depends on the broker. On Redis it is a real ping. The filesystem
broker (the embedded default, ``make run``) has no broadcast channel to ping on, so
there the worker runs a heartbeat job sent by the beat every 10 seconds (and once when it
starts), which touches a file under ``VAR_DIR``; the check passes while that file was
touched less than a minute ago. That proves the beat sends, the broker delivers and the
worker runs jobs.
"""

from __future__ import annotations

import dataclasses
import datetime
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import celery
from celery.app import app_or_default
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from health_check.base import HealthCheck
from health_check.contrib.celery import Ping
from health_check.contrib.redis import Redis
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView
from kombu.exceptions import OperationalError


def heartbeat_path() -> Path:
    return Path(settings.VAR_DIR) / "celery-broker" / "worker-heartbeat"


def worker_heartbeat_record() -> None:
    """What the worker's heartbeat job does: mark the present moment."""
    path = heartbeat_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()


@dataclasses.dataclass
class WorkerHeartbeat(HealthCheck):
    """A Celery worker ran the heartbeat job within ``max_age`` (filesystem broker)."""

    max_age: datetime.timedelta = dataclasses.field(
        default=datetime.timedelta(seconds=60), repr=False
    )

    def run(self) -> None:
        try:
            age = time.time() - heartbeat_path().stat().st_mtime
        except FileNotFoundError:
            raise ServiceUnavailable("No Celery worker has run the heartbeat job") from None
        if age > self.max_age.total_seconds():
            raise ServiceUnavailable(f"The last worker heartbeat was {age:.0f} s ago")


class RedisPing(Redis):
    """django-health-check's Redis check under a name without the server's address:
    /health/ answers anyone (the proxy publishes it), and its keys stay the same on
    every machine. Why a check failed, address included, goes to the log."""

    def __repr__(self) -> str:
        return "Redis()"


@dataclasses.dataclass
class WorkerPing(Ping):
    """django-health-check's ping of the workers, asked once more when the broker
    connection it took from the pool was a dead one. After Redis restarts, each web
    process's pool still holds the socket to the old server, whose first use fails:
    every process answered 503 once (one of them 50 s after Redis was back) though
    Redis and the workers were fine. A second failure in a row is the broker's.

    A broker that is down is said at once: the ping's publish retries its connection
    for about 6 s, and twice, so /health/ took 12 s to answer 503 while Redis was down,
    longer than a load balancer's check waits. A fresh connection, tried twice without
    a pause and given ``timeout`` each, decides that first.

    Its name leaves out the Celery app, whose default repr holds a memory address: the
    key changed from one process to the next."""

    app: celery.Celery = dataclasses.field(default_factory=app_or_default, repr=False)

    def run(self) -> None:
        wait = self.timeout.total_seconds()
        # The socket's timeout bounds a broker that accepts and never answers (stopped).
        options = {"socket_timeout": wait, "socket_connect_timeout": wait}
        with self.app.connection_for_write(transport_options=options) as connection:
            errors: tuple[type[BaseException], ...] = (
                *connection.connection_errors,
                OperationalError,
            )
            try:
                connection.ensure_connection(max_retries=1, interval_start=0, timeout=wait)
            except errors as exc:
                raise ServiceUnavailable("The broker does not answer") from exc
        try:
            super().run()
        except errors:
            try:
                super().run()
            except errors as exc:
                raise ServiceUnavailable("The broker does not answer") from exc


def uses_filesystem_broker() -> bool:
    return bool(settings.CELERY_BROKER_URL.startswith("filesystem://"))


def configured_checks() -> list[tuple[type[HealthCheck] | str, dict[str, Any]]]:
    """The checks for the configured database, cache, Redis and broker."""
    checks: list[tuple[type[HealthCheck] | str, dict[str, Any]]] = [
        ("health_check.checks.Database", {}),
        ("health_check.checks.Cache", {}),
    ]
    if settings.REDIS_URL:
        from redis.asyncio import Redis as RedisClient

        url = settings.REDIS_URL

        def client() -> RedisClient:
            # Bounded, as the cache's client is: a frozen Redis would hold the check.
            return RedisClient.from_url(url, socket_timeout=1, socket_connect_timeout=1)

        checks.append((RedisPing, {"client_factory": client}))
    if uses_filesystem_broker():
        checks.append((WorkerHeartbeat, {}))
    else:
        checks.append((WorkerPing, {}))
    return checks


class HealthView(HealthCheckView):
    def get_checks(self) -> Iterator[HealthCheck]:
        # Read per request, so the checks always match the settings in force.
        self.checks = configured_checks()
        return super().get_checks()

    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = await super().get(request, *args, **kwargs)
        if response.status_code == 500:
            response.status_code = 503
        return response
