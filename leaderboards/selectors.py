"""Board reads: which board a request means, its pages, the entries around a player, a
player's own line, and the advent calendar. Ranks come from :mod:`leaderboards.ranking`.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.conf import settings
from django.db import connections, router
from django.db.models import (
    CharField,
    Count,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Cast, Coalesce, Concat
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from config.api_errors import NotFoundError
from config.db import prepared_cursor
from daily import clock
from daily.models import Challenge
from daily.selectors import challenge_visible
from games.models import Round
from games.selectors import rounds_counting
from games.skill import day_analysed
from leaderboards import boards
from leaderboards.models import BoardEntry, BoardHistogram, Season
from leaderboards.ranking import ENTRY_ORDER, Histogram, rank_expression, streak_current

_FIELDS = (
    "player_id",
    "player__username",
    "player__display_name",
    "value",
    "achieved_at",
    "streak_last_date",
    "streak_last_run",
)


@dataclass(frozen=True)
class Board:
    """A resolved board: its key and how to present it."""

    key: str
    kind: str  # daily | best | streak | advent | decisions | decisions-mean
    frozen: bool = False
    expert_total: int | None = None  # daily boards of revealed days
    analysed: bool | None = None  # a day's decisions board: every round has its loss
    last_day: dt.date | None = None  # a season's boards: its end, after which no run goes on


@dataclass(frozen=True)
class Cursor:
    """A position between two entries in board order, carried by ``next`` and
    ``previous`` links: the page continues after the entry (``forward``) or ends just
    before it. Reading from a cursor is a keyset range on the board index, so a deep
    page costs what the first one does, even inside a huge tie."""

    forward: bool
    value: int
    achieved_at: dt.datetime
    player_id: int

    @classmethod
    def at(cls, row: dict[str, Any], *, forward: bool) -> Cursor:
        return cls(forward, row["value"], row["achieved_at"], row["player_id"])

    def encode(self) -> str:
        """An opaque token for a query string.

        >>> t = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
        >>> token = Cursor(True, 250, t, 7).encode()
        >>> Cursor.decode(token) == Cursor(True, 250, t, 7)
        True
        """
        text = "|".join(
            [
                "a" if self.forward else "b",
                str(self.value),
                self.achieved_at.isoformat(),
                str(self.player_id),
            ]
        )
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, token: str) -> Cursor:
        """The cursor of a token; ``ValueError`` for anything this API did not give out."""
        try:
            text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
            direction, value, at, player_id = text.split("|")
            achieved_at = dt.datetime.fromisoformat(at)
            cursor = cls(direction == "a", int(value), achieved_at, int(player_id))
            # Bounds of the columns, so a forged token cannot reach the database as an
            # error: a moment the database can store in UTC (0001-01-01T00:00+00:01 is
            # before the first one), a 32-bit value, a positive 64-bit id.
            achieved_at.astimezone(dt.UTC)
        except (binascii.Error, UnicodeDecodeError, ValueError, OverflowError) as exc:
            raise ValueError("not a board cursor") from exc
        if (
            direction not in ("a", "b")
            or achieved_at.tzinfo is None
            or not -(2**31) <= cursor.value < 2**31
            or not 0 < cursor.player_id < 2**63
        ):
            raise ValueError("not a board cursor")
        return cursor


@dataclass
class BoardView:
    count: int
    results: list[dict[str, Any]]
    me: dict[str, Any] | None
    page: int | None = None
    has_next: bool = False
    has_previous: bool = False
    after: Cursor | None = None  # continues after the last result
    before: Cursor | None = None  # ends before the first result
    extra: dict[str, Any] = field(default_factory=dict)
    # The board's histogram as read for the ranks, highest value first: how its values
    # are spread (the web pages chart it without reading it again).
    histogram: list[tuple[int, int]] = field(default_factory=list)


def seasons_with_player_counts(seasons: QuerySet[Season]) -> QuerySet[Season]:
    """``seasons`` annotated with ``player_count``: the players on each one's best-day
    board, read from its histogram (one row per distinct score, not per player)."""
    before, between = boards.SEASON_KEY_PARTS
    best_key = Concat(
        Value(before), Cast(OuterRef("pk"), CharField()), Value(f"{between}{boards.BEST}")
    )
    players = (
        BoardHistogram.objects.filter(board=best_key)
        .order_by()
        .values("board")
        .annotate(n=Sum("count"))
        .values("n")
    )
    return seasons.annotate(
        player_count=Coalesce(Subquery(players, output_field=IntegerField()), 0)
    )


def season_get(*, slug: str) -> Season:
    """The season of a ``season`` parameter: its slug, or its id."""
    season = Season.objects.filter(slug=slug).first()
    # An id: a few ASCII digits (int() refuses "²" and 4,300 digits or more).
    if season is None and slug.isascii() and slug.isdigit() and len(slug) <= 18:
        season = Season.objects.filter(pk=int(slug)).first()
    if season is None:
        raise NotFoundError(
            _("There is no season %(slug)s."), code="season_not_found", params={"slug": slug}
        )
    return season


def season_holds(*, slug: str, day: dt.date) -> bool:
    """Whether the season of a ``season`` parameter (404 for none) holds ``day``: only
    then has it that day's boards."""
    return _holds(season_get(slug=slug), day)


