"""Who is ahead: competition ranks, a game's result, the upper bonus pace, and which
advent calendar is the latest.

Pure functions every layer can call (the boards, the party and computer payloads, the
pages and the terminal client), so a rank, a result, a pace or the advent calendar
shown by default is decided in one place.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import accumulate
from typing import Literal, TypedDict

from yatzy.rules import UPPER_CATEGORIES, Category, Ruleset

Result = Literal["win", "loss", "draw"]


def competition_rank(
    value: float, counts: Iterable[tuple[float, int]], *, higher_first: bool = True
) -> int:
    """The competition rank of ``value`` among ``counts`` (``(value, how many)`` pairs):
    one plus the number of entries strictly better, so equal values share a rank
    (1, 2, 2, 4). Better is higher unless ``higher_first`` is false (a loss, a time).

    >>> rows = [(300, 1), (250, 2), (100, 1)]
    >>> [competition_rank(v, rows) for v in (300, 250, 100)]
    [1, 2, 4]
    >>> competition_rank(0.5, [(0.0, 2), (0.5, 1)], higher_first=False)
    3
    """
    return competition_ranker(counts, higher_first=higher_first)(value)


def competition_ranker(
    counts: Iterable[tuple[float, int]], *, higher_first: bool = True
) -> Callable[[float], int]:
    """:func:`competition_rank` for many values among the same ``counts``: sorted once,
    then each rank is a binary search (a board of losses in hundredths of a point has
    thousands of distinct values, and a page ranks fifty lines).

    >>> rank = competition_ranker([(300, 1), (250, 2), (100, 1)])
    >>> [rank(v) for v in (301, 300, 260, 250, 100, 99)]
    [1, 1, 2, 2, 4, 5]
    """
    sign = -1 if higher_first else 1
    ordered = sorted(counts, key=lambda pair: sign * pair[0])  # best first
    keys = [sign * value for value, _ in ordered]
    better = list(accumulate((count for _, count in ordered), initial=0))
    return lambda value: 1 + better[bisect_left(keys, sign * value)]


def competition_ranks(values: Sequence[float], *, higher_first: bool = True) -> list[int]:
    """The competition rank of each of ``values``, in their order.

    >>> competition_ranks([240, 250, 240, 100])
    [2, 1, 2, 4]
    """
    counts = [(value, 1) for value in values]
    return [competition_rank(value, counts, higher_first=higher_first) for value in values]


def result_of(mine: int, theirs: int) -> Result:
    """``win``, ``loss`` or ``draw`` for the player whose total is ``mine``: the higher
    total wins, equal totals draw (a computer game, a friend challenge).

    >>> result_of(250, 240), result_of(200, 240), result_of(240, 240)
    ('win', 'loss', 'draw')
    """
    return "win" if mine > theirs else "loss" if mine < theirs else "draw"


class BonusPace(TypedDict):
    """The upper bonus pace, JSON-able: see :func:`bonus_pace`."""

    threshold: int
    points: int
    par: dict[str, int | float]
    boxes: dict[str, int | float]
    pace: int | float
    needed: int
    reached: bool
    missed: bool


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 1)


def _par(ruleset: Ruleset) -> dict[str, Fraction]:
    threshold, _points = ruleset.upper_bonus
    per_face = Fraction(threshold, sum(range(1, 7)))
    return {box: face * per_face for face, box in enumerate(UPPER_CATEGORIES, start=1)}


def bonus_par(ruleset: Ruleset) -> dict[str, int | float]:
    """Each upper box's par: its share of the bonus threshold, spread evenly over the
    faces (three of each face for 63, four of each in Maxi's 84).

    >>> import yatzy
    >>> [bonus_par(yatzy.get_ruleset(name))["fives"] for name in ("yatzy", "maxi")]
    [15, 20]
    """
    return {box: _number(value) for box, value in _par(ruleset).items()}


Scorecard = Mapping[Category, int | None] | Mapping[str, int | None]
"""A game's scorecard, or one read from JSON (the round payload's ``scorecard``)."""


def bonus_pace(ruleset: Ruleset, scorecard: Scorecard) -> BonusPace:
    """The score sheet's tip on the upper bonus: each upper box against its par
    (:func:`bonus_par`). ``boxes`` holds each filled box's points above (+) or below (-)
    its par, ``pace`` their sum: at 0 or more the bonus is on track; ``needed`` is what
    the upper section still lacks (0 once ``reached``); ``missed`` once every upper box is
    filled short of the threshold (nothing can bring the bonus any more).

    >>> import yatzy
    >>> maxi = yatzy.get_ruleset("maxi")
    >>> card = dict.fromkeys(maxi.categories, None) | {"sixes": 30, "twos": 4}
    >>> pace = bonus_pace(maxi, card)
    >>> pace["par"]["sixes"], pace["boxes"], pace["pace"], pace["needed"]
    (24, {'twos': -4, 'sixes': 6}, 2, 50)
    >>> bonus_pace(maxi, card | dict.fromkeys(["ones", "threes", "fours", "fives"], 0))["missed"]
    True
    """
    threshold, points = ruleset.upper_bonus
    par = _par(ruleset)
    filled = {box: scorecard.get(box) for box in UPPER_CATEGORIES}
    above = {box: got - par[box] for box, got in filled.items() if got is not None}
    upper_total = sum(got for got in filled.values() if got is not None)
    return {
        "threshold": threshold,
        "points": points,
        "par": {box: _number(value) for box, value in par.items()},
        "boxes": {box: _number(value) for box, value in above.items()},
        "pace": _number(sum(above.values(), Fraction(0))),
        "needed": max(0, threshold - upper_total),
        "reached": upper_total >= threshold,
        "missed": upper_total < threshold and None not in filled.values(),
    }


def advent_latest_year(day: dt.date) -> int:
    """The year of the latest advent calendar that has begun by ``day`` (a daily's
    date): the calendar and advent board shown when no year is asked for.

    >>> advent_latest_year(dt.date(2026, 12, 1)), advent_latest_year(dt.date(2027, 11, 30))
    (2026, 2026)
    """
    return day.year if day.month == 12 else day.year - 1
