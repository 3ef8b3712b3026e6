"""The charts' geometry (web/charts.py): every label inside the view box, bars of a
readable width with one or two players, and the expert's line beside the player's."""

from __future__ import annotations

import datetime as dt

import pytest

from web import charts

# The widest a label's character is drawn (digits, at the phone's font size).
CHAR = 0.6 * charts.FONT


def label_span(x: float, text: str, anchor: str, dx: float = 0) -> tuple[float, float]:
    width = CHAR * len(text)
    start = {"start": x + dx, "middle": x - width / 2, "end": x + dx - width}[anchor]
    return start, start + width


@pytest.mark.parametrize(
    ("values", "mine"),
    [
        ([(120, 3), (250, 40), (329, 1)], 329),  # the player leads
        ([(329, 1)], 329),  # the only player
        ([(0, 2), (640, 1)], 0),  # the lowest possible score
        ([(180, 12_000), (200, 98_765)], 649),  # a huge day and the best possible score
    ],
)
def test_every_label_of_the_distribution_stays_inside_it(values, mine):
    chart = charts.distribution(values, mine)
    assert chart is not None and chart.mark_x is not None
    label = f"You: {mine}"  # the English label; most languages are as short
    low, high = label_span(chart.mark_x, label, chart.mark_anchor, chart.mark_dx)
    assert low >= 0 and high <= chart.width, (low, high)
    assert chart.mark_label_y - charts.FONT >= -2  # not cut off at the top
    for tick in chart.x_ticks:
        low, high = label_span(tick.x, tick.label, "middle")
        assert low >= 0 and high <= chart.width, tick
        assert tick.y <= chart.height
    for tick in chart.y_ticks:
        low, _ = label_span(tick.x, tick.label, "end")
        assert low >= 0, tick


def test_a_leaders_label_goes_left_of_the_mark_and_a_trailers_right():
    leader = charts.distribution([(120, 3), (250, 40), (329, 1)], 329)
    trailer = charts.distribution([(120, 3), (250, 40), (329, 1)], 120)
    assert (leader.mark_anchor, leader.mark_dx) == ("end", -4)
    assert (trailer.mark_anchor, trailer.mark_dx) == ("start", 4)


@pytest.mark.parametrize("values", [[(329, 1)], [(250, 1), (251, 1)], [(250, 1), (262, 1)]])
def test_one_or_two_players_show_as_narrow_bars_on_a_readable_axis(values):
    chart = charts.distribution(values, values[0][0])
    plot = chart.right - chart.left
    assert all(bar.high - bar.low + 1 >= 5 for bar in chart.bars)  # not 1 point wide
    assert all(bar.width <= plot / 10 for bar in chart.bars)  # nor as wide as the chart
    assert sum(bar.count for bar in chart.bars) == len(values)
    assert len(chart.x_ticks) >= 3


def test_many_players_keep_the_bins_the_spread_asks_for():
    chart = charts.distribution([(v, 1) for v in range(100, 400, 7)], None)
    assert {bar.high - bar.low + 1 for bar in chart.bars} == {10}


def test_the_history_draws_the_expert_on_the_days_it_is_known_on_the_same_scale():
    days = [dt.date(2026, 12, d) for d in (1, 2, 4)]
    chart = charts.history(
        [(days[0], 200, 310), (days[1], 250, None), (days[2], 300, 290)], label=str
    )
    assert [p[2] for p in chart.expert] == ["2026-12-01", "2026-12-04"]
    assert [p[0] for p in chart.expert] == [chart.points[0][0], chart.points[2][0]]
    by_value = {value: y for _, y, _, value in chart.points + chart.expert}
    assert by_value[310] < by_value[300] < by_value[290] < by_value[250] < by_value[200]
    top = max(int(tick.label) for tick in chart.y_ticks)
    assert top >= 310  # the expert is inside the chart too
    assert chart.expert_polyline.count(",") == 2
