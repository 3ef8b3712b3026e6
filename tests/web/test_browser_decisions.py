"""A revealed day's decisions in a real browser (headless Chromium, SPEC §12): the "best
decisions" tab between the day's two boards, the accuracy chart on the player page at
a phone's width, the sentence under the finished daily round, and the round's analysis
on a phone in every language. The rounds are completed through the services and their
losses written as the analysis job writes them (``analysed``); the days lie in the
past, so the live server's own clock has revealed them."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from accounts.models import User
from daily import clock
from tests.games.skill_rounds import bot, play_ranked
from tests.leaderboards.conftest import ranked
from tests.leaderboards.test_decisions_board import analysed
from tests.web.conftest import DESKTOP, PASSWORD, PHONE, screenshot
from tests.web.test_browser_finish import log_in
from tests.web.test_browser_first_contact import LANGUAGES

pytestmark = pytest.mark.live


def test_the_decisions_tab_the_accuracy_chart_and_the_result_sentence(open_page):
    day = clock.today() - dt.timedelta(days=3)
    ada = User.objects.create_user(username="ada", password=PASSWORD)
    bo = User.objects.create_user(username="bo", password=PASSWORD)
    analysed(ranked(bo, day, 300, 0), 3.004)
    mine = ranked(ada, day, 250, 1)
    analysed(mine, 7.5)
    analysed(ranked(ada, day - dt.timedelta(days=1), 400), 1.25)
    page = open_page(PHONE)
    log_in(page, ada)

    # The day's score board, then its best decisions through the tab.
    page.goto(f"/boards/daily/{day}/")
    page.click("[data-tab=decisions]")
    page.wait_for_url(f"**/boards/decisions/{day}/")
    expect(page.locator("[data-tab=decisions]")).to_have_attribute("aria-current", "page")
    expect(page.locator("[data-decisions-state]")).to_have_attribute(
        "data-decisions-state", "analysed"
    )
    rows = page.locator("table.board tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("bo")
    expect(rows.nth(0).locator("td.num")).to_have_text("3.00")
    expect(rows.nth(1).locator("td.num")).to_have_text("7.50")
    expect(rows.nth(1)).to_have_attribute("data-me", "")
    screenshot(page, "decisions-board")
    page.click("[data-day-board=daily]")
    page.wait_for_url(f"**/boards/daily/{day}/")

    # The player page: loss and luck of each analysed day, and the chart inside the screen.
    page.goto("/players/ada/")
    chart = page.locator("svg[data-chart=decisions]")
    expect(chart).to_be_visible()
    expect(chart.locator("circle.point")).to_have_count(2)
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    expect(page.locator(f"[data-decision-day='{day}'] [data-luck]")).to_have_text(
        "\N{MINUS SIGN}137.06"
    )
    screenshot(page, "player-decisions")

    # Under the finished round: what the decisions cost, what the dice gave.
    page.goto(f"/play/{mine.id}/")
    expect(page.locator("[data-decisions-sentence]")).to_have_text(
        "You lost 7.50 points to your decisions; the dice gave you \N{MINUS SIGN}137.06."
    )
    screenshot(page, "result-decisions")
    page.click("[data-decisions-result] [data-day-board=decisions]")
    page.wait_for_url(f"**/boards/decisions/{day}/")


def test_the_player_pages_decisions_table_fits_a_phone_in_every_language(open_page):
    """The table of analysed days (a date, the score, the points given away and the
    dice's part) is as wide as its longest words: Dutch "Dobbelstenen" and the other
    headings made it 455 px wide on a 390 px phone until its cells could give way."""
    ada = User.objects.create_user(username="ada", password=PASSWORD)
    for back, (total, loss) in enumerate([(321, 191.77), (120, 277.98), (181, 229.6)], 1):
        analysed(ranked(ada, clock.today() - dt.timedelta(days=back), total), loss)
    page = open_page(PHONE)
    log_in(page, ada)
    for language in LANGUAGES:
        User.objects.filter(username="ada").update(language=language)
        page.goto("/players/ada/")
        expect(page.locator("[data-decision-day]")).to_have_count(3)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"/players/ada/ in {language} is {width} px wide"


def test_a_daily_rounds_analysis_fits_a_phone_in_every_language(open_page, maxi_table):
    """The analysis' turn by turn table (the dice, your move, the best one, the points
    lost): a move that keeps dice shows them after its sentence, up to six in Maxi, and
    five columns of them were as wide as their longest words and dice, 505 px in Dutch
    on a 390 px phone (Swedish, Norwegian, Finnish, Polish, German and Spanish over 400)
    until each decision stacked under its turn there. A wide screen keeps the table."""
    ada = User.objects.create_user(username="ada", password=PASSWORD)
    mine = play_ranked(ada, clock.today() - dt.timedelta(days=3), bot("medium"))
    page = open_page(PHONE)
    log_in(page, ada)
    widths = {}
    for language in LANGUAGES:
        User.objects.filter(username="ada").update(language=language)
        page.goto(f"/play/{mine.id}/analysis/")
        expect(page.locator("tbody[data-turn]")).to_have_count(20)
        widths[language] = page.evaluate("document.documentElement.scrollWidth")
    too_wide = {lang: px for lang, px in widths.items() if px > PHONE["width"]}
    assert not too_wide, f"the analysis is wider than {PHONE['width']} px: {too_wide}"
    # Stacked, it is still a table to a screen reader: the five headings, each turn's.
    expect(page.get_by_role("columnheader")).to_have_count(5)
    expect(page.get_by_role("rowheader")).to_have_count(20)
    # On the screen each cell shows its column's heading instead of the heading row.
    headings = page.locator("table.analysis thead")
    labels = page.locator("tbody[data-turn='1'] tr").first.locator(".cell-label")
    expect(labels).to_have_count(5)
    expect(labels.nth(2)).to_be_visible()
    assert headings.bounding_box()["height"] <= 1
    page.set_viewport_size(DESKTOP)
    expect(labels.nth(2)).to_be_hidden()
    assert headings.bounding_box()["height"] > 20
