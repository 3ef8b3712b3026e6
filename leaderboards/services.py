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
from leaderboards.boards import Line, SeasonSpan
from leaderboards.models import (
    BoardEntry,
    BoardHistogram,
    BoardHistogramBlock,
    PendingBoardUpdate,
    Season,
)

logger = logging.getLogger(__name__)

# A board update still owed this long after its round completed had its job lost.
CATCH_UP_AFTER = dt.timedelta(seconds=30)
# A season's rebuild still owed this long after it was asked for had its job lost (or
# is still running: then the catch-up runs it again, harmlessly, at most this often).
SEASON_CATCH_UP_AFTER = dt.timedelta(minutes=5)
# Owed board updates run in one transaction at most (bench.leaderboards: the per-round
# cost of a backlog falls with the batch, as the commit and the statements are shared).
BOARD_BATCH_ROUNDS = 32


def board_update_pending(*, round_id: UUID, exist_ok: bool = False) -> None:
    """Record, in the transaction that completes a ranked round, that its board update
    is owed; the update clears it (see :class:`PendingBoardUpdate`). ``exist_ok`` (a
    round's analysis stored): an update already owed stays owed once, since the one
    update recomputes every line of the round. Its row is written again all the same
    (``ON CONFLICT DO UPDATE``): should an update be running with the row claimed, this
    waits for it to commit and then owes a new one, which reads the loss stored here."""
    owed = PendingBoardUpdate(round_id=round_id)
    if exist_ok:
        PendingBoardUpdate.objects.bulk_create(
            [owed], update_conflicts=True, unique_fields=["round"], update_fields=["created_at"]
        )
    else:
        owed.save(force_insert=True)


def board_record_round(*, round_id: str) -> int:
    """The job of a completed ranked round: bring every board it touches up to date for
    its player, and in the same transaction up to ``BOARD_BATCH_ROUNDS - 1`` other owed
    updates, oldest first. One commit (one WAL flush) serves them all, which is what a
    backlog needs: when rounds complete faster than updates run, the batches grow. An
    update already run (its owed row is gone) or being run by another worker (its row
    is claimed) is not run again; that other worker's commit brings it. Returns how
    many rounds were brought up to date."""
    if not sql.pending_owed(round_id):  # the common case in a backlog: one read, no lock
        return 0
    with transaction.atomic():
        taken = sql.pending_take(round_id=round_id, limit=BOARD_BATCH_ROUNDS)
        _rounds_refresh(taken)
    return len(taken)


def boards_catch_up(*, older_than: dt.timedelta = CATCH_UP_AFTER, limit: int = 1000) -> int:
    """Run the board updates still owed for rounds completed more than ``older_than``
    ago: their jobs were lost (the broker was down when they were sent, or lost them).
    At most ``limit`` per call, oldest first, ``BOARD_BATCH_ROUNDS`` per transaction;
    returns how many ran."""
    done = 0
    while done < limit:
        with transaction.atomic():
            taken = sql.pending_take(
                round_id=None,
                before=timezone.now() - older_than,
                limit=min(BOARD_BATCH_ROUNDS, limit - done),
            )
            _rounds_refresh(taken)
        if not taken:
            break
        done += len(taken)
    if done:
        logger.warning("caught up on %d board updates whose jobs were lost", done)
    _seasons_catch_up()
    return done


def _seasons_catch_up() -> None:
    """Rebuild the seasons' boards owed for over ``SEASON_CATCH_UP_AFTER`` (their jobs
    were lost: a broker wiped, a worker killed, whose job Redis gives back only after its
    visibility timeout). Each is claimed by moving its time to now, so catch-ups running
    side by side do not both take it."""
    now = timezone.now()
    owed = Season.objects.filter(boards_owed_at__lt=now - SEASON_CATCH_UP_AFTER)
    for season_id, since in owed.values_list("pk", "boards_owed_at"):
        if Season.objects.filter(pk=season_id, boards_owed_at=since).update(boards_owed_at=now):
            logger.warning("season %d: rebuilding its boards, whose job was lost", season_id)
            season_boards_rebuild(season_id=season_id)


def _rounds_refresh(round_ids: list[str]) -> None:
    """The owed updates of these rounds (taken by :func:`sql.pending_take`), in the
    caller's transaction: every line their players hold on the boards the rounds' days
    touch."""
    if not round_ids:
        return
    days: dict[int, dict[dt.date, list[SeasonSpan]]] = {}
    for player_id, day, seasons in sql.round_targets(round_ids).values():
        days.setdefault(player_id, {})[day] = seasons
    _players_refresh(days)


def board_player_refresh(*, player_id: int, day: dt.date) -> list[str]:
    """Recompute the player's line on each board a ranked round of ``day`` can change
    (that day, best, streak, the advent of its year, seasons containing it) from all
    their ranked rounds, and store the differences. Returns the boards that changed."""
    seasons = [
        SeasonSpan(s.id, s.start_date, s.end_date)
        for s in Season.objects.filter(start_date__lte=day, end_date__gte=day)
    ]
    with transaction.atomic():
        changed = _players_refresh({player_id: {day: seasons}})
    return sorted(board for _, board in changed)