def _holds(season: Season, day: dt.date) -> bool:
    return season.start_date <= day <= season.end_date


def _day_in_season(day: dt.date, season_slug: str | None) -> None:
    """A day's board in a season is the day's own board, if the season has the day."""
    if season_slug is not None:
        season = season_get(slug=season_slug)
        if not _holds(season, day):
            raise NotFoundError(
                _("%(date)s is not in the season %(slug)s."),
                code="date_not_in_season",
                params={"date": day.isoformat(), "slug": season.slug},
            )


def board_daily(*, day: dt.date, season_slug: str | None = None) -> Board:
    """Today's or a past day's board; future days are 404 like the daily itself."""
    challenge = challenge_visible(day=day)
    _day_in_season(day, season_slug)
    frozen = challenge is not None and challenge.closed_at is not None
    expert = challenge.expert_total if challenge is not None and challenge.is_revealed else None
    return Board(boards.daily_key(day), boards.DAILY, frozen=frozen, expert_total=expert)


def board_days(
    *, day: dt.date, season_slug: str | None = None
) -> tuple[dt.date | None, dt.date | None]:
    """The days before and after ``day`` that have a daily board (a challenge; today's
    always has one), within the season when one is named: ``(previous, next)``,
    ``None`` where there is none, so a link to another day's board never leads to a
    page that does not exist."""
    today = clock.today()
    first, last = dt.date.min, today
    if season_slug is not None:
        season = season_get(slug=season_slug)
        first, last = season.start_date, min(today, season.end_date)
    # One query: a challenge row per day, so the table is a few thousand rows at most.
    found = Challenge.objects.aggregate(
        previous=Max("date", filter=Q(date__lt=day, date__gte=first)),
        later=Min("date", filter=Q(date__gt=day, date__lte=last)),
    )
    previous, later = found["previous"], found["later"]
    if later is None and day < today <= last:
        later = today
    return previous, later


def board_expert(*, board: Board) -> dict[str, int] | None:
    """The expert's score on a revealed day's dice, with the rank it would have."""
    if board.expert_total is None:
        return None
    return {"value": board.expert_total, "rank": Histogram.of(board.key).rank(board.expert_total)}


def board_ranked(*, kind: str, season_slug: str | None = None) -> Board:
    """The best-day or streak board, overall or of a season."""
    if season_slug is None:
        return Board(kind, kind)
    season = season_get(slug=season_slug)
    return Board(boards.season_key(season.pk, kind), kind, last_day=season.end_date)


def board_decisions(*, day: dt.date | None = None, season_slug: str | None = None) -> Board:
    """A day's decisions board (each analysed round's loss, lowest first; future days
    are 404 like the daily), or the mean loss over the days played, overall or of a
    season (from ``DECISIONS_MIN_DAYS`` analysed days). ``analysed`` tells whether a
    day's analysis has reached every round: until then its board is filling up."""
    if day is None:
        if season_slug is None:
            return Board(boards.DECISIONS, boards.DECISIONS_MEAN)
        season = season_get(slug=season_slug)
        return Board(boards.season_key(season.pk, boards.DECISIONS), boards.DECISIONS_MEAN)
    challenge_visible(day=day)
    _day_in_season(day, season_slug)
    return Board(boards.decisions_key(day), boards.DECISIONS, analysed=day_analysed(day=day))


