"""The Celery application. Settings come from Django settings under the ``CELERY_`` prefix."""

import logging
import os
from typing import Any

from celery import Celery, Task
from celery.beat import PersistentScheduler
from celery.contrib.django.task import DjangoTask
from django.db import InterfaceError, OperationalError, transaction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)


class DatabaseRetryTask(DjangoTask):  # type: ignore[type-arg]
    """Every job retries, with backoff, while the database is unreachable (restart,
    failover) instead of being acknowledged and dropped; jobs are idempotent."""

    autoretry_for = (OperationalError, InterfaceError)
    retry_backoff = 1
    retry_backoff_max = 30
    retry_jitter = True
    max_retries = 10


class ClockSafeScheduler(PersistentScheduler):
    """The beat's scheduler (``CELERY_BEAT_SCHEDULER``), for the embedded ``--beat`` and
    ``celery beat`` alike: celery's own, except that an entry whose stored
    ``last_run_at`` lies in the future is reset to now when the beat starts.

    Celery trusts the schedule file's times: one written under a later clock (a run
    under a faked date, a clock corrected backwards, a restored snapshot) would make the
    beat send nothing, no day close and no board catch-up, until that time came. The
    schedule itself lives in code (``CELERY_BEAT_SCHEDULE``), so the file only says when
    each job last ran, and a time that has not come yet is no information.
    """

    def setup_schedule(self) -> None:
        super().setup_schedule()
        now = self.app.now()
        ahead = {
            name: entry.last_run_at
            for name, entry in self.schedule.items()
            if entry.last_run_at is not None
            and entry.schedule is not None
            and entry.schedule.maybe_make_aware(entry.last_run_at) > now
        }
        if not ahead:
            return
        for name in ahead:
            self.schedule[name].last_run_at = now
        self.sync()
        logger.warning(
            "beat: %d entries of %s last ran in the future (latest %s, now %s): "
            "their times were reset to now (%s)",
            len(ahead),
            getattr(self, "schedule_filename", "the schedule file"),
            max(ahead.values()).isoformat(),
            now.isoformat(),
            ", ".join(sorted(ahead)),
        )


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
