"""Most days in a row: the longest run, and the current streak at day boundaries."""

import datetime as dt

import pytest

from games.skill import round_exclude, round_reinstate
from leaderboards.models import Season
from leaderboards.selectors import player_record
from tests.factories import make_player
from tests.leaderboards.conftest import (
    board,
    names,
    noon,
    play,
    ranked,
    ranked_start,
    ranks,
    scripted_dice,
    travel,
)

pytestmark = pytest.mark.django_db(transaction=True)

D = dt.date(2026, 11, 1)


def day(n: int) -> dt.date:
    return D + dt.timedelta(days=n - 1)


def at(moment):
    return travel(moment)


def my_streak(client) -> tuple[int, int]:
    me = board(client, "streaks/")["me"]
    return me["value"], me["current"]


def test_a_missed_date_ends_the_run_and_the_longest_run_is_kept():
    user, client = make_player()
    for n in (1, 2, 3, 5, 6):
        ranked(user, day(n), 200)
    with at(noon(day(6), 30)):
        assert my_streak(client) == (3, 2)


def test_the_current_streak_lasts_through_the_next_day_and_drops_at_the_midnight_after():
    user, client = make_player()
    for n in (1, 2):
        ranked(user, day(n), 200)
    with at(dt.datetime.combine(day(3), dt.time(23, 59, 59), tzinfo=dt.UTC)):
        assert my_streak(client) == (2, 2)  # today's round is still possible
    with at(dt.datetime.combine(day(4), dt.time.min, tzinfo=dt.UTC)):
        assert my_streak(client) == (2, 0)  # day 3 passed without a round


def test_the_day_boundary_is_the_daily_time_zone(settings):
    settings.DAILY_TIME_ZONE = "Pacific/Auckland"  # UTC+13 in November
    user, client = make_player()
    # Noon UTC on day 1 is already day 2 in Auckland: play day 1 at noon Auckland time.
    ranked(user, day(1), 200, at=noon(day(1)) - dt.timedelta(hours=13))
    auckland_midnight = dt.datetime.combine(day(3), dt.time.min, tzinfo=dt.UTC) - dt.timedelta(
        hours=13
    )
    with at(auckland_midnight - dt.timedelta(seconds=1)):
        assert my_streak(client) == (1, 1)
    with at(auckland_midnight):
        assert my_streak(client) == (1, 0)


def test_a_new_round_today_extends_the_current_run():
    user, client = make_player()
    for n in (1, 2, 3):
        ranked(user, day(n), 200)
    with at(noon(day(4), 0)):
        assert my_streak(client) == (3, 3)
    ranked(user, day(4), 150)
    with at(noon(day(4), 30)):
        assert my_streak(client) == (4, 4)


def test_equal_streaks_share_a_rank_and_the_run_completed_first_leads():
    a, client = make_player("ann")
    b, _ = make_player("bob")
    c, _ = make_player("cy")
    for n in (2, 3, 4):
        ranked(a, day(n), 100)
    for n in (1, 2, 3):
        ranked(b, day(n), 100)  # three in a row a day before ann
    ranked(c, day(4), 300)
    with at(noon(day(4), 30)):
        body = board(client, "streaks/")
    assert names(body) == ["bob", "ann", "cy"]
    assert ranks(body) == [1, 1, 3]
    # bob ended yesterday (still current), ann today, cy today.
    assert [line["current"] for line in body["results"]] == [3, 3, 1]


def test_a_season_streak_only_counts_the_seasons_dates_and_ends_with_it():
    season = Season.objects.create(name="S", slug="s", start_date=day(3), end_date=day(5))
    user, client = make_player()
    for n in range(1, 8):
        ranked(user, day(n), 100)
    with at(noon(day(7), 30)):
        overall = board(client, "streaks/")["me"]
        seasonal = board(client, "streaks/", season=season.slug)["me"]
    assert (overall["value"], overall["current"]) == (7, 7)
    assert (seasonal["value"], seasonal["current"]) == (3, 0)


