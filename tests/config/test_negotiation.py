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
    assert ours == selected(DefaultContentNegotiation(), accept, query, renderers)


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
