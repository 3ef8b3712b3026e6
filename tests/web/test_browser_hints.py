"""Hints in a real browser (headless Chromium): the Hint button says at once that it is
working (and a second press waits for the first), a hint whose table is still being
built shows how far the build is and comes by itself once the table is ready, and the
party screen has the Hint button for the seat whose turn it is."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

import yatzy
from accounts.models import User
from games import selectors as game_selectors
from games import services as game_services
from games import tables
from games.models import Party, Round, StrategyTable
from tests.web.conftest import after_swap, register, screenshot
from yatzy.strategy import load_table

pytestmark = pytest.mark.live

# Press Hint twice, as an impatient player does, and read the page at once (before any
# answer can have come back).
PRESS_TWICE = """() => {
  const button = document.querySelector("[data-action=hint]");
  button.click();
  button.click();
  return {
    round: document.querySelector("[data-play]").getAttribute("aria-busy"),
    button: button.getAttribute("aria-busy"),
    spinning: button.classList.contains("busy"),
    label: button.textContent.trim(),
  };
}"""


def test_the_hint_button_shows_it_is_working_and_a_second_press_waits(page, yahtzee_table):
    register(page, "quick")
    page.goto("/games/new/solo/?ruleset=yahtzee")
    page.click("[data-action=start]")
    page.wait_for_url(re.compile(r"/play/"))
    after_swap(page, lambda: page.click("[data-action=roll]"))
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "hint=1" in r.url else None)
    old = page.query_selector("[data-play]")
    state = page.evaluate(PRESS_TWICE)
    assert state == {
        "round": "true",
        "button": "true",
        "spinning": True,
        "label": "Finding the best move…",
    }
    page.wait_for_function("el => !el.isConnected", arg=old)
    page.wait_for_selector("[data-hint-best]")
    assert len(asked) == 1
    assert page.locator("[data-play]").get_attribute("aria-busy") is None


def test_a_hint_whose_table_is_being_built_shows_the_progress_and_comes_by_itself(page):
    register(page, "patient")
    player = User.objects.get(username="patient")
    rs = yatzy.get_ruleset("yatzy", forced_order=True)  # a table nobody has built yet
    rnd = game_services.game_start(
        player=player, mode="solo", ruleset="yatzy", options={"forced_order": True}
    )
    StrategyTable.objects.filter(key=tables.table_key(rs)).update(
        status=StrategyTable.Status.BUILDING,
        states_done=42,
        states_total=100,
        started_at=timezone.now(),
    )
    page.goto(f"/play/{rnd.id}/")
    after_swap(page, lambda: page.click("[data-action=roll]"))
    after_swap(page, lambda: page.click("[data-action=hint]"))
    assert page.locator("[data-hint-wait] progress").get_attribute("value") == "42"
    assert "(42% done)" in page.locator("[data-hint-error]").inner_text()
    assert page.locator("#hint").get_attribute("aria-busy") == "true"
    screenshot(page, "hint-building")
    load_table(rs, build=True)  # the worker finishes the table
    expect(page.locator("[data-hint-best]")).to_be_visible(timeout=20_000)  # no click
    assert page.locator("[data-hint-wait]").count() == 0
    best = game_selectors.round_hint(Round.objects.get(pk=rnd.pk))["best"]
    assert page.locator("[data-hint-best]").get_attribute("data-kind") == best["kind"]


def test_the_party_screen_has_the_hint_for_the_seat_whose_turn_it_is(page, yahtzee_table):
    register(page, "host")
    page.goto("/games/new/party/?ruleset=yahtzee")
    page.get_by_label("Player 1").fill("Ann")
    page.get_by_label("Player 2").fill("Bo")
    page.click("[data-action=start]")
    page.wait_for_url(re.compile(r"/parties/"))
    party = Party.objects.get(owner__username="host")
    for seat in (0, 1):
        assert page.locator("[data-seat-turn]").get_attribute("data-seat-turn") == str(seat)
        after_swap(page, lambda: page.click("[data-action=roll]"))
        after_swap(page, lambda: page.click("[data-action=hint]"))
        rnd = party.seats.get(seat=seat)
        best = game_selectors.round_hint(rnd)["best"]
        shown = page.locator("[data-hint-best]")
        assert shown.get_attribute("data-kind") == best["kind"]
        assert shown.get_attribute("data-hold") == " ".join(map(str, best["hold"]))
        suggested = page.locator("[data-die][data-suggested]").all()
        marked = [int(die.get_attribute("data-die")) for die in suggested]
        assert marked == (best["hold"] if best["kind"] == "hold" else [])
        if seat == 0:
            screenshot(page, "party-hint")
        box = page.locator("[data-box]:not([data-scratch])").first
        after_swap(page, lambda: box.click())  # noqa: B023 (called at once)
    assert party.seats.get(seat=1).snapshot["turn"] == 1
