"""The API's content negotiation (``config.negotiation``, issue #25) answers exactly as
DRF's for every ``Accept`` header and format override, on the fast path and off it, but
for the ranges with ``q=0``, which DRF reads as if they admitted what they refuse."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.test import RequestFactory
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer
from rest_framework.request import Request

from config.negotiation import ContentNegotiation
from config.renderers import OrjsonRenderer
from tests.factories import make_player

ACCEPTS = [
    None,
    "*/*",
    "application/json",
    "application/json; indent=4",
    "application/*",
    "text/html",
    "text/html, application/json;q=0.9",
    "application/xml",
    "",
    "*/*; q=0.1",
]


def selected(negotiation, accept, query, renderers):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(RequestFactory().get("/api/v1/daily/", query, **headers))
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers)
    except NotAcceptable as exc:
        return "406", exc.detail
    except Http404:
        return "404", None
    return type(renderer), media_type


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", [{}, {"format": "json"}, {"format": "api"}])
@pytest.mark.parametrize(
    "renderers",
    [[OrjsonRenderer()], [OrjsonRenderer(), BrowsableAPIRenderer()]],
    ids=["one", "two"],
)
def test_it_selects_what_drf_selects(accept, query, renderers):
    ours = selected(ContentNegotiation(), accept, query, renderers)
    drfs = selected(DefaultContentNegotiation(), accept, query, renderers)
    if drfs == ("404", None):  # a format no renderer has: ours refuses it as DRF's 406
        assert ours[0] == "406" and ours[1].code == "not_acceptable"
    else:
        assert ours == drfs


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/rulesets/", "/api/v1/daily/", "/api/v1/games/"])
@pytest.mark.parametrize("fmt", ["xml", "api", "JSON", "x" * 300])
def test_a_format_the_api_does_not_have_is_406_not_acceptable_never_not_found(path, fmt):
    """README: 406 ``not_acceptable`` when no JSON can be given. ``?format=xml`` on an
    existing path was DRF's 404 "Not found.", which sent clients looking for a wrong
    address; the message says what to send instead, in the reader's language."""
    _, client = make_player()
    response = client.get(path, {"format": fmt}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 406, response.content
    body = response.json()
    assert body["code"] == "not_acceptable" and "format=json" in body["message"]
    assert fmt not in body["message"] and response.headers["Content-Language"] == "de"
    assert body["message"] != "Unknown format: leave out format, or send format=json."
    assert client.get(path, {"format": "json"}).status_code == 200


def test_the_api_uses_it(client):
    response = client.get("/api/v1/rulesets/", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert client.get("/api/v1/rulesets/").headers["Content-Type"] == "application/json"


@pytest.mark.parametrize(
    "accept",
    ["*/*;q=0", "application/json;q=0", "application/json; q=0.0, */*", "text/plain, */*;q=0"],
)
def test_a_range_with_q_zero_refuses_what_it_matches(client, accept):
    response = client.get("/api/v1/rulesets/", HTTP_ACCEPT=accept)
    assert response.status_code == 406, response.content
    assert response.json()["code"] == "not_acceptable"
    assert client.get("/api/v1/rulesets/", HTTP_ACCEPT="text/plain, */*;q=0.1").status_code == 200
