"""Ranks on the boards: values into positions and competition ranks (what a
competition rank is, is :func:`yatzy.competition_rank`).

Competition ranking: equal values share a rank (1, 2, 2, 4). A value's rank is one plus
the number of entries with a higher value, which the board's histogram answers in one
row per distinct value (at most 650 for scores), never by counting players; in SQL the
histogram's blocks bound it to a few hundred rows on a decisions board's thousands of
distinct values too (:func:`rank_expression`). Within a tie entries are listed by
``achieved_at`` (earlier first), then player id.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db.models import F, IntegerField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce
from django.db.models.lookups import Exact

import yatzy
from leaderboards.models import BoardHistogram, BoardHistogramBlock

ENTRY_ORDER = ("-value", "achieved_at", "player_id")


@dataclass(frozen=True)
class Histogram:
    """A board's histogram, highest value first: ``[(value, count), …]``."""

    rows: list[tuple[int, int]]

    @classmethod
    def of(cls, board: str) -> Histogram:
        rows = (
            BoardHistogram.objects.filter(board=board, count__gt=0)
            .order_by("-value")
            .values_list("value", "count")
        )
        return cls(rows=list(rows))

    @property
    def total(self) -> int:
        """Entries on the board."""
        return sum(count for _, count in self.rows)

    @cached_property
    def _ranker(self) -> Callable[[float], int]:
        return yatzy.competition_ranker(self.rows)

    def rank(self, value: int) -> int:
        """Competition rank of ``value`` (:func:`yatzy.competition_ranker`: a binary
        search, which matters for the decisions boards' thousands of distinct losses).

        >>> h = Histogram([(300, 1), (250, 2), (100, 1)])
        >>> [h.rank(v) for v in (300, 250, 100, 99, 301)]
        [1, 2, 4, 5, 1]
        """
        return self._ranker(value)

    def seek(self, offset: int) -> tuple[int, int] | None:
        """The value at 0-based position ``offset`` and how many entries of that value
        come before it, or ``None`` past the end. Lets a page start at its first entry
        without scanning the ones above.

        >>> Histogram([(300, 1), (250, 2), (100, 1)]).seek(2)
        (250, 1)
        """
        above = 0
        for value, count in self.rows:
            if offset < above + count:
                return value, offset - above
            above += count
        return None


def rank_expression() -> CombinedExpression:
    """A queryset annotation for a :class:`BoardEntry`'s live rank: one plus the entries
    in the blocks above its value's block, plus those above it in its own block (a
    block spans at most ``2 * WIDTH - 1`` values, block 0 either side of zero, so the
    second sum reads a bounded range of the histogram's index)."""
    width = BoardHistogramBlock.WIDTH
    value = OuterRef("value")
    blocks_above = BoardHistogramBlock.objects.filter(
        board=OuterRef("board"), block__gt=value / width
    )
    in_block_above = BoardHistogram.objects.filter(
        Exact(F("value") / width, value / width),
        board=OuterRef("board"),
        value__gt=value,
        value__lt=value + 2 * width,
    )
    return Value(1) + _count_sum(blocks_above) + _count_sum(in_block_above)


def _count_sum(rows: QuerySet[Any]) -> Coalesce:
    counts = rows.order_by().values("board").annotate(n=Sum("count")).values("n")
    return Coalesce(Subquery(counts, output_field=IntegerField()), Value(0))


def streak_current(
    *,
    last_date: dt.date | None,
    last_run: int | None,
    today: dt.date,
    last_day: dt.date | None = None,
    today_open: bool = True,
) -> int:
    """The current streak: the latest run if it ends today, or ends yesterday while
    today's round is still possible (``today_open``: today lasts and the player's ranked
    round of today has not been spent without counting); otherwise 0. On a season's
    board (``last_day``: its end) no round of a day after the season can extend a run,
    so from then on none is current.

    >>> d = dt.date(2026, 12, 10)
    >>> [streak_current(last_date=d, last_run=4, today=d + dt.timedelta(days=n)) for n in (0, 1, 2)]
    [4, 4, 0]
    >>> streak_current(last_date=d, last_run=4, today=d + dt.timedelta(days=1), last_day=d)
    0
    >>> streak_current(last_date=d, last_run=4, today=d + dt.timedelta(days=1), today_open=False)
    0
    """
    if last_date is None or not last_run or (last_day is not None and today > last_day):
        return 0
    return last_run if today - last_date <= dt.timedelta(days=int(today_open)) else 0
