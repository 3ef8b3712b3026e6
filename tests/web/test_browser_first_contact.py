"""First contact in a real browser (headless Chromium): a friend's link opened logged
out, registered from and come back to; the menu's Register coming back; the advent
calendar a visitor sees in December; the charts' labels on a phone; the boards and the
rules at a phone's width in every language; the settings showing the options of the
ruleset chosen before it is saved."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine

from accounts.models import User
from daily import clock
from daily.models import Challenge
from daily.services import challenge_get_or_create
from games import services as game_services
from games.models import Round
from tests.leaderboards.conftest import ranked
from tests.web.conftest import DESKTOP, PASSWORD, PHONE, register, screenshot

pytestmark = pytest.mark.live

LANGUAGES = ["en", "da", "de", "fr", "es", "it", "sv", "nb", "fi", "nl", "pl", "ja"]


def join(page, username: str) -> None:
    """Fill in the register form the page shows and send it (where it goes next is the
    test's to check)."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()


def finished_round(player: User) -> Round:
    """A finished Yahtzee solo game of ``player``, played through the services."""
    rnd = game_services.game_start(player=player, mode="solo", ruleset="yahtzee", options={})
    for turn in range(13):
        _, game = game_services.round_roll(
            round_id=rnd.id, player=player, hold=(), turn=turn, roll=0
        )
        category = next(iter(game.options()))
        game_services.round_score(round_id=rnd.id, player=player, category=category, turn=turn)
    return Round.objects.get(pk=rnd.pk)


def test_a_friend_link_opened_logged_out_names_the_challenge_and_comes_back_after_registering(
    open_page,
):
    sharer = User.objects.create_user(username="ada", password=PASSWORD, display_name="Ada L.")
    code = game_services.share_create(round_id=finished_round(sharer).id, player=sharer).code
    page = open_page(PHONE)
    page.goto(f"/f/{code}")
    assert page.locator("[data-sharer]").inner_text() == "Ada L. challenges you"
    assert "Yahtzee" in page.locator("main").inner_text()
    assert page.locator("[data-view-choice]").count() == 2
    assert page.locator("[data-action=register]").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "friend-visitor")
    page.click("[data-action=register]")
    page.wait_for_url(re.compile(r"/accounts/register/\?next="))
    join(page, "bea")
    page.wait_for_url(f"**/f/{code}")
    page.get_by_label("Target: see the score to beat while you play").check()
    page.click("[data-action=accept]")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}/$"))
    assert page.locator("[data-target]").is_visible()
    assert Round.objects.get(player__username="bea").share.code == code


def test_the_menus_register_and_log_in_come_back_to_the_page_they_were_clicked_on(page):
    User.objects.create_user(username="zoe", password=PASSWORD)
    page.goto("/boards/streaks/?page=1")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Register").click()
    join(page, "neo")
    page.wait_for_url("**/boards/streaks/?page=1")
    page.get_by_role("button", name="Log out").click()
    page.goto("/rules/yahtzee/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("zoe")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/rules/yahtzee/")


def test_in_december_a_visitor_sees_the_advent_calendar_and_the_boards(open_page):
    with time_machine.travel(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC), tick=True):
        for day in range(1, 6):
            challenge_get_or_create(day=dt.date(2026, 12, day))
        ada = User.objects.create_user(username="ada", password=PASSWORD)
        ranked(ada, dt.date(2026, 12, 4), 288)
        page = open_page(PHONE)
        page.goto("/")
        doors = page.locator("[data-door]")
        assert doors.count() == 24
        states = [doors.nth(i).get_attribute("data-state") for i in range(24)]
        assert states == ["past"] * 4 + ["open"] + ["locked"] * 19
        assert "288" not in page.locator(".doors").inner_text()
        screenshot(page, "home-visitor-advent")
        page.locator("[data-door='4']").get_by_role("link").click()
        page.wait_for_url("**/boards/daily/2026-12-04/")
        assert page.locator("tr[data-rank='1']").is_visible()
        assert page.locator("tr[data-me]").count() == 0


