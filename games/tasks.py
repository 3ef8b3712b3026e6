"""Round jobs. Thin: each calls one service."""

from celery import shared_task

from games import services, skill, tables


@shared_task
def days_close_due() -> list[str]:
    """Every minute: close the days whose grace period has ended (their analysis starts
    at once rather than at the next sweep)."""
    closed = [day.isoformat() for day in services.days_close_due()]
    if closed:
        skill_analyses_due.delay()
    return closed


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


@shared_task
def skill_analyses_due() -> int:
    """Every minute: plan the analysis of revealed days with rounds still unanalysed, and
    start the chunk relays if the work has not moved (never started, or lost)."""
    relays = skill.analyses_due()
    for _ in range(relays):
        skill_analyse_next.delay()
    return relays


@shared_task
def skill_analyse_next() -> str | None:
    """On the `analysis` queue: claim the next chunk of rounds and analyse it, then pass
    the baton while claimable chunks remain."""
    chunk = skill.chunk_analyse_next()
    if chunk is not None and skill.chunks_claimable().exists():
        skill_analyse_next.delay()
    return None if chunk is None else str(chunk.pk)
