"""A command body with a field the endpoint does not know is bad input (SPEC §8: 400
with a code, nothing changes): a misspelled `hold` must not roll every die, a misspelled
`ruleset` must not start a game with other rules, a misspelled `language` must not
answer 200 as if the profile had changed."""

import pytest
from rest_framework.test import APIClient

from games.models import Party, Round
from tests.factories import make_player
from tests.games.conftest import new_game, play_worst_boxes

pytestmark = pytest.mark.django_db


def stored(round_id):
    rnd = Round.objects.get(pk=round_id)
    return rnd.actions, rnd.snapshot, rnd.status


def assert_refused(response, field):
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "invalid_input"
    assert list(body["details"]) == [field]
    assert body["message"].startswith(f"{field}: ")


@pytest.mark.parametrize(
    ("action", "body", "field"),
    [
        ("roll", {"holds": [0, 1], "turn": 0, "roll": 1}, "holds"),
        ("roll", {"hold": [0, 1], "turn": 0, "roll": 1, "seat": 0}, "seat"),
        ("score", {"category": "chance", "turn": 0, "box": "ones"}, "box"),
    ],
)
def test_a_play_action_with_an_unknown_field_is_400_and_changes_nothing(action, body, field):
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yatzy")
    url = f"/api/v1/rounds/{state['id']}/"
    assert client.post(url + "roll/", {"turn": 0, "roll": 0}, format="json").status_code == 200
    before = stored(state["id"])

    assert_refused(client.post(url + f"{action}/", body, format="json"), field)
    assert stored(state["id"]) == before


def test_a_party_action_with_an_unknown_field_is_400_and_changes_nothing():
    _, client = make_player()
    party = client.post(
        "/api/v1/games/", {"mode": "party", "seats": ["Ann", "Bob"]}, format="json"
    ).json()
    url = f"/api/v1/parties/{party['id']}/"
    seat = party["seats"][0]["round"]
    rolled = client.post(url + "roll/", {"seat": 0, "turn": 0, "roll": 0}, format="json")
    assert rolled.status_code == 200
    before = stored(seat["id"])

    body = {"seat": 0, "turn": 0, "roll": 1, "hodl": [0]}
    assert_refused(client.post(url + "roll/", body, format="json"), "hodl")
    body = {"seat": 0, "turn": 0, "category": "chance", "round": seat["id"]}
    assert_refused(client.post(url + "score/", body, format="json"), "round")
    assert stored(seat["id"]) == before


def test_a_new_game_with_an_unknown_field_is_400_and_starts_nothing():
    _, client = make_player()
    body = {"mode": "solo", "rulset": "yahtzee"}
    assert_refused(client.post("/api/v1/games/", body, format="json"), "rulset")
    body = {"mode": "party", "seats": ["Ann", "Bob"], "seat_names": ["Cy"]}
    assert_refused(client.post("/api/v1/games/", body, format="json"), "seat_names")
    assert not Round.objects.exists()
    assert not Party.objects.exists()


def test_a_friend_start_with_an_unknown_field_is_400_and_starts_nothing():
    _, sharer = make_player()
    state = play_worst_boxes(sharer, new_game(sharer, mode="solo", ruleset="yatzy"))
    code = sharer.post(f"/api/v1/rounds/{state['id']}/share/").json()["code"]
    _, friend = make_player()
    body = {"view": "blind", "mode": "target"}
    assert_refused(friend.post(f"/api/v1/friend/{code}/rounds/", body, format="json"), "mode")
    assert Round.objects.count() == 1


def test_a_long_unknown_name_is_cut_short_in_the_answer():
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yatzy")
    body = {"x" * 3000: 1, "turn": 0, "roll": 0}
    response = client.post(f"/api/v1/rounds/{state['id']}/roll/", body, format="json")
    assert response.status_code == 400
    assert response.json()["details"] == {"x" * 39 + "…": ["Unknown field."]}
    assert len(response.content) < 300


def test_the_fields_an_action_knows_are_still_accepted():
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yatzy")
    url = f"/api/v1/rounds/{state['id']}/"
    rolled = client.post(url + "roll/", {"hold": [], "turn": 0, "roll": 0}, format="json")
    assert rolled.status_code == 200
    body = {"category": "chance", "turn": 0, "roll": 1}
    assert client.post(url + "score/", body, format="json").status_code == 200


def test_the_refusal_speaks_the_readers_language():
    _, client = make_player()
    response = client.post(
        "/api/v1/games/",
        {"mode": "solo", "rulset": "yatzy"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert response.json()["details"] == {"rulset": ["Onbekend veld."]}


def test_a_box_id_with_spaces_around_it_is_no_box_and_changes_nothing():
    """Trimmed, "\tchance\n" filled Chance, where " solo" is no mode and " yatzy" no
    ruleset: a box id is taken as the rules name it."""
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yatzy")
    url = f"/api/v1/rounds/{state['id']}/"
    assert client.post(url + "roll/", {"turn": 0, "roll": 0}, format="json").status_code == 200
    before = stored(state["id"])

    for category in ("\tchance\n", " chance", "chance "):
        response = client.post(url + "score/", {"category": category, "turn": 0}, format="json")
        assert response.status_code == 400, response.json()
        assert response.json()["code"] == "unknown_category"
    assert stored(state["id"]) == before
    scored = client.post(url + "score/", {"category": "chance", "turn": 0}, format="json")
    assert scored.status_code == 200


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        (
            "register/",
            {"username": "newbie", "password": "a long pass phrase", "extra": 1},
            "extra",
        ),
        (
            "register/",
            {"username": "newbie", "password": "a long pass phrase", "name": "N"},
            "name",
        ),
        ("token/", {"username": "ann", "password": "a-long-enough-passphrase", "otp": 1}, "otp"),
    ],
)
def test_an_account_body_with_an_unknown_field_is_400_and_does_nothing(url, body, field):
    """Registering or logging in with a field the API does not know (``name`` for
    ``display_name``) did it without that field; now it is refused, as a play body's."""
    from knox.models import AuthToken

    from accounts.models import User

    make_player("ann")
    tokens = AuthToken.objects.count()
    assert_refused(APIClient().post(f"/api/v1/accounts/{url}", body, format="json"), field)
    assert not User.objects.filter(username="newbie").exists()
    assert AuthToken.objects.count() == tokens


def test_a_profile_change_with_a_misspelled_field_is_400_and_changes_nothing():
    """``{"langauge": "de"}`` answered 200 and changed nothing, as if it had been done.
    Fields the profile only shows (its id, username, languages) may be sent back as read
    and are left as they are, as DRF leaves read-only fields."""
    _, client = make_player()
    before = client.get("/api/v1/accounts/me/").json()
    assert_refused(
        client.patch("/api/v1/accounts/me/", {"langauge": "de"}, format="json"), "langauge"
    )
    body = {"display_name": "Renamed", "display_nmae": "X"}
    assert_refused(client.patch("/api/v1/accounts/me/", body, format="json"), "display_nmae")
    assert client.get("/api/v1/accounts/me/").json() == before

    sent_back = {**before, "display_name": "Renamed"}
    answer = client.patch("/api/v1/accounts/me/", sent_back, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json() == {**before, "display_name": "Renamed"}
