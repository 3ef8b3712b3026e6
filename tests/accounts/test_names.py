"""Names as people read them (issue #22, 7): usernames compared by their NFKC + case
folded key on every database (SQLite's lower() folds ASCII only), and no name that
shows nothing or passes for another by an invisible character."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories import make_player

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase"

# Each shows nothing on its own: format characters (Cf), Hangul fillers, the braille
# blank, a combining mark alone, a variation selector, spaces of other scripts.
INVISIBLE = [
    "\u200b",
    "\u2060\ufeff",
    "\u3164",
    "\u115f\u1160",
    "\uffa0",
    "\u00ad",
    "\u2800",
    "\u2800 \u3000",
    "\u0301",
    "\ufe0f",
    "\u202e\u2066",
    "\U000e0041",
]


def register(username, display_name=None):
    body = {"username": username, "password": PASSWORD}
    if display_name is not None:
        body["display_name"] = display_name
    return APIClient().post("/api/v1/accounts/register/", body, format="json")


def login(username):
    return APIClient().post(
        "/api/v1/accounts/token/", {"username": username, "password": PASSWORD}, format="json"
    )


def test_a_non_ascii_name_logs_in_in_any_case_and_registers_once():
    assert register("Ärne").status_code == 201
    for spelling in ("Ärne", "ärne", "ÄRNE", "A\u0308rne", "\uff21\u0308rne"):
        assert login(spelling).status_code == 200, spelling
    for lookalike in ("ärne", "ÄRNE", "a\u0308rne"):
        response = register(lookalike)
        assert response.status_code == 409, lookalike
        assert response.json()["code"] == "username_taken"
    assert User.objects.count() == 1
    assert User.objects.get().username_key == "ärne"


def test_case_folding_is_full_not_lower():
    assert register("Straße").status_code == 201
    assert register("STRASSE").status_code == 409
    assert login("strasse").status_code == 200


def test_the_key_follows_a_username_changed_outside_registration():
    user, _ = make_player("Ödön")
    user.username = "Ödön2"
    user.save(update_fields=["username"])
    assert User.objects.get(pk=user.pk).username_key == "ödön2"
    assert User.objects.get_by_natural_key("ÖDÖN2") == user


@pytest.mark.parametrize("name", INVISIBLE, ids=ascii)
def test_a_display_name_that_shows_nothing_is_refused(name):
    response = register("vis", display_name=name)
    assert response.status_code == 400, response.json()
    assert "display_name" in response.json()["details"]
    assert not User.objects.exists()
    _, client = make_player()
    patched = client.patch("/api/v1/accounts/me/", {"display_name": name}, format="json")
    assert patched.status_code == 400


@pytest.mark.parametrize("hidden", ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u3164", "\u202e"])
def test_an_invisible_character_in_a_display_name_is_removed(hidden):
    response = register("bobby", display_name=f"Bob{hidden}")
    assert response.status_code == 201
    assert response.json()["display_name"] == "Bob"


def test_a_blank_display_name_still_shows_the_username():
    assert register("blank", display_name="   ").json()["display_name"] == ""


@pytest.mark.parametrize("hidden", ["\u3164", "\u115f", "\uffa0", "\u200b", "\u00ad"], ids=ascii)
def test_a_username_with_an_invisible_character_is_refused(hidden):
    assert register("bob").status_code == 201
    response = register(f"bob{hidden}")
    assert response.status_code == 400, response.json()
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", INVISIBLE, ids=ascii)
def test_a_seat_name_that_shows_nothing_is_refused(name):
    _, client = make_player()
    response = client.post(
        "/api/v1/games/", {"mode": "party", "seats": ["Ann", name]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_seats"


def test_seat_names_that_differ_by_an_invisible_character_or_case_are_one_name():
    _, client = make_player()
    for seats in (["Bob", "Bob\u200b"], ["Ärne", "ÄRNE"], ["Straße", "STRASSE"]):
        response = client.post("/api/v1/games/", {"mode": "party", "seats": seats}, format="json")
        assert response.status_code == 400, seats
        assert response.json()["code"] == "invalid_seats"
    ok = client.post(
        "/api/v1/games/", {"mode": "party", "seats": ["Ann\u00ad", "Bo"]}, format="json"
    )
    assert [seat["name"] for seat in ok.json()["seats"]] == ["Ann", "Bo"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_keys_existing_players_and_renames_a_newer_lookalike():
    executor = MigrationExecutor(connection)
    before, after = (
        [("accounts", "0003_i18n_labels_language_follows_browser")],
        [("accounts", "0004_username_key")],
    )
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps.get_model("accounts", "User")
        # lower() tells these apart (on SQLite also "Ärne" from "ärne"); folding does not.
        first = old.objects.create(username="Straße", password="x")
        second = old.objects.create(username="STRASSE", password="x")
        old.objects.create(username="Zoë", password="x")
    except Exception:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
        raise
    executor.loader.build_graph()
    executor.migrate(after)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    keys = dict(User.objects.values_list("username", "username_key"))
    renamed = f"STRASSE-{second.pk}"
    assert keys == {"Straße": "strasse", renamed: renamed.casefold(), "Zoë": "zoë"}
    assert User.objects.get_by_natural_key("strasse").pk == first.pk
