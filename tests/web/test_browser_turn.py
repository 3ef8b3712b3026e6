"""A turn on one screen, in a real browser (headless Chromium): on a 390x844 phone and a
1280x800 laptop, whichever open box a player scrolls to, the dice and Roll are in view
with it (Maxi's 20 boxes and Yatzy's 15); holds survive a reload; the keyboard starts on
Roll, scores a box by the letter shown beside it and moves between boxes with the arrow
keys; a scratch (0 points) asks once before it is stored, with and without JavaScript."""

from __future__ import annotations

import re

import pytest

from games.models import Round
from tests.web.conftest import PHONE, after_swap, register, screenshot

pytestmark = pytest.mark.live

LAPTOP = {"width": 1280, "height": 800}

# For each open box, scrolled to the top and to the bottom of the screen in turn: is the
# box itself visible and not covered (the sticky dice bar lies over the page), and are
# every die and the Roll button on screen with it? Returns the failures.
IN_VIEW = """() => {
  const height = window.innerHeight, width = window.innerWidth;
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    // Half a pixel either way: scrollIntoView aligns to fractional positions.
    return r.top >= -1 && r.bottom <= height + 1 && r.left >= -1 && r.right <= width + 1
      && r.height > 0;
  };
  const uncovered = (el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  };
  const failures = [];
  for (const box of document.querySelectorAll("[data-box]")) {
    for (const block of ["start", "end", "center"]) {
      box.scrollIntoView({block});
      const roll = document.querySelector("[data-action=roll]");
      const controls = [...document.querySelectorAll("[data-die]"), roll];
      const hidden = controls.filter((el) => !inside(el) || !uncovered(el));
      if (!inside(box) || !uncovered(box) || hidden.length) {
        const seen = inside(box) && uncovered(box) ? "seen" : "hidden";
        failures.push(`${box.dataset.box} (${block}): box ${seen}, ` +
          `${hidden.length} of the dice and Roll hidden`);
      }
    }
  }
  return failures;
}"""


def start_daily(page) -> None:
    page.click("[data-action=play]")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}/$"))


def start_solo(page, ruleset: str) -> None:
    page.goto(f"/games/new/solo/?ruleset={ruleset}")
    page.click("[data-action=start]")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}/$"))


@pytest.mark.parametrize(
    ("viewport", "name"), [(PHONE, "phone"), (LAPTOP, "laptop")], ids=["phone", "laptop"]
)
@pytest.mark.parametrize("ruleset", ["maxi", "yatzy"])
def test_whichever_box_a_player_scrolls_to_the_dice_and_roll_are_on_screen_with_it(
    open_page, viewport, name, ruleset
):
    page = open_page(viewport)
    register(page, f"{ruleset[:4]}{name}")
    if ruleset == "maxi":
        start_daily(page)
    else:
        start_solo(page, ruleset)
    after_swap(page, lambda: page.click("[data-action=roll]"))
    page.click("[data-die='1']")
    boxes = page.locator("[data-box]").count()
    assert boxes == {"maxi": 20, "yatzy": 15}[ruleset]
    assert page.evaluate(IN_VIEW) == []
    if ruleset == "maxi":  # the screen as the player sees it (a phone: at the last box)
        page.evaluate("window.scrollTo(0, 0)")
        if name == "phone":
            page.locator("[data-box]").last.scroll_into_view_if_needed()
        screenshot(page, f"turn-{name}", full_page=False)
    # Halfway through the game, with the upper boxes filled: still every open box.
    for _turn in range(6):
        box = page.locator("[data-box]:not([data-scratch])").first
        after_swap(page, lambda: box.click())  # noqa: B023 (called at once)
        after_swap(page, lambda: page.click("[data-action=roll]"))
    assert page.evaluate(IN_VIEW) == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]


def start_mode(page, mode: str, ruleset: str) -> None:
    page.goto(f"/games/new/{mode}/?ruleset={ruleset}")
    if mode == "party":
        page.get_by_label("Player 1").fill("Ann")
        page.get_by_label("Player 2").fill("Bo")
    else:
        page.get_by_label("Hard").check()
    page.click("[data-action=start]")
    page.wait_for_url(re.compile(r"/(play|parties)/[0-9a-f-]{36}/$"))


