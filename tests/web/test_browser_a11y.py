"""Accessibility checks in a real browser (headless Chromium) that the other browser
tests do not make: reflow (WCAG 1.4.10: no sideways scrolling at 320 CSS px, what a
1280 px screen shows at 400 % zoom) of the computer game's scorecard, whose fourth
column ("Computer") made it wider than a phone in several languages, and of the rules
(long box names beside the examples' dice) and the streaks board (its four columns'
headings)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from accounts.models import User
from daily import clock
from daily.services import challenge_get_or_create
from games import services as game_services
from tests.leaderboards.conftest import ranked
from tests.web.conftest import PASSWORD, PHONE, after_swap, register
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


# Each element of the page's main part that scrolls sideways (its content wider than
# itself), with its role, tab index and the text of what names it.
SCROLLERS = """() => [...document.querySelectorAll("main *")]
  .filter(el => ["auto", "scroll"].includes(getComputedStyle(el).overflowX))
  .filter(el => el.scrollWidth > el.clientWidth + 1)
  .map(el => ({
    role: el.getAttribute("role"),
    tabindex: el.getAttribute("tabindex"),
    name: (document.getElementById(el.getAttribute("aria-labelledby")) || {}).textContent || "",
  }))"""


def test_the_rules_and_the_streaks_board_fit_320_px_in_every_language(open_page):
    """The rules (German and Polish box names beside the examples' dice) and the streaks
    board (Danish and Norwegian headings, with the player's own line) were up to 17 px
    wider than 320 px. The page must not scroll sideways; a table still wider than the
    screen scrolls inside its own region, which the keyboard reaches and its caption
    names."""
    page = open_page(NARROWEST)
    register(page, "pip", "Maximiliane-Wilhelmina von Würfelberg")
    ranked(User.objects.get(username="pip"), clock.today(), 250)
    too_wide, scrolled = [], 0
    for language in LANGUAGES:
        User.objects.filter(username="pip").update(language=language)
        for path in ("/rules/maxi/", "/rules/yatzy/", "/rules/yahtzee/", "/boards/streaks/"):
            page.goto(path)
            assert page.locator("html").get_attribute("lang") == language
            if path == "/boards/streaks/":
                assert page.locator("[data-me]").count() == 1
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > NARROWEST["width"]:
                too_wide.append(f"{path} in {language}: {width} px")
            for region in page.evaluate(SCROLLERS):
                scrolled += 1
                assert region["role"] == "region" and region["tabindex"] == "0", (path, language)
                assert region["name"].strip(), (path, language)
    assert not too_wide, f"wider than {NARROWEST['width']} px: {too_wide}"
    assert scrolled, "no table was wider than 320 px: this test no longer tests its regions"


# The lines a table's visible headings are drawn on, by heading.
HEADING_LINES = """() => [...document.querySelectorAll(".games thead th")]
  .filter(th => th.innerText.trim() && !th.querySelector(".visually-hidden"))
  .map(th => {
    const range = document.createRange();
    range.selectNodeContents(th);
    return [th.innerText.trim(), new Set([...range.getClientRects()].map(r => r.top)).size];
  })"""


def test_the_games_list_with_give_up_buttons_fits_a_phone_and_320_px_in_every_language(
    open_page,
):
    """The games list's Give up buttons beside a party's four seats widened the table:
    in Japanese ("北欧ヤッツィー" breaks nowhere) the page was 400 px wide at 390 and
    320, in French, Spanish and Italian up to 6 px too wide at 320, and at 390 px the
    German headings broke inside their words ("Regelwer / k"). The page must not
    scroll sideways (a table still wider scrolls in its own named region), and from
    24 rem the headings keep their words whole."""
    page = open_page(PHONE)
    register(page, "giver")
    player = User.objects.get(username="giver")
    game_services.game_start(player=player, mode="computer", ruleset="yahtzee", level="easy")
    seats = ["Annabelle", "Bo", "Cecilia", "Dorothea"]
    game_services.game_start(player=player, mode="party", ruleset="yatzy", seats=seats)
    too_wide, broken = [], []
    for language in LANGUAGES:
        User.objects.filter(username="giver").update(language=language)
        for viewport in (PHONE, NARROWEST):
            page.set_viewport_size(viewport)
            page.goto("/games/")
            assert page.locator("html").get_attribute("lang") == language
            assert page.locator("[data-action=give-up-ask]").count() == 2
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > viewport["width"]:
                too_wide.append(f"{language} at {viewport['width']} px: {width} px")
            for region in page.evaluate(SCROLLERS):
                assert region["role"] == "region" and region["tabindex"] == "0", language
                assert region["name"].strip(), language
            if viewport is PHONE:
                broken += [
                    f"{language}: {text!r} on {lines} lines"
                    for text, lines in page.evaluate(HEADING_LINES)
                    if lines > 1
                ]
    assert not too_wide, f"the games list is wider than the screen: {too_wide}"
    assert not broken, f"headings broken inside a word at {PHONE['width']} px: {broken}"


def test_japanese_lines_break_between_phrases_not_inside_words(open_page):
    """Japanese has no spaces between words, so the browser broke lines anywhere: the
    advent door's "開けてプレイ" read "開けてプレ / イ" on a phone. The pages ask for
    breaks between phrases (CSS word-break: auto-phrase, for lang=ja only)."""
    page = open_page(PHONE)
    register(page, "haruto")
    for language, expected in (("ja", "auto-phrase"), ("en", "normal")):
        User.objects.filter(username="haruto").update(language=language)
        page.goto("/")
        assert page.locator("html").get_attribute("lang") == language
        assert page.evaluate("getComputedStyle(document.body).wordBreak") == expected


def test_a_rules_examples_points_stay_on_one_line_in_every_language(open_page):
    """On a 1280 px screen the examples' column broke "→ 3 Punkte" after the number
    while the descriptions beside it had room to spare."""
    page = open_page({"width": 1280, "height": 800})
    register(page, "regel")
    for language in LANGUAGES:
        User.objects.filter(username="regel").update(language=language)
        page.goto("/rules/maxi/")
        lines = page.evaluate(
            "[...document.querySelectorAll('.example-points')]"
            ".map(el => new Set([...el.getClientRects()].map(r => Math.round(r.top))).size)"
        )
        assert lines and set(lines) == {1}, f"{language}: {lines}"


# Each word inside an advent door that the page breaks over two lines.
BROKEN_DOOR_WORDS = """() => {
  const broken = [];
  for (const door of document.querySelectorAll("[data-door]")) {
    const walker = document.createTreeWalker(door, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) {
          broken.push(match[0]);
        }
      }
    }
  }
  return [...new Set(broken)];
}"""


def test_the_advent_doors_break_between_words_not_inside_one(open_page):
    """On a phone the doors were three to a row, 74 px inside at 320 px: German's empty
    door read "keine Herausforderu / ng" at 390 and 320 px, and a visitor's "Anmelden
    und spielen" and French "Se connecter" broke inside the word at 320 px. Japanese,
    without spaces, breaks between phrases (the test above)."""
    with time_machine.travel(dt.datetime(2026, 12, 6, 12, tzinfo=dt.UTC), tick=True):
        for day in range(3, 7):
            challenge_get_or_create(day=dt.date(2026, 12, day))
        other = User.objects.create_user(username="tür", password=PASSWORD)
        ranked(other, dt.date(2026, 12, 3), 288)
        visitor = open_page(NARROWEST)
        player = open_page(NARROWEST)
        register(player, "nils")
        ranked(User.objects.get(username="nils"), dt.date(2026, 12, 4), 301)
        broken = []
        for language in LANGUAGES:
            if language == "ja":
                continue
            User.objects.filter(username="nils").update(language=language)
            visitor.context.set_extra_http_headers({"Accept-Language": language})
            for page in (visitor, player):
                for width in (320, 390):
                    page.set_viewport_size({"width": width, "height": NARROWEST["height"]})
                    for path in ("/", "/advent/2026/"):
                        page.goto(path)
                        assert page.locator("html").get_attribute("lang") == language
                        words = page.evaluate(BROKEN_DOOR_WORDS)
                        if words:
                            who = "player" if page is player else "visitor"
                            broken.append(f"{path} ({who}) in {language} at {width} px: {words}")
        assert not broken, broken
