"""Which boards exist and what a player's line on each is: board keys, and the pure
functions that turn a player's ranked rounds into board values.

The incremental update (one player at a time) uses these functions directly; the full
rebuild does the same in set-based SQL (:mod:`leaderboards.sql`), and the tests check
that both agree.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

DAILY = "daily"
BEST = "best"
STREAK = "streak"
ADVENT = "advent"
SEASON = "season"
# The decisions boards (SPEC §12): a day's (key "decisions:<date>"), and the mean over
# the days played, overall (key "decisions") and per season; DECISIONS_MEAN names the
# latter kind for presentation only.
DECISIONS = "decisions"
DECISIONS_MEAN = "decisions-mean"
BOARD_NAMES: dict[str, Promise] = {
    DAILY: pgettext_lazy("board", "Today's dice"),
    BEST: pgettext_lazy("board", "Best day"),
    STREAK: pgettext_lazy("board", "Most days in a row"),
    ADVENT: pgettext_lazy("board", "Advent"),
    DECISIONS: pgettext_lazy("board", "Best decisions"),
    DECISIONS_MEAN: pgettext_lazy("board", "Best decisions on average"),
}
ADVENT_LAST_DAY = 24
# The boards every season has; besides them, a season has the advent board of each
# year whose December 1-24 it overlaps (season_advent_key).
SEASON_KINDS = (BEST, STREAK, DECISIONS)
# A player is on a mean decisions board once this many of their days are analysed.
DECISIONS_MIN_DAYS = 5
# A season's board key is "season:<id>:<kind>"; these parts build it in Python
# (season_key) and in SQL (selectors.seasons_with_player_counts).
SEASON_KEY_PARTS = (f"{SEASON}:", ":")


@dataclass(frozen=True)
class Played:
    """One completed ranked round that counts: its date, score and completion time, and
    its loss in ten-thousandths of a point once analysed (an integer, so that Python
    and the rebuild's SQL round it to hundredths alike)."""

    day: dt.date
    total: int
    completed_at: dt.datetime
    loss_e4: int | None = None


@dataclass(frozen=True)
class Line:
    """A player's entry on one board."""

    value: int
    achieved_at: dt.datetime
    streak_last_date: dt.date | None = None
    streak_last_run: int | None = None


def board_name(kind: str) -> str:
    """A board's name in the active language.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     board_name(STREAK)
    'Most days in a row'
    """
    return str(BOARD_NAMES[kind])


def daily_key(day: dt.date) -> str:
    """The key of a date's board.

    >>> daily_key(dt.date(2026, 12, 1))
    'daily:2026-12-01'
    """
    return f"{DAILY}:{day.isoformat()}"


def decisions_key(day: dt.date) -> str:
    """The key of a date's decisions board.

    >>> decisions_key(dt.date(2026, 12, 1))
    'decisions:2026-12-01'
    """
    return f"{DECISIONS}:{day.isoformat()}"


def loss_value(loss_e4: int) -> int:
    """A loss on a decisions board: minus its hundredths of a point (rounded half up),
    so that the highest value, the board order everywhere, is the lowest loss, and
    losses equal to the hundredth tie.

    >>> loss_value(123_449), loss_value(123_450), loss_value(0)
    (-1234, -1235, 0)
    """
    return -((loss_e4 + 50) // 100)


def loss_of(value: int) -> float:
    """The loss in points a decisions board's value stands for.

    >>> loss_of(-1235), loss_of(0)
    (12.35, 0.0)
    """
    return -value / 100 + 0.0


def advent_key(year: int) -> str:
    """The key of a year's advent board.

    >>> advent_key(2026)
    'advent:2026'
    """
    return f"{ADVENT}:{year}"


def season_key(season_id: int, kind: str) -> str:
    """Seasons are keyed by id, so renaming a season's slug keeps its boards.

    >>> season_key(3, STREAK)
    'season:3:streak'
    """
    return season_prefix(season_id) + kind


def season_prefix(season_id: int) -> str:
    before, between = SEASON_KEY_PARTS
    return f"{before}{season_id}{between}"


def season_advent_key(season_id: int, year: int) -> str:
    """A season's advent board of ``year``: the sums of its days of December 1-24.

    >>> season_advent_key(3, 2026)
    'season:3:advent:2026'
    """
    return season_key(season_id, advent_key(year))


def advent_range(year: int) -> tuple[dt.date, dt.date]:
    return dt.date(year, 12, 1), dt.date(year, 12, ADVENT_LAST_DAY)


def season_advent_range(
    start_date: dt.date, end_date: dt.date, year: int
) -> tuple[dt.date, dt.date] | None:
    """The days of ``year``'s advent inside a season from ``start_date`` to
    ``end_date``; ``None`` if it has none.

    >>> season_advent_range(dt.date(2026, 11, 1), dt.date(2026, 12, 10), 2026)
    (datetime.date(2026, 12, 1), datetime.date(2026, 12, 10))
    >>> season_advent_range(dt.date(2026, 12, 25), dt.date(2027, 3, 1), 2026) is None
    True
    """
    first, last = advent_range(year)
    first, last = max(first, start_date), min(last, end_date)
    return (first, last) if first <= last else None


def in_advent(day: dt.date) -> bool:
    return day.month == 12 and day.day <= ADVENT_LAST_DAY


def advent_showing(day: dt.date) -> bool:
    """Whether the daily page of ``day`` shows the advent calendar: all December.

    >>> advent_showing(dt.date(2026, 12, 31)), advent_showing(dt.date(2027, 1, 1))
    (True, False)
    """
    return day.month == 12


def best_line(played: Iterable[Played]) -> Line | None:
    """The best score; among equal scores the earliest completed.

    >>> t = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    >>> day = dt.date(2026, 12, 1)
    >>> best_line([Played(day, 200, t), Played(day, 250, t)]).value
    250
    """
    top = min(played, key=lambda p: (-p.total, p.completed_at, p.day), default=None)
    return None if top is None else Line(value=top.total, achieved_at=top.completed_at)


@dataclass(frozen=True)
class _Run:
    length: int
    last_day: dt.date
    achieved_at: dt.datetime


def _runs(played: Iterable[Played]) -> list[_Run]:
    runs: list[_Run] = []
    previous: dt.date | None = None
    for p in sorted(played, key=lambda p: p.day):
        if previous is not None and p.day == previous + dt.timedelta(days=1):
            last = runs[-1]
            runs[-1] = _Run(last.length + 1, p.day, max(last.achieved_at, p.completed_at))
        else:
            runs.append(_Run(1, p.day, p.completed_at))
        previous = p.day
    return runs


def streak_line(played: Iterable[Played]) -> Line | None:
    """The longest run of consecutive dates (value), reached when its last round was
    completed; ties go to the run completed first. Also the latest run, from which the
    current streak is computed at read time.

    >>> t = dt.datetime(2026, 12, 9, tzinfo=dt.UTC)
    >>> days = [dt.date(2026, 12, d) for d in (1, 2, 3, 5, 6)]
    >>> line = streak_line(Played(d, 100, t) for d in days)
    >>> line.value, line.streak_last_date.day, line.streak_last_run
    (3, 6, 2)
    """
    runs = _runs(played)
    if not runs:
        return None
    longest = min(runs, key=lambda r: (-r.length, r.achieved_at, r.last_day))
    latest = runs[-1]
    return Line(
        value=longest.length,
        achieved_at=longest.achieved_at,
        streak_last_date=latest.last_day,
        streak_last_run=latest.length,
    )


def sum_line(played: Iterable[Played]) -> Line | None:
    """The sum of the scores, reached when the last of them was completed."""
    rounds = list(played)
    if not rounds:
        return None
    return Line(value=sum(p.total for p in rounds), achieved_at=max(p.completed_at for p in rounds))


def decisions_line(played: Iterable[Played]) -> Line | None:
    """The mean loss of the analysed days, once there are ``DECISIONS_MIN_DAYS`` of them,
    in hundredths rounded half up; reached when the last of them was completed.

    >>> t = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    >>> days = [Played(dt.date(2026, 12, d), 300, t, 10_000 * d) for d in range(1, 6)]
    >>> decisions_line(days).value, decisions_line(days[:4])
    (-300, None)
    """
    analysed = [p for p in played if p.loss_e4 is not None]
    if len(analysed) < DECISIONS_MIN_DAYS:
        return None
    n = len(analysed)
    total = sum(p.loss_e4 for p in analysed if p.loss_e4 is not None)
    return Line(
        value=-((total + 50 * n) // (100 * n)),
        achieved_at=max(p.completed_at for p in analysed),
    )


def within(played: Iterable[Played], first: dt.date, last: dt.date) -> list[Played]:
    return [p for p in played if first <= p.day <= last]


@dataclass(frozen=True)
class SeasonSpan:
    id: int
    start_date: dt.date
    end_date: dt.date


def season_advent_keys(season: SeasonSpan, dates: Iterable[dt.date]) -> set[str]:
    """The advent boards a season calls for: one for each year with a day of ``dates``
    (the days ranked rounds were played) in both its advent and the season."""
    return {
        season_advent_key(season.id, day.year)
        for day in dates
        if in_advent(day) and season.start_date <= day <= season.end_date
    }


def lines_for_day(
    played: Sequence[Played], *, day: dt.date, seasons: Iterable[SeasonSpan]
) -> dict[str, Line | None]:
    """Every board a ranked round of ``day`` can change, with the player's line on it
    computed from all their ranked rounds that count (``None``: the player has no line
    there)."""
    today = next((p for p in played if p.day == day), None)
    lines: dict[str, Line | None] = {
        daily_key(day): None if today is None else Line(today.total, today.completed_at),
        decisions_key(day): None
        if today is None or today.loss_e4 is None
        else Line(loss_value(today.loss_e4), today.completed_at),
        BEST: best_line(played),
        STREAK: streak_line(played),
        DECISIONS: decisions_line(played),
    }
    if in_advent(day):
        lines[advent_key(day.year)] = sum_line(within(played, *advent_range(day.year)))
    for season in seasons:
        if season.start_date <= day <= season.end_date:
            mine = within(played, season.start_date, season.end_date)
            lines[season_key(season.id, BEST)] = best_line(mine)
            lines[season_key(season.id, STREAK)] = streak_line(mine)
            lines[season_key(season.id, DECISIONS)] = decisions_line(mine)
            if in_advent(day):
                lines[season_advent_key(season.id, day.year)] = sum_line(
                    within(mine, *advent_range(day.year))
                )
    return lines
