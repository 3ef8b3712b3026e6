import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def test_register_returns_token_that_authenticates_me():
    client = APIClient()
    response = client.post(
        "/api/v1/accounts/register/",
        {"username": "ada", "password": "a-long-enough-passphrase", "display_name": "Ada"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = client.get("/api/v1/accounts/me/").json()
    assert me["username"] == "ada"
    assert me["display_name"] == "Ada"


def test_register_rejects_weak_password_and_creates_nothing():
    response = APIClient().post(
        "/api/v1/accounts/register/", {"username": "bob", "password": "12345678"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "weak_password"
    assert not User.objects.filter(username="bob").exists()


# A password each rule refuses (the similar one: too like the username "marianne").
WEAK_PASSWORDS = {
    "too short": "xq7#",
    "too common": "password1",
    "only digits": "8302917465",
    "too like the username": "marianne1",
}


def _weak_password_message(password: str, language: str) -> str:
    response = APIClient().post(
        "/api/v1/accounts/register/",
        {"username": "marianne", "password": password},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400 and response.json()["code"] == "weak_password"
    assert response["Content-Language"] == language
    return response.json()["message"]


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES if code != "en"])
def test_every_password_rule_refuses_in_the_players_language(language):
    """Django 5.2's too-short message has a wording its Italian, Dutch and Norwegian
    catalogues lack and its Finnish one leaves empty: those players read it in English
    (config.messages.FRAMEWORK_MESSAGES)."""
    for rule, password in WEAK_PASSWORDS.items():
        english = _weak_password_message(password, "en")
        assert _weak_password_message(password, language) != english, (rule, english)
    assert not User.objects.filter(username="marianne").exists()


@pytest.mark.parametrize(
    "password", ["a long pass phrase ", "  spaced out passphrase", "\tpassphrase\t"]
)
def test_a_password_is_taken_as_typed_on_the_api_as_on_the_pages(password):
    """The API trimmed a password's spaces at its ends and the pages' forms did not: set
    through the API, it did not log in on the log-in page as typed, and set on the
    sign-up page, not through the API."""
    api = APIClient().post(
        "/api/v1/accounts/register/", {"username": "spacey", "password": password}, format="json"
    )
    assert api.status_code == 201, api.json()
    page = Client().post("/accounts/login/", {"username": "spacey", "password": password})
    assert page.status_code == 302, "the log-in page refused the password as typed"
    login = APIClient().post(
        "/api/v1/accounts/token/",
        {"username": "spacey", "password": password.strip()},
        format="json",
    )
    assert login.status_code == 400 and "wrong password" in login.json()["message"]

    signed_up = Client().post(
        "/accounts/register/",
        {"username": "pagey", "password": password},
    )
    assert signed_up.status_code == 302
    login = APIClient().post(
        "/api/v1/accounts/token/", {"username": "pagey", "password": password}, format="json"
    )
    assert login.status_code == 200, login.json()


@pytest.mark.parametrize("password", ["          ", "\t\t\t\t\t\t\t\t\t", "\u3000" * 10])
def test_a_password_of_spaces_alone_is_refused_on_the_api_and_the_page(password):
    """Trimmed, it was blank and refused; taken as typed, nothing but spaces must still
    be refused (no rule of Django's refuses ten spaces)."""
    api = APIClient().post(
        "/api/v1/accounts/register/",
        {"username": "blankish", "password": password},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert api.status_code == 400 and api.json()["code"] == "weak_password"
    assert api.json()["message"] == "Ein Passwort muss mehr als Leerzeichen enthalten."
    page = Client().post("/accounts/register/", {"username": "blankish", "password": password})
    assert page.status_code == 400
    assert "A password needs more than spaces." in page.content.decode()
    assert not User.objects.filter(username="blankish").exists()


def test_a_password_stored_trimmed_before_still_logs_in_typed_with_its_spaces():
    """Until passwords were taken as typed, sign-up stored them without their ends'
    spaces (the API's and the page's), and their players still type them: on the API
    and on the log-in page (accounts.services.user_authenticate)."""
    user = User.objects.create_user(username="olden", password="an older passphrase")
    body = {"username": "olden", "password": " an older passphrase "}
    login = APIClient().post("/api/v1/accounts/token/", body, format="json")
    assert login.status_code == 200, login.json()
    page = Client().post("/accounts/login/", body)
    assert page.status_code == 302
    body["password"] = " an older passphrase x"
    assert APIClient().post("/api/v1/accounts/token/", body, format="json").status_code == 400
    assert Client().post("/accounts/login/", body).status_code == 200  # the form again
    assert user.auth_token_set.count() == 1


def test_register_rejects_taken_username_case_insensitively():
    make_player("carol")
    response = APIClient().post(
        "/api/v1/accounts/register/",
        {"username": "Carol", "password": "a-long-enough-passphrase"},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"


def test_token_login_and_logout_revokes_token():
    make_player("dave")
    client = APIClient()
    response = client.post(
        "/api/v1/accounts/token/",
        {"username": "dave", "password": "correct-horse-battery-9"},
        format="json",
    )
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.post("/api/v1/accounts/logout/").status_code == 204
    assert client.get("/api/v1/accounts/me/").status_code == 401


def test_token_login_with_wrong_password_is_400_with_code():
    make_player("erin")
    response = APIClient().post(
        "/api/v1/accounts/token/", {"username": "erin", "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert "wrong password" in response.json()["message"]


def test_me_patch_validates_time_zone_and_language():
    user, client = make_player()
    bad = client.patch("/api/v1/accounts/me/", {"time_zone": "Mars/Olympus"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid_input"
    bad_lang = client.patch("/api/v1/accounts/me/", {"language": "xx"}, format="json")
    assert bad_lang.status_code == 400
    ok = client.patch(
        "/api/v1/accounts/me/",
        {"time_zone": "Europe/Amsterdam", "language": "nl", "display_name": "Speler"},
        format="json",
    )
    assert ok.status_code == 200
    user.refresh_from_db()
    assert (user.time_zone, user.language, user.display_name) == (
        "Europe/Amsterdam",
        "nl",
        "Speler",
    )


def test_no_credentials_is_401_with_code():
    response = APIClient().get("/api/v1/accounts/me/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.django_db(transaction=True)
def test_a_sign_up_hashes_its_password_before_its_transaction(monkeypatch):
    """The hash takes a fifth of a second of CPU; on SQLite a transaction holds the one
    write lock from its start, so hashing inside it queued concurrent sign-ups behind
    each other until they timed out (503)."""
    from django.db import connection

    in_transaction = []
    set_password = User.set_password

    def spy(user, raw_password):
        in_transaction.append(connection.in_atomic_block)
        set_password(user, raw_password)

    monkeypatch.setattr(User, "set_password", spy)
    response = APIClient().post(
        "/api/v1/accounts/register/",
        {"username": "dora", "password": "a-long-enough-passphrase"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert in_transaction == [False]
    assert User.objects.get(username="dora").check_password("a-long-enough-passphrase")
