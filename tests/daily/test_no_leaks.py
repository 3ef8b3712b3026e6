"""The server owns the dice: a scan of every response of a played day finds no seed
before its reveal and no die before it is rolled."""

import base64
import datetime as dt
import json
import logging

import pytest
import time_machine

import yatzy
from daily.models import Challenge
from tests.factories import make_player

pytestmark = pytest.mark.django_db(transaction=True)

DAY = "2026-12-02"
READS = [
    "/api/v1/daily/",
    f"/api/v1/daily/{DAY}/",
    f"/api/v1/leaderboards/daily/{DAY}/",
    f"/api/v1/leaderboards/daily/{DAY}/?around=me",
    "/api/v1/leaderboards/best-day/",
    "/api/v1/leaderboards/streaks/",
    "/api/v1/leaderboards/advent/2026/",
    "/api/v1/advent/2026/",
]


class Recorder:
    """Wraps API clients and keeps every response body."""

    def __init__(self):
        self.bodies: list[tuple[str, dict]] = []

    def call(self, client, method, url, body=None):
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code < 500, (url, response.status_code)
        self.bodies.append((url, response.json()))
        return response

    def read_everything(self, client, round_id=None):
        for url in READS + ([f"/api/v1/rounds/{round_id}/"] if round_id else []):
            self.call(client, "get", url)


def check_round_view(view, shadow):
    """A round's view shows exactly the dice rolled so far, nothing ahead."""
    assert view["dice"] == list(shadow.dice)
    assert view["seed"] is None


def play(recorder, client, turns, shadow):
    state = recorder.call(client, "post", f"/api/v1/daily/{DAY}/rounds/").json()
    check_round_view(state, shadow)
    for _ in range(turns):
        turn = state["turn"]
        for roll, hold in ((0, []), (1, [0, 1])):
            state = recorder.call(
                client,
                "post",
                f"/api/v1/rounds/{state['id']}/roll/",
                {"hold": hold, "turn": turn, "roll": roll},
            ).json()
            shadow.roll(hold=tuple(hold))
            check_round_view(state, shadow)
            # A retried roll is a 409 whose current state is still only the rolled dice.
            stale = recorder.call(
                client,
                "post",
                f"/api/v1/rounds/{state['id']}/roll/",
                {"hold": hold, "turn": turn, "roll": roll},
            ).json()
            check_round_view(stale["current"], shadow)
        category = next(iter(state["options"]))
        state = recorder.call(
            client,
            "post",
            f"/api/v1/rounds/{state['id']}/score/",
            {"category": category, "turn": turn},
        ).json()
        shadow.score(category)
        check_round_view(state, shadow)
        recorder.read_everything(client, state["id"])
    return state


def test_no_response_or_log_line_of_a_played_day_leaks_the_seed_or_a_future_die(caplog):
    caplog.set_level(logging.DEBUG)
    recorder = Recorder()
    with time_machine.travel(dt.datetime(2026, 12, 2, 9, tzinfo=dt.UTC), tick=False):
        _, finisher = make_player()
        _, quitter = make_player()
        recorder.read_everything(finisher)
        seed = bytes(Challenge.objects.get(date=dt.date(2026, 12, 2)).seed)
        maxi = yatzy.get_ruleset("maxi")
        play(recorder, finisher, 20, yatzy.Game(maxi, seed))
        play(recorder, quitter, 3, yatzy.Game(maxi, seed))
        practice = play(recorder, finisher, 1, yatzy.Game(maxi, seed))
        recorder.read_everything(quitter)
    with time_machine.travel(dt.datetime(2026, 12, 3, 0, 20, tzinfo=dt.UTC), tick=False):
        recorder.read_everything(quitter, practice["id"])  # grace period: still secret
    secrets = {seed.hex(), seed.hex().upper(), base64.b64encode(seed).decode()}
    scanned = 0
    for url, body in recorder.bodies:
        text = json.dumps(body)
        assert not any(secret in text for secret in secrets), url
        scanned += 1
    assert scanned > 200
    assert len(caplog.records) > 10  # the day's jobs and 4xx answers were logged
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert not any(secret in logged for secret in secrets)
    with time_machine.travel(dt.datetime(2026, 12, 3, 0, 30, tzinfo=dt.UTC), tick=False):
        revealed = recorder.call(quitter, "get", f"/api/v1/daily/{DAY}/").json()
    assert revealed["seed"] == seed.hex()
