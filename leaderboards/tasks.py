"""Board jobs. Thin: each takes keys or dates and calls one service. All of them
recompute from the Round table, so a retry or a duplicate delivery is harmless."""

import datetime as dt

from celery import shared_task

from leaderboards import services


@shared_task
def board_record_round(round_id: str) -> None:
    """After a ranked round completes (enqueued by games.services on commit)."""
    services.board_record_round(round_id=round_id)


@shared_task
def board_player_refresh(player_id: int, day: str) -> list[str]:
    return services.board_player_refresh(player_id=player_id, day=dt.date.fromisoformat(day))


@shared_task
def boards_catch_up() -> int:
    """Periodic (beat): board updates whose jobs were lost, e.g. in a broker outage."""
    return services.boards_catch_up()


@shared_task
def boards_reconcile() -> int:
    """Periodic (beat): rebuild every derived board from PostgreSQL."""
    return len(services.boards_reconcile())


@shared_task
def season_boards_rebuild(season_id: int) -> list[str]:
    return services.season_boards_rebuild(season_id=season_id)
