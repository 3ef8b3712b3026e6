"""Names as people read them (issue #22, 7): usernames compared by their NFKC + case
folded key on every database (SQLite's lower() folds ASCII only), and no name that
shows nothing or passes for another by an invisible character."""

from __future__ import annotations

import unicodedata

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from accounts.models import User
from games import services as game_services
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


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_line_or_paragraph_separator_in_a_name_is_a_space(separator):
    """A display name or seat name is one line: a line or paragraph separator broke a
    board's row in the terminal client (and a terminal draws it as nothing)."""
    response = register("adal", display_name=f"Ada{separator}Lovelace")
    assert response.status_code == 201, response.json()
    assert response.json()["display_name"] == "Ada Lovelace"
    party = make_player()[1].post(
        "/api/v1/games/",
        {"mode": "party", "ruleset": "yatzy", "seats": [f"Ann{separator}Bo", "Cy"]},
        format="json",
    )
    assert party.status_code == 201, party.json()
    assert party.json()["seats"][0]["name"] == "Ann Bo"


def test_a_tower_of_combining_marks_on_a_letter_is_cut_to_a_few():
    """A display name of one letter under 39 combining marks was drawn over the rows
    above it (other players' names on a board, the site's header on the player page);
    writing needs at most two or three marks on a letter, and those stay."""
    response = register("zalgo", display_name="Z" + "\u0351" * 39 + "oe\u0301\u0323")
    assert response.status_code == 201, response.json()
    kept = unicodedata.normalize("NFC", "oe\u0301\u0323")  # two marks on one letter
    assert response.json()["display_name"] == "Z" + "\u0351" * 3 + kept
    party = make_player()[1].post(
        "/api/v1/games/",
        {"mode": "party", "ruleset": "yatzy", "seats": ["A" + "\u0489" * 9, "B"]},
        format="json",
    )
    assert party.status_code == 201, party.json()
    assert party.json()["seats"][0]["name"] == "A" + "\u0489" * 3


def test_a_blank_display_name_still_shows_the_username():
    assert register("blank", display_name="   ").json()["display_name"] == ""


@pytest.mark.parametrize("hidden", ["\u3164", "\u115f", "\uffa0", "\u200b", "\u00ad"], ids=ascii)
def test_a_username_with_an_invisible_character_is_refused(hidden):
    assert register("bob").status_code == 201
    response = register(f"bob{hidden}")
    assert response.status_code == 400, response.json()
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", [".", "..", "@", "+-_"])
def test_a_username_of_signs_alone_is_refused(name):
    """``..``'s player page, ``/players/../``, was the site's root in every browser."""
    response = register(name)
    assert response.status_code == 400, response.json()
    assert response.json()["details"]["username"] == [
        "A username needs at least one letter or digit."
    ]
    assert register("a.b").status_code == 201 and register("日本").status_code == 201
    assert User.objects.count() == 2


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


def migrated(before: str, after: str, rows):
    """Migrate accounts back to ``before``, make ``rows(User)`` there (the model as it
    was), migrate to ``after``, then to the latest; returns what ``rows`` made."""
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", before)])
    try:
        made = rows(
            executor.loader.project_state([("accounts", before)]).apps.get_model("accounts", "User")
        )
    except Exception:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
        raise
    executor.loader.build_graph()
    executor.migrate([("accounts", after)])
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    return made


