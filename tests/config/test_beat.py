"""A beat schedule file written under a later clock (a faked date, a clock corrected
backwards, a restored snapshot) holds ``last_run_at`` times in the future; a beat that
starts on it must still send its jobs, and say that it reset those times."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from pathlib import Path

import pytest
import time_machine
from celery.beat import PersistentScheduler

from config.celery import app as celery_app
from reliability.embedded import embedded_env
from tests.live.conftest import BIN, ROOT, wait_for

pytestmark = [pytest.mark.live, pytest.mark.embedded_stack]


def _schedule_written_in_the_future(path: Path, days: int) -> dt.datetime:
    """A schedule file as Celery's own scheduler writes it, by a beat running at a date
    ``days`` ahead: every entry last ran then."""
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=days)
    with time_machine.travel(later, tick=False):
        scheduler = PersistentScheduler(app=celery_app, schedule_filename=str(path))
        assert scheduler.schedule, "no entries: the file would prove nothing"
        assert all(entry.last_run_at >= later for entry in scheduler.schedule.values())
        scheduler.close()
    return later


def _start(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.wait()


def test_celery_beat_on_a_schedule_from_the_future_sends_its_jobs(tmp_path):
    env = embedded_env(os.environ, tmp_path)
    schedule = tmp_path / "celerybeat-schedule"
    _schedule_written_in_the_future(schedule, days=3)
    queue = tmp_path / "var" / "celery-broker" / "queue"
    log = tmp_path / "beat.log"
    beat = _start(
        [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=INFO", f"--schedule={schedule}"],
        env,
        log,
    )
    try:
        # The board catch-up runs every 30 s: reset to now, it is due 30 s after start
        # (had its future time been kept, not for three days); no worker runs, so its
        # message waits in the broker's queue folder.
        wait_for(lambda: _queued(queue, "leaderboards.tasks.boards_catch_up"), timeout=90)
    finally:
        _stop(beat)
    output = log.read_text()
    assert "last ran in the future" in output and "leaderboards-catch-up" in output, output[-3000:]


def _queued(queue: Path, task: str) -> bool:
    """A message of ``task`` waits in the filesystem broker's queue folder."""
    for message in queue.glob("*.msg") if queue.exists() else []:
        try:
            if json.loads(message.read_text())["headers"]["task"] == task:
                return True
        except (OSError, ValueError, KeyError):
            continue  # a file being written or taken
    return False


def test_the_embedded_beat_on_a_schedule_from_the_future_sends_its_jobs(tmp_path):
    env = embedded_env(os.environ, tmp_path)
    subprocess.run(
        [str(BIN / "python"), "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    schedule = tmp_path / "var" / "celerybeat-schedule"  # CELERY_BEAT_SCHEDULE_FILENAME
    _schedule_written_in_the_future(schedule, days=3)
    heartbeat = tmp_path / "var" / "celery-broker" / "worker-heartbeat"
    log = tmp_path / "worker.log"
    worker = _start(
        [str(BIN / "celery"), "-A", "config", "worker", "--beat", "--pool=solo", "--loglevel=INFO"],
        env,
        log,
    )
    try:
        # The worker runs one heartbeat as it starts; the next one the beat sends.
        first = wait_for(lambda: heartbeat.exists() and heartbeat.stat().st_mtime, timeout=60)
        wait_for(lambda: heartbeat.stat().st_mtime > first + 5, timeout=60)
    finally:
        _stop(worker)
    output = log.read_text()
    assert "last ran in the future" in output, output[-3000:]
