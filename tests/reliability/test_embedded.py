"""The reliability suite's embedded-stack phase (reliability/embedded.py): part of the
quick CI run at about a minute, its log scan catches what the issue saw, and a short run
of the phase itself passes on ``make run``'s supervisor."""

from __future__ import annotations

import os

import pytest

from reliability import embedded
from reliability.__main__ import parse


def test_the_quick_run_has_a_short_embedded_phase_and_the_full_run_ten_minutes():
    quick, full = parse(["--quick"]), parse([])
    assert "embedded" in quick.phases and "embedded" in full.phases
    assert (quick.embedded_seconds, quick.embedded_clients) == (30.0, 4)
    assert (full.embedded_seconds, full.embedded_clients) == (600.0, 8)


@pytest.mark.parametrize(
    ("line", "trouble"),
    [
        ("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", True),
        ("Traceback (most recent call last):", True),
        (
            "devserver: the worker stopped (exit status 1) after 3 s; starting it again in 1 s.",
            True,
        ),
        ("kombu.exceptions.OperationalError: [Errno 2] No such file or directory", True),
        ('2026-12-01 10:00:00,000 INFO django.server [abc] "GET / HTTP/1.1" 200 4512', False),
        ("2026-12-01 10:00:00,000 WARNING django.request [abc] Conflict: /api/v1/rounds/", False),
        ("[2026-12-01 10:00:00,000: INFO/MainProcess] Task x[1] succeeded in 0.01s: None", False),
    ],
)
def test_the_log_scan_flags_crashes_and_exceptions_only(line, trouble):
    assert bool(embedded.TROUBLE.search(line)) is trouble


@pytest.mark.live
@pytest.mark.embedded_stack
def test_a_short_embedded_phase_passes_with_a_worker_killed(tables_dir, yatzy_table, yahtzee_table):
    result = embedded.run(
        dict(os.environ),
        clients=2,
        seconds=2,
        short=True,
        seed=1,
        tables_from=tables_dir,
        keep=False,
    )
    assert result["failures"] == [], result
    assert result["server_errors"] == 0 and result["crashes_and_exceptions"] == 0
    assert result["board_entries_checked"] >= 3  # two players and the one after the kill
    assert result["beats_after_kill"] == 1 and result["stopped_with_status"] == 0
