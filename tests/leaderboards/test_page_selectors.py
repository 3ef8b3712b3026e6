"""The reads the web pages added: a board's distribution with the player's standing,
a player's record, and a day's challenge as a visitor sees it."""

import datetime as dt

import pytest

from daily import clock
from daily.services import challenge_get_or_create
from games.selectors import challenge_payload
from leaderboards import selectors
from tests.factories import make_player
from tests.leaderboards.conftest import noon, ranked, travel

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_distribution_is_the_boards_histogram_with_the_players_line():
    me, _ = make_player("me")
    day = clock.today()
    for n, total in enumerate([300, 250, 250, 100]):
        other, _ = make_player(f"p{n}")
        ranked(other, day, total)
    board = selectors.board_daily(day=day)
    nobody = selectors.board_distribution(board=board, player=me)
    assert nobody == {"count": 4, "values": [(100, 1), (250, 2), (300, 1)], "me": None}
    practice = selectors.board_distribution(board=board, player=me, value=260)
    assert practice["me"] == {"value": 260, "rank": 2, "on_board": False}
    ranked(me, day, 250, minute=5)
    mine = selectors.board_distribution(board=board, player=me, value=999)
    assert mine["me"] == {"value": 250, "rank": 2, "on_board": True}  # the line wins
    assert mine["count"] == 5


def test_a_players_record_has_days_best_streaks_and_history_oldest_first():
    me, _ = make_player("me")
    rival, _ = make_player("rival")
    today = clock.today()
    ranked(rival, today, 500)
    for back, total in ((4, 120), (3, 300), (1, 200), (0, 210)):
        ranked(me, today - dt.timedelta(days=back), total)
    with travel(noon(today, 30)):
        record = selectors.player_record(player=me, history=3)
    assert record["days_played"] == 4
    assert record["best"] == {"value": 300, "rank": 2}
    assert (record["longest_streak"], record["current_streak"]) == (2, 2)
    assert record["mean"] == 207.5  # (120 + 300 + 200 + 210) / 4
    assert record["scores"] == [(120, 1), (200, 1), (210, 1), (300, 1)]
    assert [(line["date"], line["total"]) for line in record["history"]] == [
        (today - dt.timedelta(days=3), 300),
        (today - dt.timedelta(days=1), 200),
        (today, 210),
    ]


def test_a_new_players_record_is_empty():
    me, _ = make_player("me")
    assert selectors.player_record(player=me) == {
        "days_played": 0,
        "best": None,
        "mean": None,
        "longest_streak": 0,
        "current_streak": 0,
        "scores": [],
        "decisions": None,
        "history": [],
    }


def test_a_visitor_sees_the_challenge_without_rounds():
    challenge = challenge_get_or_create(day=clock.today())
    payload = challenge_payload(challenge=challenge, player=None)
    assert payload["my_round"] is None and payload["practice_round"] is None
    assert payload["commitment"] == challenge.commitment and payload["seed"] is None
