"""The boards in the Django admin: seasons (validation, boards (re)built on save, the
recompute action), and deleting a player, whose lines leave the boards with them."""

import datetime as dt

import pytest
from django.test import Client

from accounts.models import User
from leaderboards import services
from leaderboards.models import BoardEntry, BoardHistogram, BoardHistogramBlock, Season
from leaderboards.selectors import board_rank
from tests.factories import make_player, staff_client
from tests.leaderboards.conftest import ranked
from tests.leaderboards.state import boards_state

pytestmark = pytest.mark.django_db(transaction=True)

D1 = dt.date(2026, 11, 1)


@pytest.fixture
def admin_client() -> Client:
    User.objects.create_superuser("boss", "boss@example.com", "a-long-admin-password")
    client = Client()
    client.login(username="boss", password="a-long-admin-password")
    return client


@pytest.fixture
def played():
    ann, _ = make_player("ann")
    bob, _ = make_player("bob")
    for n, score in enumerate([100, 300, 200]):
        ranked(ann, D1 + dt.timedelta(days=n), score)
    ranked(bob, D1 + dt.timedelta(days=2), 250)
    return ann, bob


def season_form(**overrides) -> dict:
    return {
        "name": "Early November",
        "slug": "early-november",
        "start_date": "2026-11-01",
        "end_date": "2026-11-02",
        "theme": "",
        **overrides,
    }


def lines(season: Season, kind: str) -> dict[str, int]:
    return dict(
        BoardEntry.objects.filter(board=f"season:{season.pk}:{kind}").values_list(
            "player__username", "value"
        )
    )


def test_the_season_list_serves_every_year_a_season_can_have(admin_client):
    """The admin's date hierarchy answered 500 for a season in 9999 (it computed the
    year after); the list is filtered by its start date instead."""
    response = admin_client.post(
        "/admin/leaderboards/season/add/",
        season_form(slug="far", start_date="9999-12-01", end_date="9999-12-31"),
    )
    assert response.status_code == 302, response.content[:500]
    listing = admin_client.get("/admin/leaderboards/season/")
    assert listing.status_code == 200 and b"far" in listing.content
    # The hierarchy's old links: year lookups are no list filter's now (400), never a 500.
    for query in ("?start_date__year=9999", "?start_date__year=9999&start_date__month=12"):
        assert admin_client.get(f"/admin/leaderboards/season/{query}").status_code == 400


def test_a_season_cannot_end_before_it_starts(admin_client):
    response = admin_client.post(
        "/admin/leaderboards/season/add/", season_form(end_date="2026-10-31")
    )
    assert response.status_code == 200
    assert "cannot end before it starts" in response.content.decode()
    assert not Season.objects.exists()


def test_a_slug_of_digits_is_refused_as_it_would_read_as_another_seasons_id(admin_client):
    """`?season=` takes a slug, then an id: a season slugged "5" answered for season 5."""
    response = admin_client.post("/admin/leaderboards/season/add/", season_form(slug="5"))
    assert response.status_code == 200
    assert "reads as a season" in response.content.decode()
    assert not Season.objects.exists()
    assert (
        admin_client.post("/admin/leaderboards/season/add/", season_form(slug="5a")).status_code
        == 302
    )