def board_advent(*, year: int, season_slug: str | None = None) -> Board:
    """A year's advent board (the sums of December 1-24), or a season's: the sums of
    the advent days inside the season; 404 for a season without any."""
    if season_slug is None:
        return Board(boards.advent_key(year), boards.ADVENT)
    season = season_get(slug=season_slug)
    if boards.season_advent_range(season.start_date, season.end_date, year) is None:
        raise NotFoundError(
            _("The season %(slug)s has no day of the advent of %(year)s."),
            code="advent_not_in_season",
            params={"slug": season.slug, "year": year},
        )
    return Board(boards.season_advent_key(season.pk, year), boards.ADVENT)


_DECISION_KINDS = (boards.DECISIONS, boards.DECISIONS_MEAN)


@dataclass(frozen=True)
class _StreakDay:
    """The day a player's current streak is measured at: today, or yesterday for a
    player still finishing yesterday's ranked round in its grace period (SPEC §4, §5:
    that round may still extend their run, so the run ending the day before it is
    still current, as it was at 23:59). A player whose ranked round of today counts
    nowhere (``spent``: an administrator excluded it) can no longer play today's round,
    so for them only a run ending today would be current, not one ending yesterday."""

    today: dt.date
    finishing: frozenset[int] = frozenset()
    spent: frozenset[int] = frozenset()

    def of(self, player_id: int) -> dt.date:
        return self.today - dt.timedelta(days=1) if player_id in self.finishing else self.today

    def current(
        self,
        player_id: int,
        *,
        last_date: dt.date | None,
        last_run: int | None,
        last_day: dt.date | None = None,
    ) -> int:
        """The player's current streak (``streak_current`` at their streak day)."""
        return streak_current(
            last_date=last_date,
            last_run=last_run,
            today=self.of(player_id),
            last_day=last_day,
            today_open=player_id not in self.spent or player_id in self.finishing,
        )


def _streak_day(board: Board | None, player_ids: Iterable[int]) -> _StreakDay:
    """The streak day of ``player_ids`` on ``board`` (``None``: the overall streaks):
    which of them have today's ranked round excluded, and, only during yesterday's grace
    period, which are still finishing yesterday's."""
    today = clock.today()
    yesterday = today - dt.timedelta(days=1)
    if board is not None and board.kind != boards.STREAK:
        return _StreakDay(today)
    ids = list(player_ids)
    spent = Round.objects.filter(
        player_id__in=ids, challenge__date=today, ranked=True, excluded_at__isnull=False
    ).values_list("player_id", flat=True)
    if clock.is_revealed(yesterday):
        return _StreakDay(today, spent=frozenset(spent))
    finishing = Round.objects.filter(
        player_id__in=ids,
        challenge__date=yesterday,
        ranked=True,
        status=Round.Status.IN_PROGRESS,
        excluded_at__isnull=True,  # an excluded round extends no run
    ).values_list("player_id", flat=True)
    return _StreakDay(today, frozenset(finishing), frozenset(spent))


def _line(row: dict[str, Any], rank: int, board: Board, today: _StreakDay) -> dict[str, Any]:
    value = row["value"]
    line = {
        "rank": rank,
        "username": row["player__username"],
        "display_name": row["player__display_name"] or row["player__username"],
        # A decisions board stores minus the loss in hundredths; it shows the loss.
        "value": boards.loss_of(value) if board.kind in _DECISION_KINDS else value,
        "achieved_at": row["achieved_at"],
    }
    if board.kind == boards.STREAK:
        line["current"] = today.current(
            row["player_id"],
            last_date=row["streak_last_date"],
            last_run=row["streak_last_run"],
            last_day=board.last_day,
        )
    return line


def _entries(board: Board) -> QuerySet[BoardEntry]:
    return BoardEntry.objects.filter(board=board.key)


