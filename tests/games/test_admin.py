"""The admin shows a round's status as every read does, and the strategy tables with
their build progress, read-only."""

import datetime as dt
import re

import pytest
import time_machine

import yatzy
from games import tables
from games.models import StrategyTable
from tests.factories import make_player, staff_client

pytestmark = pytest.mark.django_db


def test_the_round_list_shows_an_unfinished_ranked_round_expired_after_the_reveal(admin_client):
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        _, player = make_player()
        state = player.post("/api/v1/daily/2026-11-20/rounds/").json()
        before = admin_client.get("/admin/games/round/").content.decode()
    with time_machine.travel(dt.datetime(2026, 11, 21, 0, 31, tzinfo=dt.UTC), tick=False):
        after = admin_client.get("/admin/games/round/").content.decode()
    assert state["id"] in before
    assert 'field-status_shown">in_progress' in before
    assert 'field-status_shown">expired' in after


def test_strategy_tables_are_listed_with_their_progress_and_read_only(admin_client):
    row = tables.table_request(yatzy.get_ruleset("maxi", full_straight_points=30))
    StrategyTable.objects.filter(pk=row.pk).update(
        status="building", states_done=25, states_total=100
    )
    listing = admin_client.get("/admin/games/strategytable/")
    assert listing.status_code == 200
    assert "25%" in listing.content.decode() and "building" in listing.content.decode()
    assert admin_client.get("/admin/games/strategytable/add/").status_code == 403
    change = admin_client.post(f"/admin/games/strategytable/{row.pk}/change/", {"status": "ready"})
    assert change.status_code == 403
    assert StrategyTable.objects.get(pk=row.pk).status == "building"


def test_share_codes_are_listed_with_their_plays_and_can_be_revoked(admin_client):
    from django.utils import timezone

    from games.models import ShareCode
    from tests.games.conftest import new_game, play_worst_boxes

    _, sharer = make_player(username="sally")
    shared = play_worst_boxes(sharer, new_game(sharer, mode="solo", ruleset="yatzy"))
    code = sharer.post(f"/api/v1/rounds/{shared['id']}/share/").json()["code"]
    _, friend = make_player(username="fred")
    friend.post(f"/api/v1/friend/{code}/rounds/", {"view": "blind"}, format="json")
    listing = admin_client.get("/admin/games/sharecode/").content.decode()
    row = re.search(rf"<tr>.*?{code}.*?</tr>", listing, re.S)
    assert row is not None, listing
    assert '<td class="field-sharer">sally</td>' in row.group()
    assert '<td class="field-plays_count">1</td>' in row.group()
    share = ShareCode.objects.get(code=code)
    detail = admin_client.get(f"/admin/games/sharecode/{share.pk}/change/").content.decode()
    # The play is listed: the friend's name in the plays' player column, their view.
    assert re.search(r'class="field-player">\s*<p><a href="[^"]+">fred</a>', detail)
    assert re.search(r'class="field-view">\s*<p>Blind</p>', detail)
    before = timezone.now()
    response = admin_client.post(
        "/admin/games/sharecode/", {"action": "revoke", "_selected_action": [share.pk]}
    )
    assert response.status_code == 302
    share.refresh_from_db()
    assert share.revoked_at is not None and share.revoked_at >= before
    # Revoked: no new rounds and 404 to strangers; the friend who played keeps the view.
    assert friend.get(f"/api/v1/friend/{code}/").status_code == 200
    _, stranger = make_player(username="stranger")
    assert stranger.get(f"/api/v1/friend/{code}/").status_code == 404
    started = stranger.post(f"/api/v1/friend/{code}/rounds/", {"view": "blind"}, format="json")
    assert started.status_code == 404
    # Revoked, not deleted: deleting would take the friend's view away too.
    assert admin_client.post(f"/admin/games/sharecode/{share.pk}/delete/").status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [share.pk], "post": "yes"}
    admin_client.post("/admin/games/sharecode/", bulk)
    assert ShareCode.objects.filter(pk=share.pk).exists()
    assert friend.get(f"/api/v1/friend/{code}/").status_code == 200


