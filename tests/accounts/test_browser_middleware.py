"""Sessions, Django's authentication, the session player's language and messages serve
pages and the admin; an API request with a token passes them by (issue #25,
``accounts/middleware.py``), since its token alone decides who sends it. Everything
else goes through them as before: the API with a session, and pages whatever headers
they carry."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from accounts.auth import TokenAuthentication, is_token_request
from tests.factories import make_player

pytestmark = pytest.mark.django_db

ME = "/api/v1/accounts/me/"


def varies_on_cookie(response) -> bool:
    return "cookie" in response.get("Vary", "").lower()


def test_a_token_api_request_reads_no_session():
    player, client = make_player()
    # A browser's session of another player beside the token: the token decides.
    other, _ = make_player()
    client.force_login(other)

    response = client.get(ME)

    assert response.status_code == 200
    assert response.json()["username"] == player.username
    assert not varies_on_cookie(response)
    assert "sessionid" not in response.cookies


def test_an_api_request_with_a_session_keeps_its_middleware():
    player, _ = make_player()
    browser = Client()
    browser.force_login(player)

    response = browser.get(ME)

    assert response.status_code == 200
    assert response.json()["username"] == player.username
    assert varies_on_cookie(response)


def test_the_token_players_profile_language_still_answers():
    _, client = make_player(language="de")

    refused = client.post("/api/v1/accounts/me/", {}, format="json")

    assert refused.status_code == 405
    assert refused["Content-Language"] == "de"


@pytest.mark.parametrize("path", ["/", "/games/"])
def test_a_page_with_a_token_header_keeps_the_pages_middleware(path):
    player, _ = make_player()
    browser = Client(HTTP_AUTHORIZATION="Token not-an-api-request")
    browser.force_login(player)

    response = browser.get(path)

    assert response.status_code == 200
    assert varies_on_cookie(response)
    assert player.username.encode() in response.content


def test_an_unknown_api_path_with_a_token_is_the_apis_404():
    _, client = make_player()

    response = client.get("/api/v1/no-such-thing/")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def token_authentication_decides(header: str) -> bool:
    """Whether the API's token authentication (knox's test of the header) decides the
    request: it answers or refuses, instead of leaving it to the next way of
    authenticating (``None``)."""
    request = Request(RequestFactory().get(ME, HTTP_AUTHORIZATION=header))
    try:
        return TokenAuthentication().authenticate(request) is not None
    except AuthenticationFailed:
        return True


headers = st.one_of(
    st.text(alphabet=st.characters(max_codepoint=255), max_size=30),
    st.builds(
        lambda space, scheme, rest: space + scheme + rest,
        st.sampled_from(["", " ", "\t", "  "]),
        st.sampled_from(["Token", "token", "TOKEN", "ToKeN", "Bearer", "Tokens", "Toke"]),
        st.text(alphabet=st.sampled_from(" \tab1-\x0b\xa0"), max_size=12),
    ),
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=headers)
def test_the_middleware_skips_exactly_the_requests_the_token_decides(header):
    request = RequestFactory().get(ME, HTTP_AUTHORIZATION=header)

    assert is_token_request(request) == token_authentication_decides(header)