def board_page(
    *, board: Board, player: User | None, page: int, size: int, cursor: Cursor | None = None
) -> BoardView:
    """One page of a board. From a ``cursor`` (the ``next``/``previous`` links) the page
    is a keyset read next to it. Without one, the histogram locates the page's first
    value, so a page picked by number skips whole values instead of scanning every entry
    above it (only within that value's tie group are entries skipped one by one)."""
    histogram = Histogram.of(board.key)
    count = histogram.total
    if cursor is not None:
        anchor = {
            "value": cursor.value,
            "achieved_at": cursor.achieved_at,
            "player_id": cursor.player_id,
        }
        rows = _neighbours(board, anchor, size + 1, above=not cursor.forward)
        if not rows:  # past an end (a stale link, the board since shrunk): as by number
            raise NotFoundError(_("Invalid page."), code="invalid_page")
        more = len(rows) > size
        rows = rows[:size] if cursor.forward else list(reversed(rows[:size]))
        has_next = more if cursor.forward else True
        has_previous = page > 1 and (more or cursor.forward)
    else:
        offset = (page - 1) * size
        start = histogram.seek(offset)
        if start is None and page != 1:
            raise NotFoundError(_("Invalid page."), code="invalid_page")
        rows = []
        if start is not None:
            value, skip = start
            rows = list(
                _entries(board)
                .filter(value__lte=value)
                .order_by(*ENTRY_ORDER)
                .values(*_FIELDS)[skip : skip + size]
            )
        has_next, has_previous = offset + size < count, page > 1
    mine = (
        None if player is None else _entries(board).filter(player=player).values(*_FIELDS).first()
    )
    shown = [row["player_id"] for row in rows] + ([mine["player_id"]] if mine else [])
    today = _streak_day(board, shown)
    return BoardView(
        count=count,
        results=[_line(r, histogram.rank(r["value"]), board, today) for r in rows],
        me=None if mine is None else _line(mine, histogram.rank(mine["value"]), board, today),
        page=page,
        has_next=has_next and bool(rows),
        has_previous=has_previous,
        after=Cursor.at(rows[-1], forward=True) if rows else None,
        before=Cursor.at(rows[0], forward=False) if rows else None,
        histogram=histogram.rows,
    )


# How many entries ``?around=me`` shows: the caller's line in the middle.
AROUND_SIZE = 21


def board_view(
    *,
    board: Board,
    player: User | None,
    around: bool,
    page: int = 1,
    cursor: Cursor | None = None,
) -> BoardView:
    """What a board's page shows (the API's and the web page's alike): the entries
    around the player (``?around=me``), else one page, by number or by cursor. A
    visitor (``player`` ``None``) has no line, so ``around`` gives them the first page."""
    if around and player is not None:
        return board_around(board=board, player=player, size=AROUND_SIZE)
    return board_page(
        board=board,
        player=player,
        page=page,
        size=settings.REST_FRAMEWORK["PAGE_SIZE"],
        cursor=cursor,
    )


def board_around(*, board: Board, player: User, size: int) -> BoardView:
    """About ``size`` entries centred on the player (empty when they have no line).
    Each side is read by keyset from the player's own entry, never by counting."""
    histogram = Histogram.of(board.key)
    mine = _entries(board).filter(player=player).values(*_FIELDS).first()
    if mine is None:
        return BoardView(count=histogram.total, results=[], me=None, histogram=histogram.rows)
    half = (size - 1) // 2
    above = _neighbours(board, mine, half, above=True)
    below = _neighbours(board, mine, size - 1 - len(above), above=False)
    if len(below) < size - 1 - len(above):  # near the bottom: show more above
        above = _neighbours(board, mine, size - 1 - len(below), above=True)
    rows = [*reversed(above), mine, *below]
    today = _streak_day(board, [r["player_id"] for r in rows])
    return BoardView(
        count=histogram.total,
        results=[_line(r, histogram.rank(r["value"]), board, today) for r in rows],
        me=_line(mine, histogram.rank(mine["value"]), board, today),
        histogram=histogram.rows,
    )


def _neighbours(
    board: Board, mine: dict[str, Any], limit: int, *, above: bool
) -> list[dict[str, Any]]:
    """Up to ``limit`` entries next to ``mine`` in board order, nearest first: same value
    and time with a lower/higher id, then same value earlier/later, then higher/lower
    values. Each query is one bounded index range."""
    if limit <= 0:
        return []
    value, at, pid = mine["value"], mine["achieved_at"], mine["player_id"]
    if above:
        steps = [
            (Q(value=value, achieved_at=at, player_id__lt=pid), ("-player_id",)),
            (Q(value=value, achieved_at__lt=at), ("-achieved_at", "-player_id")),
            (Q(value__gt=value), ("value", "-achieved_at", "-player_id")),
        ]
    else:
        steps = [
            (Q(value=value, achieved_at=at, player_id__gt=pid), ("player_id",)),
            (Q(value=value, achieved_at__gt=at), ("achieved_at", "player_id")),
            (Q(value__lt=value), ENTRY_ORDER),
        ]
    found: list[dict[str, Any]] = []
    for condition, order in steps:
        if len(found) >= limit:
            break
        found += list(
            _entries(board)
            .filter(condition)
            .order_by(*order)
            .values(*_FIELDS)[: limit - len(found)]
        )
    return found


