"""Board jobs in a real Celery worker process, on the configured database and broker,
including a worker killed with SIGKILL in the middle of a reconcile: the test holds a
line of one board the way a concurrent writer would, so the worker's rebuild waits on
it inside the job (no hook in the code under test slows it down)."""

from __future__ import annotations

import datetime as dt
import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.db import connection, transaction

from config.celery import app as celery_app
from daily import clock
from leaderboards import services, tasks
from leaderboards.models import BoardEntry
from tests.factories import make_player
from tests.leaderboards.conftest import ranked, waiting_on_me
from tests.leaderboards.state import boards_state
from tests.live.conftest import wait_for

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

VISIBILITY_TIMEOUT = 3  # seconds; the Redis broker redelivers a dead worker's job after it


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
                # No job reaches the live broker: the reconcile below builds the boards.
                ranked(user, first + dt.timedelta(days=n), 100 + 13 * i + n, record=False)
    services.boards_reconcile()
    undisturbed = boards_state()
    # The boards before the job: consistent, but k0's lines are missing from them.
    services.player_boards_remove(player_id=users[0].pk)
    old = boards_state()
    keys = sorted({board for board, *_ in undisturbed[1]})  # the reconcile's order
    missing = [entry for entry in undisturbed[0] if entry[1] == users[0].pk]
    held = missing[len(missing) // 2]  # k0's line on a board in the middle of the order
    assert keys.index(held[0]) > 0

    # No table builds queued at worker start: that job writes to the database, and on
    # SQLite it would wait for the held write lock ahead of the reconcile.
    stack = live_stack_factory(
        CELERY_BROKER_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        STRATEGY_TABLES_BUILD_AT_START="false",
    )
    worker = stack.start_worker()
    with rebuild_blocked_by(held) as worker_waits:
        tasks.boards_reconcile.delay()
        wait_for(worker_waits, 60, 0.05)
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()
    cut_off = boards_state()
    if connection.vendor == "postgresql":
        # The boards before the held one were rebuilt, each in its own committed
        # transaction; the held board's rebuild had deleted its lines when the worker
        # died, and that rolled back: it and the boards after it are as they were.
        done = set(keys[: keys.index(held[0])])
        assert cut_off == tuple(
            sorted(
                [row for row in new if row[0] in done] + [row for row in was if row[0] not in done]
            )
            for new, was in zip(undisturbed, old, strict=True)
        )
    else:
        assert cut_off == old

    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        # The filesystem broker drops a message once delivered; the beat's next
        # reconcile is what repairs the boards there.
        tasks.boards_reconcile.delay()
    else:
        # Redis gives the unacknowledged job to a worker that starts once its visibility
        # timeout has passed (a later sweep would take ~100 s).
        time.sleep(VISIBILITY_TIMEOUT + 1)
    stack.start_worker()
    wait_for(lambda: boards_state() == undisturbed, timeout=90, interval=0.5)


@contextmanager
def rebuild_blocked_by(line: tuple) -> Iterator[Callable[[], bool]]:
    """Hold one board line, uncommitted, in a transaction of the test's connection, the
    way a concurrent writer would; yields "the worker now waits for it".

    On PostgreSQL the reconcile rebuilds the boards before that line's board, then
    deletes that board's lines and waits, inside its transaction, to insert the same
    (board, player) line (the unique index waits for this transaction). SQLite
    serialises writers database-wide, so there the job waits for the write lock before
    its first board, once it has taken the job off the broker's queue."""
    board, player_id, value, achieved_at, last_date, last_run = line
    with transaction.atomic():
        BoardEntry.objects.create(
            board=board,
            player_id=player_id,
            value=value,
            achieved_at=achieved_at,
            streak_last_date=last_date,
            streak_last_run=last_run,
        )
        yield waiting_on_me if connection.vendor == "postgresql" else _queue_empty
        transaction.set_rollback(True)


def _queue_empty() -> bool:
    with celery_app.connection_for_write() as broker:
        queue = celery_app.conf.task_default_queue
        return broker.default_channel.queue_declare(queue, passive=True).message_count == 0
