"""Playing the daily challenge through the HTTP layer."""

import datetime as dt
import hashlib
import hmac

import pytest
import time_machine

import yatzy
from daily.models import Challenge
from games.models import Round
from tests.factories import make_player, play_round, play_turn

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 11, 20)
NOON = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def at_noon():
    with time_machine.travel(NOON, tick=False) as traveller:
        yield traveller


def start(client, day=DAY):
    return client.post(f"/api/v1/daily/{day.isoformat()}/rounds/")


def test_daily_shows_commitment_but_no_seed_and_the_reset_time(at_noon):
    _, client = make_player()
    body = client.get("/api/v1/daily/").json()
    expected_seed = hmac.new(b"test-daily-secret", b"yatzy-daily/v1/2026-11-20", "sha256").digest()
    assert body["date"] == "2026-11-20"
    assert body["ruleset"] == "maxi"
    assert body["commitment"] == hashlib.sha256(expected_seed).hexdigest()
    assert body["seed"] is None
    assert body["closes_at"] == "2026-11-21T00:00:00Z"
    assert body["reveal_at"] == "2026-11-21T00:30:00Z"
    assert body["theme"] == "classic"
    assert body["my_round"] is None


def test_full_daily_round_every_roll_matches_the_engine_replay(at_noon):
    _, client = make_player()
    response = start(client)
    assert response.status_code == 201
    state = response.json()
    assert state["ranked"] is True
    assert state["dice"] == []
    challenge = Challenge.objects.get(date=DAY)
    shadow = yatzy.Game(yatzy.get_ruleset("maxi"), bytes(challenge.seed))
    round_id = state["id"]
    while state["status"] == "in_progress":
        turn = state["turn"]
        for roll, hold in ((0, []), (1, [0, 2, 4]), (2, [1])):
            state = client.post(
                f"/api/v1/rounds/{round_id}/roll/",
                {"hold": hold, "turn": turn, "roll": roll},
                format="json",
            ).json()
            shadow.roll(hold=tuple(hold))
            assert state["dice"] == list(shadow.dice)
            assert state["options"] == shadow.options()
        category = min(state["options"], key=state["options"].get)
        state = client.post(
            f"/api/v1/rounds/{round_id}/score/", {"category": category, "turn": turn}, format="json"
        ).json()
        shadow.score(category)
        assert state["scorecard"] == shadow.scorecard
    assert state["status"] == "completed"
    assert state["total"] == shadow.total
    replayed = yatzy.Game.replay(yatzy.get_ruleset("maxi"), bytes(challenge.seed), state["actions"])
    assert replayed.total == state["total"] and replayed.is_over
    assert Round.objects.get(pk=round_id).total == state["total"]


def test_first_round_of_the_day_is_ranked_later_ones_are_practice(at_noon):
    _, client = make_player()
    first = start(client).json()
    again = start(client)
    assert again.status_code == 200 and again.json()["id"] == first["id"]
    play_round(client, first["id"])
    second = start(client)
    assert second.status_code == 201
    assert second.json()["ranked"] is False


def test_my_round_stays_the_ranked_round_beside_the_practice_round(at_noon):
    _, client = make_player()
    first = start(client).json()
    ranked_total = play_round(client, first["id"])["total"]
    practice = start(client).json()
    day = client.get("/api/v1/daily/").json()
    assert day["my_round"] == {
        "id": first["id"],
        "status": "completed",
        "ranked": True,
        "total": ranked_total,
        "excluded": False,
    }
    assert day["practice_round"] == {
        "id": practice["id"],
        "status": "in_progress",
        "ranked": False,
        "total": None,
        "excluded": False,
    }
    play_round(client, practice["id"])
    after = client.get("/api/v1/daily/").json()
    assert after["my_round"]["id"] == first["id"]
    assert after["practice_round"] is None


def test_future_dates_are_404_and_past_days_replay_unranked():
    _, client = make_player()
    with time_machine.travel(NOON, tick=False):
        start(client)  # creates the challenge of DAY
        assert client.get("/api/v1/daily/2026-11-21/").status_code == 404
        assert start(client, DAY + dt.timedelta(days=1)).status_code == 404
        assert client.get("/api/v1/daily/2026-02-30/").status_code == 404
    with time_machine.travel(NOON + dt.timedelta(days=3), tick=False):
        _, other = make_player()
        replay = start(other)
        assert replay.status_code == 201
        assert replay.json()["ranked"] is False
        assert client.get("/api/v1/daily/2026-11-19/").json()["code"] == "no_challenge"


