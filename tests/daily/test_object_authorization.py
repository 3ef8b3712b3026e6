"""Object-level authorization as a matrix: every URL that names a round or a party, with
every method it accepts, called with another player's token, answers 404 and changes
nothing; a friend code answers 404 to all but its sharer's DELETE once unknown or revoked."""

import datetime as dt

import pytest
import time_machine
from django.urls import URLPattern, URLResolver, get_resolver

from games.models import Round
from tests.factories import make_player

pytestmark = pytest.mark.django_db

BODIES = {
    "post": {},
    "put": {},
    "patch": {},
    "delete": None,
}
# A valid body of each action (an unknown field would be a 400 before the lookup).
ACTIONS = {"roll/": {"hold": [], "turn": 0, "roll": 0}, "score/": {"category": "chance", "turn": 0}}


def body_of(method, url, **fields):
    """The body ``method`` sends to ``url``: its action's own fields on a roll or score."""
    action = next((body for end, body in ACTIONS.items() if url.endswith(end)), None)
    if method == "post" and action is not None:
        return {**fields, **action}
    return BODIES.get(method)


def object_routes(resolver=None, prefix="", parameter="round_id"):
    """(route, view class) for every API URL pattern with the ``parameter`` in its path
    (the web pages' round URLs take the session, not a token: tests/web/test_pages.py
    has their matrix)."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from object_routes(entry, route, parameter)
        elif (
            isinstance(entry, URLPattern)
            and f":{parameter}>" in str(entry.pattern)
            and route.startswith("api/")
        ):
            yield route, entry.callback.view_class


def calls(parameter, value):
    """(method, url, view) for every route with ``parameter`` and every method it has."""
    for route, view in object_routes(parameter=parameter):
        url = "/" + route.replace(f"<uuid:{parameter}>", value).replace(f"<str:{parameter}>", value)
        for method in ("get", *BODIES):
            if hasattr(view, method):
                yield method, url


def test_every_round_url_is_in_the_matrix():
    routes = {route for route, _ in object_routes()}
    assert {
        "api/v1/rounds/<uuid:round_id>/",
        "api/v1/rounds/<uuid:round_id>/roll/",
        "api/v1/rounds/<uuid:round_id>/score/",
        "api/v1/rounds/<uuid:round_id>/hint/",
        "api/v1/rounds/<uuid:round_id>/analysis/",
        "api/v1/rounds/<uuid:round_id>/share/",
    } <= routes
    assert {route for route, _ in object_routes(parameter="party_id")} == {
        "api/v1/parties/<uuid:party_id>/",
        "api/v1/parties/<uuid:party_id>/roll/",
        "api/v1/parties/<uuid:party_id>/score/",
    }
    assert {route for route, _ in object_routes(parameter="code")} == {
        "api/v1/friend/<str:code>/",
        "api/v1/friend/<str:code>/rounds/",
    }


def test_another_players_token_gets_404_on_every_round_endpoint_and_method():
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        _, owner = make_player()
        _, intruder = make_player()
        state = owner.post("/api/v1/daily/2026-11-20/rounds/").json()
        owner.post(
            f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 0, "roll": 0}, format="json"
        )
        before = Round.objects.values("snapshot", "status", "version").get(pk=state["id"])
        checked = 0
        for route, view in object_routes():
            url = "/" + route.replace("<uuid:round_id>", state["id"])
            for method in ("get", *BODIES):
                if not hasattr(view, method):
                    continue
                response = getattr(intruder, method)(url, body_of(method, url), format="json")
                assert response.status_code == 404, (method, url, response.status_code)
                assert response.json()["code"] == "round_not_found"
                checked += 1
    assert checked >= 3
    assert Round.objects.values("snapshot", "status", "version").get(pk=state["id"]) == before


def test_another_players_token_gets_404_on_every_party_endpoint_and_method():
    _, owner = make_player()
    _, intruder = make_player()
    party = owner.post(
        "/api/v1/games/",
        {"mode": "party", "seats": ["Ann", "Bo"], "ruleset": "yatzy"},
        format="json",
    ).json()
    before = list(
        Round.objects.filter(party_id=party["id"]).values("snapshot", "status", "version")
    )
    checked = 0
    for method, url in calls("party_id", party["id"]):
        response = getattr(intruder, method)(url, body_of(method, url, seat=0), format="json")
        assert response.status_code == 404, (method, url, response.status_code)
        assert response.json()["code"] == "party_not_found"
        checked += 1
    assert checked == 4  # the party, its roll, its score, and its give-up (DELETE)
    assert (
        list(Round.objects.filter(party_id=party["id"]).values("snapshot", "status", "version"))
        == before
    )


def test_friend_codes_are_404_to_every_method_once_revoked_and_only_the_sharer_may_revoke():
    from tests.games.conftest import new_game, play_worst_boxes

    _, sharer = make_player()
    _, other = make_player()
    shared = play_worst_boxes(sharer, new_game(sharer, mode="solo", ruleset="yatzy"))
    code = sharer.post(f"/api/v1/rounds/{shared['id']}/share/").json()["code"]
    refused = other.delete(f"/api/v1/friend/{code}/")
    assert refused.status_code == 404 and refused.json()["code"] == "share_not_found"
    assert sharer.delete(f"/api/v1/friend/{code}/").status_code == 204
    checked = 0
    for client in (sharer, other):
        for method, url in calls("code", code):
            response = getattr(client, method)(url, {"view": "blind"}, format="json")
            checked += 1
            if client is sharer and method == "delete":  # revoking again: done already
                assert response.status_code == 204, response.content
                continue
            assert response.status_code == 404, (method, url, response.status_code)
            assert response.json()["code"] == "share_not_found"
    assert checked == 6
    assert not Round.objects.filter(share__code=code).exists()
