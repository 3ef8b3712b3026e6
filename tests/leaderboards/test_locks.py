"""Who waits for whom when a day closes beside other writers (PostgreSQL's locks decide;
SQLite runs one writer at a time, so there nothing can interleave).

The test's connection holds what a concurrent writer would hold, a thread runs the job,
and ``waiting_on_me`` shows the job waiting for it before the test lets go.
"""

import datetime as dt
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction
from django.utils import timezone

from daily.models import Challenge
from games import services as game_services
from leaderboards import sql
from tests.factories import make_player
from tests.leaderboards.conftest import ranked, travel, waiting_on_me
from tests.live.conftest import wait_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's locks"),
]

DAY = dt.date(2026, 11, 10)
AFTER_GRACE = dt.datetime(2026, 11, 11, 0, 31, tzinfo=dt.UTC)


def day_close_in_thread(pool: ThreadPoolExecutor):
    def close() -> bool:
        try:
            return game_services.day_close(day=DAY)
        finally:
            connection.close()

    return pool.submit(close)


def test_day_close_waits_for_a_board_update_in_flight_on_the_days_board():
    user, _ = make_player()
    ranked(user, DAY, 200)
    with travel(AFTER_GRACE), ThreadPoolExecutor(max_workers=1) as pool:
        with transaction.atomic():
            # What a player's incremental update holds while it writes that board.
            sql.lock_for_refresh(user.pk, [f"daily:{DAY}"])
            closing = day_close_in_thread(pool)
            wait_for(waiting_on_me, timeout=10, interval=0.05)
        assert closing.result(timeout=30) is True


def test_a_second_day_close_waits_for_the_first_and_then_does_nothing():
    user, _ = make_player()
    ranked(user, DAY, 200)
    with travel(AFTER_GRACE), ThreadPoolExecutor(max_workers=1) as pool:
        with transaction.atomic():
            # A first close holds the challenge's row…
            challenge = Challenge.objects.select_for_update().get(date=DAY)
            second = day_close_in_thread(pool)
            wait_for(waiting_on_me, timeout=10, interval=0.05)
            challenge.closed_at = timezone.now()  # …and closes the day.
            challenge.save(update_fields=["closed_at"])
        assert second.result(timeout=30) is False