def test_the_migration_renames_the_slugs_of_digits_a_season_already_has():
    """0007 only refuses new ones: a season slugged "1" still answered ?season=1 for
    the season whose id is 1."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("leaderboards", "0007_season_slug_not_digits")])
    old = executor.loader.project_state([("leaderboards", "0007_season_slug_not_digits")]).apps
    OldSeason = old.get_model("leaderboards", "Season")
    dates = {"start_date": dt.date(2026, 1, 1), "end_date": dt.date(2026, 1, 31)}
    winter = OldSeason.objects.create(name="Winter", slug="winter", **dates)
    one = OldSeason.objects.create(name="One", slug=str(winter.pk), **dates)
    year = OldSeason.objects.create(name="Year", slug="2026", **dates)
    taken = OldSeason.objects.create(name="Taken", slug="season-2026", **dates)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    slugs = dict(Season.objects.values_list("pk", "slug"))
    assert slugs == {
        winter.pk: "winter",
        one.pk: f"season-{winter.pk}",
        year.pk: f"season-2026-{year.pk}",
        taken.pk: "season-2026",
    }
    from leaderboards.selectors import season_get

    assert season_get(slug=str(winter.pk)).pk == winter.pk


def test_creating_a_season_builds_its_boards_and_new_dates_rebuild_them(admin_client, played):
    response = admin_client.post("/admin/leaderboards/season/add/", season_form())
    assert response.status_code == 302
    season = Season.objects.get(slug="early-november")
    assert lines(season, "best") == {"ann": 300}
    assert lines(season, "streak") == {"ann": 2}

    response = admin_client.post(
        f"/admin/leaderboards/season/{season.pk}/change/",
        season_form(start_date="2026-11-03", end_date="2026-11-30"),
    )
    assert response.status_code == 302
    assert lines(season, "best") == {"ann": 200, "bob": 250}
    assert lines(season, "streak") == {"ann": 1, "bob": 1}


def test_overlapping_seasons_each_have_their_own_boards(admin_client, played):
    admin_client.post("/admin/leaderboards/season/add/", season_form())
    admin_client.post(
        "/admin/leaderboards/season/add/",
        season_form(name="All November", slug="november", end_date="2026-11-30"),
    )
    november = Season.objects.get(slug="november")
    assert lines(november, "best") == {"ann": 300, "bob": 250}
    assert lines(Season.objects.get(slug="early-november"), "best") == {"ann": 300}


def test_the_list_shows_dates_and_player_counts_and_searches(admin_client, played):
    admin_client.post(
        "/admin/leaderboards/season/add/", season_form(end_date="2026-11-30", theme="frost")
    )
    page = admin_client.get("/admin/leaderboards/season/").content.decode()
    assert "Early November" in page and "Nov. 30, 2026" in page
    assert '<td class="field-players">2</td>' in page
    found = admin_client.get("/admin/leaderboards/season/", {"q": "frost"}).content.decode()
    assert "Early November" in found
    missing = admin_client.get("/admin/leaderboards/season/", {"q": "summer"}).content.decode()
    assert "Early November" not in missing


def test_the_recompute_action_rebuilds_a_seasons_boards(admin_client, played):
    admin_client.post("/admin/leaderboards/season/add/", season_form())
    season = Season.objects.get()
    BoardEntry.objects.filter(board__startswith=f"season:{season.pk}:").delete()
    response = admin_client.post(
        "/admin/leaderboards/season/",
        {"action": "recompute_boards", "_selected_action": [season.pk]},
    )
    assert response.status_code == 302
    assert lines(season, "best") == {"ann": 300}


def test_the_recompute_action_needs_the_change_permission(admin_client, played):
    """A staff member who may only look at the seasons ran it: a rebuild of every board
    they selected, a write."""
    admin_client.post("/admin/leaderboards/season/add/", season_form())
    season = Season.objects.get()
    BoardEntry.objects.filter(board__startswith=f"season:{season.pk}:").delete()
    selected = {"action": "recompute_boards", "_selected_action": [season.pk]}
    _, viewer = staff_client("leaderboards.view_season", username="viewer")
    assert "recompute_boards" not in viewer.get("/admin/leaderboards/season/").content.decode()
    viewer.post("/admin/leaderboards/season/", selected)
    assert lines(season, "best") == {}
    _, editor = staff_client("leaderboards.change_season", username="editor")
    editor.post("/admin/leaderboards/season/", selected)
    assert lines(season, "best") == {"ann": 300}


def test_deleting_a_season_deletes_its_boards(admin_client, played):
    admin_client.post("/admin/leaderboards/season/add/", season_form())
    season = Season.objects.get()
    assert BoardHistogramBlock.objects.filter(board__startswith="season:").exists()
    response = admin_client.post(f"/admin/leaderboards/season/{season.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    for model in (BoardEntry, BoardHistogram, BoardHistogramBlock):
        assert not model.objects.filter(board__startswith="season:").exists(), model


def test_deleting_a_player_takes_their_lines_off_the_boards_at_once(admin_client, played):
    ann, _ = played
    cat, _ = make_player("cat")
    ranked(cat, D1 + dt.timedelta(days=2), 150)
    assert board_rank(board="best", player_id=cat.pk) == (3, 150)

    response = admin_client.post(
        "/admin/accounts/user/",
        {"action": "delete_selected", "_selected_action": [ann.pk], "post": "yes"},
    )

    assert response.status_code == 302
    assert not User.objects.filter(pk=ann.pk).exists()
    assert board_rank(board="best", player_id=cat.pk) == (2, 150)
    assert board_rank(board="daily:2026-11-03", player_id=cat.pk) == (2, 150)
    histogram = set(
        BoardHistogram.objects.filter(count__gt=0).values_list("board", "value", "count")
    )
    state = boards_state()  # the blocks lowered with the histogram
    services.boards_reconcile()
    assert boards_state() == state
    assert set(BoardHistogram.objects.values_list("board", "value", "count")) == histogram


def test_deleting_a_ranked_round_in_the_admin_recomputes_its_players_lines(admin_client, played):
    ann, _ = played
    best = ann.rounds.get(total=300)
    response = admin_client.post(f"/admin/games/round/{best.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not BoardEntry.objects.filter(player=ann, board="daily:2026-11-02").exists()
    assert BoardEntry.objects.get(player=ann, board="best").value == 200
    assert BoardEntry.objects.get(player=ann, board="streak").value == 1
    before = sorted(BoardEntry.objects.values_list("board", "player_id", "value", "achieved_at"))
    histogram = set(
        BoardHistogram.objects.filter(count__gt=0).values_list("board", "value", "count")
    )
    state = boards_state()  # the blocks lowered with the histogram
    services.boards_reconcile()
    assert boards_state() == state
    assert (
        sorted(BoardEntry.objects.values_list("board", "player_id", "value", "achieved_at"))
        == before
    )
    assert set(BoardHistogram.objects.values_list("board", "value", "count")) == histogram
