"""``yatzy-play boards decisions [DATE]`` (SPEC §12): a revealed day's best decisions and
the mean loss over the days, against the real API in-process, and the table at 80
columns. The losses are written as the analysis job writes them (``analysed``), so the
expected lines are worked out by hand."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from rich.console import Console

from accounts.models import User
from client import render
from tests.client import test_commands
from tests.leaderboards.conftest import noon, ranked, travel
from tests.leaderboards.test_decisions_board import analysed

pytestmark = pytest.mark.django_db(transaction=True)

ada = test_commands.ada  # the fixture: a registered player on its own machine

DAY = dt.date(2026, 11, 20)
REVEALED = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)


def test_a_days_decisions_lowest_loss_first_with_ties_and_the_players_line(ada):
    me = User.objects.get(username="ada")
    bo = User.objects.create_user(username="bo", password="x")
    cy = User.objects.create_user(username="cy", password="x")
    analysed(ranked(bo, DAY, 300, 0), 2.9951)
    analysed(ranked(me, DAY, 250, 1), 3.004)
    ranked(cy, DAY, 200, 2)  # not analysed yet
    with travel(noon(DAY, 30)):
        status, hidden, _ = ada("boards", "decisions", str(DAY))
    assert status == 0 and "Not every round is analysed yet" in hidden
    with travel(REVEALED):
        status, out, _ = ada("boards", "decisions", str(DAY))
        assert ada("boards", "decisions", "--date", str(DAY))[1] == out
    assert status == 0
    # 2.9951 and 3.004 are both 3.00: one rank, the earlier round first.
    assert f"Best decisions · {DAY}" in out
    assert "rank player points lost" in out and " 1 bo 3.00 1 ada 3.00 ◀ you " in out
    assert "2 on the board · you: #1 with 3.00" in out
    assert "Not every round is analysed yet" in out  # cy's round is still to come


def test_the_mean_board_needs_five_days_and_a_future_day_is_refused(ada):
    me = User.objects.get(username="ada")
    for n, loss in enumerate((1.0, 2.0, 3.0, 4.0, 5.5)):
        analysed(ranked(me, DAY - dt.timedelta(days=n), 200), loss)
    with travel(REVEALED):
        status, out, _ = ada("boards", "decisions")
        refused, _, err = ada("boards", "decisions", "2026-11-30")
    # (1 + 2 + 3 + 4 + 5.5) / 5 = 3.1
    assert status == 0 and "Best decisions · mean over the days analysed" in out
    assert "1 ada 3.10 ◀ you" in out and "from 5 days" in out
    assert refused == 1 and "There is no daily challenge for 2026-11-30" in err


def test_the_decisions_table_fits_80_columns():
    name = "A" * 40  # the longest display name
    page = {
        "count": 1000,
        "analysed": False,
        "results": [
            {"rank": 1000, "username": f"u{n}", "display_name": name, "value": 123.456}
            for n in range(3)
        ],
        "me": {"rank": 1000, "username": "u0", "value": 123.456},
        "next": "…",
    }
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(
        render.board_table("decisions", page, subtitle="2026-12-01")
    )
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert sum(bool(re.search(rf"1000 +{name} +123.46 +◀ you", line)) for line in lines) == 1
    assert "more: --page N" in out.getvalue()
