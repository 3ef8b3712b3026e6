"""Throttles answer 429 with a code, survive a cache outage; health reports 200 or 503;
every response carries a request id."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def register(client, name):
    return client.post(
        "/api/v1/accounts/register/",
        {"username": name, "password": "a-long-enough-passphrase"},
        format="json",
    )


def test_register_is_throttled_per_ip_with_a_code(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "register": "2/hour",
        },
    }
    client = APIClient()
    assert [register(client, f"u{i}").status_code for i in range(2)] == [201, 201]
    third = register(client, "u3")
    assert third.status_code == 429
    assert third.json()["code"] == "throttled"
    assert "Retry-After" in third.headers


def test_throttle_lets_requests_through_when_the_cache_is_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens here
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    assert register(APIClient(), "during-outage").status_code == 201


def test_health_is_503_when_the_cache_is_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    assert APIClient().get("/health/", HTTP_ACCEPT="application/json").status_code == 503


def test_health_answers_a_browser_or_plain_curl_with_its_page():
    # Without a JSON Accept header the answer is the HTML page, with the same status as
    # the JSON one (200 here, or 503 where no Celery worker answers the ping); it was a
    # 500 before the health_check app was installed.
    expected = APIClient().get("/health/", HTTP_ACCEPT="application/json").status_code
    assert expected in (200, 503)
    for accept in ("*/*", "text/html"):
        response = APIClient().get("/health/", HTTP_ACCEPT=accept)
        assert response.status_code == expected, response.content[:200]
        assert response["Content-Type"].startswith("text/html")
        assert b"Database" in response.content


def test_responses_carry_a_request_id_and_keep_a_sane_incoming_one():
    client = APIClient()
    made_up = client.get("/api/v1/accounts/me/")
    assert len(made_up.headers["X-Request-ID"]) == 32
    kept = client.get("/api/v1/accounts/me/", HTTP_X_REQUEST_ID="abc-123")
    assert kept.headers["X-Request-ID"] == "abc-123"
    replaced = client.get("/api/v1/accounts/me/", HTTP_X_REQUEST_ID="bad id\nwith newline")
    assert replaced.headers["X-Request-ID"] != "bad id\nwith newline"