@pytest.mark.parametrize(
    ("viewport", "name"), [(PHONE, "phone"), (LAPTOP, "laptop")], ids=["phone", "laptop"]
)
@pytest.mark.parametrize("mode", ["computer", "party"])
def test_a_computer_games_and_a_partys_turn_are_on_one_screen_too(open_page, viewport, name, mode):
    """The party's standings and the computer's card follow the turn on their pages: the
    dice went off the top of a laptop's screen at the party's last boxes."""
    page = open_page(viewport)
    register(page, f"{mode[:4]}{name}")
    start_mode(page, mode, "maxi")
    after_swap(page, lambda: page.click("[data-action=roll]"))
    assert page.locator("[data-box]").count() == 20
    assert page.evaluate(IN_VIEW) == []
    for _turn in range(4):
        box = page.locator("[data-box]:not([data-scratch])").first
        after_swap(page, lambda: box.click())  # noqa: B023 (called at once)
        after_swap(page, lambda: page.click("[data-action=roll]"))
    assert page.evaluate(IN_VIEW) == []


def test_held_dice_survive_a_reload(page):
    register(page, "reload")
    start_daily(page)
    after_swap(page, lambda: page.click("[data-action=roll]"))
    faces = [page.locator(f"[data-die='{i}'] .pip").count() for i in range(6)]
    page.click("[data-die='0']")
    page.click("[data-die='3']")
    page.click("[data-die='0']")  # and let one go again
    page.click("[data-die='4']")
    assert re.search(r"\?hold=3&hold=4$", page.url)
    page.reload()
    held = [page.locator(f"[data-die='{i}']").get_attribute("aria-pressed") for i in range(6)]
    assert held == ["false", "false", "false", "true", "true", "false"]
    assert [page.locator(f"[data-die='{i}'] .pip").count() for i in range(6)] == faces
    after_swap(page, lambda: page.click("[data-action=roll]"))  # the reloaded holds roll
    assert [page.locator(f"[data-die='{i}'] .pip").count() for i in (3, 4)] == faces[3:5]
    rnd = Round.objects.get(player__username="reload")
    assert rnd.snapshot["actions"][-1] == {"type": "roll", "hold": [3, 4]}


def test_the_keyboard_starts_on_roll_scores_by_the_letter_beside_a_box_and_moves_with_arrows(
    page,
):
    register(page, "keys")
    start_daily(page)
    assert page.evaluate("document.activeElement.dataset.action") == "roll"  # at once
    after_swap(page, lambda: page.keyboard.press("r"))
    boxes = page.locator("[data-box]")
    keys = [boxes.nth(i).get_attribute("aria-keyshortcuts") for i in range(boxes.count())]
    assert len(set(keys)) == 20 and "r" not in keys and "h" not in keys
    shown = page.locator("tr:has([data-box='chance']) .box-key").inner_text()
    assert shown == page.locator("[data-box='chance']").get_attribute("aria-keyshortcuts").upper()
    # Arrows: from Roll down into the boxes, along them, and back up to Roll.
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.box") == "ones"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.box") == "threes"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.action") == "roll"
    # A box's letter scores it (chance never scores 0).
    points = page.locator("[data-box='chance']").inner_text()
    key = page.locator("[data-box='chance']").get_attribute("aria-keyshortcuts")
    after_swap(page, lambda: page.keyboard.press(key))
    assert page.locator("[data-filled='chance']").inner_text() == points
    assert page.evaluate("document.activeElement.dataset.action") == "roll"
    # The next turn has no dice to read out: the score is, in the live region.
    assert f"You scored {points} in Chance." in page.locator("[data-messages]").inner_text()


def scratch_box(page) -> str:
    """An open box the dice do not fit (Maxi yatzy, almost always, or another)."""
    return page.locator("[data-box][data-scratch]").first.get_attribute("data-box")


