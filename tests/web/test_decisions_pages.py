"""The decisions of a revealed day on the pages (SPEC §12, issue #26 item 3): the day's
"best decisions" board, the loss and luck of each day and the accuracy chart on the
player page, and the sentence under a finished daily round. The rounds are completed
through the services (``ranked``); their losses are then written as the analysis job
writes them and the board update they owe is run (``analysed``), so every expected
value below is worked out by hand from the chosen losses and totals:
luck = total - 394.5575 + loss. A negative luck shows with a minus sign (U+2212)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from games.models import Round
from games.skill import round_exclude
from tests.factories import make_player
from tests.leaderboards.conftest import noon, ranked, travel
from tests.leaderboards.test_decisions_board import analysed

pytestmark = pytest.mark.django_db(transaction=True)

DAY = dt.date(2026, 11, 20)
NEXT = DAY + dt.timedelta(days=1)
REVEALED = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)  # DAY's seed is shown by then


def logged_in(username: str):
    user, _ = make_player(username)
    client = Client()
    client.force_login(user)
    return user, client


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def rows(page: str) -> list[tuple[str, str, str, str]]:
    """(rank, me, player, value) of each row of a board page."""
    return re.findall(
        r'<tr data-rank="(\d+)"( data-me)?[^>]*>\s*<td>\d+</td>\s*<td class="who"><a [^>]*>'
        r'<bdi>([^<]+)</bdi></a>.*?<td class="num">([^<]+)</td>',
        page,
        re.S,
    )


@pytest.fixture
def day():
    """Four ranked rounds of DAY: three analysed (two tie to the hundredth), one not."""
    me, client = logged_in("ada")
    ann, bo, cy = (make_player(name)[0] for name in ("ann", "bo", "cy"))
    analysed(ranked(ann, DAY, 300, 0), 3.004)
    analysed(ranked(bo, DAY, 280, 1), 2.9951)
    mine = ranked(me, DAY, 250, 2)
    analysed(mine, 7.5)
    waiting = ranked(cy, DAY, 200, 3)
    return {"me": me, "client": client, "mine": mine, "waiting": waiting}


def test_the_days_decisions_board_ranks_the_lowest_loss_first_with_two_decimals(day):
    client = day["client"]
    with travel(REVEALED):
        board = text(client.get(f"/boards/decisions/{DAY}/"))
        around = text(client.get(f"/boards/decisions/{DAY}/", {"around": "me"}))
        scores = text(client.get(f"/boards/daily/{DAY}/"))
        assert client.get(f"/boards/decisions/{DAY}/", {"page": "x"}).status_code == 400
        assert client.get(f"/boards/decisions/{DAY}/", {"page": 2}).status_code == 404
        future = client.get(f"/boards/decisions/{dt.date(2026, 11, 23)}/")
    # 3.004 and 2.9951 are both 3.00 to the hundredth: one rank, the earlier round first;
    # cy's round is not analysed yet, so it is not on this board (it is on the scores').
    assert rows(board) == [
        ("1", "", "ann", "3.00"),
        ("1", "", "bo", "3.00"),
        ("3", " data-me", "ada", "7.50"),
    ]
    assert "You: rank 3 (7.50)" in board and "3 players" in board
    assert 'data-decisions-state="analysing"' in board  # cy's round is still to come
    assert rows(around) == rows(board)
    assert future.status_code == 404
    # The tabs and the links between the day's two boards, and to the other days.
    assert re.search(
        rf'href="/boards/decisions/{DAY}/" aria-current="page" data-tab="decisions"', board
    )
    assert f'href="/boards/daily/{DAY}/" data-day-board="daily"' in board
    assert f'href="/boards/decisions/{NEXT}/" data-day-link="next"' not in board  # no challenge
    assert re.search(rf'href="/boards/decisions/{DAY}/" data-tab="decisions"', scores)
    assert f'href="/boards/decisions/{DAY}/" data-day-board="decisions"' in scores
    assert [r[3] for r in rows(scores)] == ["300", "280", "250", "200"]


def test_the_board_says_when_the_day_is_analysed_and_before_its_reveal_that_it_opens_later(day):
    client = day["client"]
    with travel(noon(DAY, 30)):
        hidden = text(client.get(f"/boards/decisions/{DAY}/"))
    assert 'data-decisions-state="hidden"' in hidden
    # On the day itself the heading names the day once (its title has the date).
    heading = re.search(r"<h1>(.*?)</h1>", hidden, re.S)
    assert heading is not None and heading.group(1).count("Nov. 20, 2026") == 1, heading
    assert "This board opens once the day's dice are revealed" in hidden
    analysed(day["waiting"], 40.0)
    with travel(REVEALED):
        done = text(client.get(f"/boards/decisions/{DAY}/", HTTP_ACCEPT_LANGUAGE="de"))
    assert 'data-decisions-state="analysed"' in done
    assert [r[3] for r in rows(done)] == ["3,00", "3,00", "7,50", "40,00"]  # German decimals


def test_the_play_page_says_what_the_decisions_cost_and_what_the_dice_gave(day):
    client = day["client"]
    with travel(REVEALED):
        mine = text(client.get(f"/play/{day['mine'].id}/"))
    # luck = 250 - 394.5575 + 7.5 = -137.0575
    assert (
        '<p class="decisions-result" data-decisions-result="analysed"><span data-decisions-'
        "sentence>You lost 7.50 points to your decisions; the dice gave you \N{MINUS SIGN}137.06."
        "</span>"
    ) in mine
    assert f'<a href="/boards/decisions/{DAY}/" data-day-board="decisions">' in mine
    cy = day["waiting"].player
    other = Client()
    other.force_login(cy)
    with travel(noon(DAY, 40)):
        before = text(other.get(f"/play/{day['waiting'].id}/"))
    with travel(REVEALED):
        waiting = text(other.get(f"/play/{day['waiting'].id}/"))
    assert "data-decisions-result" not in before  # not revealed: nothing to say yet
    assert 'data-decisions-result="analysing"' in waiting
    analysed(day["waiting"], 0.0)
    with travel(REVEALED):
        lucky = text(other.get(f"/play/{day['waiting'].id}/"))
    # 200 - 394.5575 + 0 = -194.5575
    assert (
        "You lost 0.00 points to your decisions; the dice gave you \N{MINUS SIGN}194.56." in lucky
    )


def test_loss_and_luck_round_half_up_to_the_hundredth_alike():
    """The job stores both to four places (``games.skill.round_skill_store``): 0.6825
    lost and 394 - 394.5575 + 0.6825 = 0.125 from the dice. Both are written to the
    hundredth half up, as the decisions board compares losses: 0.68 and +0.13."""
    me, client = logged_in("ada")
    rnd = ranked(me, DAY, 394)
    analysed(rnd, 0.6825)
    Round.objects.filter(pk=rnd.pk).update(luck=round(394 - 394.5575 + 0.6825, 4))
    with travel(REVEALED):
        mine = text(client.get(f"/play/{rnd.id}/"))
        person = text(client.get("/players/ada/"))
    assert "You lost 0.68 points to your decisions; the dice gave you +0.13." in mine
    assert '<td class="num" data-luck>+0.13</td>' in person


def test_an_excluded_round_says_so_to_its_player_and_leaves_every_board(day):
    client = day["client"]
    assert round_exclude(rnd=day["mine"])
    with travel(REVEALED):
        mine = text(client.get(f"/play/{day['mine'].id}/"))
        board = text(client.get(f"/boards/decisions/{DAY}/"))
        person = text(Client().get("/players/ada/"))
    assert 'data-decisions-result="excluded"' in mine and "You lost" not in mine
    assert "data-rank-pending" not in mine and "data-rank-wait" not in mine
    assert [r[2] for r in rows(board)] == ["ann", "bo"]
    assert "An administrator" not in board and "An administrator" not in person
    assert "No day analysed yet" in person


def test_the_player_page_shows_loss_and_luck_per_analysed_day_and_the_accuracy_chart():
    me, _ = logged_in("ada")
    analysed(ranked(me, DAY, 250), 7.5)
    analysed(ranked(me, NEXT, 400), 1.25)
    ranked(me, NEXT + dt.timedelta(days=1), 300)  # not revealed yet: no loss
    with travel(dt.datetime(2026, 11, 22, 18, tzinfo=dt.UTC)):
        page = text(Client().get("/players/ada/"))  # anyone may look
        board = text(Client().get(f"/boards/decisions/{NEXT}/"))
    # The day links of a decisions board lead to the other days' decisions.
    assert f'href="/boards/decisions/{DAY}/" data-day-link="previous"' in board
    assert f'href="/boards/decisions/{NEXT + dt.timedelta(days=1)}/" data-day-link="next"' in board
    assert '<tr data-rank="1">' in board  # ada's line, not marked: a visitor has none
    days = re.findall(
        r'<tr data-decision-day="([\d-]+)">.*?<td class="num">(\d+)</td>\s*'
        r'<td class="num" data-loss>([^<]+)</td>\s*<td class="num" data-luck>([^<]+)</td>',
        page,
        re.S,
    )
    # Newest first; luck = 400 - 394.5575 + 1.25 = 6.6925 and 250 - 394.5575 + 7.5.
    assert days == [
        (str(NEXT), "400", "1.25", "+6.69"),
        (str(DAY), "250", "7.50", "\N{MINUS SIGN}137.06"),
    ]
    chart = re.search(r'<svg data-chart="decisions".*?</svg>', page, re.S)
    assert chart
    losses = re.findall(
        r'<circle class="point" cx="[\d.]+" cy="([\d.]+)" r="4" data-loss="([\d.]+)"', chart[0]
    )
    # Oldest first. The axis: 0 to 8 in steps of 2 (a round step for a top of 7.5); the
    # plot is 158 units high above the baseline at 186, so 7.5 is at 186 - 158 * 7.5 / 8
    # = 37.9 and 1.25 at 186 - 158 * 1.25 / 8 = 161.3.
    assert losses == [("37.9", "7.50"), ("161.3", "1.25")]
    ticks = re.findall(r'<text class="tick"[^>]*text-anchor="end">(\d+)</text>', chart[0])
    assert ticks == ["0", "2", "4", "6", "8"]
    assert '<dd data-stat="decisions">\N{EN DASH}</dd>' in page  # the mean needs five days


def test_the_mean_loss_and_its_rank_show_from_five_analysed_days():
    me, _ = logged_in("ada")
    for n, loss in enumerate((1.0, 2.0, 3.0, 4.0, 5.5)):
        analysed(ranked(me, DAY - dt.timedelta(days=n), 200), loss)
    with travel(REVEALED):
        page = text(Client().get("/players/ada/"))
    # (1 + 2 + 3 + 4 + 5.5) / 5 = 3.1
    assert re.search(r'<dd data-stat="decisions">3.10 <small>\(rank 1\)</small>', page)
    assert page.count("data-decision-day=") == 5
