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
from games.models import Round
from leaderboards import services, sql
from leaderboards.models import BoardEntry, PendingBoardUpdate
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
            sql.lock_for_refresh([user.pk], [f"daily:{DAY}"])
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


def in_thread(pool: ThreadPoolExecutor, job):
    def run():
        try:
            return job()
        finally:
            connection.close()

    return pool.submit(run)


def test_a_job_whose_update_another_batch_has_taken_leaves_it_to_that_batch():
    user, _ = make_player()
    rnd = ranked(user, DAY, 200, record=False)
    with ThreadPoolExecutor(max_workers=1) as pool, transaction.atomic():
        # A batch running the round's update holds its owed row.
        assert sql.pending_take(round_id=str(rnd.pk), limit=1) == [str(rnd.pk)]
        # The round's own job does not wait for the batch holding its row: it is done.
        job = in_thread(pool, lambda: services.board_record_round(round_id=str(rnd.pk)))
        assert job.result(timeout=10) == 0
        transaction.set_rollback(True)  # the batch fails
    # The round's update is owed again, for the catch-up.
    assert PendingBoardUpdate.objects.filter(round_id=rnd.pk).exists()


def test_an_analysis_stored_while_a_batch_runs_its_round_owes_a_new_update():
    # A batch has read the player's rounds and holds the round's owed row; the analysis
    # then stores the loss. Its owed row must outlive the batch's clearing of the old
    # one, else the loss would reach no board until the nightly reconcile.
    user, _ = make_player()
    rnd = ranked(user, DAY, 200, record=False)

    def analysis_stored() -> None:
        with transaction.atomic():
            Round.objects.filter(pk=rnd.pk).update(
                loss=1.5, luck=rnd.total - 394.5575 + 1.5, analysed_at=timezone.now()
            )
            services.board_update_pending(round_id=rnd.pk, exist_ok=True)

    with ThreadPoolExecutor(max_workers=1) as pool:
        with transaction.atomic():
            assert sql.pending_take(round_id=str(rnd.pk), limit=1) == [str(rnd.pk)]
            storing = in_thread(pool, analysis_stored)
            wait_for(waiting_on_me, timeout=10, interval=0.05)
        storing.result(timeout=30)
    assert PendingBoardUpdate.objects.filter(round_id=rnd.pk).exists()
    assert services.board_record_round(round_id=str(rnd.pk)) == 1
    assert BoardEntry.objects.get(player=user, board=f"decisions:{DAY}").value == -150
