"""Board jobs in a real Celery worker process, on the configured database and broker,
including a worker killed with SIGKILL in the middle of a reconcile."""

from __future__ import annotations

import datetime as dt
import os
import signal

import pytest
from django.conf import settings

from daily import clock
from leaderboards import services, tasks
from leaderboards.models import BoardEntry, BoardHistogram
from tests.factories import make_player
from tests.leaderboards.conftest import ranked
from tests.live.conftest import wait_for

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def snapshot():
    entries = sorted(
        BoardEntry.objects.values_list(
            "board", "player_id", "value", "achieved_at", "streak_last_date", "streak_last_run"
        )
    )
    histogram = sorted(
        BoardHistogram.objects.filter(count__gt=0).values_list("board", "value", "count")
    )
    return entries, histogram


def test_a_round_completed_over_http_reaches_the_boards_through_the_worker(live_stack):
    token = live_stack.register("worker-fan")
    state = live_stack.play_daily_round(token)
    with live_stack.client(token) as http:

        def my_line(path):
            return http.get(f"/api/v1/leaderboards/{path}").json()["me"]

        line = wait_for(lambda: my_line(f"daily/{clock.today().isoformat()}/"))
        assert (line["rank"], line["value"]) == (1, state["total"])
        assert wait_for(lambda: my_line("streaks/"))["current"] == 1
        assert my_line("best-day/")["value"] == state["total"]


def test_a_worker_killed_mid_reconcile_and_restarted_leaves_the_same_boards(
    live_stack_factory,
):
    users = [make_player(f"k{i}")[0] for i in range(8)]
    first = clock.today() - dt.timedelta(days=6)
    for i, user in enumerate(users):
        for n in range(7):
            if (i + n) % 3:
                ranked(user, first + dt.timedelta(days=n), 100 + 13 * i + n, record=False)
    services.boards_reconcile()
    undisturbed = snapshot()
    expected_boards = {board for board, *_ in undisturbed[1]}
    BoardEntry.objects.all().delete()
    BoardHistogram.objects.all().delete()

    # Each board rebuild pauses inside its transaction, so the kill lands mid-job.
    stack = live_stack_factory(
        LEADERBOARDS_REBUILD_PAUSE="0.5", CELERY_BROKER_VISIBILITY_TIMEOUT="3"
    )
    worker = stack.start_worker()
    tasks.boards_reconcile.delay()
    wait_for(lambda: BoardHistogram.objects.values("board").distinct().count() >= 2, 60, 0.05)
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    assert snapshot() != undisturbed  # the job was cut off part-way

    stack.start_worker()
    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        # The filesystem broker drops a message once delivered; the beat's next
        # reconcile is what repairs the boards there.
        tasks.boards_reconcile.delay()
    # With Redis the unacknowledged job itself comes back after the visibility timeout.
    wait_for(lambda: snapshot() == undisturbed, timeout=90, interval=0.5)
    assert {board for board, *_ in snapshot()[1]} == expected_boards
