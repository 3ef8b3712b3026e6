"""Accessibility checks in a real browser (headless Chromium) that the other browser
tests do not make: reflow (WCAG 1.4.10: no sideways scrolling at 320 CSS px, what a
1280 px screen shows at 400 % zoom) of the computer game's scorecard, whose fourth
column ("Computer") made it wider than a phone in several languages."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import services as game_services
from tests.web.conftest import PHONE, after_swap, register
from tests.web.test_browser_first_contact import LANGUAGES

pytestmark = pytest.mark.live

NARROWEST = {"width": 320, "height": 640}


def test_a_computer_games_scorecard_fits_a_phone_and_320_px_in_every_language(open_page):
    page = open_page(PHONE)
    register(page, "versus")
    player = User.objects.get(username="versus")
    game = game_services.game_start(player=player, mode="computer", ruleset="yatzy", level="easy")
    page.goto(f"/play/{game.id}/")
    after_swap(page, lambda: page.click("[data-action=roll]"))  # each open box a button
    assert page.locator("[data-opponent-total]").count() == 1
    for language in LANGUAGES:
        User.objects.filter(username="versus").update(language=language)
        for viewport in (PHONE, NARROWEST):
            page.set_viewport_size(viewport)
            page.reload()
            assert page.locator("html").get_attribute("lang") == language
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], (
                f"the computer game in {language} is {width} px wide at {viewport['width']} px"
            )
