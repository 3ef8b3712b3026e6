"""A phone's width in a real browser (headless Chromium at 390x844): the longest names
a player may choose, with no space in them, never make a page wider than the screen."""

from __future__ import annotations

import pytest

from accounts.models import User
from daily import clock
from games import services as game_services
from tests.leaderboards.conftest import ranked
from tests.web.conftest import PHONE, register, screenshot
from tests.web.test_browser_first_contact import finished_round

pytestmark = pytest.mark.live

# The longest a form takes: a username of 150 characters, a display name of 40, a seat
# name of games.services.SEAT_NAME_MAX, each one word.
USERNAME = "W" * 150
DISPLAY_NAME = "W" * 40
SEAT_NAME = "S" * game_services.SEAT_NAME_MAX


def test_the_longest_names_wrap_and_no_page_is_wider_than_a_phone(open_page):
    page = open_page(PHONE)
    register(page, USERNAME, DISPLAY_NAME)
    player = User.objects.get(username=USERNAME)
    today = clock.today()
    ranked(player, today, 250)
    party = game_services.party_create(player=player, seats=[SEAT_NAME, "Bo"], ruleset="yatzy")
    code = game_services.share_create(round_id=finished_round(player).id, player=player).code
    paths = [
        "/",
        f"/players/{USERNAME}/",
        f"/boards/daily/{today}/",
        "/boards/streaks/",
        "/games/",
        f"/parties/{party.id}/",
        f"/f/{code}",
        "/settings/",
    ]
    for path in paths:
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} is {width} px wide"
    page.goto(f"/players/{USERNAME}/")
    screenshot(page, "player-long-name-phone")
