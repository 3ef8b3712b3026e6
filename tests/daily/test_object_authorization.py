"""Object-level authorization as a matrix: every URL that names a round, with every
method it accepts, called with another player's token, answers 404 and changes nothing."""

import datetime as dt

import pytest
import time_machine
from django.urls import URLPattern, URLResolver, get_resolver

from games.models import Round
from tests.factories import make_player

pytestmark = pytest.mark.django_db

BODIES = {
    "post": {"hold": [], "turn": 0, "roll": 0, "category": "chance"},
    "put": {},
    "patch": {},
    "delete": None,
}


def object_routes(resolver=None, prefix=""):
    """(route, view class) for every API URL pattern with a ``round_id`` parameter (the
    web pages' round URLs take the session, not a token: tests/web/test_pages.py has
    their matrix)."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from object_routes(entry, route)
        elif isinstance(entry, URLPattern) and "round_id" in route and route.startswith("api/"):
            yield route, entry.callback.view_class


def test_every_round_url_is_in_the_matrix():
    routes = {route for route, _ in object_routes()}
    assert {
        "api/v1/rounds/<uuid:round_id>/",
        "api/v1/rounds/<uuid:round_id>/roll/",
        "api/v1/rounds/<uuid:round_id>/score/",
    } <= routes


def test_another_players_token_gets_404_on_every_round_endpoint_and_method():
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        _, owner = make_player()
        _, intruder = make_player()
        state = owner.post("/api/v1/daily/2026-11-20/rounds/").json()
        owner.post(
            f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 0, "roll": 0}, format="json"
        )
        before = Round.objects.values("actions", "snapshot", "status").get(pk=state["id"])
        checked = 0
        for route, view in object_routes():
            url = "/" + route.replace("<uuid:round_id>", state["id"])
            for method in ("get", *BODIES):
                if not hasattr(view, method):
                    continue
                response = getattr(intruder, method)(url, BODIES.get(method), format="json")
                assert response.status_code == 404, (method, url, response.status_code)
                assert response.json()["code"] == "round_not_found"
                checked += 1
    assert checked >= 3
    assert Round.objects.values("actions", "snapshot", "status").get(pk=state["id"]) == before
