"""The Celery application. Settings come from Django settings under the ``CELERY_`` prefix."""

import os
from typing import Any

from celery import Celery, Task
from celery.contrib.django.task import DjangoTask
from django.db import InterfaceError, OperationalError, transaction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class DatabaseRetryTask(DjangoTask):  # type: ignore[type-arg]
    """Every job retries, with backoff, while the database is unreachable (restart,
    failover) instead of being acknowledged and dropped; jobs are idempotent."""

    autoretry_for = (OperationalError, InterfaceError)
    retry_backoff = 1
    retry_backoff_max = 30
    retry_jitter = True
    max_retries = 10


app = Celery("config", task_cls=DatabaseRetryTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def enqueue_on_commit(task: Task[Any, Any], *args: Any) -> None:
    """Send ``task`` once the current transaction commits, like ``task.delay_on_commit``,
    except that a broker outage never fails the request whose data has already committed:
    Django logs the failed send, and the periodic reconciliation job makes up for it."""

    def send() -> None:
        task.delay(*args)

    send.__qualname__ = f"send {task.name}"  # names the job in Django's failure log
    transaction.on_commit(send, robust=True)