@pytest.mark.django_db(transaction=True)
def test_the_migration_keys_existing_players_and_renames_a_newer_lookalike():
    def rows(old):
        # lower() tells these apart (on SQLite also "Ärne" from "ärne"); folding does not.
        first = old.objects.create(username="Straße", password="x")
        second = old.objects.create(username="STRASSE", password="x")
        old.objects.create(username="Zoë", password="x")
        return first, second

    first, second = migrated("0003_i18n_labels_language_follows_browser", "0004_username_key", rows)
    keys = dict(User.objects.values_list("username", "username_key"))
    renamed = f"STRASSE-{second.pk}"
    assert keys == {"Straße": "strasse", renamed: renamed.casefold(), "Zoë": "zoë"}
    assert User.objects.get_by_natural_key("strasse").pk == first.pk


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_a_lookalike_to_a_name_no_account_has():
    """The newer of two lookalikes becomes "<name>-<id>" unless a later account is called
    that already (the migration stopped on the unique index), then "<name>-<id>-2"."""

    def rows(old):
        # lower() keeps "maße" apart from "masse", on PostgreSQL too; folding does not.
        older = old.objects.create(username="masse", password="x")
        later = old.objects.create(username=f"masse-{older.pk + 2}", password="x")
        lookalike = old.objects.create(username="maße", password="x")
        assert lookalike.pk == older.pk + 2
        return older, later, lookalike

    older, later, lookalike = migrated(
        "0003_i18n_labels_language_follows_browser", "0004_username_key", rows
    )
    names = dict(User.objects.values_list("pk", "username"))
    assert names == {
        older.pk: "masse",
        later.pk: f"masse-{lookalike.pk}",  # as it was
        lookalike.pk: f"maße-{lookalike.pk}-2",
    }


@pytest.mark.django_db(transaction=True)
def test_going_back_before_the_username_key_names_the_accounts_in_the_way():
    make_player("Bob")
    make_player("ann")
    make_player("ANNA")
    executor = MigrationExecutor(connection)
    try:
        User.objects.filter(username="ANNA").update(username="ANN")  # as an old row could be
        with pytest.raises(RuntimeError, match="Rename them") as caught:
            executor.migrate([("accounts", "0003_i18n_labels_language_follows_browser")])
        assert "'ANN', 'ann'" in str(caught.value)
        assert "Bob" not in str(caught.value)
    finally:
        User.objects.filter(username="ANN").update(username="ANNA")
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert User.objects.get_by_natural_key("anna").username == "ANNA"


def patch_display_name(client, name):
    return client.patch("/api/v1/accounts/me/", {"display_name": name}, format="json")


@pytest.mark.parametrize(
    ("theirs", "mine"),
    [
        ({"display_name": "Bob"}, "bob"),
        ({"display_name": "Bob"}, "\uff22\uff2f\uff22"),  # full-width BOB
        ({"display_name": "Straße"}, "STRASSE"),
        ({}, "AUDC3"),  # their username, shown as they have no display name
    ],
    ids=ascii,
)
def test_no_player_can_be_shown_by_another_players_name(theirs, mine):
    make_player("audc3", **theirs)
    me, client = make_player("me")
    response = patch_display_name(client, mine)
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "display_name_taken"
    me.refresh_from_db()
    assert (me.display_name, me.shown_name_key) == ("", "me")
    # At registration too, and a username another player is shown by is taken.
    taken = register("newcomer", display_name=mine)
    assert (taken.status_code, taken.json()["code"]) == (409, "display_name_taken")
    if theirs:
        as_username = register(theirs["display_name"].upper())
        assert (as_username.status_code, as_username.json()["code"]) == (409, "username_taken")
    assert User.objects.count() == 2


def test_a_player_may_show_their_own_username_and_a_freed_name_is_free_again():
    _, ann = make_player("ann")
    _, bob = make_player("bob")
    assert patch_display_name(ann, "ANN").status_code == 200
    assert patch_display_name(ann, "Annie").status_code == 200
    assert patch_display_name(bob, "annie").status_code == 409
    assert patch_display_name(ann, "").status_code == 200  # shown as "ann" again
    assert patch_display_name(bob, "annie").status_code == 200
    assert patch_display_name(bob, "Ann").status_code == 409


