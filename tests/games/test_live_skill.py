"""The analysis of a revealed day in a real Celery worker process, killed with SIGKILL
in the middle of a chunk: after a restart every round is analysed, none twice, none
skipped, and the decisions board is what a rebuild gives.

Nothing in the code slows the job for this test. On PostgreSQL the test holds a row
lock on one round in the middle of the day, as a concurrent writer would: the worker
analyses the rounds before it, then waits to store that one, and is killed there.
SQLite has one writer at a time: the test takes the write lock once the worker has
stored its first round, so the worker waits at its next write."""

from __future__ import annotations

import datetime as dt
import os
import signal
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.db import connection, transaction

from daily import clock
from games import selectors, tasks
from games.models import AnalysisChunk, Round
from leaderboards import boards, services
from leaderboards.models import BoardEntry, PendingBoardUpdate
from tests.factories import make_player
from tests.games.skill_rounds import bot, play_ranked
from tests.leaderboards.conftest import waiting_on_me
from tests.live.conftest import wait_for

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

ROUNDS, CHUNK, HELD = 12, 3, 7
STALE = 3  # seconds without a stored round after which a chunk's worker counts as dead
VISIBILITY_TIMEOUT = 3  # seconds; Redis redelivers a dead worker's job after it


def analysed() -> dict:
    return dict(
        Round.objects.filter(loss__isnull=False).values_list("pk", "analysed_at").order_by()
    )


def decisions_board(day: dt.date) -> list[tuple]:
    return sorted(
        BoardEntry.objects.filter(board=boards.decisions_key(day)).values_list(
            "player_id", "value", "achieved_at"
        )
    )


def test_a_worker_killed_mid_analysis_leaves_no_round_analysed_twice_or_skipped(
    maxi_table, live_stack_factory
):
    day = clock.today() - dt.timedelta(days=2)  # revealed, whatever the time of day
    for n in range(ROUNDS):
        play_ranked(make_player(f"a{n}")[0], day, bot(("medium", "hard", "easy")[n % 3]))
    rounds = list(Round.objects.filter(challenge__date=day).order_by("id"))
    stack = live_stack_factory(
        SKILL_CHUNK_ROUNDS=str(CHUNK),
        SKILL_RELAYS="1",
        SKILL_STALE_SECONDS=str(STALE),
        CELERY_BROKER_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        # No table builds at worker start: on SQLite they would queue behind the lock.
        STRATEGY_TABLES_BUILD_AT_START="false",
    )
    with analysis_blocked(rounds[HELD]) as worker_waits:
        worker = stack.start_worker(queues="celery,analysis")
        tasks.skill_analyses_due.delay()  # what the beat sends every minute
        wait_for(worker_waits, 120, 0.002)
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()
    cut_off = analysed()
    assert 0 < len(cut_off) < ROUNDS
    if connection.vendor == "postgresql":
        # Killed inside the third chunk (workers claim any of the oldest few), waiting
        # to store its second round, the first one stored.
        running = AnalysisChunk.objects.get(status="running")
        assert running.first_id == rounds[HELD - 1].pk and running.analysed == 1
        assert rounds[HELD - 1].pk in cut_off and rounds[HELD].pk not in cut_off

    time.sleep(max(STALE, VISIBILITY_TIMEOUT) + 1)
    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        # The filesystem broker dropped the job it had delivered: the beat's next sweep
        # finds the chunk stale and starts a relay again.
        tasks.skill_analyses_due.delay()
    # (Redis gives the unacknowledged job to the worker started after its visibility
    # timeout; that job takes the dead worker's chunk over.)
    stack.start_worker(queues="celery,analysis")
    wait_for(lambda: len(analysed()) == ROUNDS, timeout=180, interval=0.5)

    # None analysed twice: each kept the analysis stored before the kill, and each was
    # stored by exactly one claim (the chunks' counts add up to the rounds).
    after = analysed()
    assert {pk: after[pk] for pk in cut_off} == cut_off
    assert sum(AnalysisChunk.objects.values_list("analysed", flat=True)) == ROUNDS
    assert set(AnalysisChunk.objects.values_list("status", flat=True)) == {"done"}
    # None skipped, and each holds the round's own analysis.
    for rnd in Round.objects.filter(pk__in=[r.pk for r in rounds]).select_related("challenge"):
        assert rnd.loss == selectors.round_analysis(rnd)["loss"]
    # The board jobs the analysis owed ran in the worker: the board is its rebuild.
    wait_for(lambda: not PendingBoardUpdate.objects.exists(), timeout=60, interval=0.5)
    built = decisions_board(day)
    assert len(built) == ROUNDS
    services.board_rebuild(board=boards.decisions_key(day))
    assert decisions_board(day) == built


@contextmanager
def analysis_blocked(held: Round) -> Iterator[Callable[[], bool]]:
    """Yields "the worker is now in the middle of its chunks", to kill it there.
    PostgreSQL: a row lock on ``held``, so the worker waits to store its loss. SQLite:
    once the worker has stored its first round, read without the ORM on a connection of
    its own (WAL: a read waits for no writer) every few milliseconds; the worker stores
    a round every 15 ms or so and is killed right away, between two writes or in one.
    (Taking the write lock there instead lost the race at times: waiting for the lock
    behind the worker's writes, the lock came after the last round.)"""
    if connection.vendor == "postgresql":
        with transaction.atomic():
            Round.objects.select_for_update().filter(pk=held.pk).get()
            yield waiting_on_me
        return
    reader = sqlite3.connect(connection.settings_dict["NAME"], timeout=30)
    stored = (
        f"SELECT count(*) FROM {Round._meta.db_table}"
        f" WHERE {Round._meta.get_field('loss').column} IS NOT NULL"
    )
    try:
        yield lambda: reader.execute(stored).fetchone()[0] >= 1
    finally:
        reader.close()
