"""Solo and computer games through the API: creation, defaults from the profile,
validation, the games list, seeds and commitments, and another player's games."""

import datetime as dt
import hashlib

import pytest
import time_machine

import yatzy
from games.models import Round
from tests.factories import make_player
from tests.games.conftest import new_game, play_worst_boxes, roll, score

pytestmark = pytest.mark.django_db


def test_a_solo_game_starts_on_a_random_seed_shown_only_once_it_is_over():
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yatzy")
    assert (state["mode"], state["ruleset"], state["ranked"]) == ("solo", "yatzy", False)
    assert state["date"] is None and state["dice"] == [] and state["turns"] == 15
    assert state["seed"] is None and len(state["commitment"]) == 64
    assert state["opponent"] is None and state["level"] is None and state["result"] is None
    other = new_game(client, mode="solo", ruleset="yatzy")
    assert other["commitment"] != state["commitment"]

    final = play_worst_boxes(client, state)
    assert final["status"] == "completed"
    seed = bytes.fromhex(final["seed"])
    assert hashlib.sha256(seed).hexdigest() == state["commitment"]
    replayed = yatzy.Game.replay(yatzy.get_ruleset("yatzy"), seed, final["actions"])
    assert replayed.total == final["total"]


def test_a_game_is_the_same_round_as_the_daily_with_the_same_preconditions():
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yahtzee")
    stale = client.post(
        f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 1, "roll": 0}, format="json"
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale_state"
    early = client.post(
        f"/api/v1/rounds/{state['id']}/score/", {"category": "chance", "turn": 0}, format="json"
    )
    assert early.status_code == 400 and early.json()["code"] == "no_roll_yet"
    rolled = roll(client, state)
    assert len(rolled["dice"]) == 5 and rolled["options"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"mode": "solo", "ruleset": "farkle"}, "invalid_input"),
        ({"mode": "solo", "ruleset": "maxi", "options": {"bonus": 3}}, "unknown_option"),
        (
            {"mode": "solo", "ruleset": "maxi", "options": {"full_straight_points": 22}},
            "invalid_option",
        ),
        (
            {"mode": "solo", "ruleset": "yatzy", "options": {"full_straight_points": 25}},
            "option_not_applicable",
        ),
        ({"mode": "solo", "options": {"forced_order": "yes"}}, "invalid_option"),
        ({"mode": "computer", "level": "godlike"}, "invalid_input"),
        ({"mode": "solo", "level": "easy"}, "level_not_applicable"),
        ({"mode": "solo", "options": {"upper_bonus": [10**9, 5]}}, "invalid_option"),
        (
            {"mode": "solo", "ruleset": "yatzy", "options": {"extra_yatzy_bonus": 10**20}},
            "invalid_option",
        ),
        ({"mode": "tennis"}, "invalid_input"),
        ({"mode": "party"}, "invalid_seats"),
        ({"mode": "solo", "seats": ["Ann", "Bo"]}, "seats_not_applicable"),
        ({"mode": "solo", "options": ["forced_order"]}, "invalid_input"),
    ],
)
def test_bad_games_are_400_with_a_code_and_create_nothing(body, code):
    _, client = make_player()
    response = client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code
    assert not Round.objects.exists()


def test_new_games_take_the_profile_settings_and_a_change_applies_only_later():
    _, client = make_player()
    assert client.get("/api/v1/accounts/me/").json()["ruleset"] == "maxi"
    assert new_game(client, mode="solo")["ruleset"] == "maxi"
    patched = client.patch(
        "/api/v1/accounts/me/",
        {"ruleset": "yatzy", "options": {"forced_order": True}},
        format="json",
    )
    assert patched.status_code == 200
    assert patched.json()["options"] == {"forced_order": True}
    running = new_game(client, mode="solo")
    assert running["ruleset"] == "yatzy" and running["rules"]["forced_order"] is True
    running = roll(client, running)
    assert list(running["options"]) == ["ones"]  # forced order: the next box only

    # Mid-game change: the running game keeps its rules; the next game takes the new.
    client.patch("/api/v1/accounts/me/", {"ruleset": "yahtzee"}, format="json")
    again = client.get(f"/api/v1/rounds/{running['id']}/").json()
    assert again["ruleset"] == "yatzy" and again["rules"]["forced_order"] is True
    assert list(again["options"]) == ["ones"]
    after = score(client, again, "ones")
    assert after["turns"] == 15
    fresh = new_game(client, mode="solo")
    assert fresh["ruleset"] == "yahtzee" and fresh["rules"]["forced_order"] is False


