"""The admin's log-in form is a door to every account's password like the pages' and
the API's: it spends the same ``login`` budget per client address, so guessing a
staff member's password there gets no further than anywhere else."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-9"


@pytest.fixture(autouse=True)
def _small_login_budget(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "login": "3/minute",
        },
    }


@pytest.fixture
def operator() -> User:
    return User.objects.create_user(username="boss", password=PASSWORD, is_staff=True)


def _log_in(client: Client, password: str):
    return client.post("/admin/login/", {"username": "boss", "password": password})


def test_guessing_an_operators_password_in_the_admin_is_throttled(operator):
    client = Client()
    for attempt in range(3):
        assert _log_in(client, f"guess-{attempt}").status_code == 200
    answer = _log_in(client, PASSWORD)  # the right one, past the budget
    assert "_auth_user_id" not in client.session
    assert "Too many attempts" in answer.content.decode()


def test_the_admin_and_the_pages_share_one_budget(operator):
    client = Client()
    for attempt in range(3):
        client.post("/accounts/login/", {"username": "boss", "password": f"guess-{attempt}"})
    _log_in(client, PASSWORD)
    assert "_auth_user_id" not in client.session


def test_within_the_budget_an_operator_logs_in(operator):
    client = Client()
    answer = _log_in(client, PASSWORD)
    assert answer.status_code == 302
    assert client.session["_auth_user_id"] == str(operator.pk)
