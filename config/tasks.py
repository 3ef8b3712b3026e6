"""The project's own jobs: the worker heartbeat that ``/health/`` reads on the filesystem
broker (``config.health``). Loaded by the worker through ``CELERY_IMPORTS``."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from celery.signals import worker_ready

from config import health

HEARTBEAT = "config.tasks.worker_heartbeat"


@shared_task(name=HEARTBEAT)
def worker_heartbeat() -> None:
    """Sent by the beat every 10 s on the filesystem broker."""
    health.worker_heartbeat_record()


@worker_ready.connect
def heartbeat_at_start(**_kwargs: Any) -> None:
    """A first heartbeat as soon as the worker consumes, not at the beat's first tick."""
    if health.uses_filesystem_broker():
        worker_heartbeat.delay()


class QuietHeartbeat(logging.Filter):
    """Leaves out the heartbeat's routine lines (sent, received, succeeded): at INFO they
    would fill a developer's terminal every 10 s. Its warnings and errors still show."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.INFO or HEARTBEAT not in record.getMessage()


for _logger in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
    logging.getLogger(_logger).addFilter(QuietHeartbeat())
