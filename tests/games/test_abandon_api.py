"""Giving up a game (``DELETE games/{id}/``, ``DELETE parties/{id}/``): a solo, computer
or party game that is still in progress is deleted and frees its place among the
unfinished games; a daily or friend round cannot be given up (its seed would be shown),
a finished game is 409, another player's 404; a racing action and the give-up each end
cleanly, on SQLite and PostgreSQL (real threads, each with its own connection)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
from django.db import connection
from rest_framework.test import APIClient

import yatzy
from accounts.services import user_token_create
from daily import clock
from games import selectors, services
from games.models import NewGameRequest, Party, Round, ShareCode
from tests.factories import make_player
from tests.games.conftest import new_game, play_worst_boxes, roll

pytestmark = pytest.mark.django_db


def give_up(client: APIClient, game_id: str, *, path: str = "games"):
    return client.delete(f"/api/v1/{path}/{game_id}/")


def new_party(client: APIClient) -> dict:
    return new_game(client, mode="party", seats=["Ann", "Bo"], ruleset="yatzy")


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "solo", "ruleset": "yatzy"},
        {"mode": "computer", "ruleset": "yatzy", "level": "easy"},
    ],
)
def test_an_unfinished_solo_or_computer_game_is_given_up_and_gone(body):
    _, client = make_player()
    state = roll(client, new_game(client, **body))
    kept = new_game(client, mode="solo", ruleset="yatzy")
    response = give_up(client, state["id"])
    assert response.status_code == 204 and response.content == b""
    assert not Round.objects.filter(pk=state["id"]).exists()
    assert client.get(f"/api/v1/rounds/{state['id']}/").json()["code"] == "round_not_found"
    assert [line["id"] for line in client.get("/api/v1/games/").json()["results"]] == [kept["id"]]
    # Sent again, there is nothing left to give up.
    again = give_up(client, state["id"])
    assert again.status_code == 404 and again.json()["code"] == "game_not_found"


@pytest.mark.parametrize("path", ["games", "parties"])
def test_an_unfinished_party_is_given_up_with_its_seats_rounds(path):
    _, client = make_player()
    party = new_party(client)
    seats = [seat["round"]["id"] for seat in party["seats"]]
    assert give_up(client, party["id"], path=path).status_code == 204
    assert not Party.objects.filter(pk=party["id"]).exists()
    assert not Round.objects.filter(pk__in=seats).exists()
    assert client.get(f"/api/v1/parties/{party['id']}/").status_code == 404
    assert client.get("/api/v1/games/").json()["count"] == 0


def test_giving_up_frees_a_place_among_the_unfinished_games(monkeypatch):
    monkeypatch.setattr(services, "MAX_UNFINISHED_GAMES", 2)
    _, client = make_player()
    solo = client.post(
        "/api/v1/games/",
        {"mode": "solo", "ruleset": "yatzy"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k1",
    ).json()
    party = new_party(client)
    refused = client.post("/api/v1/games/", {"mode": "solo"}, format="json")
    assert refused.json()["code"] == "too_many_unfinished_games"
    assert give_up(client, solo["id"]).status_code == 204
    assert not NewGameRequest.objects.filter(key="k1").exists()
    new_game(client, mode="solo", ruleset="yatzy")
    assert give_up(client, party["id"], path="parties").status_code == 204
    new_game(client, mode="computer", ruleset="yatzy", level="easy")


def test_another_players_or_no_game_is_404_and_changes_nothing():
    _, owner = make_player()
    _, other = make_player()
    solo = new_game(owner, mode="solo", ruleset="yatzy")
    party = new_party(owner)
    for game_id, path, code in [
        (solo["id"], "games", "game_not_found"),
        (party["id"], "games", "game_not_found"),
        (party["id"], "parties", "party_not_found"),
        ("6f1d3c5e-0000-4000-8000-000000000000", "games", "game_not_found"),
    ]:
        response = give_up(other, game_id, path=path)
        assert response.status_code == 404 and response.json()["code"] == code
    # A seat's round is given up with its party, not by its own id.
    seat = party["seats"][1]["round"]["id"]
    assert give_up(owner, seat).json()["code"] == "game_not_found"
    assert Round.objects.count() == 3 and Party.objects.count() == 1


def test_a_finished_game_is_409_game_finished_and_kept():
    _, client = make_player()
    state = play_worst_boxes(client, new_game(client, mode="solo", ruleset="yatzy"))
    response = give_up(client, state["id"])
    assert response.status_code == 409 and response.json()["code"] == "game_finished"
    assert Round.objects.get(pk=state["id"]).status == Round.Status.COMPLETED


def test_a_finished_party_is_409_game_finished_and_kept():
    _, client = make_player()
    party = new_party(client)
    Party.objects.filter(pk=party["id"]).update(status=Party.Status.COMPLETED)
    for path in ("games", "parties"):
        response = give_up(client, party["id"], path=path)
        assert response.status_code == 409 and response.json()["code"] == "game_finished"
    assert Round.objects.filter(party_id=party["id"]).count() == 2


def test_daily_and_friend_rounds_cannot_be_given_up_and_keep_their_seed_hidden():
    _, sharer = make_player()
    _, friend = make_player()
    daily = friend.post(f"/api/v1/daily/{clock.today().isoformat()}/rounds/").json()
    shared = play_worst_boxes(sharer, new_game(sharer, mode="solo", ruleset="yatzy"))
    code = sharer.post(f"/api/v1/rounds/{shared['id']}/share/").json()["code"]
    mine = friend.post(f"/api/v1/friend/{code}/rounds/", {"view": "blind"}, format="json").json()
    for state in (daily, mine):
        response = give_up(friend, state["id"])
        assert response.status_code == 400 and response.json()["code"] == "abandon_not_allowed"
        after = friend.get(f"/api/v1/rounds/{state['id']}/").json()
        assert after["status"] == "in_progress" and after["seed"] is None


def test_a_party_whose_finished_seat_is_shared_cannot_be_given_up():
    """A seat that has played its last turn can be shared while the party goes on; the
    give-up deleted its round, and with it the code and the comparison of every friend
    who played it."""
    _, owner = make_player()
    _, friend = make_player()
    party = new_party(owner)
    while party["seats"][0]["round"]["status"] == "in_progress":
        party = _play_a_turn(owner, party)
    assert party["status"] == "in_progress"
    shared = party["seats"][0]["round"]["id"]
    code = owner.post(f"/api/v1/rounds/{shared}/share/").json()["code"]
    started = friend.post(f"/api/v1/friend/{code}/rounds/", {"view": "blind"}, format="json")
    assert started.status_code == 201, started.json()
    for path in ("games", "parties"):
        response = give_up(owner, party["id"], path=path)
        assert response.status_code == 400 and response.json()["code"] == "abandon_not_allowed"
        assert "shared as a friend challenge" in response.json()["message"]
    assert Round.objects.filter(party_id=party["id"]).count() == 2
    assert friend.get(f"/api/v1/friend/{code}/").status_code == 200
    # Once over, it is over first (it said it could not be given up while shared).
    while party["status"] == "in_progress":
        party = _play_a_turn(owner, party)
    for path in ("games", "parties"):
        response = give_up(owner, party["id"], path=path)
        assert response.status_code == 409 and response.json()["code"] == "game_finished"
    assert Round.objects.filter(party_id=party["id"]).count() == 2


def test_the_games_list_says_which_games_the_server_would_give_up():
    """`can_give_up` on each line of `GET games/` is the give-up's own rule: the pages
    and the terminal client ask only about a game `DELETE games/{id}/` would delete."""
    _, owner = make_player()
    _, friend = make_player()
    solo = new_game(owner, mode="solo", ruleset="yatzy")
    computer = new_game(owner, mode="computer", ruleset="yatzy", level="easy")
    daily = owner.post(f"/api/v1/daily/{clock.today().isoformat()}/rounds/").json()
    done = play_worst_boxes(owner, new_game(owner, mode="solo", ruleset="yatzy"))
    code = owner.post(f"/api/v1/rounds/{done['id']}/share/").json()["code"]
    mine = friend.post(f"/api/v1/friend/{code}/rounds/", {"view": "blind"}, format="json").json()
    party, shared_party = new_party(owner), new_party(owner)
    while shared_party["seats"][0]["round"]["status"] == "in_progress":
        shared_party = _play_a_turn(owner, shared_party)
    seat = shared_party["seats"][0]["round"]["id"]
    assert owner.post(f"/api/v1/rounds/{seat}/share/").status_code == 200

    def lines(client: APIClient) -> dict[str, bool]:
        return {
            line["id"]: line["can_give_up"]
            for line in client.get("/api/v1/games/").json()["results"]
        }

    said = {**lines(owner), **lines(friend)}
    expected = {
        solo["id"]: True,
        computer["id"]: True,
        party["id"]: True,
        daily["id"]: False,
        done["id"]: False,
        mine["id"]: False,
        shared_party["id"]: False,
    }
    assert said == expected
    # Each line says what the give-up then does.
    for game_id, can in expected.items():
        client = friend if game_id == mine["id"] else owner
        path = "parties" if game_id in (party["id"], shared_party["id"]) else "games"
        assert (give_up(client, game_id, path=path).status_code == 204) is can, game_id


def _play_a_turn(client: APIClient, party: dict) -> dict:
    """The party's seat in turn rolls once and fills its first open box."""
    url = f"/api/v1/parties/{party['id']}"
    seat = party["current_seat"]
    state = party["seats"][seat]["round"]
    move = {"seat": seat, "turn": state["turn"], "roll": state["roll"], "hold": []}
    state = client.post(f"{url}/roll/", move, format="json").json()["seats"][seat]["round"]
    box = next(box for box, points in state["scorecard"].items() if points is None)
    move = {"seat": seat, "turn": state["turn"], "category": box}
    return client.post(f"{url}/score/", move, format="json").json()


