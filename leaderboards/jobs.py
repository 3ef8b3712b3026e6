"""How the boards hear about rounds: the handlers of the lower apps' hooks
(:mod:`games.hooks`, :mod:`accounts.hooks`), and the jobs they enqueue.

This is the one place where a completed ranked round reaches the boards: in the
transaction that completes it, :func:`ranked_round_completed` records the update it owes
(``PendingBoardUpdate``) and sends the job once that transaction has committed
(``enqueue_on_commit``: a broker outage is logged, and ``boards_catch_up`` runs the owed
update later). Registered by :class:`leaderboards.apps.LeaderboardsConfig`.
"""

from __future__ import annotations

import datetime as dt
from uuid import UUID

from accounts import hooks as account_hooks
from config.celery import enqueue_on_commit
from games import hooks as game_hooks
from leaderboards import services, tasks
from leaderboards.models import Season

# Above this many lost updates at day close, one full reconcile is cheaper than a job
# per player.
CATCH_UP_PER_PLAYER_LIMIT = 1000


def ranked_round_completed(*, round_id: UUID) -> None:
    services.board_update_pending(round_id=round_id)
    enqueue_on_commit(tasks.board_record_round, str(round_id))


def ranked_round_analysed(*, round_id: UUID) -> None:
    """Its loss is stored: its decisions lines are owed, by the same owed row and job as
    a completed round (the job recomputes every line of the day; the others are as they
    were)."""
    services.board_update_pending(round_id=round_id, exist_ok=True)
    enqueue_on_commit(tasks.board_record_round, str(round_id))


def ranked_round_recounted(*, player_id: int, day: dt.date) -> None:
    """A ranked round of ``day`` was deleted, excluded or reinstated: the player's lines,
    recomputed from the rounds that count, in the same transaction."""
    services.board_player_refresh(player_id=player_id, day=day)


def day_closing(*, day: dt.date) -> None:
    missed = services.board_day_freeze(day=day)
    if len(missed) > CATCH_UP_PER_PLAYER_LIMIT:
        enqueue_on_commit(tasks.boards_reconcile)
        return
    for player_id in missed:
        enqueue_on_commit(tasks.board_player_refresh, player_id, day.isoformat())


def player_deleting(*, player_id: int) -> None:
    services.player_boards_remove(player_id=player_id)


def season_boards_schedule(*, season: Season) -> None:
    """Owe the season's boards a rebuild (a row, caught up if its job is lost) and
    enqueue it once the current transaction commits."""
    services.season_boards_owe(season=season)
    enqueue_on_commit(tasks.season_boards_rebuild, season.pk)


def register() -> None:
    game_hooks.ranked_round_completed.register(ranked_round_completed)
    game_hooks.ranked_round_removed.register(ranked_round_recounted)
    game_hooks.ranked_round_analysed.register(ranked_round_analysed)
    game_hooks.ranked_round_recounted.register(ranked_round_recounted)
    game_hooks.day_closing.register(day_closing)
    account_hooks.player_deleting.register(player_deleting)
