"""API tokens stored hashed (issue #22, 8): one token per log-in, shown once, only its
digest in the database; log-out ends only the token in use; the admin shows nothing
usable; tokens issued before hashing keep working; the look-up is one indexed query."""

from __future__ import annotations

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import services
from accounts.models import User
from tests.factories import make_player

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase"


def register(username="tok"):
    body = {"username": username, "password": PASSWORD}
    return APIClient().post("/api/v1/accounts/register/", body, format="json")


def login(username="tok"):
    body = {"username": username, "password": PASSWORD}
    return APIClient().post("/api/v1/accounts/token/", body, format="json")


def authed(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def stored_text() -> str:
    """Every value of every stored token, as a dump would show it."""
    return repr(list(AuthToken.objects.values_list()))


def test_the_database_holds_only_a_digest_of_each_token():
    keys = [register().json()["token"], login().json()["token"], login().json()["token"]]
    assert len(set(keys)) == 3  # one token per log-in, never the same one again
    dump = stored_text()
    for key in keys:
        assert key not in dump
        assert AuthToken.objects.filter(digest=hashlib.sha512(key.encode()).hexdigest()).exists()
        assert authed(key).get("/api/v1/accounts/me/").status_code == 200


def test_log_out_ends_only_the_token_in_use():
    laptop = register().json()["token"]
    phone = login().json()["token"]
    assert authed(phone).post("/api/v1/accounts/logout/").status_code == 204
    assert authed(phone).get("/api/v1/accounts/me/").status_code == 401
    assert authed(laptop).get("/api/v1/accounts/me/").status_code == 200
    assert AuthToken.objects.count() == 1


def test_a_new_password_ends_every_log_in(admin_client):
    """Whoever held a token (a stolen laptop, a leaked key) is shut out once the
    password is changed, as Django's sessions are: by an operator in the admin, or by
    ``manage.py changepassword``."""
    laptop = register().json()["token"]
    phone = login().json()["token"]
    user = User.objects.get(username="tok")
    answer = admin_client.post(
        f"/admin/accounts/user/{user.pk}/password/",
        {"password1": "a-brand-new-passphrase-42", "password2": "a-brand-new-passphrase-42"},
    )
    assert answer.status_code == 302
    assert not AuthToken.objects.filter(user=user).exists()
    assert authed(laptop).get("/api/v1/accounts/me/").status_code == 401
    assert authed(phone).get("/api/v1/accounts/me/").status_code == 401


def test_a_profile_change_or_a_rehashed_password_ends_no_log_in(settings):
    token = register().json()["token"]
    user = User.objects.get(username="tok")
    user.display_name = "Tokky"
    user.save()
    # A log-in under a stronger hasher stores the same password hashed anew.
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.ScryptPasswordHasher",
        *settings.PASSWORD_HASHERS,
    ]
    assert login().status_code == 200
    assert User.objects.get(pk=user.pk).password.startswith("scrypt$")
    assert authed(token).get("/api/v1/accounts/me/").status_code == 200


def test_a_token_that_only_shares_the_indexed_prefix_is_refused():
    key = register().json()["token"]
    forged = key[:15] + ("0" if key[15] != "0" else "1") + key[16:]
    assert authed(forged).get("/api/v1/accounts/me/").status_code == 401
    assert authed(key[:15]).get("/api/v1/accounts/me/").status_code == 401


def test_a_token_is_checked_with_one_query():
    key = register().json()["token"]
    client = authed(key)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/accounts/me/").status_code == 200
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert "token_key" in queries[0]["sql"] and "accounts_user" in queries[0]["sql"]


def test_the_oldest_log_in_ends_beyond_the_limit(monkeypatch):
    monkeypatch.setattr(services, "TOKENS_PER_PLAYER", 3)
    keys = [register().json()["token"]] + [login().json()["token"] for _ in range(3)]
    assert authed(keys[0]).get("/api/v1/accounts/me/").status_code == 401
    for key in keys[1:]:
        assert authed(key).get("/api/v1/accounts/me/").status_code == 200


def test_the_admin_lists_log_ins_without_anything_usable(client):
    key = register().json()["token"]
    User.objects.create_superuser("root", password=PASSWORD)
    client.login(username="root", password=PASSWORD)
    listing = client.get("/admin/knox/authtoken/")
    assert listing.status_code == 200
    page = listing.content.decode()
    assert "tok" in page
    # The row's primary key is the digest, in its links: a one-way hash, no way in.
    for secret in (key, key[:15]):
        assert secret not in page
    assert client.get("/admin/knox/authtoken/add/").status_code == 403


def test_a_session_log_out_ends_no_token(client):
    _user, token_client = make_player("sess")
    assert client.login(username="sess", password="correct-horse-battery-9")  # the factory's
    # No body (Django's client would send an empty multipart form: not JSON, a 415).
    assert (
        client.post("/api/v1/accounts/logout/", content_type="application/json").status_code == 204
    )
    assert token_client.get("/api/v1/accounts/me/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_tokens_issued_in_clear_keep_working_and_the_clear_table_goes():
    user, _ = make_player("old")
    clear = "0123456789abcdef0123456789abcdef01234567"  # DRF's 40 hex characters
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", "0004_username_key")])
    with connection.cursor() as cursor:
        # The table DRF's authtoken kept, as a database from before this release has it.
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp with time zone NOT NULL, user_id bigint NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, %s, %s)",
            [clear, "2026-01-02 03:04:05+00:00", user.pk],
        )
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert "authtoken_token" not in connection.introspection.table_names()
    assert authed(clear).get("/api/v1/accounts/me/").json()["username"] == "old"
    migrated = AuthToken.objects.get(token_key=clear[:15])
    assert migrated.created.year == 2026 and migrated.created.month == 1
    assert clear not in stored_text()
