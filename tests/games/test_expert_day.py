"""Once a day is revealed, a job lets the expert play its dice; the day and its board
show the expert's score beside the players'."""

import datetime as dt

import pytest
import time_machine

import yatzy
from daily import services as daily_services
from games import tasks
from tests.factories import make_player, play_round
from yatzy.strategy import bot_play

pytestmark = pytest.mark.django_db(transaction=True)  # board jobs run on commit

NOON = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)
AFTER_REVEAL = dt.datetime(2026, 11, 21, 0, 31, tzinfo=dt.UTC)


@pytest.fixture
def yatzy_day(monkeypatch, yatzy_table):
    # The daily is Maxi, whose table takes minutes to build; the job is the same for any
    # ruleset, so this day is played in Yatzy, whose table the session has.
    monkeypatch.setattr(daily_services, "DAILY_RULESET", "yatzy")
    with time_machine.travel(NOON, tick=False):
        return daily_services.challenge_get_or_create(day=dt.date(2026, 11, 20))


def test_the_expert_plays_a_revealed_day_once_and_the_board_shows_it(yatzy_day, yatzy_table):
    _, client = make_player()
    with time_machine.travel(NOON, tick=False):
        state = client.post("/api/v1/daily/2026-11-20/rounds/").json()
        mine = play_round(client, state["id"])["total"]
        assert tasks.experts_play_due.delay().get() == []  # not revealed yet
        assert client.get("/api/v1/daily/2026-11-20/").json()["expert_total"] is None
    expert = bot_play(
        yatzy.Game(yatzy.get_ruleset("yatzy"), bytes(yatzy_day.seed)), "expert", table=yatzy_table
    ).total
    with time_machine.travel(AFTER_REVEAL, tick=False):
        assert client.get("/api/v1/daily/2026-11-20/").json()["expert_total"] is None
        assert tasks.experts_play_due.delay().get() == ["2026-11-20"]
        assert tasks.experts_play_due.delay().get() == []  # once
        day = client.get("/api/v1/daily/2026-11-20/").json()
        board = client.get("/api/v1/leaderboards/daily/2026-11-20/").json()
    assert day["expert_total"] == expert
    assert board["expert"] == {"value": expert, "rank": 1 if expert >= mine else 2}
    assert board["results"][0]["value"] == mine


def test_the_expert_waits_while_the_maxi_table_is_missing():
    # A real Maxi day: its table is not built in the tests, so the job leaves it for later.
    with time_machine.travel(NOON, tick=False):
        daily_services.challenge_get_or_create(day=dt.date(2026, 11, 20))
    with time_machine.travel(AFTER_REVEAL, tick=False):
        _, client = make_player()
        assert tasks.experts_play_due.delay().get() == []
        assert client.get("/api/v1/daily/2026-11-20/").json()["expert_total"] is None
        assert client.get("/api/v1/leaderboards/daily/2026-11-20/").json()["expert"] is None
