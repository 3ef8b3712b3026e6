"""The admin shows challenges without their seed before the reveal, and rounds read-only."""

import datetime as dt

import pytest
import time_machine

from accounts.models import User
from daily.models import Challenge
from games.models import Round
from tests.factories import make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    User.objects.create_superuser("admin", "admin@example.com", "admin-pass-123")
    client.login(username="admin", password="admin-pass-123")
    return client


def test_challenge_seed_hidden_until_reveal(admin_client):
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        _, player = make_player()
        player.get("/api/v1/daily/")
        challenge = Challenge.objects.get()
        page = admin_client.get(f"/admin/daily/challenge/{challenge.pk}/change/")
        listing = admin_client.get("/admin/daily/challenge/")
    seed_hex = bytes(challenge.seed).hex()
    assert page.status_code == listing.status_code == 200
    assert seed_hex not in page.content.decode() + listing.content.decode()
    assert challenge.commitment in listing.content.decode()
    with time_machine.travel(dt.datetime(2026, 11, 22, tzinfo=dt.UTC), tick=False):
        revealed = admin_client.get(f"/admin/daily/challenge/{challenge.pk}/change/")
    assert seed_hex in revealed.content.decode()


def test_rounds_are_listed_filtered_and_read_only(admin_client):
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        _, player = make_player()
        state = player.post("/api/v1/daily/2026-11-20/rounds/").json()
        listing = admin_client.get("/admin/games/round/?ranked__exact=1&status__exact=in_progress")
        detail = admin_client.get(f"/admin/games/round/{state['id']}/change/")
        post = admin_client.post(
            f"/admin/games/round/{state['id']}/change/", {"status": "completed"}
        )
    assert listing.status_code == 200 and state["id"] in listing.content.decode()
    assert detail.status_code == 200
    assert post.status_code == 403
    assert Round.objects.get(pk=state["id"]).status == "in_progress"


def test_the_challenge_list_names_the_die_skin_in_the_admins_language(admin_client):
    # SPEC §7: theme names and admin labels in every language, not the theme's id.
    with time_machine.travel(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC), tick=False):
        make_player()[1].get("/api/v1/daily/")
        german = admin_client.get("/admin/daily/challenge/", HTTP_ACCEPT_LANGUAGE="de")
    page = german.content.decode()
    assert german.status_code == 200
    assert '<td class="field-theme_shown">Weihnachten</td>' in page
    assert ">Motiv<" in page and ">Theme<" not in page
