"""The other modes in a real browser (headless Chromium): a solo game played to the end
by following the hints, a computer game, a friend playing a shared code in a second
browser context, and a party of three seats passing one screen around. Yahtzee (13
turns, its table built in seconds) keeps them short; each page they show must also fit
a phone's width."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import selectors as game_selectors
from games import services as game_services
from games.models import Party, Round
from tests.web.conftest import DESKTOP, PHONE, after_swap, register, score, screenshot

pytestmark = pytest.mark.live


@pytest.fixture(autouse=True)
def _tables(yahtzee_table):
    """The Yahtzee table serves the hints and the analysis (built once a session)."""


def fits_a_phone(page) -> None:
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size(DESKTOP)
    assert width <= PHONE["width"], f"{page.url} is {width} px wide on a phone"


def start_game(page, mode: str, **choices: str) -> None:
    page.goto(f"/games/new/{mode}/?ruleset=yahtzee")
    for label, value in choices.items():
        page.get_by_label(label).fill(value)
    if mode == "computer":
        page.get_by_label("Easy").check()
        screenshot(page, "new-game")
    page.click("[data-action=start]")
    page.wait_for_url(re.compile(r"/(play|parties)/[0-9a-f-]{36}/$"))


# The open box whose button shows the most points now.
BOX_WORTH_MOST = """() => [...document.querySelectorAll("[data-box]")]
  .reduce((a, b) => (+b.textContent > +a.textContent ? b : a)).dataset.box"""


def play_a_turn(page) -> None:
    """Roll once and score the box worth most now (a quick turn, not a clever one)."""
    after_swap(page, lambda: page.click("[data-action=roll]"))
    score(page, page.evaluate(BOX_WORTH_MOST))


# What the hint says and how the page marks it, read in one call.
HINT_STATE = """() => {
  const best = document.querySelector("[data-hint-best]");
  const category = best.dataset.category;
  const box = category && document.querySelector(`[data-box="${category}"]`);
  return {
    kind: best.dataset.kind,
    hold: best.dataset.hold.split(" ").filter(Boolean),
    category: best.dataset.category,
    boxMarked: Boolean(box && box.hasAttribute("data-suggested")),
    dice: [...document.querySelectorAll("[data-die]")].map((die) => ({
      n: die.dataset.die,
      marked: die.hasAttribute("data-suggested"),
      held: die.getAttribute("aria-pressed") === "true",
    })),
  };
}"""


def test_a_solo_game_played_to_the_end_by_following_the_hints(page):
    register(page, "sol")
    start_game(page, "solo")
    decisions, shot = 0, False
    while page.locator("[data-status=in_progress]").count():
        if decisions and not page.locator("[data-die]").count():
            # Before a turn's first roll the only move is to roll (the first turn asks).
            after_swap(page, lambda: page.click("[data-action=roll]"))
            continue
        after_swap(page, lambda: page.click("[data-action=hint]"))
        hint = page.evaluate(HINT_STATE)
        if hint["kind"] == "roll":
            assert decisions == 0 and not hint["dice"]
        if hint["kind"] == "score":
            assert hint["boxMarked"]  # the box to fill is marked
            score(page, hint["category"])
        else:
            if decisions > 2 and hint["hold"] and not shot:
                screenshot(page, "solo-hint")  # the hint, its dice marked "keep"
                fits_a_phone(page)
                shot = True
            for die in hint["dice"]:
                assert die["marked"] == (die["n"] in hint["hold"])  # the dice to keep
                if die["held"] != die["marked"]:
                    page.click(f"[data-die='{die['n']}']")
            after_swap(page, lambda: page.click("[data-action=roll]"))
        decisions += 1
    assert shot
    rnd = Round.objects.get(player__username="sol")
    assert rnd.status == "completed" and rnd.mode == "solo"
    page.click("[data-action=analysis]")
    page.wait_for_url(re.compile(r"/analysis/$"))
    assert page.locator("dd[data-loss]").get_attribute("data-loss") == "0.00"  # perfect play
    assert page.locator("tbody[data-turn]").count() == 13
    assert page.locator("svg[data-chart=expectation] circle").count() == 14
    screenshot(page, "analysis")
    fits_a_phone(page)


def test_a_computer_game_shows_its_turn_after_each_of_the_players(page):
    register(page, "cora")
    start_game(page, "computer")
    for turn in range(1, 14):
        play_a_turn(page)
        assert page.locator("[data-opponent-turn]").get_attribute("data-opponent-turn") == str(turn)
        if turn == 6:
            screenshot(page, "computer")
            fits_a_phone(page)
    rnd = Round.objects.get(player__username="cora")
    result = page.locator("[data-result]").get_attribute("data-result")
    assert result == game_selectors.round_result(rnd, game_selectors.round_game(rnd))
    theirs = page.locator("[data-opponent-total]").inner_text()
    assert theirs == str(rnd.opponent["snapshot"]["total"])


def finish(player: User, rnd: Round) -> None:
    """The sharer's game, played to the end through the services (it is not under test)."""
    while not (game := game_selectors.round_game(Round.objects.get(pk=rnd.pk))).is_over:
        _, game = game_services.round_roll(
            round_id=rnd.id, player=player, hold=(), turn=game.turn, roll=0
        )
        category = next(iter(game.options()))
        game_services.round_score(round_id=rnd.id, player=player, category=category, turn=game.turn)


