"""The rank SQL computes (``ranking.rank_expression``, from the board's histogram and
its blocks) agrees with the one pure definition of a competition rank
(``yatzy.competition_ranks``)."""

import datetime as dt
from collections import Counter

import pytest
from django.db import transaction
from hypothesis import given, settings
from hypothesis import strategies as st

import yatzy
from leaderboards import boards, sql
from leaderboards.boards import Line
from leaderboards.models import BoardEntry, BoardHistogram, BoardHistogramBlock
from leaderboards.ranking import Histogram
from leaderboards.selectors import board_rank
from tests.factories import make_player
from tests.leaderboards.conftest import ranked
from tests.leaderboards.state import boards_state

pytestmark = pytest.mark.django_db(transaction=True)

DAY = dt.date(2026, 11, 10)
# Ties at the top, in the middle and at the bottom, and values out of order.
TOTALS = [250, 300, 250, 120, 300, 199, 120, 250]


def test_the_sql_rank_and_the_histograms_rank_are_the_competition_rank():
    players = [make_player(f"p{i}")[0] for i in range(len(TOTALS))]
    for minute, (player, total) in enumerate(zip(players, TOTALS, strict=True)):
        ranked(player, DAY, total, minute=minute)
    expected = yatzy.competition_ranks(TOTALS)
    key = boards.daily_key(DAY)
    in_sql = [board_rank(board=key, player_id=player.pk) for player in players]
    assert in_sql == [(rank, total) for rank, total in zip(expected, TOTALS, strict=True)]
    histogram = Histogram.of(key)
    assert [histogram.rank(total) for total in TOTALS] == expected


# Values either side of zero and at the blocks' edges (a block is ``value / 100``
# rounded towards zero, so block 0 holds -99 … 99).
EDGES = [-301, -300, -299, -200, -199, -101, -100, -99, -1, 0, 1, 99, 100, 101, 199, 200]
values_strategy = st.lists(
    st.sampled_from(EDGES) | st.integers(-450, 450), min_size=1, max_size=len(EDGES)
)


def test_the_sql_rank_through_the_histograms_blocks_is_the_competition_rank():
    players = [make_player(f"b{i}")[0].pk for i in range(len(EDGES))]
    key = "test:blocks"
    at = dt.datetime(2026, 11, 10, tzinfo=dt.UTC)

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(values=values_strategy, moved=st.integers(0, 4))
    def check(values: list[int], moved: int) -> None:
        for model in (BoardEntry, BoardHistogram, BoardHistogramBlock):
            model.objects.filter(board=key).delete()
        lines = {(pid, key): Line(v, at) for pid, v in zip(players, values, strict=False)}
        with transaction.atomic():
            sql.lines_upsert(lines)
            sql.histogram_apply(Counter((key, line.value) for line in lines.values()))
        # Some players' lines move to another value, as an improved round moves them,
        # leaving histogram rows and blocks behind with a count of 0.
        movers = list(lines)[:moved]
        moved_to = {line: Line(-lines[line].value - 7, at) for line in movers}
        with transaction.atomic():
            sql.lines_upsert(moved_to)
            deltas = Counter((key, line.value) for line in moved_to.values())
            deltas.subtract(Counter((key, lines[line].value) for line in movers))
            sql.histogram_apply(deltas)
        lines |= moved_to
        final = [line.value for line in lines.values()]
        expected = list(zip(yatzy.competition_ranks(final), final, strict=True))
        assert [board_rank(board=key, player_id=pid) for pid, _ in lines] == expected
        incremental = boards_state()
        sql.histogram_rebuild(key)
        assert boards_state() == incremental

    check()
