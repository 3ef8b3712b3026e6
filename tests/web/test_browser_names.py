"""Names in Arabic or Hebrew in a real browser (headless Chromium): the numbers and
names beside them stay where a left-to-right page puts them (SPEC §10)."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import services as game_services
from tests.web.conftest import PHONE, register, screenshot

pytestmark = pytest.mark.live

ARABIC, HEBREW = "لاعب", "שחקן"

# Where, on the screen, each character of an element's text is drawn: its line (the top
# of its box), then its left edge.
LEFTS = """el => {
  const lefts = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      lefts.push([node.data[i], [Math.round(box.top), box.left]]);
    }
  }
  return lefts;
}"""


def order_on_screen(page, selector: str, parts: list[str]) -> list[str]:
    """``parts`` (pieces of the element's text, in the text's order) sorted by where
    their first character is drawn: line by line, left to right."""
    lefts = page.locator(selector).first.evaluate(LEFTS)
    text = "".join(char for char, _ in lefts)
    drawn, start = [], 0
    for part in parts:
        start = text.index(part, start)
        drawn.append((tuple(lefts[start][1]), part))
        start += len(part)
    return [part for _, part in sorted(drawn)]


def test_an_rtl_seat_name_keeps_the_score_beside_it_and_the_seats_in_order(page):
    register(page, "host")
    host = User.objects.get(username="host")
    party = game_services.party_create(player=host, seats=[ARABIC, HEBREW], ruleset="yahtzee")
    page.goto("/games/")
    cell = "tr[data-mode='party'] td.who"
    # "لاعب 0 · שחקן 0": the first seat, its total, then the second seat and its total.
    parts = [ARABIC, "0", "·", HEBREW, "0"]
    assert order_on_screen(page, cell, parts) == parts
    screenshot(page, "names-games")
    page.goto(f"/parties/{party.id}/")
    summary = "[data-seat='0'] summary"
    assert order_on_screen(page, summary, [ARABIC, ":", "0"]) == [ARABIC, ":", "0"]
    page.set_viewport_size(PHONE)
    page.locator(summary).click()  # the seat's card open, its caption named
    assert order_on_screen(page, summary, [ARABIC, ":", "0"]) == [ARABIC, ":", "0"]
    screenshot(page, "names-party-phone")
