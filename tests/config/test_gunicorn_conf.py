"""gunicorn's master freezes what it holds before forking (issue #25, item 4): the
objects every worker inherits are left out of the workers' garbage collections, whose
writes would otherwise copy those pages into each worker (docs/benchmarks.md)."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

import pytest

from games import tables

CONF = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"


def test_the_master_freezes_its_objects_once_warm(monkeypatch: pytest.MonkeyPatch) -> None:
    warmed = []
    # The warm-up itself (seconds of numba) is covered by tests/games/test_tables_watch.py.
    monkeypatch.setattr(tables, "tables_warm", lambda: warmed.append(gc.get_freeze_count()))
    conf = runpy.run_path(str(CONF))
    gc.unfreeze()
    try:
        conf["when_ready"](object())
        assert warmed == [0]  # warmed first, with nothing frozen yet
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_web_concurrency_0_stops_gunicorn_naming_it() -> None:
    """WEB_CONCURRENCY=0 passed gunicorn's --check-config, and gunicorn listened with no
    worker: every request hung. (gunicorn itself refuses a word or a negative number.)"""
    workers = "0"
    import os
    import subprocess
    import sys

    gunicorn = Path(sys.executable).with_name("gunicorn")
    result = subprocess.run(
        [str(gunicorn), "-c", str(CONF), "--check-config", "config.wsgi:application"],
        cwd=CONF.parents[1],
        env={**os.environ, "WEB_CONCURRENCY": workers},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert f"WEB_CONCURRENCY must be a whole number of at least 1, not '{workers}'" in (
        result.stdout + result.stderr
    )
