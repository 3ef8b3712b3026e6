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
