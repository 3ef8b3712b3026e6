"""Round jobs, run by beat. Thin: each calls one service."""

from celery import shared_task

from games import services


@shared_task
def days_close_due() -> list[str]:
    """Every minute: close the days whose grace period has ended."""
    return [day.isoformat() for day in services.days_close_due()]