def test_the_share_codes_admin_speaks_the_admins_language(admin_client):
    """The revoke action, its message and the list's sharer and plays columns were
    English in every language: plain strings, not marked for translation."""
    from games.models import ShareCode
    from tests.games.conftest import new_game, play_worst_boxes

    _, sharer = make_player(username="sally")
    shared = play_worst_boxes(sharer, new_game(sharer, mode="solo", ruleset="yatzy"))
    code = sharer.post(f"/api/v1/rounds/{shared['id']}/share/").json()["code"]
    share = ShareCode.objects.get(code=code)
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}
    listing = admin_client.get("/admin/games/sharecode/", **german).content.decode()
    assert "Ausgewählte Codes widerrufen" in listing
    assert ">Teilende Person<" in listing and ">Spiele<" in listing
    detail = admin_client.get(f"/admin/games/sharecode/{share.pk}/change/", **german)
    assert re.search(r'class="inline-heading">\s*Spiele\s*<', detail.content.decode())
    revoked = admin_client.post(
        "/admin/games/sharecode/",
        {"action": "revoke", "_selected_action": [share.pk]},
        follow=True,
        **german,
    )
    assert "1 Code widerrufen." in revoked.content.decode()


def test_revoking_a_code_needs_the_change_permission():
    """A staff member who may only look at the codes could revoke them."""
    from games.models import ShareCode
    from tests.games.conftest import new_game, play_worst_boxes

    _, sharer = make_player(username="sally")
    shared = play_worst_boxes(sharer, new_game(sharer, mode="solo", ruleset="yatzy"))
    code = sharer.post(f"/api/v1/rounds/{shared['id']}/share/").json()["code"]
    share = ShareCode.objects.get(code=code)
    selected = {"action": "revoke", "_selected_action": [share.pk]}
    _, viewer = staff_client("games.view_sharecode", username="viewer")
    assert 'value="revoke"' not in viewer.get("/admin/games/sharecode/").content.decode()
    viewer.post("/admin/games/sharecode/", selected)
    share.refresh_from_db()
    assert share.revoked_at is None
    _, editor = staff_client("games.view_sharecode", "games.change_sharecode", username="editor")
    editor.post("/admin/games/sharecode/", selected)
    share.refresh_from_db()
    assert share.revoked_at is not None


def test_a_party_seats_round_is_deleted_only_with_its_party(admin_client):
    """Deleting one seat's round left the party waiting for that seat for ever (a 500 to
    the next seat's roll)."""
    from games.models import Party, Round

    _, owner = make_player(username="erin")
    party = owner.post(
        "/api/v1/games/", {"mode": "party", "seats": ["A", "B", "C"]}, format="json"
    ).json()
    seat = Round.objects.get(party_id=party["id"], seat=1)
    solo = Round.objects.get(
        pk=owner.post("/api/v1/games/", {"mode": "solo"}, format="json").json()["id"]
    )
    refused = admin_client.post(f"/admin/games/round/{seat.pk}/delete/", {"post": "yes"})
    assert "a seat of party" in refused.content.decode()
    both = {"action": "delete_selected", "_selected_action": [seat.pk, solo.pk], "post": "yes"}
    assert "a seat of party" in admin_client.post("/admin/games/round/", both).content.decode()
    assert Round.objects.filter(pk__in=[seat.pk, solo.pk]).count() == 2
    alone = {"action": "delete_selected", "_selected_action": [solo.pk], "post": "yes"}
    assert admin_client.post("/admin/games/round/", alone).status_code == 302
    assert not Round.objects.filter(pk=solo.pk).exists()
    assert (
        owner.post(
            f"/api/v1/parties/{party['id']}/roll/",
            {"seat": 0, "turn": 0, "roll": 0, "hold": []},
            format="json",
        ).status_code
        == 200
    )
    assert (
        admin_client.post(f"/admin/games/party/{party['id']}/delete/", {"post": "yes"}).status_code
        == 302
    )
    assert not Party.objects.exists() and not Round.objects.filter(party_id=party["id"]).exists()


def test_parties_are_read_only_with_their_seats(admin_client):
    _, owner = make_player()
    party = owner.post(
        "/api/v1/games/",
        {"mode": "party", "seats": ["Ann", "Bo"], "ruleset": "yatzy"},
        format="json",
    ).json()
    detail = admin_client.get(f"/admin/games/party/{party['id']}/change/")
    assert detail.status_code == 200
    seats = re.findall(r'class="field-seat_name">\s*<p>([^<]*)</p>', detail.content.decode())
    assert seats == ["Ann", "Bo"]
    assert admin_client.get("/admin/games/party/add/").status_code == 403
