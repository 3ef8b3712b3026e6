"""The pages in a real browser (headless Chromium): register, play the daily by clicking
and by keyboard, the board and the chart, the advent calendar, the language switcher, a
phone's width, no JavaScript, and a display name that tries to run a script."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
import time_machine

from accounts.models import User
from daily import clock
from daily.services import challenge_get_or_create
from games.models import Round
from tests.leaderboards.conftest import ranked
from tests.web.conftest import PASSWORD, PHONE, after_swap, register, score, screenshot

pytestmark = pytest.mark.live


def play_turn_by_clicking(page, *, hold_first: bool) -> None:
    after_swap(page, lambda: page.click("[data-action=roll]"))
    if hold_first:
        die = page.locator("[data-die='0']")
        face = page.locator("[data-die='0'] .pip").count()
        die.click()
        assert die.get_attribute("aria-pressed") == "true"
        after_swap(page, lambda: page.click("[data-action=roll]"))
        assert page.locator("[data-die='0']").get_attribute("aria-pressed") == "true"
        assert page.locator("[data-die='0'] .pip").count() == face  # a held die keeps its face
    options = {
        b.get_attribute("data-box"): int(b.inner_text()) for b in page.locator("[data-box]").all()
    }
    box_id = max(options, key=options.__getitem__)  # the most points now
    points = options[box_id]
    score(page, box_id)
    assert page.locator(f"[data-filled='{box_id}']").inner_text() == str(points)


def rivals_and_history(username: str) -> None:
    """Thirty rivals on today's board and the player's eight previous days, so the board,
    the distribution and the history have something to show."""
    today = clock.today()
    scores = random.Random(7)
    rivals = User.objects.bulk_create([User(username=f"rival{n:02}") for n in range(30)])
    for rival in rivals:
        ranked(rival, today, int(scores.gauss(230, 45)))
    me = User.objects.get(username=username)
    for back in range(8, 0, -1):
        ranked(me, today - dt.timedelta(days=back), int(scores.gauss(230, 45)))


def test_register_play_the_daily_by_clicking_and_see_the_board_and_the_chart(page):
    register(page, "ada", "Ada L.")
    rivals_and_history("ada")
    page.reload()  # with the days just played: yesterday's board is linked
    assert page.locator("[data-status=not_started]").is_visible()
    assert page.locator("[data-previous-board]").inner_text() == "Yesterday's board"
    screenshot(page, "home")
    page.click("[data-action=play]")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}/$"))
    assert page.locator("[data-status=in_progress]").count() == 1
    for turn in range(20):
        play_turn_by_clicking(page, hold_first=turn % 2 == 0)
        if turn == 4:
            after_swap(page, lambda: page.click("[data-action=roll]"))
            screenshot(page, "play")
            score(page, page.locator("[data-box]").first.get_attribute("data-box"))
            break
    while page.locator("[data-status=in_progress]").count():
        play_turn_by_clicking(page, hold_first=False)
    total = int(page.locator("[data-total]").inner_text())
    rnd = Round.objects.get(player__username="ada", challenge__date=clock.today())
    assert (rnd.status, rnd.total, rnd.ranked) == ("completed", total, True)
    assert page.locator("svg[data-chart=distribution] [data-me]").count() == 1
    higher = Round.objects.filter(challenge__date=clock.today(), total__gt=total).count()
    rank = f"Rank {higher + 1} of 31"
    assert rank in page.locator("[data-rank-line]").inner_text()
    screenshot(page, "finished")

    page.get_by_role("link", name="The day's board").click()
    row = page.locator("tr[data-me]")
    assert row.get_attribute("data-rank") == str(higher + 1)
    assert "Ada L." in row.inner_text() and str(total) in row.inner_text()
    assert page.locator("svg[data-chart=distribution] [data-me]").count() == 1
    screenshot(page, "board")
    page.goto("/players/ada/")
    assert page.locator("[data-stat=played]").inner_text() == "9"
    assert page.locator("[data-stat=current-streak]").inner_text() == "9"
    assert page.locator("svg[data-chart=history] circle").count() == 9
    screenshot(page, "player")


def test_a_daily_round_played_with_the_keyboard_alone(page):
    register(page, "kit")
    page.keyboard.press("Tab")  # from the top: the skip link first
    page.locator("[data-action=play]").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/play/"))
    turns = 0
    while page.locator("[data-status=in_progress]").count():
        after_swap(page, lambda: page.keyboard.press("r"))
        page.keyboard.press("1")
        assert page.locator("[data-die='0']").get_attribute("aria-pressed") == "true"
        after_swap(page, lambda: page.keyboard.press("r"))
        focused = page.evaluate("document.activeElement.dataset.action")
        assert focused == "roll"  # focus comes back to where the keyboard was
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none"  # a visible focus ring
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.box")
        after_swap(page, lambda: page.keyboard.press("Enter"))
        if page.locator("[data-armed]").count():  # a scratch asks once: Enter again
            assert page.evaluate("document.activeElement.dataset.armed") == ""
            after_swap(page, lambda: page.keyboard.press("Enter"))
        turns += 1
    assert turns == 20
    assert Round.objects.get(player__username="kit").status == "completed"


def test_the_advent_calendar_in_december(open_page):
    with time_machine.travel(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC), tick=True):
        page = open_page()
        for day in range(1, 6):
            challenge_get_or_create(day=dt.date(2026, 12, day))
        register(page, "eve")
        ranked(User.objects.get(username="eve"), dt.date(2026, 12, 1), 312)
        page.reload()
        doors = page.locator("[data-door]")
        assert doors.count() == 24
        assert page.locator("[data-door='5']").get_attribute("data-state") == "open"
        assert page.locator("[data-door='6']").get_attribute("data-state") == "locked"
        page.goto("/advent/2026/")
        states = [doors.nth(i).get_attribute("data-state") for i in range(24)]
        assert states == ["played"] + ["missed"] * 3 + ["open"] + ["locked"] * 19
        assert "312 points, rank 1" in page.locator("[data-door='1']").inner_text()
        screenshot(page, "advent")
        page.get_by_role("button", name="Replay December 2 for practice").click()
        page.wait_for_url(re.compile(r"/play/"))
        assert "practice" in page.locator(".round-meta").inner_text()
        assert "theme-christmas" in page.locator("body").get_attribute("class")
        after_swap(page, lambda: page.click("[data-action=roll]"))
        screenshot(page, "play-christmas")


def test_the_language_switcher_sets_the_page_language(page):
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_label("Language").select_option("de")
    page.get_by_role("button", name="Change language").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "de"
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies["django_language"] == "de"
    # TODO(i18n, issue #14): once the German catalogue exists, assert translated text
    # here, e.g. that the Play button reads "Spielen".
    page.goto("/rules/maxi/")
    assert page.locator("html").get_attribute("lang") == "de"


def test_every_page_fits_a_phone_without_sideways_scrolling(open_page):
    page = open_page(PHONE)
    register(page, "pip")
    page.click("[data-action=play]")
    page.wait_for_url(re.compile(r"/play/"))
    after_swap(page, lambda: page.click("[data-action=roll]"))
    play_url = page.url
    screenshot(page, "play-phone")
    today = clock.today().isoformat()
    pages = [
        "/",
        play_url,
        f"/boards/daily/{today}/",
        "/boards/best-day/",
        "/boards/streaks/",
        f"/boards/advent/{clock.today().year}/",
        f"/advent/{clock.today().year}/",
        "/players/pip/",
        "/rules/maxi/",
        "/rules/yahtzee/",
        "/settings/",
        "/games/",
        "/games/new/solo/",
        "/games/new/computer/",
        "/games/new/party/",
        "/accounts/logout/",
    ]
    for url in pages:
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{url} is {width} px wide"
    page.goto("/")
    screenshot(page, "home-phone")
    page.goto("/rules/maxi/")
    screenshot(page, "rules-phone")


def test_without_javascript_holds_roll_and_score_are_plain_forms(open_page):
    page = open_page(javascript=False)
    register(page, "nojs")
    page.click("[data-action=play]")
    page.click("[data-action=roll]")
    page.wait_for_selector("[data-die='2']")
    face = page.locator("[data-die='2'] .pip").count()
    page.click("[data-die='2']")  # a GET form: the page comes back with the die held
    page.wait_for_url(re.compile(r"toggle=2"))
    assert page.locator("[data-die='2']").get_attribute("aria-pressed") == "true"
    page.click("[data-action=roll]")
    page.wait_for_selector("[data-action=roll]")
    assert page.locator("[data-die='2'] .pip").count() == face
    assert page.locator("[data-die='2']").get_attribute("aria-pressed") == "true"
    page.locator("[data-box]:not([data-scratch])").first.click()  # a 0 would ask first
    page.wait_for_selector("[data-filled]")
    rnd = Round.objects.get(player__username="nojs")
    assert rnd.snapshot["turn"] == 1


def test_a_display_name_that_is_a_script_shows_as_text_everywhere(page):
    name = "<script>alert(1)</script>"
    register(page, "mallory", name)
    assert name in page.locator("footer").inner_text()
    user = User.objects.get(username="mallory")
    assert user.display_name == name
    page.click("[data-action=play]")
    page.wait_for_url(re.compile(r"/play/"))
    for _turn in range(20):
        after_swap(page, lambda: page.click("[data-action=roll]"))
        score(page, page.locator("[data-box]").first.get_attribute("data-box"))
    for url in [f"/boards/daily/{clock.today()}/", "/boards/best-day/", "/players/mallory/"]:
        page.goto(url)
        assert name in page.locator("main").inner_text()
    page.goto("/settings/")
    assert page.get_by_label("Display name").input_value() == name
    # The watch on the page fails the test if a dialog opened.


def test_logging_in_and_out(page):
    User.objects.create_user(username="Zoe", password=PASSWORD)
    page.goto("/accounts/login/?next=/settings/")
    page.get_by_label("Username").fill("zoe")  # any case
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/settings/")
    page.get_by_label("Time zone").select_option("Europe/Stockholm")
    page.get_by_role("button", name="Save").click()
    assert "saved" in page.locator("[data-messages]").inner_text()
    assert User.objects.get(username="Zoe").time_zone == "Europe/Stockholm"
    screenshot(page, "settings")
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/")
    assert page.locator("[data-status=anonymous]").is_visible()


def test_a_log_in_page_left_open_while_logging_in_in_another_tab_says_so(page):
    """The classic: two tabs on the log-in page; logging in in one changes the CSRF
    cookie, and the other's Log in was Django's bare English 403. It logs nobody in
    and goes back to the log-in page, which sends the player now logged in on to where
    they were going, saying why nothing was done."""
    User.objects.create_user(username="zoe", password=PASSWORD)
    User.objects.create_user(username="ann", password=PASSWORD)
    page.goto("/accounts/login/?next=/settings/")
    other = page.context.new_page()
    other.goto("/accounts/login/")
    other.get_by_label("Username").fill("zoe")
    other.get_by_label("Password").fill(PASSWORD)
    other.get_by_role("button", name="Log in").click()
    other.wait_for_url("**/")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/settings/")
    said = "This page was out of date after a change in another window, so nothing was done."
    assert said in page.locator("[data-messages]").inner_text()
    assert "zoe" in page.locator("footer").inner_text()  # the other tab's log-in stands
    screenshot(page, "stale-login", full_page=False)


def test_the_front_page_left_open_over_midnight_offers_the_new_days_round(page):
    """A front page opened before midnight and left open counted down to 0:00:00 and
    stayed: its Play still started the day before's round, as practice once that day
    was over, while the player meant today's ranked one. When the countdown it ran
    reaches zero, the page asks for the new day's."""
    register(page, "owl")
    with time_machine.travel(dt.datetime(2026, 11, 20, 23, 59, 57, tzinfo=dt.UTC), tick=True):
        challenge_get_or_create(day=dt.date(2026, 11, 21))
        page.goto("/")
        form = page.locator("form:has([data-action=play])")
        assert form.get_attribute("action") == "/daily/2026-11-20/play/"
        page.wait_for_function(
            "() => document.querySelector('[data-action=play]')"
            ".form.action.endsWith('/daily/2026-11-21/play/')",
            timeout=15_000,
        )
        page.click("[data-action=play]")
        page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}/$"))
        rnd = Round.objects.get(player__username="owl")
        assert (rnd.challenge.date, rnd.ranked) == (dt.date(2026, 11, 21), True)