def test_a_scratch_asks_once_before_it_stores_0(page):
    register(page, "oops")
    start_daily(page)
    while True:
        after_swap(page, lambda: page.click("[data-action=roll]"))
        if page.locator("[data-box][data-scratch]").count():
            break
        after_swap(page, lambda: page.locator("[data-box]").first.click())
    box = scratch_box(page)
    rnd = Round.objects.get(player__username="oops")
    turn = rnd.snapshot["turn"]
    after_swap(page, lambda: page.click(f"[data-box='{box}']"))
    armed = page.locator(f"[data-box='{box}'][data-armed]")
    assert armed.count() == 1
    assert page.evaluate("document.activeElement.dataset.box") == box  # focus on the question
    assert "Score 0 here?" in page.locator("[data-scratch-ask]").inner_text()
    assert "Score 0 here?" in page.locator("[data-messages]").inner_text()  # announced
    rnd.refresh_from_db()
    assert rnd.snapshot["turn"] == turn and rnd.snapshot["scorecard"][box] is None
    screenshot(page, "scratch-asks")
    after_swap(page, lambda: page.keyboard.press("Escape"))  # keep it open after all
    assert page.locator("[data-armed]").count() == 0
    key = page.locator(f"[data-box='{box}']").get_attribute("aria-keyshortcuts")
    after_swap(page, lambda: page.keyboard.press(key))  # asks again
    after_swap(page, lambda: page.keyboard.press(key))  # and the second press stores it
    assert page.locator(f"[data-filled='{box}']").inner_text() == "0"
    rnd.refresh_from_db()
    assert rnd.snapshot["turn"] == turn + 1 and rnd.snapshot["scorecard"][box] == 0


def test_without_javascript_a_scratch_asks_on_its_own_page_first(open_page):
    page = open_page(javascript=False)
    register(page, "nojsoops")
    page.click("[data-action=play]")
    page.click("[data-action=roll]")
    page.wait_for_selector("[data-box]")
    page.click("[data-die='1']")  # a hold, kept through the question
    page.wait_for_url(re.compile(r"toggle=1"))
    box = scratch_box(page)
    page.click(f"[data-box='{box}']")
    page.wait_for_url(re.compile(rf"scratch={box}"))
    assert page.locator(f"[data-box='{box}'][data-armed]").count() == 1
    assert page.locator("[data-die='1']").get_attribute("aria-pressed") == "true"
    rnd = Round.objects.get(player__username="nojsoops")
    assert rnd.snapshot["scorecard"][box] is None
    page.click(f"[data-box='{box}']")
    page.wait_for_selector(f"[data-filled='{box}']")
    rnd.refresh_from_db()
    assert rnd.snapshot["scorecard"][box] == 0


FAILED = {
    "server": "Something went wrong on the server. Try again in a moment.",
    "network": "The server cannot be reached. Check your connection, then try again.",
}


@pytest.mark.parametrize("failure", ["server", "network"])
def test_a_roll_whose_answer_fails_says_so_and_keeps_the_players_place(open_page, failure):
    """A background roll answered by a 500 (or by nothing: the network dropped) used to
    reload the page without a word. It says what happened, in the page's language, and
    leaves the round as it was: the holds, the address, Roll ready to press again."""
    page = open_page(PHONE, expected=("Failed to load resource",))
    register(page, f"fails-{failure}")
    start_daily(page)
    after_swap(page, lambda: page.click("[data-action=roll]"))
    page.click("[data-die='2']")
    address = page.url
    page.locator("[data-box]").last.scroll_into_view_if_needed()  # far from the top

    def refuse(route):
        if failure == "network":
            route.abort()
        else:
            route.fulfill(status=500, content_type="text/html", body="<h1>Server Error (500)</h1>")

    page.route("**/roll/", refuse)
    page.click("[data-action=roll]")
    failed = page.locator("[data-dice-bar] [data-failed]")
    failed.wait_for()
    assert failed.inner_text().strip() == FAILED[failure]
    top, bottom = page.evaluate(
        "el => [el.getBoundingClientRect().top, el.getBoundingClientRect().bottom]",
        failed.element_handle(),
    )
    assert top >= 0 and bottom <= PHONE["height"], "the message is off the screen"
    assert page.url == address and address.endswith("?hold=2")
    assert page.locator("[data-die='2']").get_attribute("aria-pressed") == "true"
    assert page.locator("[data-play]").get_attribute("aria-busy") is None
    roll = page.locator("[data-action=roll]")
    assert roll.get_attribute("aria-busy") is None and "Roll again" in roll.inner_text()
    actions = Round.objects.get(player__username=f"fails-{failure}").snapshot["actions"]
    assert actions == [{"type": "roll", "hold": []}]

    page.unroute("**/roll/")
    after_swap(page, lambda: page.click("[data-action=roll]"))
    assert page.locator("[data-failed]").count() == 0
    actions = Round.objects.get(player__username=f"fails-{failure}").snapshot["actions"]
    assert actions[-1] == {"type": "roll", "hold": [2]}


