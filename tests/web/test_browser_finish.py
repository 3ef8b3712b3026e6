"""A finished round in a real browser (headless Chromium): the result to paste (its text,
and its button through the Web Share API, the clipboard, or a selection where neither
may be used), the rank of a daily that the board gets a moment later, "Check the dice"
recomputing every die in the browser (checked against the engine), and a friend code
that asks before it is revoked."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import yatzy
from accounts.models import User
from daily import clock
from games import selectors as game_selectors
from games import services as game_services
from games.models import Round, ShareCode
from leaderboards import services as board_services
from tests.leaderboards.conftest import ranked
from tests.web.conftest import PASSWORD, screenshot

pytestmark = pytest.mark.live


def player(name: str) -> User:
    return User.objects.create_user(username=name, password=PASSWORD)


def log_in(page, user: User) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")


def finished_solo(user: User, ruleset: str = "yahtzee") -> Round:
    """A solo game played to the end through the services, holding the first die on
    every second roll (so the check has holds to recompute)."""
    rnd = game_services.game_start(player=user, mode="solo", ruleset=ruleset)
    while not (game := game_selectors.round_game(Round.objects.get(pk=rnd.pk))).is_over:
        turn = game.turn
        _, game = game_services.round_roll(round_id=rnd.id, player=user, hold=(), turn=turn, roll=0)
        if turn % 2:
            _, game = game_services.round_roll(
                round_id=rnd.id, player=user, hold=(0, 2), turn=turn, roll=1
            )
        category = max(game.options(), key=game.options().__getitem__)
        game_services.round_score(round_id=rnd.id, player=user, category=category, turn=turn)
    return Round.objects.get(pk=rnd.pk)


def test_a_finished_daily_offers_its_result_to_paste_without_spoilers(open_page, live_server):
    ada = player("ada")
    rnd = ranked(ada, clock.today(), 287)
    page = open_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, ada)
    page.goto(f"/play/{rnd.id}/")
    text = page.locator("[data-result-text]").input_value()
    lines = text.split("\n")
    assert lines[0].startswith("Maxi Yatzy Daily ")
    assert lines[1] == f"287 points · bonus {rnd.snapshot['bonus']} · rank 1 of 1"
    assert lines[2] == f"{live_server.url}/"
    seed = game_selectors.round_seed_shown(rnd)
    assert seed is None or seed not in text
    button = page.locator("[data-action=share-result]")
    expect(button).to_have_text("Copy the result")  # no Web Share API in this browser
    button.click()
    expect(page.locator("[data-share-status]")).to_have_text("Copied: paste it anywhere.")
    assert page.evaluate("navigator.clipboard.readText()") == text
    screenshot(page, "result")


def test_the_result_button_uses_the_share_sheet_where_the_browser_has_one(page):
    sol = player("sol")
    rnd = finished_solo(sol)
    page.add_init_script(
        "navigator.share = (data) => { window.shared = data; return Promise.resolve(); };"
    )
    log_in(page, sol)
    page.goto(f"/play/{rnd.id}/")
    button = page.locator("[data-action=share-result]")
    expect(button).to_have_text("Share the result")
    button.click()
    expect(page.locator("[data-share-status]")).to_have_text("Shared.")
    text = page.locator("[data-result-text]").input_value()
    assert page.evaluate("window.shared") == {"text": text}
    assert f"{rnd.total} points" in text and "rank" not in text  # no day, no rank


def test_where_neither_share_nor_clipboard_may_be_used_the_result_is_selected(page):
    """Over plain HTTP a page is no secure context: both APIs are refused there."""
    sol = player("plain")
    rnd = finished_solo(sol)
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false});")
    log_in(page, sol)
    page.goto(f"/play/{rnd.id}/")
    page.click("[data-action=share-result]")
    expect(page.locator("[data-share-status]")).to_contain_text("Selected")
    selected = page.evaluate(
        """() => {
          const f = document.activeElement;
          const chosen = f.value.slice(f.selectionStart, f.selectionEnd);
          return [f.dataset.resultText !== undefined, chosen];
        }"""
    )
    assert selected == [True, page.locator("[data-result-text]").input_value()]


def test_a_daily_finished_before_the_board_has_it_shows_its_rank_as_soon_as_it_does(page):
    """The board's job runs a moment after the last box; the page asks again until the
    rank is there, and shows it in place (no reload, no click)."""
    ned = player("ned")
    rnd = ranked(ned, clock.today(), 199, record=False)  # the job has not run yet
    log_in(page, ned)
    page.goto(f"/play/{rnd.id}/")
    assert page.locator("[data-rank-pending]").count() == 1
    assert page.locator("[data-rank-line]").count() == 0
    board_services.board_record_round(round_id=str(rnd.id))  # the job, late
    expect(page.locator("[data-rank-line]")).to_have_text(
        "Rank 1 of 1 on the day's board.", timeout=15_000
    )
    assert "rank 1 of 1" in page.locator("[data-result-text]").input_value()
    assert page.url.endswith(f"/play/{rnd.id}/")


def engine_rolls(rnd: Round) -> list[list[str]]:
    """Every roll of the round as the engine deals it: per turn, the dice after each roll."""
    game = yatzy.Game(yatzy.get_ruleset(rnd.ruleset, **rnd.options), bytes(rnd.seed))
    turns: list[list[str]] = [[]]
    for action in game_selectors.round_game(rnd).actions:
        if action["type"] == "roll":
            game.roll(action["hold"])
            turns[-1].append(" ".join(map(str, game.dice)))
        else:
            game.score(action["category"])
            turns.append([])
    return turns[:-1]


def test_check_the_dice_recomputes_every_die_in_the_browser_as_the_engine_deals_them(page):
    kit = player("kit")
    rnd = finished_solo(kit)
    log_in(page, kit)
    page.goto(f"/play/{rnd.id}/")
    page.get_by_text("Check the dice", exact=True).click()
    assert "HMAC-SHA256" in page.locator(".how-to").inner_text()
    page.click("[data-action=check-dice]")
    page.wait_for_selector("[data-dice-check][data-checked]")
    assert page.locator("[data-check-result]").get_attribute("data-matches") == "true"
    shown = page.evaluate(
        """() => [...document.querySelectorAll("[data-check-turn]")].map((row) =>
        [...row.querySelectorAll("[data-check-roll]")].map((roll) => roll.dataset.dice))"""
    )
    assert shown == engine_rolls(rnd)
    assert sum(len(turn) for turn in shown) > 13  # holds and second rolls among them
    points = page.evaluate(
        """() => [...document.querySelectorAll("[data-check-turn]")].map((row) =>
        +row.lastElementChild.textContent)"""
    )
    scored = [a["category"] for a in rnd.snapshot["actions"] if a["type"] == "score"]
    assert points == [rnd.snapshot["scorecard"][box] for box in scored]
    screenshot(page, "check-dice")
    # Another commitment (as a server that changed the seed would have shown): refused.
    page.evaluate("document.querySelector('[data-commitment]').textContent = '00'.repeat(32)")
    page.click("[data-action=check-dice]")
    expect(page.locator("[data-check-result]")).to_have_attribute("data-matches", "false")
    expect(page.locator("[data-check-result]")).to_have_text(
        "The seed does not match the commitment."
    )


def test_revoking_a_code_asks_first(page):
    ann = player("ann")
    rnd = finished_solo(ann)
    log_in(page, ann)
    page.goto(f"/play/{rnd.id}/")
    page.click("[data-action=share]")
    page.wait_for_selector("[data-share-code]")
    revoke = page.locator("[data-action=revoke]")
    assert not revoke.is_visible()  # one click does not revoke
    page.click("[data-action=revoke-ask]")
    expect(page.locator("[data-revoke]")).to_contain_text("keep their comparison")
    revoke.click()
    page.wait_for_selector("[data-action=share]")
    assert ShareCode.objects.get(round=rnd).revoked_at is not None
    assert re.search(r"/play/[0-9a-f-]{36}/$", page.url)
