"""The boards' SQL, on PostgreSQL and SQLite: set-based statements that rebuild a board
from the Round table (computing what :mod:`leaderboards.boards` computes per player, for
every player at once; the tests check that the two agree), the few raw statements of
the incremental update, histogram upkeep, and the advisory locks.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field
from django.utils import timezone

from daily.models import Challenge
from games.models import Round
from leaderboards.boards import DECISIONS_MIN_DAYS, Line, Played, SeasonSpan
from leaderboards.models import (
    BoardEntry,
    BoardHistogram,
    BoardHistogramBlock,
    PendingBoardUpdate,
    Season,
)

ENTRY = BoardEntry._meta.db_table
HIST = BoardHistogram._meta.db_table
BLOCKS = BoardHistogramBlock._meta.db_table
ROUND = Round._meta.db_table
CHALLENGE = Challenge._meta.db_table
SEASON = Season._meta.db_table
PENDING = PendingBoardUpdate._meta.db_table

_ENTRY_COLUMNS = "board, player_id, value, achieved_at, streak_last_date, streak_last_run"


# The rounds that count on the boards: completed, ranked, not excluded by an
# administrator (games.selectors.rounds_counting says the same for the ORM).
_COUNTS = "r.ranked = %s AND r.status = %s AND r.excluded_at IS NULL"
# A round's loss in ten-thousandths of a point, an integer (its loss is stored rounded to
# four places, so this is exact), from which the decisions boards' hundredths are taken
# in integer arithmetic, in SQL as in leaderboards.boards.
_LOSS_E4 = "CAST(ROUND(r.loss * 10000) AS INTEGER)"


def _ranked(date_range: tuple[dt.date, dt.date] | None) -> tuple[str, list[Any]]:
    """FROM/WHERE for the completed ranked rounds that count, joined to their date,
    optionally in a range."""
    clause = f"FROM {ROUND} r JOIN {CHALLENGE} c ON c.id = r.challenge_id WHERE {_COUNTS}"
    params: list[object] = [True, Round.Status.COMPLETED]
    if date_range is not None:
        clause += " AND c.date BETWEEN %s AND %s"
        params += list(date_range)
    return clause, params


def _day_number(column: str) -> str:
    if connection.vendor == "postgresql":
        return f"({column} - DATE '2000-01-01')"
    return f"CAST(julianday({column}) AS INTEGER)"


def insert_daily(board: str, day: dt.date) -> None:
    source, params = _ranked((day, day))
    _execute(
        f"INSERT INTO {ENTRY} ({_ENTRY_COLUMNS}) "
        f"SELECT %s, r.player_id, r.total, r.completed_at, NULL, NULL {source}",
        [board, *params],
    )


def insert_best(board: str, date_range: tuple[dt.date, dt.date] | None) -> None:
    source, params = _ranked(date_range)
    _execute(
        f"INSERT INTO {ENTRY} ({_ENTRY_COLUMNS}) "
        "SELECT %s, player_id, total, completed_at, NULL, NULL FROM ("
        "  SELECT r.player_id, r.total, r.completed_at, ROW_NUMBER() OVER ("
        "    PARTITION BY r.player_id ORDER BY r.total DESC, r.completed_at, c.date) AS n "
        f"  {source}) t WHERE n = 1",
        [board, *params],
    )


def insert_sum(board: str, date_range: tuple[dt.date, dt.date]) -> None:
    source, params = _ranked(date_range)
    _execute(
        f"INSERT INTO {ENTRY} ({_ENTRY_COLUMNS}) "
        f"SELECT %s, r.player_id, SUM(r.total), MAX(r.completed_at), NULL, NULL {source} "
        "GROUP BY r.player_id",
        [board, *params],
    )


def insert_decisions(board: str, day: dt.date) -> None:
    """A day's decisions board: minus each analysed round's loss in hundredths
    (:func:`leaderboards.boards.loss_value`)."""
    source, params = _ranked((day, day))
    _execute(
        f"INSERT INTO {ENTRY} ({_ENTRY_COLUMNS}) "
        f"SELECT %s, r.player_id, -(({_LOSS_E4} + 50) / 100), r.completed_at, NULL, NULL "
        f"{source} AND r.loss IS NOT NULL",
        [board, *params],
    )


def insert_decisions_mean(board: str, date_range: tuple[dt.date, dt.date] | None) -> None:
    """The mean loss of each player's analysed days, from ``DECISIONS_MIN_DAYS`` of
    them (:func:`leaderboards.boards.decisions_line`)."""
    source, params = _ranked(date_range)
    _execute(
        f"INSERT INTO {ENTRY} ({_ENTRY_COLUMNS}) "
        f"SELECT %s, r.player_id, -((SUM({_LOSS_E4}) + 50 * COUNT(*)) / (100 * COUNT(*))), "
        f"MAX(r.completed_at), NULL, NULL {source} AND r.loss IS NOT NULL "
        "GROUP BY r.player_id HAVING COUNT(*) >= %s",
        [board, *params, DECISIONS_MIN_DAYS],
    )


def insert_streak(board: str, date_range: tuple[dt.date, dt.date] | None) -> None:
    """Gaps and islands: consecutive dates share ``day number - row number``."""
    source, params = _ranked(date_range)
    _execute(
        f"WITH days AS ("
        f"  SELECT r.player_id, c.date AS day, r.completed_at, {_day_number('c.date')}"
        "    - ROW_NUMBER() OVER (PARTITION BY r.player_id ORDER BY c.date) AS island "
        f"  {source}"
        "), runs AS ("
        "  SELECT player_id, COUNT(*) AS length, MAX(day) AS last_day,"
        "    MAX(completed_at) AS achieved_at FROM days GROUP BY player_id, island"
        "), ordered AS ("
        "  SELECT player_id, length, last_day, achieved_at,"
        "    ROW_NUMBER() OVER (PARTITION BY player_id"
        "      ORDER BY length DESC, achieved_at, last_day) AS longest,"
        "    ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY last_day DESC) AS latest"
        "  FROM runs"
        f") INSERT INTO {ENTRY} ({_ENTRY_COLUMNS}) "
        "SELECT %s, l.player_id, l.length, l.achieved_at, t.last_day, t.length "
        "FROM ordered l JOIN ordered t ON t.player_id = l.player_id AND t.latest = 1 "
        "WHERE l.longest = 1",
        [*params, board],
    )


def histogram_rebuild(board: str) -> None:
    """A board's histogram and its blocks, counted again from its entries."""
    for table in (HIST, BLOCKS):
        _execute(f"DELETE FROM {table} WHERE board = %s", [board])
    _execute(
        f"INSERT INTO {HIST} (board, value, count) "
        f"SELECT board, value, COUNT(*) FROM {ENTRY} WHERE board = %s GROUP BY board, value",
        [board],
    )
    width = BoardHistogramBlock.WIDTH
    _execute(
        f"INSERT INTO {BLOCKS} (board, block, count) "
        f"SELECT board, value / {width}, SUM(count) FROM {HIST} WHERE board = %s "
        f"GROUP BY board, value / {width}",
        [board],
    )