@pytest.mark.django_db(transaction=True)
def test_two_players_taking_one_display_name_at_once_one_gets_it():
    """The stored key's unique constraint decides, whatever the checks before it saw:
    each request waits, after its check, for the other to have checked too."""
    import contextlib
    import threading
    from concurrent.futures import ThreadPoolExecutor
    from unittest import mock

    clients = [make_player(f"racer{i}")[1] for i in range(2)]
    barrier = threading.Barrier(2)
    original_save = User.save

    def save_after_both_checked(self, *args, **kwargs):
        if kwargs.get("update_fields") and "display_name" in kwargs["update_fields"]:
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait(timeout=2)
        return original_save(self, *args, **kwargs)

    def patch(client):
        try:
            return patch_display_name(client, "Speedy")
        finally:
            connection.close()

    with (
        mock.patch.object(User, "save", save_after_both_checked),
        ThreadPoolExecutor(max_workers=2) as pool,
    ):
        answers = list(pool.map(patch, clients))
    assert sorted(a.status_code for a in answers) == [200, 409]
    assert User.objects.filter(display_name="Speedy").count() == 1
    assert all(a.json()["code"] == "display_name_taken" for a in answers if a.status_code == 409)


@pytest.mark.django_db(transaction=True)
def test_the_migration_keys_shown_names_and_clears_a_newer_display_name_shown_before():
    def rows(old):
        carl = old.objects.create(username="carl", username_key="carl", password="x")
        bob = old.objects.create(
            username="bob", username_key="bob", display_name="Robert", password="x"
        )
        # Shown as "carl", the username of an older player: shown by their username.
        copycat = old.objects.create(
            username="cc", username_key="cc", display_name="CARL", password="x"
        )
        quinn_shown = old.objects.create(
            username="a1", username_key="a1", display_name="Quinn", password="x"
        )
        pat = old.objects.create(username="b1", username_key="b1", display_name="Pat", password="x")
        # Shown as "pat", taken; their username "quinn" too, by an older display name.
        twice = old.objects.create(
            username="quinn", username_key="quinn", display_name="PAT", password="x"
        )
        return carl, bob, copycat, quinn_shown, pat, twice

    carl, bob, copycat, quinn_shown, pat, twice = migrated(
        "0005_tokens_hashed", "0006_shown_name_key", rows
    )
    shown = {u.pk: (u.display_name, u.shown_name_key) for u in User.objects.all()}
    assert shown == {
        carl.pk: ("", "carl"),
        bob.pk: ("Robert", "robert"),
        copycat.pk: ("", "cc"),
        quinn_shown.pk: ("Quinn", "quinn"),
        pat.pk: ("Pat", "pat"),
        twice.pk: (f"quinn-{twice.pk}", f"quinn-{twice.pk}"),
    }


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_stored_display_names_one_line_and_keys_them_again():
    """Display names stored before a line or paragraph separator was read as a space
    keep it no longer; one whose cleaned name another player is shown by already is
    shown by its username (else "Ada Lovelace" could stand beside "Ada\u2028Lovelace",
    drawn alike)."""

    def rows(old):
        def player(username, stored):
            made = old.objects.create(username=username, username_key=username, password="x")
            key = unicodedata.normalize("NFKC", stored.casefold()) if stored else username
            old.objects.filter(pk=made.pk).update(display_name=stored, shown_name_key=key)
            return made

        ada = player("ada", "Ada Lovelace")
        grace = player("grace", "Grace\u2028Hopper")
        copy = player("cc", "Ada\u2029Lovelace")
        return ada, grace, copy

    ada, grace, copy = migrated("0006_shown_name_key", "0007_names_one_line", rows)
    shown = {u.pk: (u.display_name, u.shown_name_key) for u in User.objects.all()}
    assert shown == {
        ada.pk: ("Ada Lovelace", "ada lovelace"),
        grace.pk: ("Grace Hopper", "grace hopper"),
        copy.pk: ("", "cc"),
    }


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_stored_seat_names_one_line():
    from games.models import Round

    owner, _ = make_player()
    party = game_services.party_create(player=owner, seats=["Ann", "Cy"], ruleset="yatzy")
    seat = party.seats.get(seat=0)
    Round.objects.filter(pk=seat.pk).update(seat_name="Ann\u2028Bo")  # an older release's
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0010_new_game_request")])
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Round.objects.get(pk=seat.pk).seat_name == "Ann Bo"
    assert Round.objects.get(party=party, seat=1).seat_name == "Cy"