def test_request_options_override_the_profile_and_apply_to_the_request_ruleset():
    _, client = make_player()
    client.patch("/api/v1/accounts/me/", {"options": {"full_straight_points": 30}}, format="json")
    assert new_game(client, mode="solo")["rules"]["full_straight_points"] == 30
    # Profile options belong to the profile's ruleset: a Yatzy game does not take them.
    assert new_game(client, mode="solo", ruleset="yatzy")["rules"]["forced_order"] is False
    assert new_game(client, mode="solo", options={})["rules"]["full_straight_points"] == 21


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ruleset": "yahtzee", "options": {"full_straight_points": 30}}, "option_not_applicable"),
        ({"options": {"upper_bonus": [84]}}, "invalid_option"),
        ({"ruleset": "chess"}, "invalid_input"),
    ],
)
def test_bad_profile_settings_are_400_with_the_engine_code_and_change_nothing(body, code):
    user, client = make_player()
    response = client.patch("/api/v1/accounts/me/", body, format="json")
    assert response.status_code == 400 and response.json()["code"] == code
    user.refresh_from_db()
    assert (user.ruleset, user.options) == ("maxi", {})


def test_the_games_list_is_newest_first_filtered_and_paged(settings):
    _, client = make_player()
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        daily = client.post("/api/v1/daily/2026-11-20/rounds/").json()
    ids = []
    for minute in range(3):
        with time_machine.travel(dt.datetime(2026, 11, 21, 12, minute, tzinfo=dt.UTC)):
            ids.append(new_game(client, mode="solo", ruleset="yatzy")["id"])
    with time_machine.travel(dt.datetime(2026, 11, 21, 13, tzinfo=dt.UTC)):
        finished = play_worst_boxes(client, new_game(client, mode="solo", ruleset="yatzy"))
        body = client.get("/api/v1/games/").json()
    assert body["count"] == 5
    assert [line["id"] for line in body["results"]] == [finished["id"], *reversed(ids), daily["id"]]
    assert body["results"][0]["total"] == finished["total"]
    assert body["results"][-1]["status"] == "expired"  # the ranked daily was never finished

    def listed(**query):
        return [line["id"] for line in client.get("/api/v1/games/", query).json()["results"]]

    assert listed(mode="daily") == [daily["id"]]
    assert listed(status="completed") == [finished["id"]]
    assert listed(status="in_progress") == list(reversed(ids))
    assert listed(status="expired") == [daily["id"]]
    assert client.get("/api/v1/games/", {"mode": "tennis"}).status_code == 400
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "PAGE_SIZE": 2}
    page = client.get("/api/v1/games/", {"page": 2}).json()
    assert [line["id"] for line in page["results"]] == list(reversed(ids))[1:3]
    assert page["next"] and page["previous"]


def test_another_players_game_hint_and_analysis_are_404():
    _, owner = make_player()
    _, other = make_player()
    state = play_worst_boxes(owner, new_game(owner, mode="solo", ruleset="yatzy"))
    for path in ("", "hint/", "analysis/"):
        response = other.get(f"/api/v1/rounds/{state['id']}/{path}")
        assert response.status_code == 404 and response.json()["code"] == "round_not_found"
    assert other.get("/api/v1/games/").json()["count"] == 0


