"""Charts drawn on the server as inline SVG: the geometry of the day's score
distribution, of a player's score history and of the points their decisions gave
away each day (the accuracy of their play), and of the final score expected through a
game (its analysis). Pure functions from numbers to shapes;
the templates (``web/_chart_*.html``) draw them. No rule of the game is here: the
values come from the boards' histograms and the players' rounds.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT = 600, 220
# The largest font the stylesheet gives a chart's labels, in the view box's units: a
# phone's (site.css draws them at 20 units there, so they read at about 12 px on a
# 390 px screen, and at 12 units on a wide one). The margins are sized for it, so no
# label is cut off at any width.
FONT = 20
LEFT, RIGHT, TOP, BOTTOM = 44, 26, 28, 34  # margins for the axis labels
# Whatever the spread of the scores, a distribution's bars are at least this many
# points wide and its axis has at least this many of them: one or two players show
# as narrow bars on a readable scale, not as one bar as wide as the chart.
MIN_BIN, MIN_SLOTS = 5, 12


def _label_room(labels: Sequence[str]) -> float:
    """The width the longest of ``labels`` takes at :data:`FONT` (digits are about
    0.6 of the font size wide), with a gap to the axis."""
    return 10 + 0.6 * FONT * max((len(label) for label in labels), default=0)


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    low: int
    high: int
    count: int
    me: bool


@dataclass(frozen=True)
class Tick:
    x: float
    y: float
    label: str


@dataclass
class Chart:
    width: int = WIDTH
    height: int = HEIGHT
    bars: list[Bar] = field(default_factory=list)
    points: list[tuple[float, float, str, float]] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    mark_x: float | None = None
    # The player's label sits right of their mark, or left of it past the middle, so it
    # stays inside the chart when they lead.
    mark_anchor: str = "start"
    mark_dx: int = 4
    mark_label_y: float = FONT + 2
    level_y: float | None = None
    expert: list[tuple[float, float, str, float]] = field(default_factory=list)
    # A history's days for its table of numbers: each day's label, the player's score
    # and the expert's (``None`` until the day is revealed), oldest first.
    days: list[tuple[str, float, float | None]] = field(default_factory=list)
    baseline: float = HEIGHT - BOTTOM
    left: float = LEFT
    right: float = WIDTH - RIGHT

    @property
    def polyline(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in self.points)

    @property
    def expert_polyline(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in self.expert)

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"


def _nice_step(span: int, parts: int) -> int:
    """A round step near ``span / parts``: 1, 2, 5, 10, 20, 50, …

    >>> _nice_step(600, 6), _nice_step(7, 4), _nice_step(0, 4)
    (100, 2, 1)
    """
    raw = max(1, -(-span // max(1, parts)))
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= raw:
                return step * factor
        step *= 10


def distribution(
    values: Sequence[tuple[int, int]], mine: int | None, *, bins: int = 30
) -> Chart | None:
    """Bars of how many players scored in each range, and the player's mark.

    ``values`` is a histogram ``[(value, count), …]`` lowest first; ``None`` when it
    is empty (nothing to draw). Bars are at least :data:`MIN_BIN` points wide and the
    axis has at least :data:`MIN_SLOTS` of them, centred on the scores.

    >>> chart = distribution([(100, 1), (250, 3), (300, 1)], 250, bins=10)
    >>> sum(bar.count for bar in chart.bars), [bar.low for bar in chart.bars if bar.me]
    (5, [250])
    >>> alone = distribution([(329, 1)], 329)
    >>> [(bar.low, bar.high) for bar in alone.bars], alone.mark_anchor
    ([(325, 329)], 'end')
    """
    if not values:
        return None
    low = min(v for v, _ in values)
    high = max(v for v, _ in values)
    if mine is not None:
        low, high = min(low, mine), max(high, mine)
    size = max(MIN_BIN, _nice_step(high - low + 1, bins))
    start = low - low % size
    n = (high - start) // size + 1
    if n < MIN_SLOTS:  # widen the axis around the scores (never below 0)
        start = max(0, start - size * ((MIN_SLOTS - n) // 2))
        n = max(MIN_SLOTS, (high - start) // size + 1)
    counts: dict[int, int] = {}
    for value, count in values:
        key = (value - start) // size
        counts[key] = counts.get(key, 0) + count
    tallest = max(counts.values())
    chart = Chart()
    chart.left = max(LEFT, _label_room([str(tallest)]))
    plot_w = chart.right - chart.left
    plot_h = chart.baseline - TOP
    slot = plot_w / n
    for i in range(n):
        count = counts.get(i, 0)
        if not count:
            continue
        h = plot_h * count / tallest
        lo = start + i * size
        chart.bars.append(
            Bar(
                x=round(chart.left + i * slot + 0.5, 1),
                y=round(chart.baseline - h, 1),
                width=round(max(1.0, slot - 1), 1),
                height=round(h, 1),
                low=lo,
                high=lo + size - 1,
                count=count,
                me=mine is not None and lo <= mine < lo + size,
            )
        )
    span = n * size
    if mine is not None:
        chart.mark_x = round(chart.left + plot_w * (mine - start + 0.5) / span, 1)
        if chart.mark_x > WIDTH / 2:
            chart.mark_anchor, chart.mark_dx = "end", -4
    step = _nice_step(span, 6)
    first = start + (-start) % step
    for value in range(first, start + span + 1, step):
        x = chart.left + plot_w * (value - start) / span
        chart.x_ticks.append(Tick(round(x, 1), chart.baseline + FONT + 6, str(value)))
    chart.y_ticks = [
        Tick(chart.left - 6, round(chart.baseline - plot_h * c / tallest + 6, 1), str(c))
        for c in sorted({0, tallest})
    ]
    return chart


def _day_axes(
    chart: Chart,
    first_day: dt.date,
    last_day: dt.date,
    top: float,
    label: Callable[[dt.date], str],
) -> Callable[[dt.date, float], tuple[float, float, str, float]]:
    """The axes of values over days, from 0 to a round ceiling at or above ``top``, the
    first and last day under them; returns where a ``(day, value)`` point is drawn (a
    single day in the middle)."""
    days = max(1, (last_day - first_day).days)
    step = _nice_step(math.ceil(top), 4)
    ceiling = max(step, math.ceil(top / step) * step)
    chart.left = max(LEFT, _label_room([str(ceiling)]))
    plot_w = chart.right - chart.left
    plot_h = chart.baseline - TOP

    def at(day: dt.date, value: float) -> tuple[float, float, str, float]:
        fraction = (day - first_day).days / days if last_day != first_day else 0.5
        x = chart.left + plot_w * fraction
        y = chart.baseline - plot_h * value / ceiling
        return (round(x, 1), round(y, 1), label(day), value)

    chart.y_ticks = [
        Tick(chart.left - 6, round(chart.baseline - plot_h * v / ceiling + 6, 1), str(v))
        for v in range(0, ceiling + 1, step)
    ]
    chart.x_ticks = [Tick(chart.left, chart.baseline + FONT + 6, label(first_day))]
    if last_day != first_day:
        chart.x_ticks.append(Tick(chart.right, chart.baseline + FONT + 6, label(last_day)))
    return at


def history(
    scores: Sequence[tuple[dt.date, int, int | None]],
    label: Callable[[dt.date], str] = dt.date.isoformat,
) -> Chart | None:
    """A line through a player's scores, oldest first, and a second one through the
    expert's score on the same days where it is known (``(day, total, expert)``,
    ``expert`` ``None`` until the day is revealed); ``None`` without any score. ``label``
    writes a day (the page's date format).

    >>> chart = history([(dt.date(2026, 12, 1), 200, 310), (dt.date(2026, 12, 3), 300, None)])
    >>> [label for _, _, label, _ in chart.points], chart.points[-1][1] < chart.points[0][1]
    (['2026-12-01', '2026-12-03'], True)
    >>> [(label, value) for _, _, label, value in chart.expert]
    [('2026-12-01', 310)]
    >>> chart.days
    [('2026-12-01', 200, 310), ('2026-12-03', 300, None)]
    """
    if not scores:
        return None
    chart = Chart()
    top = max(max(total, expert or 0) for _, total, expert in scores)
    at = _day_axes(chart, scores[0][0], scores[-1][0], top, label)
    chart.points = [at(day, total) for day, total, _ in scores]
    chart.expert = [at(day, expert) for day, _, expert in scores if expert is not None]
    chart.days = [(label(day), total, expert) for day, total, expert in scores]
    return chart


def decisions(
    losses: Sequence[tuple[dt.date, float]],
    label: Callable[[dt.date], str] = dt.date.isoformat,
) -> Chart | None:
    """A line through the points a player's decisions gave away each analysed day
    (``(day, loss)``, oldest first), from 0 (perfect play) up; ``None`` without any.
    The closer to the axis, the more accurate the play.

    >>> chart = decisions([(dt.date(2026, 12, 1), 12.5), (dt.date(2026, 12, 2), 0.0)])
    >>> [(label, value) for _, _, label, value in chart.points]
    [('2026-12-01', 12.5), ('2026-12-02', 0.0)]
    >>> chart.points[1][1] == chart.baseline, [tick.label for tick in chart.y_ticks]
    (True, ['0', '5', '10', '15'])
    """
    if not losses:
        return None
    chart = Chart()
    top = max(loss for _, loss in losses)
    at = _day_axes(chart, losses[0][0], losses[-1][0], max(top, 1.0), label)
    chart.points = [at(day, loss) for day, loss in losses]
    return chart


def expectation(start: float, after_turns: Sequence[float]) -> Chart:
    """A line through the final score expected before the first turn (``start``) and
    after each turn's box (``after_turns``: the exact table's values of the moves
    played; after the last box it is the total), with a level line at ``start``.
    A drop is bad luck or a costly choice, a rise good luck.

    >>> chart = expectation(190.5, [191.0, 180.25, 200.0])
    >>> [(label, value) for _, _, label, value in chart.points]
    [('0', 190.5), ('1', 191.0), ('2', 180.2), ('3', 200.0)]
    >>> chart.points[3][1] < chart.points[2][1], chart.level_y == chart.points[0][1]
    (True, True)

    A round that ended before its first box (a daily round expired) has the start alone:

    >>> [tick.label for tick in expectation(394.5575, []).x_ticks]
    ['0']
    """
    chart = Chart()
    values = [start, *after_turns]
    low, high = int(min(values)), int(max(values)) + 1
    step = _nice_step(high - low, 4)
    floor = low - low % step
    ceiling = max(floor + step, high + (-high) % step)
    chart.left = max(LEFT, _label_room([str(floor), str(ceiling)]))
    plot_w = chart.right - chart.left
    plot_h = chart.baseline - TOP
    turns = max(1, len(values) - 1)

    def y_of(value: float) -> float:
        return round(chart.baseline - plot_h * (value - floor) / (ceiling - floor), 1)

    for turn, value in enumerate(values):
        x = round(chart.left + plot_w * turn / turns, 1)
        chart.points.append((x, y_of(value), str(turn), round(value, 1)))
    chart.level_y = y_of(start)
    chart.y_ticks = [
        Tick(chart.left - 6, y_of(v) + 6, str(v)) for v in range(floor, ceiling + 1, step)
    ]
    every = _nice_step(turns, 4)
    chart.x_ticks = [
        Tick(chart.points[turn][0], chart.baseline + FONT + 6, str(turn))
        for turn in range(len(values))
        if turn % every == 0 or turn == turns
    ]
    return chart
