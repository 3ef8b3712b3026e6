"""A tables worker that starts resumes, at once, a build whose process is gone: no beat
runs here, so only the worker's own start can have sent the build job."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from reliability.embedded import embedded_env
from tests.live.conftest import BIN, ROOT, wait_for

pytestmark = pytest.mark.live

# Queue the Yatzy table's build, claim it and die without a word, as a tables worker
# killed in the middle of a build does.
CLAIM_AND_DIE = """
import os, django
django.setup()
import yatzy
from games import tables
tables.table_request(yatzy.get_ruleset("yatzy"))
print(tables._claim_next().builder, flush=True)
os._exit(0)
"""


def _build(database: Path) -> tuple[str, str]:
    with sqlite3.connect(database, timeout=20) as db:
        return db.execute(
            "SELECT status, builder FROM games_strategytable WHERE ruleset = 'yatzy'"
        ).fetchone()


def test_a_tables_worker_resumes_a_build_whose_process_is_gone_when_it_starts(tmp_path):
    env = embedded_env(os.environ, tmp_path, DJANGO_SETTINGS_MODULE="config.settings")
    database = tmp_path / "db.sqlite3"
    python = str(BIN / "python")
    subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    dead = subprocess.run(
        [python, "-c", CLAIM_AND_DIE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert dead.returncode == 0, dead.stderr
    assert _build(database) == ("building", dead.stdout.strip())

    log = tmp_path / "tables-worker.log"
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [python, "-m", "celery", "-A", "config", "worker", "-Q", "tables", "--pool=solo"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(lambda: _build(database)[0] == "ready", timeout=120, interval=0.5)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    assert _build(database)[1].split("/")[2] == str(worker.pid)
    assert "is gone; queued again" in log.read_text()