def _players_refresh(
    days: dict[int, dict[dt.date, list[SeasonSpan]]],
) -> list[tuple[int, str]]:
    """For each player, the lines on every board their ranked rounds of the given days
    can change, recomputed from all their ranked rounds, in statements shared by all of
    them (locks, state, upsert, histogram). In the caller's transaction; returns the
    ``(player, board)`` lines that changed."""
    if not days:
        return []
    keys = {
        player_id: sorted(
            {
                key
                for day, seasons in dates.items()
                for key in boards.lines_for_day([], day=day, seasons=seasons)
            }
        )
        for player_id, dates in days.items()
    }
    players = sorted(days)
    every_key = sorted({key for player_keys in keys.values() for key in player_keys})
    sql.lock_for_refresh(players, every_key)
    state = sql.players_state(players, every_key)
    changed: dict[tuple[int, str], Line | None] = {}
    deltas: Counter[tuple[str, int]] = Counter()
    for player_id in players:
        played, existing = state[player_id]
        lines: dict[str, Line | None] = {}
        for day, seasons in days[player_id].items():
            lines.update(boards.lines_for_day(played, day=day, seasons=seasons))
        for key in keys[player_id]:
            old, new = existing.get(key), lines.get(key)
            if old == new:
                continue
            changed[player_id, key] = new
            if old is not None:
                deltas[key, old.value] -= 1
            if new is not None:
                deltas[key, new.value] += 1
    sql.lines_upsert({line: new for line, new in changed.items() if new is not None})
    for player_id, key in changed:
        if changed[player_id, key] is None:  # only after a round was deleted (round_delete)
            BoardEntry.objects.filter(player_id=player_id, board=key).delete()
    sql.histogram_apply(deltas)
    return sorted(changed)


def player_boards_remove(*, player_id: int) -> list[str]:
    """Take a player's lines off every board (before the player is deleted), keeping the
    histograms in step. Returns the boards."""
    with transaction.atomic():
        keys = sorted(
            BoardEntry.objects.filter(player_id=player_id).values_list("board", flat=True)
        )
        sql.lock_for_refresh([player_id], keys)
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
            elif season_kind.startswith(f"{boards.ADVENT}:"):
                year = season_kind.partition(":")[2]
                days = boards.season_advent_range(*span, int(year)) if year.isdigit() else None
                if days is not None:
                    sql.insert_sum(board, days)
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
    for season_id, start_date, end_date in Season.objects.values_list(
        "pk", "start_date", "end_date"
    ):
        keys |= {boards.season_key(season_id, kind) for kind in boards.SEASON_KINDS}
        keys |= boards.season_advent_keys(SeasonSpan(season_id, start_date, end_date), dates)
    return keys


def boards_reconcile(*, keys: Iterable[str] | None = None) -> list[str]:
    """Rebuild every derived board from the Round table and drop boards nothing calls
    for any more. Each board is rebuilt in its own transaction, so a crash part-way
    leaves every board either old-and-consistent or rebuilt, and a rerun finishes."""
    full = keys is None
    if keys is None:
        stale = {
            board
            for model in (BoardHistogram, BoardHistogramBlock)
            for board in model.objects.order_by().values_list("board", flat=True).distinct()
        }
        keys = boards_expected() | stale
    done = []
    for key in sorted(keys):
        board_rebuild(board=key)
        done.append(key)
    if full:
        sql.tables_vacuum()
    return done


def season_boards_owe(*, season: Season) -> None:
    """Record, in the caller's transaction, that the season's boards owe a rebuild (it
    was created, its dates changed, or the admin asked): :func:`season_boards_rebuild`
    clears it, and :func:`boards_catch_up` runs one whose job was lost."""
    season.boards_owed_at = timezone.now()
    Season.objects.filter(pk=season.pk).update(boards_owed_at=season.boards_owed_at)


def season_boards_rebuild(*, season_id: int) -> list[str]:
    """Rebuild a season's boards (after its dates changed, or from the admin action):
    those it calls for now and those it still has (an advent its dates left). Clears the
    rebuild it owed, unless another was asked for meanwhile (its job runs it)."""
    keys = _season_boards_held(season_id)
    keys |= {boards.season_key(season_id, kind) for kind in boards.SEASON_KINDS}
    season = Season.objects.filter(pk=season_id).first()
    if season is not None:
        dates = (
            rounds_counting()
            .order_by()
            .filter(challenge__date__range=(season.start_date, season.end_date))
            .values_list("challenge__date", flat=True)
            .distinct()
        )
        span = SeasonSpan(season.pk, season.start_date, season.end_date)
        keys |= boards.season_advent_keys(span, dates)
    done = boards_reconcile(keys=keys)
    if season is not None and season.boards_owed_at is not None:
        Season.objects.filter(pk=season_id, boards_owed_at=season.boards_owed_at).update(
            boards_owed_at=None
        )
    return done


def _season_boards_held(season_id: int) -> set[str]:
    prefix = boards.season_prefix(season_id)
    return set(
        BoardHistogram.objects.filter(board__startswith=prefix)
        .order_by()
        .values_list("board", flat=True)
        .distinct()
    )


def season_delete(*, season: Season) -> None:
    """Delete a season and its boards."""
    prefix = boards.season_prefix(season.pk)
    with transaction.atomic():
        keys = _season_boards_held(season.pk)
        keys |= {boards.season_key(season.pk, kind) for kind in boards.SEASON_KINDS}
        sql.lock_boards(sorted(keys), exclusive=True)
        for model in (BoardEntry, BoardHistogram, BoardHistogramBlock):
            model.objects.filter(board__startswith=prefix).delete()
        season.delete()