# Stand-ins for the board and the player in the rank lookup's statement, compiled once.
_RANK_BOARD, _RANK_PLAYER = "\x00board", -(2**31)


@cache
def _rank_statement(db: str) -> tuple[str, tuple[Any, ...]]:
    """:func:`board_rank`'s query as the ORM writes it, compiled once per database with
    stand-ins for its values: the compilation was four fifths of a lookup's time
    (1.6 of 2.0 ms at 1,000,000 players, ``bench.leaderboards``)."""
    lookup = (
        BoardEntry.objects.using(db)
        .filter(board=_RANK_BOARD, player_id=_RANK_PLAYER)
        .annotate(rank=rank_expression())
        .values_list("rank", "value")[:1]
    )
    sql, params = lookup.query.sql_with_params()
    assert params.count(_RANK_BOARD) and params.count(_RANK_PLAYER), params
    return sql, params


def board_rank(*, board: str, player_id: int) -> tuple[int, int] | None:
    """``(rank, value)`` of a player on a board in one query, or ``None``."""
    db = router.db_for_read(BoardEntry)
    sql, params = _rank_statement(db)
    values = [
        board if param == _RANK_BOARD else player_id if param == _RANK_PLAYER else param
        for param in params
    ]
    with prepared_cursor(connections[db]) as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def advent_calendar(*, player: User | None, year: int) -> dict[str, Any]:
    """The 24 doors of December ``year`` for one player, or for a visitor (``None``).

    A door is ``locked`` before its day, ``open`` on its day (or while the player's
    ranked round may still be finished in the grace period), ``played`` once its ranked
    round is complete (with score and rank on that day's board), ``missed`` once an
    administrator has excluded it (on its day too), ``empty`` for a past day that had
    no daily challenge (before the service ran), else ``missed``; a
    visitor, who has no rounds, sees ``past`` instead of ``played`` or ``missed``. A past
    door whose challenge exists is ``replayable``: it starts an unranked replay (not
    while it is still ``open``: a start then resumes the ranked round).
    ``previous_year`` is the year before when its December had dailies, else ``None``.
    """
    first, last = boards.advent_range(year)
    today = clock.today()
    ranked: dict[dt.date, tuple[str, int | None]] = {}
    excluded: set[dt.date] = set()
    ranks: dict[str, int] = {}
    if player is not None:
        for d, round_status, score, excluded_at in Round.objects.filter(
            player=player,
            ranked=True,
            challenge__date__gte=first,
            challenge__date__lte=last,
        ).values_list("challenge__date", "status", "total", "excluded_at"):
            if excluded_at is None or round_status == Round.Status.IN_PROGRESS:
                ranked[d] = (round_status, score)
            else:
                # An excluded round counts nowhere, like a deleted one: its door is
                # missed, on its own day too (that day's ranked round is spent: a start
                # is practice, so the door does not open again).
                excluded.add(d)
        keys = [boards.daily_key(first + dt.timedelta(days=n)) for n in range(24)]
        ranks = {
            key: rank
            for key, rank in BoardEntry.objects.filter(player=player, board__in=keys)
            .annotate(rank=rank_expression())
            .values_list("board", "rank")
        }
    before_first, before_last = boards.advent_range(year - 1)
    existing = set(
        Challenge.objects.filter(
            Q(date__gte=first, date__lt=min(today, last + dt.timedelta(days=1)))
            | Q(date__gte=before_first, date__lte=before_last)
        ).values_list("date", flat=True)
    )
    doors = []
    for n in range(24):
        day = first + dt.timedelta(days=n)
        status, total = ranked.get(day, (None, None))
        if day > today:
            state = "locked"
        elif day in excluded:
            state = "missed"
        elif status == Round.Status.COMPLETED:
            state = "played"
        elif day == today or (status == Round.Status.IN_PROGRESS and not clock.is_revealed(day)):
            state = "open"
        elif day not in existing:
            state = "empty"
        else:
            state = "missed" if player is not None else "past"
        played = state == "played"
        doors.append(
            {
                "day": day.day,
                "date": day,
                "state": state,
                "score": total if played else None,
                "rank": ranks.get(boards.daily_key(day)) if played else None,
                # Not while open: its round is still the ranked one, not a replay.
                "replayable": day < today and day in existing and state != "open",
            }
        )
    advent = (
        None if player is None else board_rank(board=boards.advent_key(year), player_id=player.pk)
    )
    return {
        "year": year,
        "theme": clock.theme(first),
        "theme_name": clock.theme_name(clock.theme(first)),
        "doors": doors,
        "total": sum(d["score"] for d in doors if d["score"] is not None),
        "rank": advent[0] if advent else None,
        "previous_year": year - 1 if any(d.year == year - 1 for d in existing) else None,
    }


