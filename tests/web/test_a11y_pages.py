"""Accessibility of the pages' HTML through Django's test client: every attribute that
names another element by its id (``aria-controls``, ``aria-labelledby``,
``aria-describedby``, a label's ``for``, a button's ``form``) names one that is on the
page. A reference to nothing is an ARIA error (axe's ``aria-valid-attr-value``), and a
screen reader follows it nowhere."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from games import services as game_services
from tests.web.test_pages import logged_in, text

pytestmark = pytest.mark.django_db(transaction=True)

REFERENCES = ("aria-controls", "aria-labelledby", "aria-describedby", "aria-owns", "for", "form")


class References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.named: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            elif name in REFERENCES and value:
                self.named += [(tag, name, ref) for ref in value.split()]


def dangling(page: str) -> list[tuple[str, str, str]]:
    parser = References()
    parser.feed(page)
    return [ref for ref in parser.named if ref[2] not in parser.ids]


def test_the_hint_button_controls_the_hint_only_when_the_hint_is_on_the_page():
    player, client = logged_in()
    game = game_services.game_start(player=player, mode="computer", ruleset="yatzy", level="easy")
    path = f"/play/{game.id}/"
    page = text(client.get(path))
    assert 'data-action="hint"' in page
    assert dangling(page) == []
    party = game_services.party_create(player=player, seats=["Ann", "Bo"], ruleset="yatzy")
    page = text(client.get(f"/parties/{party.id}/"))
    assert 'data-action="hint"' in page
    assert dangling(page) == []


def test_a_fields_error_is_the_one_its_input_names_in_aria_describedby():
    client = Client()
    page = text(client.post("/accounts/register/", {"username": "ada", "password": "short"}))
    assert 'aria-invalid="true" aria-describedby="id_password_error"' in page
    assert dangling(page) == []
    error = re.search(r'id="id_password_error"[^>]*>(.*?)</div>', page, re.S)
    assert error and "too short" in error.group(1)