def histogram_apply(deltas: dict[tuple[str, int], int]) -> None:
    """Add ``deltas[(board, value)]`` to the histogram and its blocks, one statement
    each. Rows are touched in (board, value) order, then blocks in (board, block) order,
    so concurrent updates always lock them in the same order and cannot deadlock. A
    value nobody holds any more keeps a row with count 0 (every reader skips or sums
    them) until the board's next rebuild: deleting it would cost this hot path a
    statement."""
    blocks: Counter[tuple[str, int]] = Counter()
    for (board, value), n in deltas.items():
        blocks[board, BoardHistogramBlock.of(value)] += n
    for table, column, changed in ((HIST, "value", deltas), (BLOCKS, "block", blocks)):
        changes = sorted((key, n) for key, n in changed.items() if n)
        if not changes:
            continue
        rows = ", ".join(["(%s, %s, %s)"] * len(changes))
        params = [x for (board, at), n in changes for x in (board, at, n)]
        _execute(
            f"INSERT INTO {table} (board, {column}, count) VALUES {rows} "
            f"ON CONFLICT (board, {column}) DO UPDATE SET count = {table}.count + excluded.count",
            params,
        )


# The incremental update runs for every completed ranked round, so it reads and writes
# in raw SQL, a handful of statements in all, instead of building ORM queries.

_DATE = Challenge._meta.get_field("date")
_ROUND_ID = Round._meta.get_field("id")
_AT = BoardEntry._meta.get_field("achieved_at")
_LAST_DATE = BoardEntry._meta.get_field("streak_last_date")
_CREATED = PendingBoardUpdate._meta.get_field("created_at")


def round_targets(round_ids: Sequence[str]) -> dict[str, tuple[int, dt.date, list[SeasonSpan]]]:
    """The player and date of each ranked daily round and the seasons containing that
    date, in one statement; other rounds are left out."""
    rows = _fetch(
        f"SELECT r.id, r.player_id, c.date, s.id, s.start_date, s.end_date FROM {ROUND} r "
        f"JOIN {CHALLENGE} c ON c.id = r.challenge_id "
        f"LEFT JOIN {SEASON} s ON s.start_date <= c.date AND c.date <= s.end_date "
        f"WHERE r.id IN ({_placeholders(round_ids)}) AND r.ranked = %s",
        [*(_ROUND_ID.get_db_prep_value(round_id, connection) for round_id in round_ids), True],
        (_ROUND_ID, None, _DATE, None, _DATE, _DATE),
    )
    targets: dict[str, tuple[int, dt.date, list[SeasonSpan]]] = {}
    for round_id, player_id, day, *season in rows:
        target = targets.setdefault(str(round_id), (player_id, day, []))
        if season[0] is not None:
            target[2].append(SeasonSpan(*season))
    return targets


