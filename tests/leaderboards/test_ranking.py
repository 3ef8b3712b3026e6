"""The rank SQL computes (``ranking.rank_expression``, from the board's histogram)
agrees with the one pure definition of a competition rank (``yatzy.competition_ranks``)."""

import datetime as dt

import pytest

import yatzy
from leaderboards import boards
from leaderboards.ranking import Histogram
from leaderboards.selectors import board_rank
from tests.factories import make_player
from tests.leaderboards.conftest import ranked

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