def test_a_refusal_after_a_swap_is_on_the_screen_of_a_phone_scrolled_to_the_boxes(open_page):
    """Two tabs on one round: the stale one's score is refused (409) and its page swaps
    to the round as it is, with the refusal in the message region at the top of the
    page: off the screen of a phone scrolled down to the boxes, so the player saw their
    dice change without a word. The dice bar shows it too (for the eyes: screen readers
    hear the region)."""
    page = open_page(PHONE)
    register(page, "two-tabs")
    start_daily(page)
    after_swap(page, lambda: page.click("[data-action=roll]"))
    stale = page.context.new_page()
    stale.goto(page.url)
    after_swap(page, lambda: page.click("[data-action=roll]"))  # the round moves on

    stale.locator("[data-box='chance']").scroll_into_view_if_needed()
    after_swap(stale, lambda: stale.click("[data-box='chance']"))
    moved = "The round has moved on since you last saw it; here is its current state."
    assert moved in stale.locator("[data-messages]").inner_text()
    shown = stale.locator("[data-dice-bar] [data-refused]")
    assert shown.inner_text().strip() == moved
    assert shown.get_attribute("aria-hidden") == "true"  # heard once, from the region
    top, bottom = stale.evaluate(
        "el => [el.getBoundingClientRect().top, el.getBoundingClientRect().bottom]",
        shown.element_handle(),
    )
    assert top >= 0 and bottom <= PHONE["height"], "the refusal is off the screen"
    after_swap(stale, lambda: stale.click("[data-box='chance']"))  # now it scores
    assert stale.locator("[data-refused]").count() == 0


REPEAT = """(key) => document.activeElement.dispatchEvent(new KeyboardEvent(
  "keydown", {key, code: "Key" + key.toUpperCase(), repeat: true, bubbles: true}))"""


def test_a_key_held_down_acts_once(page):
    """A key held down sends the browser's auto-repeat: R held a moment too long rolled
    again as soon as the first answer was in, spending the player's next roll, and a
    digit held flickered its die's hold. Only the press acts; the arrows still repeat."""
    register(page, "held-key")
    start_daily(page)
    after_swap(page, lambda: page.keyboard.press("r"))
    page.evaluate(REPEAT, "r")
    page.evaluate(REPEAT, "1")
    page.wait_for_timeout(500)  # what a second roll would take
    actions = Round.objects.get(player__username="held-key").snapshot["actions"]
    assert actions == [{"type": "roll", "hold": []}]
    assert page.locator("[data-die='0']").get_attribute("aria-pressed") == "false"
    page.keyboard.press("ArrowDown")
    page.evaluate(
        """() => document.activeElement.dispatchEvent(
          new KeyboardEvent("keydown", {key: "ArrowDown", repeat: true, bubbles: true}))"""
    )
    assert page.evaluate("document.activeElement.dataset.box") == "twos"


def test_a_stale_csrf_token_says_so_and_keeps_the_held_dice(page):
    """A tab whose form token went stale (the player logged in again in another tab,
    which changes the CSRF cookie) posts a roll that is not done: the round's part of
    the page is put in place as after any refusal, saying why in the message region and
    the dice bar, with the dice the player held still held (it was the same roll); the
    next roll is taken. (A bare 403 reloaded the page without a word, holds dropped.)"""
    register(page, "stale-token")
    start_daily(page)
    after_swap(page, lambda: page.click("[data-action=roll]"))
    page.click("[data-die='0']")
    page.click("[data-die='2']")
    cookie = next(c for c in page.context.cookies() if c["name"] == "csrftoken")
    page.context.add_cookies([{**cookie, "value": "x" * 32}])
    after_swap(page, lambda: page.click("[data-action=roll]"))
    said = "This page was out of date after a change in another window"
    assert said in page.locator("[data-messages]").inner_text()
    assert said in page.locator("[data-dice-bar] [data-refused]").inner_text()
    screenshot(page, "stale-token", full_page=False)
    pressed = page.locator("[data-die][aria-pressed='true']")
    assert [pressed.nth(n).get_attribute("data-die") for n in range(pressed.count())] == ["0", "2"]
    actions = Round.objects.get(player__username="stale-token").snapshot["actions"]
    assert actions == [{"type": "roll", "hold": []}]
    after_swap(page, lambda: page.click("[data-action=roll]"))
    actions = Round.objects.get(player__username="stale-token").snapshot["actions"]
    assert actions[-1] == {"type": "roll", "hold": [0, 2]}
