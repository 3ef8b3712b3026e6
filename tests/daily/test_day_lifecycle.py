"""Creating days ahead, closing them after the grace period, and the jobs behind it."""

import datetime as dt
import io

import pytest
import time_machine

from daily import services, tasks
from daily.models import Challenge
from games import services as game_services
from games import tasks as game_tasks
from games.models import Round
from tests.factories import make_player, play_round

pytestmark = pytest.mark.django_db


def at(day, hour=12, minute=0):
    return time_machine.travel(dt.datetime(2026, 11, day, hour, minute, tzinfo=dt.UTC), tick=False)


def test_beat_job_creates_today_and_the_next_days_idempotently(settings):
    settings.DAILY_CREATE_AHEAD_DAYS = 2
    with at(20):
        tasks.challenges_ensure_upcoming.delay()
        tasks.challenges_ensure_upcoming.delay()
    dates = list(Challenge.objects.order_by("date").values_list("date", flat=True))
    assert dates == [dt.date(2026, 11, 20), dt.date(2026, 11, 21), dt.date(2026, 11, 22)]


def test_seed_is_derived_from_the_secret_and_kept_when_it_rotates(settings):
    with at(20):
        first = services.challenge_get_or_create(day=dt.date(2026, 11, 20))
        settings.DAILY_SEED_SECRET = "rotated"
        again = services.challenge_get_or_create(day=dt.date(2026, 11, 20))
        fresh = services.challenge_get_or_create(day=dt.date(2026, 11, 21))
    assert bytes(again.seed) == bytes(first.seed)
    assert bytes(fresh.seed) != bytes(first.seed)


def test_reseeding_the_future_after_a_rotation_keeps_today_and_replaces_upcoming_days(settings):
    from django.core.management import call_command

    import yatzy

    settings.DAILY_CREATE_AHEAD_DAYS = 2
    with at(20):
        services.challenges_ensure_upcoming()
        before = {c.date: c.commitment for c in Challenge.objects.all()}
        settings.DAILY_SEED_SECRET = "rotated after a leak"
        call_command("challenges_reseed_future", stdout=io.StringIO())
    after = {c.date: c.commitment for c in Challenge.objects.all()}
    today = dt.date(2026, 11, 20)
    assert set(after) == set(before)
    assert after[today] == before[today]
    for day in (dt.date(2026, 11, 21), dt.date(2026, 11, 22)):
        expected = yatzy.commitment(yatzy.daily_seed("rotated after a leak", day))
        assert after[day] == expected != before[day]


def test_day_close_expires_unfinished_ranked_rounds_once():
    finisher, finisher_client = make_player()
    quitter, quitter_client = make_player()
    with at(20):
        done = finisher_client.post("/api/v1/daily/2026-11-20/rounds/").json()
        play_round(finisher_client, done["id"])
        quitter_client.post("/api/v1/daily/2026-11-20/rounds/")
        practice = finisher_client.post("/api/v1/daily/2026-11-20/rounds/").json()
        assert game_services.day_close(day=dt.date(2026, 11, 20)) is False  # not over yet
    with at(21, 0, 29):
        assert game_tasks.days_close_due.delay().get() == []
    with at(21, 0, 30):
        assert game_tasks.days_close_due.delay().get() == ["2026-11-20"]
        assert game_tasks.days_close_due.delay().get() == []
        assert game_services.day_close(day=dt.date(2026, 11, 20)) is False
    statuses = dict(Round.objects.values_list("player__username", "status").filter(ranked=True))
    assert statuses == {finisher.username: "completed", quitter.username: "expired"}
    assert Round.objects.get(pk=practice["id"]).status == "in_progress"
    assert Challenge.objects.get(date=dt.date(2026, 11, 20)).closed_at is not None


@pytest.mark.parametrize(
    ("day", "hours"),
    [(dt.date(2026, 3, 28), 3), (dt.date(2026, 10, 24), 3), (dt.date(2026, 11, 20), 3)],
)
def test_the_grace_period_lasts_its_length_when_the_clocks_change_inside_it(settings, day, hours):
    """Stockholm's clocks go forward at 02:00 on 2026-03-29 and back at 03:00 on
    2026-10-25: a grace of 3 hours after midnight was 2 and 4 hours of real time."""
    from daily import clock

    settings.DAILY_TIME_ZONE = "Europe/Stockholm"
    settings.DAILY_GRACE = dt.timedelta(hours=hours)
    closes, reveal = clock.closes_at(day), clock.reveal_at(day)
    assert reveal.astimezone(dt.UTC) - closes.astimezone(dt.UTC) == dt.timedelta(hours=hours)
    assert not clock.is_revealed(day, reveal - dt.timedelta(microseconds=1))
    assert clock.is_revealed(day, reveal)


def test_a_closed_day_takes_no_ranked_round_when_the_daily_time_zone_moves_west(settings):
    """A day closed (its seed revealed) in UTC became today again once DAILY_TIME_ZONE
    moved west, and a player who had not played it started a ranked round on dice whose
    seed everyone had been shown: its perfect score went on the day's board."""
    _, player = make_player()
    _, other = make_player()
    with at(20):
        other.get("/api/v1/daily/")
    with at(21, 5):
        assert game_tasks.days_close_due.delay().get() == ["2026-11-20"]
        assert player.get("/api/v1/daily/2026-11-20/").json()["seed"] is not None
        settings.DAILY_TIME_ZONE = "America/Los_Angeles"  # 21:00 on November 20 there
        assert player.get("/api/v1/daily/").json()["date"] == "2026-11-20"
        started = player.post("/api/v1/daily/2026-11-20/rounds/")
    assert started.status_code == 201, started.json()
    assert started.json()["ranked"] is False
