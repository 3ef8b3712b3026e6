"""Charts drawn on the server as inline SVG: the geometry of the day's score
distribution, of a player's score history and of the final score expected through a
game (its analysis). Pure functions from numbers to shapes;
the templates (``web/_chart_*.html``) draw them. No rule of the game is here: the
values come from the boards' histograms and the players' rounds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT = 600, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 34  # margins for the axis labels


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
    level_y: float | None = None
    baseline: float = HEIGHT - BOTTOM
    left: float = LEFT
    right: float = WIDTH - RIGHT

    @property
    def polyline(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in self.points)

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
    is empty (nothing to draw).

    >>> chart = distribution([(100, 1), (250, 3), (300, 1)], 250, bins=10)
    >>> sum(bar.count for bar in chart.bars), [bar.low for bar in chart.bars if bar.me]
    (5, [250])
    """
    if not values:
        return None
    low = min(v for v, _ in values)
    high = max(v for v, _ in values)
    if mine is not None:
        low, high = min(low, mine), max(high, mine)
    size = _nice_step(high - low + 1, bins)
    start = low - low % size
    counts: dict[int, int] = {}
    for value, count in values:
        key = (value - start) // size
        counts[key] = counts.get(key, 0) + count
    n = (high - start) // size + 1
    tallest = max(counts.values())
    chart = Chart()
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
    step = _nice_step(span, 6)
    first = start + (-start) % step
    for value in range(first, start + span + 1, step):
        x = chart.left + plot_w * (value - start) / span
        chart.x_ticks.append(Tick(round(x, 1), chart.baseline + 18, str(value)))
    chart.y_ticks = [
        Tick(chart.left - 6, round(chart.baseline - plot_h * c / tallest + 4, 1), str(c))
        for c in sorted({0, tallest})
    ]
    return chart


def history(scores: Sequence[tuple[dt.date, int]]) -> Chart | None:
    """A line through a player's scores, oldest first; ``None`` without any.

    >>> chart = history([(dt.date(2026, 12, 1), 200), (dt.date(2026, 12, 3), 300)])
    >>> [label for _, _, label, _ in chart.points], chart.points[-1][1] < chart.points[0][1]
    (['2026-12-01', '2026-12-03'], True)
    """
    if not scores:
        return None
    chart = Chart()
    first_day, last_day = scores[0][0], scores[-1][0]
    days = max(1, (last_day - first_day).days)
    top = max(total for _, total in scores)
    step = _nice_step(top, 4)
    ceiling = max(step, top + (-top) % step)
    plot_w = chart.right - chart.left
    plot_h = chart.baseline - TOP
    for day, total in scores:
        fraction = (day - first_day).days / days if len(scores) > 1 else 0.5
        x = chart.left + plot_w * fraction
        y = chart.baseline - plot_h * total / ceiling
        chart.points.append((round(x, 1), round(y, 1), day.isoformat(), total))
    chart.y_ticks = [
        Tick(chart.left - 6, round(chart.baseline - plot_h * v / ceiling + 4, 1), str(v))
        for v in range(0, ceiling + 1, step)
    ]
    chart.x_ticks = [Tick(chart.left, chart.baseline + 18, first_day.isoformat())]
    if last_day != first_day:
        chart.x_ticks.append(Tick(chart.right, chart.baseline + 18, last_day.isoformat()))
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
    """
    chart = Chart()
    values = [start, *after_turns]
    low, high = int(min(values)), int(max(values)) + 1
    step = _nice_step(high - low, 4)
    floor = low - low % step
    ceiling = max(floor + step, high + (-high) % step)
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
        Tick(chart.left - 6, y_of(v) + 4, str(v)) for v in range(floor, ceiling + 1, step)
    ]
    every = _nice_step(turns, 4)
    chart.x_ticks = [
        Tick(chart.points[turn][0], chart.baseline + 18, str(turn))
        for turn in range(0, turns + 1)
        if turn % every == 0 or turn == turns
    ]
    return chart