def test_a_friend_plays_a_shared_code_in_a_second_browser(open_page):
    ann = open_page()
    register(ann, "ann", "Ann <i>A</i>")
    start_game(ann, "solo")
    finish(User.objects.get(username="ann"), Round.objects.get(player__username="ann"))
    ann.reload()
    ann.click("[data-action=share]")
    ann.wait_for_selector("[data-share-code]")
    code = ann.locator("[data-share-code]").inner_text()
    link = ann.locator("[data-share-link]").input_value()
    assert link.endswith(f"/f/{code}")
    ann.get_by_role("button", name="Copy the link").click()
    expect(ann.locator(".copy-status")).to_have_text("Copied.")

    bo = open_page()  # another browser context: other cookies, another player
    register(bo, "bo")
    bo.goto(link)
    assert bo.locator("[data-sharer]").inner_text() == "Ann <i>A</i> challenges you"
    bo.get_by_label("Target: see the score to beat while you play").check()
    bo.click("[data-action=accept]")
    bo.wait_for_url(re.compile(r"/play/"))
    target = Round.objects.get(player__username="ann").total
    assert bo.locator("[data-target]").inner_text() == f"Score to beat: {target}"
    assert bo.locator("[data-action=hint]").count() == 0  # no hints in a challenge
    while bo.locator("[data-status=in_progress]").count():
        play_a_turn(bo)
    bo.get_by_role("link", name="The challenge page").click()
    bo.wait_for_selector("[data-comparison]")
    assert bo.locator("[data-compare-turn]").count() == 13
    assert bo.locator("td[data-target]").inner_text() == str(target)
    screenshot(bo, "friend")
    fits_a_phone(bo)

    ann.reload()
    assert "bo" in ann.locator("[data-play-row]").inner_text()
    screenshot(ann, "share")
    ann.click("[data-action=revoke-ask]")  # revoking asks first
    ann.click("[data-action=revoke]")
    ann.wait_for_selector("[data-action=share]")
    kept = bo.request.get(link)  # the session's request, not a page (no console noise)
    assert kept.status == 200 and "data-comparison" in kept.text()  # who played keeps it
    cy = open_page()
    register(cy, "cy")
    gone = cy.request.get(link)  # nobody new starts with it
    assert gone.status == 404 and "This challenge link does not work" in gone.text()


def test_a_party_of_three_seats_passes_one_phone_around(open_page):
    page = open_page(PHONE)
    register(page, "host")
    start_game(page, "party", **{"Player 1": "Ann", "Player 2": "Bo", "Player 3": "Cy"})
    names = ["Ann", "Bo", "Cy"]
    for turn in range(6):  # two rounds of the table in the browser
        banner = page.locator("[data-seat-turn]")
        assert banner.inner_text() == f"{names[turn % 3]}'s turn"
        play_a_turn(page)
        if turn == 4:
            page.locator("[data-seat='0'] summary").click()  # Ann's card, one tap away
            assert page.locator("[data-seat='0'] .scorecard").is_visible()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"]
            screenshot(page, "party")
    party = Party.objects.get(owner__username="host")
    host = User.objects.get(username="host")
    while party.status == Party.Status.IN_PROGRESS:  # the rest of the evening, quickly
        seat = party.seats.get(seat=party.current_seat)
        game = game_selectors.round_game(seat)
        party = game_services.party_act(
            party_id=party.id, player=host, seat=seat.seat, turn=game.turn, roll=0, action="roll"
        )
        options = game_selectors.round_game(party.seats.get(seat=seat.seat)).options()
        party = game_services.party_act(
            party_id=party.id,
            player=host,
            seat=seat.seat,
            turn=game.turn,
            category=next(iter(options)),
            action="score",
        )
    page.reload()
    assert page.locator("[data-status=completed]").is_visible()
    rows = page.locator("[data-standing]")
    assert rows.count() == 3
    ranks = [int(rows.nth(i).get_attribute("data-rank")) for i in range(3)]
    totals = [int(rows.nth(i).locator(".num").inner_text()) for i in range(3)]
    assert totals == sorted(totals, reverse=True) and ranks[0] == 1
    for i in range(3):
        shared = totals.count(totals[i]) > 1
        assert (rows.nth(i).get_attribute("data-draw") is not None) == shared
    screenshot(page, "party-end")
