"""Fixtures of the configuration's tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from reliability.stack import Postgres, free_port


@pytest.fixture
def scratch_postgres() -> Iterator[Postgres]:
    """A PostgreSQL server of the test's own (``reliability.stack.Postgres``, started in a
    temporary folder, stopped after), for a test that freezes it; skipped where the
    server's binaries are not installed."""
    base = Path(tempfile.mkdtemp(prefix="yatzy-frozen-"))
    os.chmod(base, 0o755)  # as root, the server runs as postgres (reliability.stack)
    try:
        postgres = Postgres(base, free_port())
        postgres.init()
    except RuntimeError as exc:  # no server binaries
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(str(exc))
    try:
        yield postgres
    finally:
        postgres.stop(mode="immediate")
        shutil.rmtree(base, ignore_errors=True)