def test_a_player_cannot_pile_up_unfinished_games(monkeypatch):
    from games import services

    monkeypatch.setattr(services, "MAX_UNFINISHED_GAMES", 2)
    _, client = make_player()
    new_game(client, mode="solo", ruleset="yatzy")
    new_game(client, mode="solo", ruleset="yatzy")
    response = client.post("/api/v1/games/", {"mode": "solo"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "too_many_unfinished_games"


def test_december_games_carry_the_christmas_dice():
    _, client = make_player()
    with time_machine.travel(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC)):
        assert new_game(client, mode="solo", ruleset="yatzy")["theme"] == "christmas"
    with time_machine.travel(dt.datetime(2026, 11, 5, 12, tzinfo=dt.UTC)):
        assert new_game(client, mode="solo", ruleset="yatzy")["theme"] == "classic"


# -- a new game sent again: Idempotency-Key -----------------------------------------------


def post_game(client, body, key):
    return client.post("/api/v1/games/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_new_game_sent_again_with_its_key_is_the_game_the_first_one_started():
    """A retry of a create whose answer was lost started a second game (and a second of
    the 20 unfinished)."""
    _, client = make_player()
    body = {"mode": "computer", "ruleset": "yatzy", "level": "easy"}
    first = post_game(client, body, "c7d1a4b2-new-game-1")
    again = post_game(client, body, "c7d1a4b2-new-game-1")
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert Round.objects.count() == 1
    other = post_game(client, body, "c7d1a4b2-new-game-2")
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]
    assert client.post("/api/v1/games/", body, format="json").status_code == 201  # no key
    assert Round.objects.count() == 3


def test_a_key_sent_with_other_fields_is_409_and_starts_nothing():
    _, client = make_player()
    post_game(client, {"mode": "solo", "ruleset": "yatzy"}, "k1")
    for body in (
        {"mode": "solo", "ruleset": "maxi"},
        {"mode": "solo", "ruleset": "yatzy", "options": {"forced_order": True}},
        {"mode": "party", "ruleset": "yatzy", "seats": ["Ann", "Bo"]},
    ):
        answer = post_game(client, body, "k1")
        assert answer.status_code == 409 and answer.json()["code"] == "idempotency_key_reused"
    assert Round.objects.count() == 1


def test_a_party_sent_again_is_the_same_party_and_keys_are_each_players_own():
    _, ann = make_player("ann")
    _, bo = make_player("bo")
    body = {"mode": "party", "ruleset": "yatzy", "seats": ["Ann", "Bo"]}
    first, again = post_game(ann, body, "same"), post_game(ann, body, "same")
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    theirs = post_game(bo, body, "same")
    assert theirs.status_code == 201 and theirs.json()["id"] != first.json()["id"]


def test_the_game_that_filled_the_quota_is_answered_again_not_refused(monkeypatch):
    from games import services

    monkeypatch.setattr(services, "MAX_UNFINISHED_GAMES", 1)
    _, client = make_player()
    first = post_game(client, {"mode": "solo", "ruleset": "yatzy"}, "last-one")
    again = post_game(client, {"mode": "solo", "ruleset": "yatzy"}, "last-one")
    assert again.status_code == 201 and again.json()["id"] == first.json()["id"]
    refused = post_game(client, {"mode": "solo", "ruleset": "yatzy"}, "another")
    assert refused.json()["code"] == "too_many_unfinished_games"


def test_a_request_asking_for_the_same_game_in_other_words_is_the_same_request():
    """Its fields as resolved: the profile's ruleset named or left out, a computer's
    default level given or not, empty options or none."""
    _, client = make_player()  # Maxi by default
    first = post_game(client, {"mode": "solo"}, "same-game")
    for body in (
        {"mode": "solo", "ruleset": "maxi"},
        {"mode": "solo", "ruleset": "maxi", "options": {}},
    ):
        assert post_game(client, body, "same-game").json()["id"] == first.json()["id"]
    default = post_game(client, {"mode": "computer", "ruleset": "yatzy"}, "computer")
    medium = {"mode": "computer", "ruleset": "yatzy", "level": "medium"}
    assert post_game(client, medium, "computer").json()["id"] == default.json()["id"]
    assert Round.objects.count() == 2


@pytest.mark.parametrize(
    "key",
    ["", " ", "x" * 101, "clé", "a b", "tab\there", "dup,dup"],  # a header sent twice: joined
)
def test_a_key_that_is_not_visible_ascii_is_400_and_starts_nothing(key):
    _, client = make_player()
    answer = post_game(client, {"mode": "solo", "ruleset": "yatzy"}, key)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_idempotency_key"
    assert not Round.objects.exists()