def players_state(
    player_ids: Sequence[int], keys: Sequence[str]
) -> dict[int, tuple[list[Played], dict[str, Line]]]:
    """In one statement: each player's completed ranked rounds that count and their
    current lines on the boards ``keys``. Read after the locks are held."""
    players = _placeholders(player_ids)
    rows = _fetch(
        f"SELECT r.player_id, NULL, c.date, r.total, r.completed_at, NULL, NULL, {_LOSS_E4} "
        f"FROM {ROUND} r JOIN {CHALLENGE} c ON c.id = r.challenge_id "
        f"WHERE r.player_id IN ({players}) AND {_COUNTS} "
        "UNION ALL SELECT e.player_id, e.board, NULL, e.value, e.achieved_at,"
        f" e.streak_last_date, e.streak_last_run, NULL FROM {ENTRY} e "
        f"WHERE e.player_id IN ({players}) AND e.board IN ({_placeholders(keys)})",
        [*player_ids, True, Round.Status.COMPLETED, *player_ids, *keys],
        (None, None, _DATE, None, _AT, _LAST_DATE, None, None),
    )
    state: dict[int, tuple[list[Played], dict[str, Line]]] = {p: ([], {}) for p in player_ids}
    for player_id, board, d, v, at, last, run, e4 in rows:
        played, lines = state[player_id]
        if board is None:
            played.append(Played(day=d, total=v, completed_at=at, loss_e4=e4))
        else:
            lines[board] = Line(value=v, achieved_at=at, streak_last_date=last, streak_last_run=run)
    return state


def lines_upsert(lines: dict[tuple[int, str], Line]) -> None:
    """Insert or replace the entries ``(player, board)`` in one statement."""
    if not lines:
        return
    rows = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * len(lines))
    params = [
        x
        for (player_id, board), line in sorted(lines.items())
        for x in (
            board,
            player_id,
            line.value,
            _AT.get_db_prep_value(line.achieved_at, connection),
            _LAST_DATE.get_db_prep_value(line.streak_last_date, connection),
            line.streak_last_run,
        )
    ]
    _execute(
        f"INSERT INTO {ENTRY} ({_ENTRY_COLUMNS}) VALUES {rows} "
        "ON CONFLICT (board, player_id) DO UPDATE SET value = excluded.value,"
        " achieved_at = excluded.achieved_at, streak_last_date = excluded.streak_last_date,"
        " streak_last_run = excluded.streak_last_run",
        params,
    )


def daily_mismatched_players(board: str, day: dt.date) -> list[int]:
    """Players whose line on a day's board differs from their ranked round: a board job
    that never ran (lost with its worker), or an entry left without its round."""
    source, params = _ranked((day, day))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT r.player_id {source} AND NOT EXISTS ("
            f"  SELECT 1 FROM {ENTRY} e WHERE e.board = %s AND e.player_id = r.player_id"
            "   AND e.value = r.total AND e.achieved_at = r.completed_at) "
            f"UNION SELECT e.player_id FROM {ENTRY} e WHERE e.board = %s AND NOT EXISTS ("
            f"  SELECT 1 {source} AND r.player_id = e.player_id)",
            [*params, board, board, *params],
        )
        return [row[0] for row in cursor.fetchall()]


def pending_owed(round_id: str) -> bool:
    """Whether the round's board update is owed (a row another transaction is taking
    still counts: until it commits, its update may not have happened)."""
    rows = _fetch(
        f"SELECT 1 FROM {PENDING} WHERE round_id = %s",
        [_ROUND_ID.get_db_prep_value(round_id, connection)],
        (None,),
    )
    return bool(rows)