@pytest.mark.django_db(transaction=True)
def test_the_migration_cleans_names_as_the_pages_do_before_keying_them():
    """An older release stored names with invisible characters: "Bob\u200b" and
    "Bob\u00ad" were shown as "Bob" beside bob, a username "bob\u1160" too, and "\u200b"
    as nothing."""

    def rows(old):
        made = {}
        for username, display_name in [
            ("bob", ""),
            ("zed1", "Bob\u200b"),
            ("zed2", "Bob\u00ad"),
            ("bob\u1160", ""),
            ("invis", "\u200b"),
            ("hid\u1160den", "Hidden \u202eone"),
            ("\u3164", ""),
        ]:
            made[username] = old.objects.create(
                username=username, username_key=username, display_name=display_name, password="x"
            ).pk
        return made

    made = migrated("0005_tokens_hashed", "0006_shown_name_key", rows)
    hangul = made["bob\u1160"]
    shown = {
        username: User.objects.values_list("display_name", "shown_name_key").get(pk=pk)
        for username, pk in made.items()
    }
    assert shown == {
        "bob": ("", "bob"),
        "zed1": ("", "zed1"),
        "zed2": ("", "zed2"),
        "bob\u1160": (f"bob-{hangul}", f"bob-{hangul}"),
        "invis": ("", "invis"),
        "hid\u1160den": ("Hidden one", "hidden one"),
        "\u3164": ("player", "player"),
    }
    # Each can save their profile as it stands (it was a 409 or a 400).
    for pk in made.values():
        client = APIClient()
        client.force_authenticate(User.objects.get(pk=pk))
        name = User.objects.get(pk=pk).display_name
        answer = client.patch("/api/v1/accounts/me/", {"display_name": name}, format="json")
        assert answer.status_code == 200, (name, answer.json())


def test_the_admin_refuses_a_name_another_player_has_with_a_form_error(admin_client):
    """The keys are no fields of the admin's form, so Django's unique checks passed them
    by and the database's refusal was a 500."""
    make_player("bob", display_name="Bobby")
    ann, _ = make_player("ann")
    url = f"/admin/accounts/user/{ann.pk}/change/"
    form = admin_client.get(url).context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name not in ("groups", "user_permissions", "password")
    }
    data |= {"date_joined_0": "2026-11-20", "date_joined_1": "12:00:00"}
    for change, field in (
        ({"username": "BOB"}, "username"),
        ({"display_name": "bobby"}, "display_name"),
        # Refused by the API, so by the admin: "bob" on every board, and a blank.
        ({"username": "bob\u3164"}, "username"),
        ({"display_name": "\u200b\u3164"}, "display_name"),
        ({"display_name": "Bobby\u200b"}, "display_name"),  # Bobby once cleaned
    ):
        response = admin_client.post(url, {**data, **change})
        assert response.status_code == 200
        assert field in response.context["adminform"].form.errors, response.context[
            "adminform"
        ].form.errors
    ann.refresh_from_db()
    assert (ann.username, ann.display_name) == ("ann", "")
    assert admin_client.post(url, {**data, "display_name": "\u202eAnnie"}).status_code == 302
    ann.refresh_from_db()
    assert (ann.display_name, ann.shown_name_key) == ("Annie", "annie")


@pytest.mark.parametrize("username", ["Bob", "\uff42\uff4f\uff42", "bob\u3164"])
def test_the_admins_new_player_form_refuses_a_taken_or_invisible_username(admin_client, username):
    """Django's creation form refuses a name that differs only in case itself and hands
    the model none: the model's check read None (a 500)."""
    make_player("bob")
    response = admin_client.post(
        "/admin/accounts/user/add/",
        {
            "username": username,
            "password1": "a-long-passphrase",
            "password2": "a-long-passphrase",
            "usable_password": "true",
        },
    )
    assert response.status_code == 200
    assert "username" in response.context["adminform"].form.errors
    assert User.objects.count() == 2  # bob and the admin