@pytest.mark.parametrize("language", ["de", "fr", "ja"])
def test_the_refusals_are_in_the_players_language(language):
    _, client = make_player()
    daily = client.post(f"/api/v1/daily/{clock.today().isoformat()}/rounds/").json()
    english = give_up(client, daily["id"]).json()["message"]
    translated = client.delete(
        f"/api/v1/games/{daily['id']}/", HTTP_ACCEPT_LANGUAGE=language
    ).json()["message"]
    assert translated and translated != english


# -- racing an action ---------------------------------------------------------------------


def _client_of(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user_token_create(user=user)}")
    return client


def _roll_waiting_for(read: threading.Event, done: threading.Event):
    """Patch the engine's dice so that a roll, having read its round, says so (``read``)
    and waits for ``done`` (at most a moment) before it stores: the give-up runs between
    its read and its write."""
    draw = yatzy.Game._draw

    def draw_later(game, *args):
        read.set()
        done.wait(timeout=5)
        return draw(game, *args)

    return mock.patch.object(yatzy.Game, "_draw", draw_later)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["solo", "party"])
def test_a_roll_that_read_the_game_before_it_was_given_up_is_404_and_stores_nothing(kind):
    user, client = make_player()
    if kind == "solo":
        game = new_game(client, mode="solo", ruleset="yatzy")
        roll_url = f"/api/v1/rounds/{game['id']}/roll/"
        body = {"hold": [], "turn": 0, "roll": 0}
    else:
        game = new_party(client)
        roll_url = f"/api/v1/parties/{game['id']}/roll/"
        body = {"seat": 0, "hold": [], "turn": 0, "roll": 0}
    read, given_up = threading.Event(), threading.Event()

    def rolling():
        try:
            return _client_of(user).post(roll_url, body, format="json")
        finally:
            connection.close()

    def giving_up():
        assert read.wait(timeout=5)
        try:
            return give_up(_client_of(user), game["id"])
        finally:
            given_up.set()
            connection.close()

    with _roll_waiting_for(read, given_up), ThreadPoolExecutor(max_workers=2) as pool:
        rolled, abandoned = pool.submit(rolling), pool.submit(giving_up)
        rolled, abandoned = rolled.result(), abandoned.result()
    assert abandoned.status_code == 204
    assert rolled.status_code == 404, rolled.json()
    assert Round.objects.filter(player=user).count() == 0
    assert Party.objects.filter(owner=user).count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_party_action_holding_its_round_and_a_give_up_both_end_cleanly():
    """The action stores its round, then waits (at most a moment) before it moves the
    party: the give-up, taking the rounds before the party as an action does, waits for
    it on PostgreSQL rather than deadlock with it, then gives the party up."""
    user, client = make_player()
    party = new_party(client)
    started = threading.Event()
    advance = services._party_advance

    def advance_later(*args, **kwargs):
        started.set()
        threading.Event().wait(timeout=1)
        return advance(*args, **kwargs)

    def rolling():
        try:
            return _client_of(user).post(
                f"/api/v1/parties/{party['id']}/roll/",
                {"seat": 0, "hold": [], "turn": 0, "roll": 0},
                format="json",
            )
        finally:
            connection.close()

    def giving_up():
        started.wait(timeout=5)
        try:
            return give_up(_client_of(user), party["id"])
        finally:
            connection.close()

    with (
        mock.patch.object(services, "_party_advance", advance_later),
        ThreadPoolExecutor(max_workers=2) as pool,
    ):
        rolled, abandoned = pool.submit(rolling), pool.submit(giving_up)
        rolled, abandoned = rolled.result(), abandoned.result()
    assert (rolled.status_code, abandoned.status_code) == (200, 204), (
        rolled.json(),
        abandoned.content,
    )
    assert not Party.objects.filter(pk=party["id"]).exists()