def pending_take(
    *, round_id: str | None, limit: int, before: dt.datetime | None = None
) -> list[str]:
    """Take owed board updates for this transaction to run, in one statement: the owed
    row of ``round_id`` and, only if it is still owed, up to ``limit - 1`` more of the
    oldest (created before ``before``); ``round_id=None``: the ``limit`` oldest. The
    rows are deleted, so they come back if the transaction does not commit, and until
    it ends another transaction skips them (PostgreSQL's ``SKIP LOCKED``: this one is
    running them; SQLite's writers are serialised already)."""
    lock = " FOR UPDATE SKIP LOCKED" if connection.vendor == "postgresql" else ""
    at = _CREATED.get_db_prep_value(before or timezone.now(), connection)
    oldest = f"SELECT round_id FROM {PENDING} WHERE created_at < %s"
    if round_id is None:
        statement = (
            f"DELETE FROM {PENDING} WHERE round_id IN ({oldest} ORDER BY created_at LIMIT %s{lock})"
        )
        params = [at, limit]
    else:
        statement = (
            f"WITH own AS (SELECT round_id FROM {PENDING} WHERE round_id = %s{lock}), "
            f"others AS ({oldest} AND round_id <> %s AND EXISTS (SELECT 1 FROM own)"
            f" ORDER BY created_at LIMIT %s{lock}) "
            f"DELETE FROM {PENDING} WHERE round_id IN"
            " (SELECT round_id FROM own UNION ALL SELECT round_id FROM others)"
        )
        own = _ROUND_ID.get_db_prep_value(round_id, connection)
        params = [own, at, own, limit - 1]
    rows = _fetch(f"{statement} RETURNING round_id", params, (_ROUND_ID,))
    return [str(taken) for (taken,) in rows]


def tables_vacuum() -> None:
    """After a full rebuild, vacuum and analyse the board tables at once: the millions of
    dead and new row versions would otherwise bring autovacuum over the whole table at
    some later moment, competing with the reads (rank lookup p99 2-3 ms became 40-50 ms
    while it ran, at 1M players). PostgreSQL only, and only outside a transaction."""
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        _execute(f"VACUUM (ANALYZE) {ENTRY}, {HIST}, {BLOCKS}", [])


def lock_boards(keys: Iterable[str], *, exclusive: bool) -> None:
    """Transaction-scoped PostgreSQL advisory locks on boards: shared for a player's
    incremental update (many run at once), exclusive for rebuilding a whole board. Taken
    in one fixed order so two updates never deadlock. SQLite needs none: its
    IMMEDIATE transactions already serialise every writer."""
    if connection.vendor != "postgresql":
        return
    ids = _lock_ids(keys)
    if ids:
        _execute(f"SELECT {_BOARD_LOCKS[exclusive]}", [ids])


def lock_for_refresh(player_ids: Iterable[int], keys: Iterable[str]) -> None:
    """Locks for players' incremental update, in one round trip: the players' own
    advisory locks (a duplicate delivery waits for the first; unlike a row lock it writes
    nothing, so an update that changes nothing writes nothing), then shared locks on the
    boards (:func:`lock_boards`), each kind in one fixed order, all of them before any
    work, so two updates of several players never deadlock. The commit stays durable:
    with it asynchronous (tried), a database crash lost board updates whose jobs had
    already been acknowledged, to be restored only at day close or by the nightly
    reconcile; durability costs ~0.35 ms."""
    if connection.vendor != "postgresql":
        return
    _execute(
        f"SELECT {_LOCKS}, {_BOARD_LOCKS[False]}",
        [_lock_ids(f"player:{player_id}" for player_id in player_ids), _lock_ids(keys)],
    )


# One board lock per id of a bigint[] parameter, exclusive (True) or shared (False).
_BOARD_LOCKS = {
    exclusive: f"(SELECT COUNT({function}(k)) FROM unnest(%s::bigint[]) AS k)"
    for exclusive, function in (
        (True, "pg_advisory_xact_lock"),
        (False, "pg_advisory_xact_lock_shared"),
    )
}
_LOCKS = _BOARD_LOCKS[True]  # exclusive, one per id: the players' locks


def _lock_ids(keys: Iterable[str]) -> list[int]:
    """Lock ids in one fixed order, so two transactions never deadlock on them."""
    return sorted({_lock_id(key) for key in keys})


def _lock_id(key: str) -> int:
    digest = hashlib.blake2b(f"leaderboards:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _placeholders(values: Sequence[Any]) -> str:
    return ", ".join(["%s"] * len(values))


def _execute(sql: str, params: Sequence[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _fetch(
    sql: str, params: Sequence[Any], fields: Sequence[Field[Any, Any] | None]
) -> list[tuple[Any, ...]]:
    """Rows of a raw query, each column converted as its model ``field`` would be
    (SQLite returns the dates and datetimes of computed columns as text); ``None``
    leaves a column as the driver returns it."""
    columns = [
        (f.cached_col, connection.ops.get_db_converters(f.cached_col)) if f else (None, [])
        for f in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    converted = []
    for row in rows:
        values = list(row)
        for i, (column, converters) in enumerate(columns):
            for convert in converters:
                values[i] = convert(values[i], column, connection)
        converted.append(tuple(values))
    return converted
