"""Every illegal action and malformed body is a 4xx with a stable code and changes nothing."""

import datetime as dt

import pytest
import time_machine
from rest_framework.test import APIClient

from games.models import Round
from tests.factories import make_player, play_round, play_turn

pytestmark = pytest.mark.django_db


@pytest.fixture
def started():
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        _, client = make_player()
        state = client.post("/api/v1/daily/2026-11-20/rounds/").json()
        yield client, state


def snapshot_of(round_id):
    rnd = Round.objects.get(pk=round_id)
    return rnd.actions, rnd.snapshot, rnd.status


def post(client, state, action, body, **kwargs):
    return client.post(f"/api/v1/rounds/{state['id']}/{action}/", body, format="json", **kwargs)


@pytest.mark.parametrize(
    ("action", "body", "status", "code"),
    [
        ("score", {"category": "chance", "turn": 0}, 400, "no_roll_yet"),
        ("roll", {"hold": [0], "turn": 0, "roll": 0}, 400, "invalid_hold"),
        ("roll", {"hold": [], "turn": 1, "roll": 0}, 409, "stale_state"),
        ("roll", {"hold": [], "turn": 0}, 400, "invalid_input"),
        ("roll", {"hold": "all", "turn": 0, "roll": 0}, 400, "invalid_input"),
        ("roll", {"hold": [-1], "turn": 0, "roll": 0}, 400, "invalid_input"),
        ("roll", {"hold": [], "turn": "zero", "roll": 0}, 400, "invalid_input"),
        ("score", {"turn": 0}, 400, "invalid_input"),
        ("roll", ["not", "an", "object"], 400, "invalid_input"),
    ],
)
def test_illegal_first_actions_are_rejected_and_change_nothing(started, action, body, status, code):
    client, state = started
    before = snapshot_of(state["id"])
    response = post(client, state, action, body)
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert snapshot_of(state["id"]) == before


@pytest.mark.parametrize(
    ("action", "body", "code"),
    [
        ("roll", {"hold": [0, 0], "turn": 0, "roll": 1}, "invalid_hold"),
        ("roll", {"hold": [6], "turn": 0, "roll": 1}, "invalid_hold"),
        ("score", {"category": "yahtzee", "turn": 0}, "unknown_category"),
        ("score", {"category": "", "turn": 0}, "invalid_input"),
    ],
)
def test_illegal_actions_after_a_roll_change_nothing(started, action, body, code):
    client, state = started
    post(client, state, "roll", {"hold": [], "turn": 0, "roll": 0})
    before = snapshot_of(state["id"])
    response = post(client, state, action, body)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert snapshot_of(state["id"]) == before


def test_fourth_roll_used_box_and_finished_game_are_rejected(started):
    client, state = started
    for roll in range(3):
        post(client, state, "roll", {"hold": [], "turn": 0, "roll": roll})
    fourth = post(client, state, "roll", {"hold": [], "turn": 0, "roll": 3})
    assert fourth.json()["code"] == "no_rolls_left"
    post(client, state, "score", {"category": "chance", "turn": 0})
    post(client, state, "roll", {"hold": [], "turn": 1, "roll": 0})
    used = post(client, state, "score", {"category": "chance", "turn": 1})
    assert (used.status_code, used.json()["code"]) == (400, "category_used")
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        final = play_round(client, state["id"])
    over = post(client, state, "roll", {"hold": [], "turn": final["turn"], "roll": 0})
    assert (over.status_code, over.json()["code"]) == (400, "game_over")


def test_stale_request_gets_409_with_current_state(started):
    client, state = started
    first = post(client, state, "roll", {"hold": [], "turn": 0, "roll": 0})
    retry = post(client, state, "roll", {"hold": [], "turn": 0, "roll": 0})
    assert retry.status_code == 409
    assert retry.json()["current"]["dice"] == first.json()["dice"]
    assert retry.json()["current"]["roll"] == 1
    assert len(Round.objects.get(pk=state["id"]).actions) == 1


def test_a_score_with_the_roll_it_saw_is_409_after_a_reroll_it_did_not_see(started):
    """`roll` is optional in a score: given, dice rolled since the client looked (from
    another tab or device) are a 409 with the current state, not scored. Without it, a
    score takes the current dice, as SPEC §8's minimum has it."""
    client, state = started
    seen = post(client, state, "roll", {"hold": [], "turn": 0, "roll": 0}).json()
    rerolled = post(client, state, "roll", {"hold": [], "turn": 0, "roll": 1}).json()
    before = snapshot_of(state["id"])
    stale = post(client, state, "score", {"category": "chance", "turn": 0, "roll": seen["roll"]})
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_state")
    assert stale.json()["current"]["dice"] == rerolled["dice"]
    assert snapshot_of(state["id"]) == before
    fresh = post(client, state, "score", {"category": "chance", "turn": 0, "roll": 2})
    assert fresh.status_code == 200
    assert fresh.json()["scorecard"]["chance"] == sum(rerolled["dice"])
    bad = post(client, state, "score", {"category": "ones", "turn": 1, "roll": "1"})
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_input")


def test_malformed_json_is_400(started):
    client, state = started
    response = client.generic(
        "POST", f"/api/v1/rounds/{state['id']}/roll/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_another_players_round_is_404_and_untouched(started):
    _, state = started
    _, intruder = make_player()
    before = snapshot_of(state["id"])
    assert intruder.get(f"/api/v1/rounds/{state['id']}/").status_code == 404
    response = post(intruder, state, "roll", {"hold": [], "turn": 0, "roll": 0})
    assert (response.status_code, response.json()["code"]) == (404, "round_not_found")
    assert snapshot_of(state["id"]) == before


def test_unknown_round_id_and_no_credentials(started):
    client, state = started
    assert client.get("/api/v1/rounds/00000000-0000-0000-0000-000000000000/").status_code == 404
    assert client.get("/api/v1/rounds/not-a-uuid/").status_code == 404
    anonymous = APIClient().post(
        f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 0, "roll": 0}, format="json"
    )
    assert anonymous.status_code == 401
    assert anonymous.json()["code"] == "not_authenticated"


def test_retried_final_score_is_409_with_the_completed_state(started):
    client, state = started
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        for _ in range(19):
            state = play_turn(client, state["id"], state)
        post(client, state, "roll", {"hold": [], "turn": 19, "roll": 0})
        final = {
            "category": next(c for c, v in state["scorecard"].items() if v is None),
            "turn": 19,
        }
        done = post(client, state, "score", final)
        retry = post(client, state, "score", final)
    assert done.status_code == 200 and done.json()["status"] == "completed"
    assert retry.status_code == 409
    assert retry.json()["current"]["status"] == "completed"
    assert retry.json()["current"]["total"] == done.json()["total"]


def test_unroutable_api_paths_are_404_in_the_error_shape(started):
    client, _ = started
    for url in ("/api/v1/rounds/not-a-uuid/", "/api/v1/daily/null,null/", "/api/v1/nothing/"):
        response = client.get(url)
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["code"] == "not_found"