@pytest.mark.django_db(transaction=True)
def test_a_share_that_read_its_seat_before_the_party_was_given_up_is_404():
    """A seat's finished round shared while its party is given up: the share read the
    round, the give-up deleted the party, and the share's insert of its code then failed
    on the deleted round (a 500 on PostgreSQL and SQLite). It takes the round as an action
    does before it stores its code: gone, it is 404, and a give-up that comes after the
    code finds it (400, tested above)."""
    user, client = make_player()
    party = new_party(client)
    while party["seats"][0]["round"]["status"] == "in_progress":
        party = _play_a_turn(client, party)
    seat = party["seats"][0]["round"]["id"]
    read, given_up = threading.Event(), threading.Event()
    shareable = selectors.round_shareable

    def shareable_later(rnd):
        read.set()
        given_up.wait(timeout=5)
        return shareable(rnd)

    def sharing():
        try:
            return _client_of(user).post(f"/api/v1/rounds/{seat}/share/")
        finally:
            connection.close()

    def giving_up():
        assert read.wait(timeout=5)
        try:
            return give_up(_client_of(user), party["id"])
        finally:
            given_up.set()
            connection.close()

    with (
        mock.patch.object(selectors, "round_shareable", shareable_later),
        ThreadPoolExecutor(max_workers=2) as pool,
    ):
        shared, abandoned = pool.submit(sharing), pool.submit(giving_up)
        shared, abandoned = shared.result(), abandoned.result()
    assert abandoned.status_code == 204
    assert shared.status_code == 404 and shared.json()["code"] == "round_not_found"
    assert not ShareCode.objects.exists() and not Party.objects.exists()