def season_list(*, day: dt.date | None = None, advent_of: int | None = None) -> list[Season]:
    """Every season, newest first, for a board's season picker; only those that have
    the board: with ``day``, the seasons holding that day (a day's boards); with
    ``advent_of``, those with a day of that year's advent."""
    seasons = Season.objects.order_by("-start_date", "slug")
    if day is not None:
        seasons = seasons.filter(start_date__lte=day, end_date__gte=day)
    if advent_of is not None:
        first, last = boards.advent_range(advent_of)
        seasons = seasons.filter(start_date__lte=last, end_date__gte=first)
    return list(seasons)


def board_distribution(*, board: Board, player: User, value: int | None = None) -> dict[str, Any]:
    """How a board's values are spread (its histogram, lowest value first) and where the
    player stands: their own line's value and rank, else where ``value`` (a practice
    round's total) would rank among the entries; ``me`` is ``None`` when neither."""
    histogram = Histogram.of(board.key)
    mine = _entries(board).filter(player=player).values_list("value", flat=True).first()
    me = None
    if mine is not None:
        me = {"value": mine, "rank": histogram.rank(mine), "on_board": True}
    elif value is not None:
        me = {"value": value, "rank": histogram.rank(value), "on_board": False}
    return {"count": histogram.total, "values": sorted(histogram.rows), "me": me}


def day_standing(*, day: dt.date, player: User, total: int, ranked: bool) -> dict[str, Any]:
    """Where a finished round of ``day`` stands: the day's board, how its scores are
    spread and the player's place among them (their ranked line, or where a practice
    round's ``total`` would rank)."""
    board = board_daily(day=day)
    spread = board_distribution(board=board, player=player, value=None if ranked else total)
    return {"board": board, **spread}


def player_record(*, player: User, history: int = 60) -> dict[str, Any]:
    """A player's daily record: how many days they have played (completed ranked
    rounds that count), their best day, their streaks and their mean loss to their
    decisions with the ranks on those boards, their mean score, how their scores are
    spread (``scores``: ``(total, days)`` lowest first), and the scores of their last
    ``history`` days, oldest first, each with the expert's score on that day's dice once
    the day is revealed (else ``None``) and its ``loss`` and ``luck`` once analysed
    (SPEC §12)."""
    lines = {
        row["board"]: row
        for row in BoardEntry.objects.filter(
            player=player, board__in=[boards.BEST, boards.STREAK, boards.DECISIONS]
        ).values("board", "value", "streak_last_date", "streak_last_run")
    }
    best = lines.get(boards.BEST)
    streak = lines.get(boards.STREAK)
    decisions = lines.get(boards.DECISIONS)
    played = rounds_counting().filter(player=player)
    spread = played.order_by("total").values("total").annotate(days=Count("id"))
    # A completed round always has its total.
    scores = [(total, n) for total, n in spread.values_list("total", "days") if total is not None]
    days = sum(n for _, n in scores)
    recent = played.order_by("-challenge__date").values_list(
        "challenge__date", "total", "challenge__expert_total", "loss", "luck"
    )
    return {
        "days_played": days,
        "best": None
        if best is None
        else {"value": best["value"], "rank": Histogram.of(boards.BEST).rank(best["value"])},
        "mean": round(sum(total * n for total, n in scores) / days, 1) if days else None,
        "longest_streak": 0 if streak is None else streak["value"],
        "current_streak": 0
        if streak is None
        else _streak_day(None, [player.pk]).current(
            player.pk,
            last_date=streak["streak_last_date"],
            last_run=streak["streak_last_run"],
        ),
        "scores": scores,
        "decisions": None
        if decisions is None
        else {
            "value": boards.loss_of(decisions["value"]),
            "rank": Histogram.of(boards.DECISIONS).rank(decisions["value"]),
        },
        "history": [
            {
                "date": day,
                "total": total,
                "expert": expert if expert is not None and clock.is_revealed(day) else None,
                "loss": loss,
                "luck": luck,
            }
            for day, total, expert, loss, luck in reversed(recent[:history])
        ],
    }
