"""Board writes: the incremental update after a ranked round, day-close freezing, full
rebuilds from the Round table (PostgreSQL is the source of truth), and seasons.

Every write recomputes from the Round table rather than applying a delta from a job's
arguments, so a job that runs twice, late, or after a crash leaves the same boards.
Concurrency: a player's update holds that player's advisory lock and shared ones
on the boards it touches; a rebuild holds its board's lock exclusively (see
:func:`leaderboards.sql.lock_boards`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter
from collections.abc import Iterable
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from games.selectors import rounds_counting
from leaderboards import boards, sql
from leaderboards.boards import SeasonSpan
from leaderboards.models import BoardEntry, BoardHistogram, PendingBoardUpdate, Season

logger = logging.getLogger(__name__)

# A board update still owed this long after its round completed had its job lost.
CATCH_UP_AFTER = dt.timedelta(seconds=30)


def board_update_pending(*, round_id: UUID, exist_ok: bool = False) -> None:
    """Record, in the transaction that completes a ranked round, that its board update
    is owed; the update clears it (see :class:`PendingBoardUpdate`). ``exist_ok`` (a
    round's analysis stored): an update already owed stays owed once, since the one
    update recomputes every line of the round (``ON CONFLICT DO NOTHING``)."""
    owed = PendingBoardUpdate(round_id=round_id)
    if exist_ok:
        PendingBoardUpdate.objects.bulk_create([owed], ignore_conflicts=True)
    else:
        owed.save(force_insert=True)


def board_record_round(*, round_id: str) -> None:
    """Bring every board a completed ranked round touches up to date for its player."""
    target = sql.round_target(round_id)
    if target is not None:
        player_id, day, seasons = target
        _player_refresh(player_id=player_id, day=day, seasons=seasons)
    # After the update has committed: a crash in between leaves the row, and the
    # catch-up runs the (idempotent) update again.
    sql.pending_clear(round_id)


def boards_catch_up(*, older_than: dt.timedelta = CATCH_UP_AFTER, limit: int = 1000) -> int:
    """Run the board updates still owed for rounds completed more than ``older_than``
    ago: their jobs were lost (the broker was down when they were sent, or lost them).
    At most ``limit`` per call, oldest first; returns how many ran."""
    due = (
        PendingBoardUpdate.objects.filter(created_at__lt=timezone.now() - older_than)
        .order_by("created_at")
        .values_list("round_id", flat=True)[:limit]
    )
    round_ids = [str(round_id) for round_id in due]
    for round_id in round_ids:
        board_record_round(round_id=round_id)
    if round_ids:
        logger.warning("caught up on %d board updates whose jobs were lost", len(round_ids))
    return len(round_ids)


def board_player_refresh(*, player_id: int, day: dt.date) -> list[str]:
    """Recompute the player's line on each board a ranked round of ``day`` can change
    (that day, best, streak, the advent of its year, seasons containing it) from all
    their ranked rounds, and store the differences. Returns the boards that changed."""
    seasons = [
        SeasonSpan(s.id, s.start_date, s.end_date)
        for s in Season.objects.filter(start_date__lte=day, end_date__gte=day)
    ]
    return _player_refresh(player_id=player_id, day=day, seasons=seasons)


def _player_refresh(*, player_id: int, day: dt.date, seasons: list[SeasonSpan]) -> list[str]:
    keys = sorted(boards.lines_for_day([], day=day, seasons=seasons))
    with transaction.atomic():
        sql.lock_for_refresh(player_id, keys)
        played, existing = sql.player_state(player_id, keys)
        lines = boards.lines_for_day(played, day=day, seasons=seasons)
        changed = sorted(key for key in keys if lines.get(key) != existing.get(key))
        if not changed:
            return []
        deltas: Counter[tuple[str, int]] = Counter()
        for key in changed:
            old, new = existing.get(key), lines.get(key)
            if old is not None:
                deltas[key, old.value] -= 1
            if new is not None:
                deltas[key, new.value] += 1
        sql.lines_upsert(
            player_id, {key: line for key in changed if (line := lines.get(key)) is not None}
        )
        removed = [key for key in changed if lines.get(key) is None]
        if removed:  # only after a round was deleted (games.services.round_delete)
            BoardEntry.objects.filter(player_id=player_id, board__in=removed).delete()
        sql.histogram_apply(deltas)
    return changed


def player_boards_remove(*, player_id: int) -> list[str]:
    """Take a player's lines off every board (before the player is deleted), keeping the
    histograms in step. Returns the boards."""
    with transaction.atomic():
        keys = sorted(
            BoardEntry.objects.filter(player_id=player_id).values_list("board", flat=True)
        )
        sql.lock_for_refresh(player_id, keys)
        entries = list(BoardEntry.objects.filter(player_id=player_id).values_list("board", "value"))
        BoardEntry.objects.filter(player_id=player_id).delete()
        sql.histogram_apply(Counter({(board, value): -1 for board, value in entries}))
    return sorted(board for board, _ in entries)


def board_rebuild(*, board: str) -> None:
    """Rebuild one board from the Round table, in one transaction that holds the board
    exclusively. Unknown or obsolete keys (a deleted season) end up empty."""
    with transaction.atomic():
        sql.lock_boards([board], exclusive=True)
        _rebuild_locked(board)


def _rebuild_locked(board: str) -> None:
    BoardEntry.objects.filter(board=board).delete()
    kind, _, rest = board.partition(":")
    if kind == boards.DAILY:
        sql.insert_daily(board, dt.date.fromisoformat(rest))
    elif board == boards.BEST:
        sql.insert_best(board, None)
    elif board == boards.STREAK:
        sql.insert_streak(board, None)
    elif kind == boards.ADVENT:
        sql.insert_sum(board, boards.advent_range(int(rest)))
    elif kind == boards.DECISIONS and rest:
        sql.insert_decisions(board, dt.date.fromisoformat(rest))
    elif board == boards.DECISIONS:
        sql.insert_decisions_mean(board, None)
    elif kind == boards.SEASON:
        season_id, _, season_kind = rest.partition(":")
        season = Season.objects.filter(pk=int(season_id)).first()
        if season is not None:
            span = (season.start_date, season.end_date)
            if season_kind == boards.BEST:
                sql.insert_best(board, span)
            elif season_kind == boards.STREAK:
                sql.insert_streak(board, span)
            elif season_kind == boards.DECISIONS:
                sql.insert_decisions_mean(board, span)
    sql.histogram_rebuild(board)


def board_day_freeze(*, day: dt.date) -> list[int]:
    """Freeze a day's board at day close: make it hold exactly the day's ranked rounds,
    catching up on any update that never ran. Once the day is closed no round of it can
    change, so neither can its board, and the ranks read from its histogram are final.
    Must run in the day-close transaction (it holds the board until that commits);
    running it again changes nothing. Returns the players whose update had been missed:
    their best, streak, advent and season lines are stale as well
    (:func:`leaderboards.jobs.day_closing` has them refreshed)."""
    key = boards.daily_key(day)
    with transaction.atomic():
        sql.lock_boards([key], exclusive=True)
        missed = sql.daily_mismatched_players(key, day)
        if missed:
            logger.warning("day %s: %d board updates missing; rebuilding", day, len(missed))
            _rebuild_locked(key)
    return missed


def boards_expected() -> set[str]:
    """Every board the Round table and the seasons call for."""
    counting = rounds_counting().order_by()
    dates = set(counting.values_list("challenge__date", flat=True).distinct())
    analysed = set(
        counting.filter(loss__isnull=False).values_list("challenge__date", flat=True).distinct()
    )
    keys = {boards.BEST, boards.STREAK, boards.DECISIONS}
    keys |= {boards.daily_key(d) for d in dates}
    keys |= {boards.decisions_key(d) for d in analysed}
    keys |= {boards.advent_key(d.year) for d in dates if boards.in_advent(d)}
    for season_id in Season.objects.values_list("pk", flat=True):
        keys |= {boards.season_key(season_id, kind) for kind in boards.SEASON_KINDS}
    return keys


def boards_reconcile(*, keys: Iterable[str] | None = None) -> list[str]:
    """Rebuild every derived board from the Round table and drop boards nothing calls
    for any more. Each board is rebuilt in its own transaction, so a crash part-way
    leaves every board either old-and-consistent or rebuilt, and a rerun finishes."""
    full = keys is None
    if keys is None:
        stale = set(BoardHistogram.objects.order_by().values_list("board", flat=True).distinct())
        keys = boards_expected() | stale
    done = []
    for key in sorted(keys):
        board_rebuild(board=key)
        done.append(key)
    if full:
        sql.tables_vacuum()
    return done


def season_boards_rebuild(*, season_id: int) -> list[str]:
    """Rebuild a season's boards (after its dates changed, or from the admin action)."""
    return boards_reconcile(keys=[boards.season_key(season_id, k) for k in boards.SEASON_KINDS])


def season_delete(*, season: Season) -> None:
    """Delete a season and its boards."""
    prefix = boards.season_prefix(season.pk)
    with transaction.atomic():
        keys = [boards.season_key(season.pk, kind) for kind in boards.SEASON_KINDS]
        sql.lock_boards(keys, exclusive=True)
        BoardEntry.objects.filter(board__startswith=prefix).delete()
        BoardHistogram.objects.filter(board__startswith=prefix).delete()
        season.delete()
