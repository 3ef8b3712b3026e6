"""A phone's width in a real browser (headless Chromium at 390x844): the longest names
a player may choose, with no space in them, never make a page wider than the screen;
six held dice stay on one row in every language."""

from __future__ import annotations

import pytest

from accounts.models import User
from daily import clock
from games import services as game_services
from tests.leaderboards.conftest import ranked
from tests.web.conftest import PHONE, after_swap, register, screenshot
from tests.web.test_browser_first_contact import LANGUAGES, finished_round
from tests.web.test_browser_turn import start_daily

pytestmark = pytest.mark.live

# The longest a form takes: a username of 150 characters, a display name of 40, a seat
# name of games.services.SEAT_NAME_MAX, each one word.
USERNAME = "W" * 150
DISPLAY_NAME = "W" * 40
SEAT_NAME = "S" * game_services.SEAT_NAME_MAX
NARROWEST = {"width": 320, "height": 640}


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


# Each die's top edge and the page's width.
DICE_ROW = """() => ({
  tops: [...document.querySelectorAll("[data-die]")].map((d) => d.getBoundingClientRect().top),
  width: document.documentElement.scrollWidth,
})"""


def test_six_held_dice_stay_on_one_row_in_every_language(open_page):
    page = open_page(PHONE)
    register(page, "hold")
    start_daily(page)
    after_swap(page, lambda: page.click("[data-action=roll]"))
    for die in range(6):  # the script keeps the holds in the address, for the reloads
        page.click(f"[data-die='{die}']")
    page.wait_for_url("**hold=5*")
    # At 320 px (WCAG's reflow width) Maxi's sixth die went alone to a second row, and
    # the dice bar that stays over the scorecard took a third of a 640 px screen.
    for viewport in (PHONE, NARROWEST):
        page.set_viewport_size(viewport)
        for language in LANGUAGES:
            User.objects.filter(username="hold").update(language=language)
            page.reload()
            assert page.locator("html").get_attribute("lang") == language
            assert page.locator("[data-die][aria-pressed=true]").count() == 6
            row = page.evaluate(DICE_ROW)
            where = f"{language} at {viewport['width']} px"
            assert len(set(row["tops"])) == 1, f"the dice wrap in {where}: {row['tops']}"
            width = row["width"]
            assert width <= viewport["width"], f"the play page in {where} is {width} px"
    screenshot(page, "held-dice-320", full_page=False)
    page.set_viewport_size(PHONE)
    screenshot(page, "held-dice-phone", full_page=False)


# How many lines the upper section's "41 / 84" takes on the page.
UPPER_TOTAL_LINES = """() => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector(".upper-total"));
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


def test_the_upper_sections_total_and_threshold_stay_on_one_line_in_every_language(open_page):
    page = open_page(PHONE)
    register(page, "sum")
    player = User.objects.get(username="sum")
    rnd = ranked(player, clock.today(), 250)
    assert rnd.snapshot["upper_total"] >= 10  # two digits, as most of a round
    page.goto(f"/play/{rnd.id}/")
    for language in LANGUAGES:
        User.objects.filter(username="sum").update(language=language)
        page.reload()
        lines = page.evaluate(UPPER_TOTAL_LINES)
        assert lines == 1, f'"{rnd.snapshot["upper_total"]} / 84" breaks in {language}'
    screenshot(page, "upper-total-phone")


# Each word of the scorecard's column headings that the page breaks over two lines.
BROKEN_HEADINGS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll(".scorecard thead th")) {
    for (const match of th.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(th.firstChild, match.index);
      range.setEnd(th.firstChild, match.index + match[0].length);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) {
        broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


def test_the_scorecards_headings_break_between_words_not_inside_one(open_page):
    """At 320 px the daily's "Punkte" and "Bonuskurs" read "Punkt / e" and "Bonusku / rs"
    (Finnish, Polish, Dutch, Swedish alike; Spanish "Puntos", Polish "Punkty" and
    Japanese "ボーナスペース" at 390 px too), and the computer's column "Computer" broke at
    390 px in every language: the headings broke anywhere so that the computer's fourth
    column fits 320 px, on every card and every phone. A round's card has room for its
    headings' words; only the computer's card at 320 px gives way (and still never
    scrolls sideways: tests/web/test_browser_a11y.py)."""
    page = open_page(PHONE)
    register(page, "heads")
    player = User.objects.get(username="heads")
    start_daily(page)
    daily = page.url
    versus = game_services.game_start(player=player, mode="computer", ruleset="maxi", level="easy")
    broken = []
    for language in LANGUAGES:
        User.objects.filter(username="heads").update(language=language)
        for path, widths in ((daily, (390, 320)), (f"/play/{versus.id}/", (390,))):
            for width in widths:
                page.set_viewport_size({"width": width, "height": PHONE["height"]})
                page.goto(path)
                assert page.locator("html").get_attribute("lang") == language
                words = page.evaluate(BROKEN_HEADINGS)
                if words:
                    broken.append(f"{path} in {language} at {width} px: {words}")
    assert not broken, broken


def test_a_name_of_stacked_marks_draws_nothing_over_the_other_rows(open_page):
    """A display name may carry combining marks (Vietnamese, Devanagari), and nothing
    stops one letter from carrying thirty: "Z" under a tower of accents was drawn up
    over the rows above it and the board's headings on a phone, covering other players'
    names. A name's cell clips what its letters draw outside it."""
    page = open_page(NARROWEST)
    day = clock.today()
    ranked(User.objects.create_user(username="first"), day, 300)
    stacked = User.objects.create_user(username="stacked", display_name="Zed")
    ranked(stacked, day, 200)
    page.goto(f"/boards/daily/{day}/")
    above = page.locator("table:has([data-rank]) thead").screenshot()
    first_row = page.locator("tr[data-rank='1']").screenshot()
    User.objects.filter(pk=stacked.pk).update(display_name="Z" + "\u0301\u0308\u0302" * 13)
    page.reload()
    assert "Z\u0301" in page.locator("tr[data-rank='2'] .who").inner_text()
    assert page.locator("table:has([data-rank]) thead").screenshot() == above
    assert page.locator("tr[data-rank='1']").screenshot() == first_row
