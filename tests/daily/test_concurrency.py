"""Concurrent requests on one round serialise; on-demand day creation is race-free.

These run real threads, each with its own database connection, against the configured
database: SQLite (the embedded default) or PostgreSQL (CI's production stack).
"""

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from unittest import mock

import pytest
from django.db import connection
from rest_framework.test import APIClient

import yatzy
from accounts.services import user_token_create
from daily import clock, services
from daily.models import Challenge
from games.models import Round
from tests.factories import make_player

pytestmark = pytest.mark.django_db(transaction=True)

PARALLEL = 20


def in_threads(work, count=PARALLEL):
    barrier = Barrier(count)

    def run(index):
        try:
            barrier.wait()
            return work(index)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def test_parallel_identical_rolls_apply_exactly_once():
    user, client = make_player()
    state = client.post(f"/api/v1/daily/{clock.today().isoformat()}/rounds/").json()
    key = user_token_create(user=user)

    def roll(_index):
        thread_client = APIClient()
        thread_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return thread_client.post(
            f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 0, "roll": 0}, format="json"
        )

    # Each request draws its dice between reading the round and storing the roll: meeting
    # there, every request has read the round before any of them stores.
    meet, met, draw = Barrier(PARALLEL), threading.local(), yatzy.Game._draw

    def draw_after_all_have_read(game, *args):
        if not getattr(met, "done", False):
            met.done = True
            meet.wait(timeout=10)
        return draw(game, *args)

    with mock.patch.object(yatzy.Game, "_draw", draw_after_all_have_read):
        responses = in_threads(roll)
    assert not meet.broken
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] + [409] * (PARALLEL - 1)
    rnd = Round.objects.get(pk=state["id"])
    assert rnd.actions == [{"type": "roll", "hold": []}]
    winner = next(r for r in responses if r.status_code == 200).json()
    assert all(
        r.json()["current"]["dice"] == winner["dice"] for r in responses if r.status_code == 409
    )


def test_parallel_starts_create_one_ranked_round():
    user, _ = make_player()
    key = user_token_create(user=user)
    day = clock.today().isoformat()

    def begin(_index):
        thread_client = APIClient()
        thread_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return thread_client.post(f"/api/v1/daily/{day}/rounds/")

    responses = in_threads(begin, count=8)
    assert {r.status_code for r in responses} <= {200, 201}
    assert len({r.json()["id"] for r in responses}) == 1
    assert Round.objects.filter(player=user).count() == 1
    assert Round.objects.get(player=user).ranked


def test_on_demand_challenge_creation_is_race_free():
    day = dt.date(2026, 12, 24)
    results = in_threads(lambda _i: services.challenge_get_or_create(day=day).pk, count=8)
    assert len(set(results)) == 1
    assert Challenge.objects.filter(date=day).count() == 1
