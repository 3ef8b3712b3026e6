from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Rounds"

    def ready(self) -> None:
        from celery.signals import worker_ready

        worker_ready.connect(_queue_tables_at_worker_start, weak=False)


def _queue_tables_at_worker_start(sender: Any = None, **kwargs: Any) -> None:
    """A worker that starts makes sure the default strategy tables get built (the job
    goes through the broker, so only a worker serving the `tables` queue builds)."""
    from django.conf import settings

    from games import tasks

    if settings.STRATEGY_TABLES_BUILD_AT_START:
        tasks.tables_queue_defaults.delay()