def test_seed_is_revealed_only_after_the_grace_period():
    _, client = make_player()
    with time_machine.travel(NOON, tick=False):
        client.get("/api/v1/daily/")
    seed = bytes(Challenge.objects.get(date=DAY).seed)
    with time_machine.travel(dt.datetime(2026, 11, 21, 0, 29, tzinfo=dt.UTC), tick=False):
        assert client.get("/api/v1/daily/2026-11-20/").json()["seed"] is None
    with time_machine.travel(dt.datetime(2026, 11, 21, 0, 30, tzinfo=dt.UTC), tick=False):
        body = client.get("/api/v1/daily/2026-11-20/").json()
    assert body["seed"] == seed.hex()
    assert hashlib.sha256(bytes.fromhex(body["seed"])).hexdigest() == body["commitment"]


def test_ranked_round_may_finish_in_grace_then_expires():
    _, client = make_player()
    with time_machine.travel(dt.datetime(2026, 11, 20, 23, 59, tzinfo=dt.UTC), tick=False):
        state = start(client).json()
        state = play_turn(client, state["id"], state)
    with time_machine.travel(dt.datetime(2026, 11, 21, 0, 20, tzinfo=dt.UTC), tick=False):
        state = play_turn(client, state["id"], state)
        assert state["turn"] == 2 and state["status"] == "in_progress"
        assert client.get("/api/v1/daily/").json()["date"] == "2026-11-21"
    with time_machine.travel(dt.datetime(2026, 11, 21, 0, 31, tzinfo=dt.UTC), tick=False):
        response = client.post(
            f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 2, "roll": 0}, format="json"
        )
        assert response.status_code == 400
        assert response.json()["code"] == "round_expired"
        after = client.get(f"/api/v1/rounds/{state['id']}/").json()
    assert after["status"] == "expired"
    assert after["actions"] == state["actions"]
    assert after["seed"] is not None


def test_after_the_reveal_a_start_replays_even_before_the_day_is_closed():
    """The ranked round left unfinished is expired from the reveal on; the day's close
    job may run later (a worker down): a start then is a practice replay, not the
    expired round back."""
    _, client = make_player()
    with time_machine.travel(NOON, tick=False):
        state = start(client).json()
        ranked = play_turn(client, state["id"], state)
    with time_machine.travel(dt.datetime(2026, 11, 21, 0, 31, tzinfo=dt.UTC), tick=False):
        assert Challenge.objects.get(date=DAY).closed_at is None
        response = start(client)
        assert response.status_code == 201, response.json()
        replay = response.json()
        assert replay["id"] != ranked["id"] and replay["ranked"] is False
        assert replay["status"] == "in_progress"
        again = start(client)  # the replay is the unfinished round now
        assert (again.status_code, again.json()["id"]) == (200, replay["id"])
    stored = Round.objects.get(pk=ranked["id"])
    assert stored.status == Round.Status.EXPIRED and stored.actions == ranked["actions"]


def test_round_started_during_grace_on_previous_day_is_practice():
    _, client = make_player()
    with time_machine.travel(NOON, tick=False):
        client.get("/api/v1/daily/")
    with time_machine.travel(dt.datetime(2026, 11, 21, 0, 10, tzinfo=dt.UTC), tick=False):
        response = start(client)
    assert response.status_code == 201
    assert response.json()["ranked"] is False


def test_december_rounds_carry_the_christmas_theme():
    _, client = make_player()
    with time_machine.travel(dt.datetime(2026, 12, 3, 9, tzinfo=dt.UTC), tick=False):
        assert client.get("/api/v1/daily/").json()["theme"] == "christmas"
        assert start(client, dt.date(2026, 12, 3)).json()["theme"] == "christmas"


def test_a_replay_carries_the_skin_of_the_month_it_is_played_in():
    # SPEC §6: during December every round carries the Christmas skin, and only then; a
    # replay of a past day is a round of the day it is played on, not of its date.
    _, client = make_player()
    for day in (dt.date(2026, 11, 30), dt.date(2026, 12, 5)):
        with time_machine.travel(dt.datetime.combine(day, dt.time(9), dt.UTC), tick=False):
            client.get("/api/v1/daily/")
    with time_machine.travel(dt.datetime(2026, 12, 10, 9, tzinfo=dt.UTC), tick=False):
        november = start(client, dt.date(2026, 11, 30)).json()
    with time_machine.travel(dt.datetime(2027, 1, 3, 9, tzinfo=dt.UTC), tick=False):
        december = start(client, dt.date(2026, 12, 5)).json()
    assert (november["ranked"], november["theme"]) == (False, "christmas")
    assert (december["ranked"], december["theme"]) == (False, "classic")


def test_day_boundary_follows_daily_time_zone(settings):
    settings.DAILY_TIME_ZONE = "Europe/Amsterdam"
    _, client = make_player()
    # 23:30 UTC on Nov 20 is already Nov 21 in Amsterdam.
    with time_machine.travel(dt.datetime(2026, 11, 20, 23, 30, tzinfo=dt.UTC), tick=False):
        body = client.get("/api/v1/daily/").json()
    assert body["date"] == "2026-11-21"
    assert body["closes_at"] == "2026-11-22T00:00:00+01:00"
    assert body["time_zone"] == "Europe/Amsterdam"
