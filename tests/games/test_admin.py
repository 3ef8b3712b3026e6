"""The admin shows a round's status as every read does, and the strategy tables with
their build progress, read-only."""

import datetime as dt

import pytest
import time_machine

import yatzy
from games import tables
from games.models import StrategyTable
from tests.factories import make_player

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
