"""Who builds a strategy table: a claim records its process, and a build whose process
is gone from this machine is queued again and resumed by the next build job at once,
never while its process still runs; one claimed on another machine waits for
``STALE_BUILD``."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys

import pytest
import time_machine

import yatzy
from games import tables
from games.models import StrategyTable
from tests.live.conftest import ROOT, _database_url

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
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    dead = subprocess.run(
        [sys.executable, "-c", CLAIM_AND_DIE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert dead.returncode == 0, dead.stderr
    row.refresh_from_db()
    assert row.status == StrategyTable.Status.BUILDING and row.builder == dead.stdout.strip()
    assert tables.builder_gone(row.builder)
    # Long before STALE_BUILD: its row moved a moment ago.
    assert tables.tables_build_due() == [row.key]
    row.refresh_from_db()
    assert row.status == StrategyTable.Status.READY and row.builder == tables.this_builder()


def test_a_build_whose_process_still_runs_is_left_to_it():
    row = _queued()
    assert tables._claim_next() is not None  # this process builds
    assert tables.tables_build_due() == []
    row.refresh_from_db()
    assert row.status == StrategyTable.Status.BUILDING and row.builder == tables.this_builder()


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
