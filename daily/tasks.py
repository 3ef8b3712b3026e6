"""Daily jobs, run by beat. Thin: each calls one service."""

from celery import shared_task

from daily import services


@shared_task
def challenges_ensure_upcoming() -> list[str]:
    return [c.date.isoformat() for c in services.challenges_ensure_upcoming()]
