"""Round jobs. Thin: each calls one service."""

from celery import shared_task

from games import services, tables


@shared_task
def days_close_due() -> list[str]:
    """Every minute: close the days whose grace period has ended."""
    return [day.isoformat() for day in services.days_close_due()]


@shared_task
def tables_build_due() -> list[str]:
    """Every 30 s, on the `tables` queue: build the strategy tables that are queued."""
    return tables.tables_build_due()


@shared_task
def tables_queue_defaults() -> int:
    """At worker start: queue the default tables that are missing, then build them."""
    queued = tables.tables_queue_defaults()
    if queued:
        tables_build_due.delay()
    return len(queued)


@shared_task
def experts_play_due() -> list[str]:
    """Every 5 minutes: the expert's score on each revealed day's dice."""
    return [day.isoformat() for day in services.experts_play_due()]