def test_a_season_streak_is_not_current_the_day_after_the_season_ends():
    """SPEC §5: a run ending yesterday is current only while today's round is still
    possible, and no round of a day after the season counts in it. The day after the
    season's end showed the season's last run as current (and 0 the day after that)."""
    season = Season.objects.create(name="S", slug="s", start_date=day(3), end_date=day(5))
    user, client = make_player()
    for n in range(3, 6):
        ranked(user, day(n), 100)
    with at(noon(day(5), 30)):
        assert my_streak_in(client, season) == (3, 3)  # the season's last day: current
    with at(noon(day(6), 30)):
        assert my_streak_in(client, season) == (3, 0)
        assert board(client, "streaks/", season=season.slug)["results"][0]["current"] == 0
        assert my_streak(client) == (3, 3)  # the overall run goes on today


def my_streak_in(client, season) -> tuple[int, int]:
    me = board(client, "streaks/", season=season.slug)["me"]
    return me["value"], me["current"]


def test_a_run_stays_current_while_its_next_days_round_is_finished_in_the_grace_period():
    """SPEC §4-5: a round started before midnight may be finished in the grace period,
    and completing it extends the run, so until then the run ending the day before is
    still current, on the boards (page, ``me``, around) and the player's page alike.
    It showed 0 from midnight, then jumped back once the round was finished."""
    user, client = make_player("ann")
    idle, _ = make_player("bob")  # the same run, but no round started on day 3
    for n in (1, 2):
        ranked(user, day(n), 200)
        ranked(idle, day(n), 200)
    with at(dt.datetime.combine(day(3), dt.time(23, 50), tzinfo=dt.UTC)):
        rnd, plan = ranked_start(user, day(3), 200)
        with scripted_dice([dice for _, dice in plan]):
            play(user, rnd, plan, range(len(plan) - 1))
    grace = dt.datetime.combine(day(4), dt.time(0, 10), tzinfo=dt.UTC)
    with at(grace):
        assert my_streak(client) == (2, 2)
        around = board(client, "streaks/", around="me")["results"]
        first_page = board(client, "streaks/")["results"]
        for lines in (around, first_page):
            assert {line["username"]: line["current"] for line in lines} == {"ann": 2, "bob": 0}
        records = (player_record(player=user), player_record(player=idle))
        assert [record["current_streak"] for record in records] == [2, 0]
    with at(grace + dt.timedelta(minutes=5)), scripted_dice([dice for _, dice in plan]):
        play(user, rnd, plan, [len(plan) - 1])
    with at(grace + dt.timedelta(minutes=10)):
        assert my_streak(client) == (3, 3)
    with at(grace + dt.timedelta(minutes=25)):  # the grace period is over
        assert player_record(player=idle)["current_streak"] == 0
    late, _ = make_player("cy")
    for n in (1, 2):
        ranked(late, day(n), 200)
    with at(dt.datetime.combine(day(3), dt.time(23, 55), tzinfo=dt.UTC)):
        ranked_start(late, day(3), 200)
    with at(dt.datetime.combine(day(4), dt.time(0, 31), tzinfo=dt.UTC)):  # expired at 0:30
        assert player_record(player=late)["current_streak"] == 0
    # An unfinished round an administrator excluded extends no run: no grace for it.
    barred, _ = make_player("dee")
    for n in (1, 2):
        ranked(barred, day(n), 200)
    with at(dt.datetime.combine(day(3), dt.time(23, 56), tzinfo=dt.UTC)):
        assert round_exclude(rnd=ranked_start(barred, day(3), 200)[0])
    with at(grace):
        assert player_record(player=barred)["current_streak"] == 0


def test_todays_ranked_round_excluded_ends_the_current_streak():
    """An excluded round counts on no board: today's, completed and then excluded,
    neither extends the run nor leaves today's round possible (the ranked round of the
    day is played), so the run ending yesterday is not current either."""
    user, client = make_player("eve")
    for n in (1, 2):
        ranked(user, day(n), 200)
    today = ranked(user, day(3), 200)
    with at(noon(day(3), 10)):
        assert my_streak(client) == (3, 3)
        assert round_exclude(rnd=today)
    with at(noon(day(3), 20)):
        assert my_streak(client) == (2, 0)
        lines = board(client, "streaks/", around="me")["results"]
        assert [(line["username"], line["current"]) for line in lines] == [("eve", 0)]
        assert player_record(player=user)["current_streak"] == 0
    with at(noon(day(3), 30)):  # reinstated, it counts again: the run ends today
        assert round_reinstate(rnd=today)
        assert my_streak(client) == (3, 3)
