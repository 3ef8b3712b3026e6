"""Helpers for board tests: completed ranked rounds with chosen scores and times.

Board jobs are enqueued with ``delay_on_commit``; these tests run with real commits
(``transaction=True``) so the jobs run when the round's transaction commits, as in
production (eagerly, in-process).
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from accounts.models import User
from daily import services as daily_services
from games.models import Round
from leaderboards.tasks import board_record_round
from tests.live.conftest import (  # noqa: F401  (the live-stack fixtures, for test_live_workers)
    live_stack,
    live_stack_factory,
    settings_override_for_live,
)

UTC = dt.UTC


def noon(day: dt.date, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(12, minute), tzinfo=UTC)


def travel(moment: dt.datetime):
    return time_machine.travel(moment, tick=False)


def ranked(
    player: User, day: dt.date, total: int, minute: int = 0, *, record: bool = True
) -> Round:
    """A completed ranked round of ``day`` worth ``total``, completed at noon+minute of
    that day, recorded on the boards the way ``games.services`` does it."""
    at = noon(day, minute)
    with travel(at):
        challenge = daily_services.challenge_get_or_create(day=day)
        rnd = Round.objects.create(
            player=player,
            challenge=challenge,
            ranked=True,
            status=Round.Status.COMPLETED,
            ruleset=challenge.ruleset,
            options=challenge.options,
            seed=bytes(challenge.seed),
            total=total,
            completed_at=at,
        )
        if record:
            board_record_round.delay_on_commit(str(rnd.id))
    return rnd


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def board(client, path: str, **params) -> dict:
    response = client.get(f"/api/v1/leaderboards/{path}", params)
    assert response.status_code == 200, response.content
    return response.json()


def names(body: dict) -> list[str]:
    return [line["username"] for line in body["results"]]


def ranks(body: dict) -> list[int]:
    return [line["rank"] for line in body["results"]]
