"""Accessibility of the pages' HTML through Django's test client: every attribute that
names another element by its id (``aria-controls``, ``aria-labelledby``,
``aria-describedby``, a label's ``for``, a button's ``form``) names one that is on the
page. A reference to nothing is an ARIA error (axe's ``aria-valid-attr-value``), and a
screen reader follows it nowhere. A chart (an image to a screen reader, with only its
summary) has its numbers in a table under it, in the page's language."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation
from django.utils.html import strip_tags

from daily import clock
from daily.models import Challenge
from games import services as game_services
from tests.factories import make_player
from tests.leaderboards.conftest import noon, ranked, travel
from tests.web.test_pages import logged_in, text
from web import charts, presenters

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


DASH = "\u2013"  # between a range's ends, and alone where there is no number (yet)


def numbers(page: str, chart: str) -> list[list[str]]:
    """The table of the ``chart``'s numbers on ``page``: its head, then each row, as the
    text of their cells."""
    table = re.search(rf'<table data-chart-table="{chart}">(.*?)</table>', page, re.S)
    assert table, f"the {chart} chart has no table of its numbers"
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    return [
        [strip_tags(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
        for row in rows
    ]


def test_the_player_pages_charts_have_their_numbers_in_a_table_in_the_pages_language():
    today = clock.today()
    me, _ = make_player("ada")
    days = [today - dt.timedelta(days=back) for back in (3, 2, 1, 0)]
    for day, total in zip(days, (150, 150, 270, 320), strict=True):
        ranked(me, day, total)
    Challenge.objects.filter(date=days[0]).update(expert_total=301)
    Challenge.objects.filter(date=today).update(expert_total=999)  # not revealed yet
    with travel(noon(today, 30)):
        page = text(Client().get("/players/ada/", HTTP_ACCEPT_LANGUAGE="de"))
    with translation.override("de"):
        written = [presenters.day_text(day) for day in days]
    assert page.count("<summary>Zahlen anzeigen</summary>") == 2  # history and spread
    assert numbers(page, "history") == [
        ["Tag", "Punkte", "Experte"],
        [written[0], "150", "301"],
        [written[1], "150", DASH],
        [written[2], "270", DASH],
        [written[3], "320", DASH],  # the expert's 999 stays hidden until the reveal
    ]
    spread = numbers(page, "scores")
    assert spread[0] == ["Punkte", "Tage"]
    assert [f"150{DASH}159", "2"] in spread[1:]  # both 150s in one bar, as the chart draws them
    assert sum(int(count) for _, count in spread[1:]) == 4


def test_a_days_distribution_has_its_numbers_with_the_players_range_marked():
    me, client = logged_in()
    rival, _ = make_player("rival")
    ranked(rival, clock.today(), 640)
    ranked(me, clock.today(), 250)
    page = text(client.get(f"/boards/daily/{clock.today()}/", HTTP_ACCEPT_LANGUAGE="pl"))
    spread = numbers(page, "distribution")
    assert spread[0] == ["Punkty", "Gracze"]
    assert [row for row in spread[1:] if "(ty)" in row[0]] == [[f"240{DASH}259 (ty)", "1"]]
    assert sum(int(count) for _, count in spread[1:]) == 2


def test_an_analysis_chart_has_the_expected_score_after_each_turn_in_a_table():
    chart = charts.expectation(190.5, [191.0, 180.25, 200.0])
    report = {"expected_start": 190.5, "total": 200}
    with translation.override("fr"):
        page = render_to_string("web/_chart_expectation.html", {"chart": chart, "report": report})
    assert numbers(page, "expectation") == [
        ["Tour", "Score final espéré"],
        ["0", "190,5"],
        ["1", "191,0"],
        ["2", "180,2"],
        ["3", "200,0"],
    ]
