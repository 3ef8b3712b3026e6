"""Player-chosen names on the pages are isolated for their direction (SPEC §10): a name
in Arabic or Hebrew beside a rank, a score or another name keeps its direction to itself
(``<bdi>``, ``web/templatetags/names.py``), so the numbers and names around it keep
their order."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from daily import clock
from games import services as game_services
from tests.factories import make_player
from tests.leaderboards.conftest import ranked
from tests.web.test_modes import defaults, new_game, play_out, round_of
from tests.web.test_pages import logged_in, text

pytestmark = pytest.mark.django_db(transaction=True)

ARABIC, HEBREW = "لاعب", "שחקן"


@pytest.fixture(autouse=True)
def _tables(yahtzee_table):
    """The Yahtzee table serves the hints of the games these tests play."""


def isolated_everywhere(page: str, *names: str) -> None:
    """Every ``<td class="who">`` holds its name in a ``<bdi>``, and every time the page's
    body shows one of ``names`` it is inside a ``<bdi>`` of its own (the ``<title>``,
    text only, is left out)."""
    body = page.split("</title>", 1)[1]
    for cell in re.findall(r'<td class="who">(.*?)</td>', body, re.S):
        assert re.match(r"(<a [^>]*>)?<bdi>", cell.strip()), cell
    for name in names:
        shown = body.count(name)
        inside = len(re.findall(rf"<bdi>[^<]*{re.escape(name)}[^<]*</bdi>", body))
        assert shown and inside == shown, (name, shown, inside)


def test_every_place_a_page_shows_a_players_name_isolates_its_direction():
    me, client = logged_in(ARABIC, display_name=f"{HEBREW} 7")
    day = clock.today()
    other, _ = make_player("bruno")
    ranked(other, day, 150)
    ranked(me, day, 120)
    isolated_everywhere(text(client.get(f"/boards/daily/{day}/")), f"{HEBREW} 7")
    isolated_everywhere(text(client.get(f"/players/{quote(ARABIC)}/")), f"{HEBREW} 7", ARABIC)

    party = new_game(client, "party", seat_0=ARABIC, seat_1=f"{HEBREW} 2", **defaults("yahtzee"))
    isolated_everywhere(text(client.get(party)), ARABIC, f"{HEBREW} 2")
    isolated_everywhere(text(client.get("/games/")), ARABIC, f"{HEBREW} 2")

    solo = play_out(me, round_of(new_game(client, "solo", **defaults("yahtzee"))))
    code = game_services.share_create(round_id=solo.id, player=me).code
    friend, friend_client = logged_in("friend", display_name=f"{ARABIC} 3")
    friend_client.force_login(friend)
    played = friend_client.post(f"/f/{code}/play/", {"view": "target"})
    assert played.status_code == 302, text(played)
    isolated_everywhere(text(friend_client.get(played["Location"])), f"{HEBREW} 7")
    isolated_everywhere(text(friend_client.get(f"/f/{code}/")), f"{HEBREW} 7", f"{ARABIC} 3")
    # Once both have finished, the side-by-side comparison names the sharer in its tables.
    play_out(friend, round_of(played["Location"]))
    compared = text(friend_client.get(f"/f/{code}/"))
    assert "data-compare" in compared or "compare-heading" in compared, compared
    isolated_everywhere(compared, f"{HEBREW} 7")
    isolated_everywhere(text(client.get(f"/play/{solo.id}/")), f"{HEBREW} 7", f"{ARABIC} 3")
