"""Who builds a strategy table: a claim records its process, and a build whose process
is gone from this machine is queued again and resumed by the next build job at once,
never while its process still runs; one claimed on another machine waits for
``STALE_BUILD``."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest
import time_machine
from django.db import InterfaceError, OperationalError, connection

import yatzy
from games import tables
from games.models import StrategyTable
from tests.live.conftest import ROOT, _database_url
from yatzy.strategy.tables import ENV_DIR

pytestmark = pytest.mark.django_db(transaction=True)

# A process that claims the queued build and dies without a word, as a tables worker
# killed in the middle of a build does.
CLAIM_AND_DIE = """
import os, django
django.setup()
from games import tables
row = tables._claim_next()
print(row.builder, flush=True)
os._exit(0)
"""

# A process that claims the queued build and lives on (a build in another process of
# this machine, still running).
CLAIM_AND_LIVE = CLAIM_AND_DIE.replace("os._exit(0)", "import time; time.sleep(120)")


@pytest.fixture(autouse=True)
def _tables(yatzy_table):
    """The Yatzy table's file exists: building it again takes no time."""


def _queued() -> StrategyTable:
    row = tables.table_request(yatzy.get_ruleset("yatzy"))
    assert row is not None and row.status == StrategyTable.Status.QUEUED
    return row


def test_a_claim_records_this_process_as_the_builder():
    row = _queued()
    claimed = tables._claim_next()
    assert claimed is not None and claimed.pk == row.pk
    host, _boot, pid, start = claimed.builder.split("/")
    assert (host, int(pid)) == (os.uname().nodename, os.getpid()) and start
    assert not tables.builder_gone(claimed.builder)


def test_a_build_whose_process_died_is_queued_again_and_built_by_the_next_job():
    row = _queued()
    dead = subprocess.run(
        [sys.executable, "-c", CLAIM_AND_DIE], cwd=ROOT, env=_env(), capture_output=True, text=True
    )
    assert dead.returncode == 0, dead.stderr
    row.refresh_from_db()
    assert row.status == StrategyTable.Status.BUILDING and row.builder == dead.stdout.strip()
    assert tables.builder_gone(row.builder)
    # Long before STALE_BUILD: its row moved a moment ago.
    assert tables.tables_build_due() == [row.key]
    row.refresh_from_db()
    assert row.status == StrategyTable.Status.READY and row.builder == tables.this_builder()


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def test_a_build_whose_process_still_runs_is_left_to_it():
    row = _queued()
    builder = subprocess.Popen(
        [sys.executable, "-c", CLAIM_AND_LIVE],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert builder.stdout is not None
        claimed = builder.stdout.readline().strip()
        assert not tables.builder_gone(claimed)
        assert tables.tables_build_due() == []
        row.refresh_from_db()
        assert row.status == StrategyTable.Status.BUILDING and row.builder == claimed
    finally:
        builder.kill()
        builder.wait()


def _terminate_at_first_progress(backend: int, stop: threading.Event) -> None:
    """From another connection: end ``backend``'s session (as a database restart does)
    once the build has written its first progress."""
    with psycopg.connect(_database_url(), autocommit=True) as db:
        while not stop.is_set():
            done = db.execute(
                "SELECT states_done FROM games_strategytable WHERE status = 'building'"
            ).fetchone()
            if done is not None and done[0]:
                db.execute("SELECT pg_terminate_backend(%s)", [backend])
                return
            time.sleep(0.01)


def test_a_build_the_database_stopped_is_resumed_by_the_jobs_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The database goes away in the middle of a build (its progress write fails): the
    row is left ``building`` under this process, which lives on, and the job's retry in
    the same process resumes it at once (it used to wait ``STALE_BUILD``, 5 minutes, with
    every hint and the day's analysis waiting on it), never marking it failed."""
    if connection.vendor != "postgresql":
        pytest.skip("ends a PostgreSQL session")
    monkeypatch.setenv(ENV_DIR, str(tmp_path))  # no file yet: a real build, seconds
    monkeypatch.setattr(tables, "PROGRESS_EVERY_S", 0.0)
    row = _queued()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    stop = threading.Event()
    killer = threading.Thread(target=_terminate_at_first_progress, args=(backend, stop))
    killer.start()
    try:
        with pytest.raises((OperationalError, InterfaceError)):
            tables.tables_build_due()
    finally:
        stop.set()
        killer.join()
    connection.close()  # as Celery does before the retry runs
    row.refresh_from_db()
    assert row.status == StrategyTable.Status.BUILDING and row.builder == tables.this_builder()
    assert tables.tables_build_due() == [row.key]  # the retry, long before STALE_BUILD
    row.refresh_from_db()
    assert row.status == StrategyTable.Status.READY


def test_a_pid_now_run_by_another_process_is_a_gone_builder():
    _host, boot, pid, start = tables.this_builder().split("/")
    assert tables.builder_gone(f"{os.uname().nodename}/{boot}/{pid}/{int(start) + 1}")
    assert tables.builder_gone(f"{os.uname().nodename}/rebooted/{pid}/{start}")


def test_a_build_claimed_on_another_machine_waits_for_stale_build():
    row = _queued()
    assert tables._claim_next() is not None
    _host, boot, pid, start = tables.this_builder().split("/")
    elsewhere = f"another-host/{boot}/{pid}/{start}"
    StrategyTable.objects.filter(pk=row.pk).update(builder=elsewhere)
    assert not tables.builder_gone(elsewhere)
    assert tables.tables_build_due() == []
    later = dt.datetime.now(dt.UTC) + tables.STALE_BUILD + dt.timedelta(seconds=5)
    with time_machine.travel(later):
        assert tables.tables_build_due() == [row.key]