# How large a chart's labels are drawn on the screen, and whether each lies inside its
# chart: the font size in the view box's units times the chart's scale.
LABELS = """(selector) => {
  const svg = document.querySelector(selector);
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll("text")].map((t) => {
    const r = t.getBoundingClientRect();
    return {
      text: t.textContent,
      px: parseFloat(getComputedStyle(t).fontSize) * scale,
      inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5
        && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5,
    };
  });
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_chart_labels_are_readable_and_inside_their_charts_when_the_player_leads(
    open_page, viewport
):
    today = clock.today()
    for n, total in enumerate([140, 180, 210, 230, 235, 250, 265, 290]):
        ranked(User.objects.create_user(username=f"rival{n}"), today, total)
    page = open_page(viewport)
    register(page, "ada", "Ada L.")
    ada = User.objects.get(username="ada")
    for back in range(1, 6):
        ranked(ada, today - dt.timedelta(days=back), 200 + back * 20)
    ranked(ada, today, 329)  # first on the day's board
    expert = {today - dt.timedelta(days=back): 280 + back * 7 for back in range(2, 6)}
    for day, total in expert.items():  # days revealed by now: the expert's line shows them
        Challenge.objects.filter(date=day).update(expert_total=total)
    page.goto(f"/boards/daily/{today}/")
    labels = page.evaluate(LABELS, "svg[data-chart=distribution]")
    assert any(label["text"] == "You: 329" for label in labels)
    for label in labels:
        assert label["inside"], label
        assert label["px"] >= 11.5, label  # not 5 px on a phone
    screenshot(page, "board-lead-phone" if viewport is PHONE else "board-lead")
    page.goto("/players/ada/")
    assert page.locator("svg[data-chart=history] [data-expert] circle").count() == len(expert)
    for chart in ("history", "scores"):
        for label in page.evaluate(LABELS, f"svg[data-chart={chart}]"):
            assert label["inside"] and label["px"] >= 11.5, (chart, label)
    screenshot(page, "player-record-phone" if viewport is PHONE else "player-record")


def test_the_boards_rules_and_games_fit_a_phone_in_every_language(open_page):
    today = clock.today()
    long_name = "Maximiliane-Wilhelmina von Würfelberg"
    for n in range(3):
        player = User.objects.create_user(username=f"p{n}", display_name=f"{long_name} {n}")
        ranked(player, today, 200 + n)
    page = open_page(PHONE)
    register(page, "pip", long_name)
    ranked(User.objects.get(username="pip"), today, 250)
    paths = [
        "/boards/streaks/",
        "/boards/best-day/",
        f"/boards/daily/{today}/",
        "/rules/maxi/",
        "/rules/yahtzee/",
        "/games/",
        "/players/pip/",
        "/settings/",
    ]
    for language in LANGUAGES:
        User.objects.filter(username="pip").update(language=language)
        for path in paths:
            page.goto(path)
            assert page.locator("html").get_attribute("lang") == language
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{path} in {language} is {width} px wide"
    User.objects.filter(username="pip").update(language="en")
    page.goto("/boards/streaks/")
    screenshot(page, "streaks-phone")
    page.goto("/rules/maxi/")
    screenshot(page, "rules-options-phone")


def test_the_settings_show_a_new_rulesets_options_at_once_and_one_save_stores_both(page):
    register(page, "ola")
    page.goto("/settings/")
    groups = page.locator("[data-ruleset-options]")
    visible = [g.get_attribute("data-ruleset-options") for g in groups.all() if g.is_visible()]
    assert visible == ["maxi"]
    page.get_by_label("Ruleset for new games").select_option("yahtzee")
    yahtzee = page.locator("[data-ruleset-options=yahtzee]")
    assert yahtzee.is_visible() and not page.locator("[data-ruleset-options=maxi]").is_visible()
    yahtzee.get_by_label("Forced order").check()
    yahtzee.get_by_label("Upper bonus: threshold").fill("70")
    screenshot(page, "settings-rulesets")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url("**/settings/")
    user = User.objects.get(username="ola")
    assert (user.ruleset, user.options) == (
        "yahtzee",
        {"forced_order": True, "upper_bonus": [70, 35]},
    )
    assert page.locator("[data-ruleset-options=yahtzee]").is_visible()
    assert page.locator("[data-ruleset-options=yahtzee]").get_by_label("Forced order").is_checked()


def test_without_javascript_the_settings_show_every_rulesets_options(open_page):
    page = open_page(javascript=False)
    register(page, "nojs")
    page.goto("/settings/")
    assert page.locator("[data-ruleset-options]:visible").count() == 3
