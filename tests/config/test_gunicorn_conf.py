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


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("GUNICORN_LOGLEVEL", "verbose", "GUNICORN_LOGLEVEL must be debug, info, warning"),
        ("GUNICORN_TIMEOUT", "30s", "GUNICORN_TIMEOUT must be a whole number of at least 0"),
    ],
)
def test_a_misspelt_gunicorn_variable_stops_the_start_naming_it(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    """gunicorn read an unknown log level as `info` without a word; a timeout with a unit
    was a bare traceback."""
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit, match=message):
        runpy.run_path(str(CONF))


def test_the_gunicorn_log_level_reads_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUNICORN_LOGLEVEL", "Warning")
    monkeypatch.setenv("GUNICORN_TIMEOUT", "0")
    conf = runpy.run_path(str(CONF))
    assert (conf["loglevel"], conf["timeout"]) == ("warning", 0)


@pytest.mark.live
def test_gunicorns_own_lines_are_json_lines_with_log_format_json(tmp_path: Path) -> None:
    """docs/operations.md, Logs: JSON lines in production, from web too. gunicorn's own
    lines (its start, each worker booted, its shutdown) were in gunicorn's text format,
    which a JSON log pipeline cannot read."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    import httpx

    from tests.live.conftest import free_port

    port = free_port()
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "k" * 50,
        "DAILY_SEED_SECRET": "s" * 32,
        "LOG_FORMAT": "json",
        "SECURE_SSL_REDIRECT": "false",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "VAR_DIR": str(tmp_path / "var"),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(CONF), "config.wsgi:application"],
        cwd=CONF.parents[1],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{port}/health/", timeout=5)
                break
            except httpx.TransportError:
                time.sleep(0.2)
    finally:
        server.send_signal(signal.SIGTERM)
        output = server.communicate(timeout=60)[0].decode(errors="replace")
    lines = [line for line in output.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # a text line fails here
    loggers = {record["logger"] for record in records}
    assert "gunicorn.error" in loggers, output
    assert any("Booting worker" in record["message"] for record in records), output
    # GUNICORN_ACCESSLOG unset: no access line (a logconfig_dict turned them on).
    assert "gunicorn.access" not in loggers, output
