"""First contact and everyday play (SPEC §10, issue #23) through Django's test client:
the pages a visitor may read, log-in and register links that come back, a friend's
challenge for a visitor and whether a shared daily counts, the player page's stats,
links only to days that exist, the friend comparison's sums, options in words, one
date format, advent doors of a year without dailies, the settings' options of the
ruleset chosen, the warning for a solo game without hints, and a party's draws."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from urllib.parse import quote

import pytest
import time_machine
from django.test import Client
from django.utils import formats, translation

import yatzy
from accounts.models import User
from daily import clock
from daily.models import Challenge
from daily.services import challenge_get_or_create
from games import selectors as game_selectors
from games import services as game_services
from games.models import Round
from tests.factories import make_player
from tests.leaderboards.conftest import noon, ranked, travel
from tests.web.test_modes import defaults, new_game, play_out, round_of, settings_fields
from tests.web.test_pages import PASSWORD, logged_in, text
from web import presenters

pytestmark = pytest.mark.django_db(transaction=True)

DAY = dt.date(2026, 11, 20)


def links(page: str, name: str) -> list[str]:
    """The targets of the links to the page ``name`` (``login``, ``register``)."""
    return [unescape(href) for href in re.findall(rf'href="(/accounts/{name}/[^"]*)"', page)]


def shared_code(player: User, rnd) -> str:
    return game_services.share_create(round_id=rnd.id, player=player).code


# -- readable logged out ----------------------------------------------------------------


def test_a_visitor_reads_the_boards_advent_player_pages_and_rules():
    ada, _ = make_player("ada", display_name="Ada L.")
    today = clock.today()
    ranked(ada, today - dt.timedelta(days=1), 280)
    ranked(ada, today, 250)
    visitor = Client()
    for path in [
        f"/boards/daily/{today}/",
        f"/boards/daily/{today}/?around=me",  # nobody to be around: the first page
        "/boards/best-day/",
        "/boards/streaks/",
        f"/boards/advent/{today.year}/",
        f"/advent/{today.year}/",
        "/players/ada/",
        "/rules/maxi/",
    ]:
        response = visitor.get(path)
        assert response.status_code == 200, path
        page = text(response)
        assert not re.search(r"data-me[\s>]", page), path
        assert links(page, "register") == [f"/accounts/register/?next={quote(path, safe='/')}"]
    board = text(visitor.get(f"/boards/daily/{today}/"))
    assert re.search(r'data-rank="1"[^>]*>.*?Ada L\..*?250', board, re.S)
    assert '<svg data-chart="distribution"' in board
    assert 'data-stat="played">2<' in text(visitor.get("/players/ada/"))


def test_playing_still_needs_an_account():
    visitor = Client()
    for path in [f"/daily/{clock.today()}/play/", "/f/ABCD2345/play/"]:
        response = visitor.post(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Round.objects.exists()


def test_every_log_in_and_register_link_keeps_next_and_registering_comes_back():
    visitor = Client()
    home = text(visitor.get("/"))
    assert set(links(home, "login")) == {"/accounts/login/?next=/"}
    assert set(links(home, "register")) == {"/accounts/register/?next=/"}  # the menu's too
    streaks = "/boards/streaks/?season=x&page=2"
    login = text(visitor.get("/accounts/login/", {"next": streaks}))
    assert set(links(login, "register")) == {f"/accounts/register/?next={quote(streaks, safe='/')}"}
    register = text(visitor.get("/accounts/register/", {"next": streaks}))
    assert set(links(register, "login")) == {f"/accounts/login/?next={quote(streaks, safe='/')}"}
    assert f'name="next" value="{streaks.replace("&", "&amp;")}"' in register
    elsewhere = text(visitor.get("/accounts/register/", {"next": "https://evil.example/"}))
    assert set(links(elsewhere, "login")) == {"/accounts/login/"}  # only pages of this site
    assert 'name="next" value="/"' in elsewhere
    logout = text(visitor.get("/accounts/logout/"))
    assert set(links(logout, "login")) == {"/accounts/login/"}  # not back to logging out
    joined = visitor.post(
        "/accounts/register/", {"username": "neo", "password": PASSWORD, "next": streaks}
    )
    assert joined.status_code == 302 and joined["Location"] == streaks


@pytest.mark.parametrize(
    "target",
    [
        "/accounts/login/",
        "/accounts/login/?next=/",
        "/accounts/register/",
        "/accounts/register/?a=1",
    ],
)
def test_next_never_leads_back_to_logging_in(target):
    """A ``next`` that is the log-in or register page itself leads home: for a logged-in
    player the log-in page sent them on to it, a 500 (Django's loop check) or a redirect
    loop with a query; and after logging in nobody wants to log in again."""
    player, _ = make_player("loop")
    client = Client()
    client.force_login(player)
    answer = client.get("/accounts/login/", {"next": target})
    assert answer.status_code == 302 and answer["Location"] == "/"
    visitor = Client()
    page = text(visitor.get("/accounts/login/", {"next": target}))
    assert 'name="next" value="/"' in page or 'name="next" value=""' in page
    assert set(links(page, "register")) == {"/accounts/register/"}
    logged = visitor.post(
        "/accounts/login/",
        {"username": "loop", "password": "correct-horse-battery-9", "next": target},
    )
    assert logged.status_code == 302 and logged["Location"] == "/"


def test_in_december_a_visitor_sees_the_advent_calendar_without_scores():
    ada, _ = make_player("ada")
    ranked(ada, dt.date(2026, 12, 1), 312)
    for day in (1, 2, 3):
        challenge_get_or_create(day=dt.date(2026, 12, day))
    with travel(noon(dt.date(2026, 12, 3))):
        page = text(Client().get("/"))
        mine = text(Client().get("/advent/2026/"))
    states = re.findall(r'data-door="\d+" data-state="(\w+)"', page)
    assert states == ["past", "past", "open"] + ["locked"] * 21
    assert "312 points" not in page and "Your advent total" not in page
    assert 'action="/daily/' not in page  # no door to open without an account
    assert 'href="/boards/daily/2026-12-01/"' in page  # a past door shows its day's board
    assert "/accounts/login/?next=/" in page.split('data-door="3"')[1].split("</li>")[0]
    assert re.findall(r'data-door="\d+" data-state="(\w+)"', mine) == states


# -- a friend's challenge for a visitor ---------------------------------------------------


def test_a_visitor_reads_a_friend_challenge_with_ways_in_that_come_back():
    owner, owner_client = logged_in("ada", display_name="Ada <b>L</b>")
    shared = play_out(owner, round_of(new_game(owner_client, "solo", **defaults("yahtzee"))))
    code = shared_code(owner, shared)
    visitor = Client()
    page = text(visitor.get(f"/f/{code}"))
    assert "<bdi>Ada &lt;b&gt;L&lt;/b&gt;</bdi> challenges you" in page
    assert "Yahtzee on the same dice your friend had" in page
    assert 'data-view-choice="blind"' in page and 'data-view-choice="target"' in page
    assert 'href="/rules/yahtzee/' in page
    assert "data-counts" not in page  # not a daily: nothing to count for
    assert links(page, "register") == [f"/accounts/register/?next=/f/{code}"] * 2
    assert links(page, "login") == [f"/accounts/login/?next=/f/{code}"] * 2
    assert 'action="/f/' not in page  # no form to start or revoke for a visitor
    joined = visitor.post(
        "/accounts/register/", {"username": "bea", "password": PASSWORD, "next": f"/f/{code}"}
    )
    assert joined["Location"] == f"/f/{code}"
    back = text(visitor.get(f"/f/{code}"))
    assert 'name="view" value="target"' in back and 'data-action="accept"' in back


def test_the_friend_page_throttle_applies_to_a_visitor_per_address(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "friend": "2/minute",
        },
    }
    visitor = Client(REMOTE_ADDR="203.0.113.7")
    answers = [visitor.get("/f/ABCD2345").status_code for _ in range(3)]
    assert answers == [404, 404, 429]
    refused = visitor.get("/f/ABCD2345")
    assert 1 <= int(refused["Retry-After"]) <= 61
    assert Client(REMOTE_ADDR="203.0.113.8").get("/f/ABCD2345").status_code == 404


def test_a_shared_daily_says_whether_it_counts_for_whoever_opens_it():
    today = clock.today()
    ada, _ = make_player("ada")
    code = shared_code(ada, ranked(ada, today, 250))
    past = shared_code(ada, ranked(ada, today - dt.timedelta(days=1), 240))

    def counts(client: Client, share: str) -> str:
        page = text(client.get(f"/f/{share}"))
        found = re.search(r'data-counts="(\w+)">(.*?)</p>', page, re.S)
        assert found is not None
        return f"{found[1]}: {unescape(found[2])}"

    assert counts(Client(), code).startswith("ranked: This is today's daily")
    bea, bea_client = logged_in("bea")
    assert counts(bea_client, code).startswith("ranked: This is today's daily and you have not")
    date = formats.date_format(today - dt.timedelta(days=1), "DATE_FORMAT")
    assert counts(bea_client, past) == (
        f"practice: The daily of {date} is over: this round is practice and does not count "
        "on the boards."
    )
    rnd, _ = game_services.friend_round_start(code=code, player=bea, view="blind")
    assert rnd.ranked
    assert counts(bea_client, code) == "ranked: This round is your ranked score of today's daily."
    cy, cy_client = logged_in("cy")
    ranked(cy, today, 200)  # cy has played today already
    assert counts(cy_client, code).startswith("practice: You have your ranked round of today")
    practice, _ = game_services.friend_round_start(code=code, player=cy, view="blind")
    assert not practice.ranked  # the page said what the service does


def test_a_shared_daily_opened_mid_way_through_ones_ranked_round_says_that_round_counts():
    """Playing the code resumes the unfinished ranked round of the day: the page must
    not call it practice beforehand."""
    today = clock.today()
    ada, _ = make_player("ada")
    code = shared_code(ada, ranked(ada, today, 250))
    bea, bea_client = logged_in("bea")
    started, _ = game_services.round_start_daily(player=bea, day=today)
    assert started.ranked
    page = text(bea_client.get(f"/f/{code}"))
    found = re.search(r'data-counts="(\w+)"', page)
    assert found is not None and found[1] == "ranked"
    rnd, created = game_services.friend_round_start(code=code, player=bea, view="blind")
    assert (rnd.pk, created, rnd.ranked) == (started.pk, False, True)


# -- the player page --------------------------------------------------------------------


def test_the_player_page_shows_played_streaks_best_mean_spread_and_the_expert_once_revealed():
    today = clock.today()
    me, client = logged_in()
    for back, total in ((3, 150), (2, 150), (1, 270), (0, 320)):
        ranked(me, today - dt.timedelta(days=back), total)
    Challenge.objects.filter(date=today - dt.timedelta(days=3)).update(expert_total=301)
    Challenge.objects.filter(date=today).update(expert_total=999)  # not revealed yet
    with travel(noon(today, 30)):
        page = text(Client().get("/players/ada/"))  # a visitor sees it too
    stats = dict(re.findall(r'<dd data-stat="([\w-]+)">(.*?)</dd>', page, re.S))
    assert stats["played"] == "4"
    assert (stats["current-streak"], stats["longest-streak"]) == ("4", "4")
    assert stats["best"].startswith("320 ")
    assert stats["mean"] == "222.5"  # (150 + 150 + 270 + 320) / 4
    history = re.search(r'<svg data-chart="history".*?</svg>', page, re.S).group(0)
    assert history.count('<circle class="point"') == 4
    assert re.findall(r"the expert scored (\d+)", history) == ["301"]
    scores = re.search(r'<svg data-chart="scores".*?</svg>', page, re.S).group(0)
    bars = re.findall(r"<title>(\d+)\u2013(\d+): (\d+)</title>", scores)
    assert sum(int(count) for _, _, count in bars) == 4
    assert ("150", "159", "2") in bars  # both 150s in one bar
    german = text(client.get("/players/ada/", HTTP_ACCEPT_LANGUAGE="de"))
    assert '<dd data-stat="mean">222,5</dd>' in german


# -- links only to days that exist --------------------------------------------------------


def test_day_links_lead_only_to_days_with_a_challenge():
    for day in (DAY - dt.timedelta(days=9), DAY - dt.timedelta(days=2), DAY):
        challenge_get_or_create(day=day)
    _, client = logged_in()
    with travel(noon(DAY)):
        home = text(client.get("/"))
        today = text(client.get(f"/boards/daily/{DAY}/"))
        before = text(client.get(f"/boards/daily/{DAY - dt.timedelta(days=2)}/"))
        first = text(client.get(f"/boards/daily/{DAY - dt.timedelta(days=9)}/"))
        for page in (home, today, before, first):
            for href in re.findall(r'href="(/boards/daily/[\d-]+/)"', page):
                assert client.get(href).status_code == 200, href
    yesterday = formats.date_format(DAY - dt.timedelta(days=2), "DATE_FORMAT")
    assert "Yesterday's board" not in home  # yesterday had no challenge
    assert f'href="/boards/daily/2026-11-18/" data-previous-board>The board of {yesterday}' in home
    assert re.findall(r'href="/boards/daily/([\d-]+)/" data-day-link="(\w+)"', today) == [
        ("2026-11-18", "previous")
    ]
    assert re.findall(r'href="/boards/daily/([\d-]+)/" data-day-link="(\w+)"', before) == [
        ("2026-11-11", "previous"),
        ("2026-11-20", "next"),
    ]
    assert re.findall(r'data-day-link="(\w+)"', first) == ["next"]


def test_advent_of_a_year_without_dailies_has_no_missed_doors_and_no_link_to_its_year_before():
    _, client = logged_in()
    with travel(noon(dt.date(2026, 12, 2))):
        challenge_get_or_create(day=dt.date(2026, 12, 1))
        empty = text(client.get("/advent/2025/"))
        this = text(client.get("/advent/2026/"))
    assert re.findall(r'data-state="(\w+)"', empty) == ["empty"] * 24
    assert "missed" not in empty and "no daily" in empty
    assert "data-previous-advent" not in empty and "data-previous-advent" not in this
    assert re.findall(r'data-state="(\w+)"', this)[:3] == ["missed", "open", "locked"]
    challenge_get_or_create(day=dt.date(2025, 12, 24))
    with travel(noon(dt.date(2026, 12, 2))):
        this = text(client.get("/advent/2026/"))
    assert 'href="/advent/2025/" data-previous-advent' in this


# -- the friend comparison --------------------------------------------------------------


def test_the_friend_comparison_has_the_upper_sum_and_bonus_so_each_column_adds_up():
    owner, owner_client = logged_in("ada")
    shared = play_out(owner, round_of(new_game(owner_client, "solo", **defaults("yahtzee"))))
    code = shared_code(owner, shared)
    bea, friend = logged_in("bea")
    rnd, _ = game_services.friend_round_start(code=code, player=bea, view="blind")
    mine = play_out(bea, rnd)
    page = text(friend.get(f"/f/{code}"))
    table = re.search(r'<table class="compare">.*?</table>', page, re.S).group(0)
    rows = re.findall(
        r'<tr( class="subtotal" data-compare-row="(\w+)")?><th scope="row">(.*?)</th>'
        r'<td class="num">(\d+)</td><td class="num">(\d+)</td></tr>',
        table,
    )
    kinds = [kind or "box" for _, kind, _, _, _ in rows]
    assert kinds[6:8] == ["upper", "bonus"] and kinds.count("box") == 13
    assert rows[7][2] == "Bonus (35 at 63)"
    for column, played in ((3, mine), (4, shared)):
        game = game_selectors.round_game(played)
        values = [int(row[column]) for row in rows]
        boxes = [v for v, kind in zip(values, kinds, strict=True) if kind == "box"]
        assert values[6] == sum(boxes[:6]) == game.upper_total
        assert values[7] == game.bonus
        extra = sum(v for v, kind in zip(values, kinds, strict=True) if kind == "extra")
        assert sum(boxes) + values[7] + extra == played.total  # the column adds up
    assert f"data-total>{mine.total}<" in table and f"data-target>{shared.total}<" in table


# -- words, not values; one date format ----------------------------------------------------


@pytest.mark.parametrize(
    ("language", "no", "bonus"),
    [
        ("en", "No", "100 at 84"),
        ("de", "Nein", "100 ab 84"),
        ("ja", "いいえ", "84 点以上で 100 点"),
    ],
)
def test_the_rules_page_says_options_in_words(language, no, bonus):
    page = text(Client().get("/rules/maxi/", HTTP_ACCEPT_LANGUAGE=language))
    values = re.findall(r"<td data-option-(?:default|value)>(.*?)</td>", page)
    assert values and not {"True", "False", "[84, 100]", "(84, 100)"} & set(values)
    row = re.search(r'<tr id="option-forced_order">(.*?)</tr>', page).group(1)
    assert f"<td data-option-default>{no}</td>" in row and "forced_order" not in row
    upper = re.search(r'<tr id="option-upper_bonus">(.*?)</tr>', page).group(1)
    assert f"<td data-option-value>{bonus}</td>" in upper
    mine = text(Client().get("/rules/maxi/?forced_order=true&upper_bonus=75,50"))
    assert re.search(r'id="option-forced_order">.*?<td data-option-value>Yes</td>', mine)
    assert "<td data-option-value>50 at 75</td>" in mine


LANGUAGES = ["en", "da", "de", "fr", "es", "it", "sv", "nb", "fi", "nl", "pl", "ja"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_moment_is_written_as_its_day_with_the_time(language):
    """One date format per language: a reveal's moment starts with its day as every
    other date is written (Italian's "Sabato 05 Dicembre 2026" beside "04 Dicembre
    2026" was two)."""
    reveal = dt.datetime(2026, 12, 5, 0, 30, tzinfo=dt.UTC)
    with translation.override(language):
        day = presenters.day_text(reveal.date())
        moment = presenters.moment_text(reveal)
    assert moment.startswith(day) and "2026" in day, (day, moment)
    assert moment != day and ("30" in moment), moment


@pytest.mark.parametrize(
    ("language", "expected"), [("de", "19. November 2026"), ("it", "19 novembre 2026")]
)
def test_a_date_is_written_one_way_on_every_page_in_each_language(language, expected):
    owner, _ = make_player("ada")
    past = DAY - dt.timedelta(days=1)
    with travel(noon(past)):
        rnd = ranked(owner, past, 230)
    code = shared_code(owner, rnd)
    bea, client = logged_in("bea", language=language)
    with travel(noon(DAY)):
        mine, _ = game_services.friend_round_start(code=code, player=bea, view="blind")
        pages = {
            "home": text(client.get("/")),
            "board": text(client.get(f"/boards/daily/{past}/")),
            "friend": text(client.get(f"/f/{code}")),
            "play": text(client.get(f"/play/{mine.id}/")),
            "games": text(client.get("/games/")),
        }
    with translation.override(language):
        written = presenters.day_text(past)
        today = presenters.day_text(DAY)
        reveal = presenters.day_text(DAY + dt.timedelta(days=1))  # at 00:30 the next day
    assert written == expected
    assert today in pages["home"] and f"{reveal} 00:30" in pages["home"].replace(",", "")
    for name in ("board", "friend", "games", "play"):
        assert written in pages[name], name
    for name, page in pages.items():
        assert not re.search(r">[^<]*\b2026-11-\d\d\b", page), name  # no ISO date in a text
        assert not re.search(r"\b\d\d?\.\d\d?\.\d\d(\d\d)?\b", page), name  # nor a short one


# -- the settings, a solo game without hints, a party --------------------------------------


def test_one_save_stores_a_new_ruleset_with_the_options_chosen_for_it():
    user, client = logged_in(ruleset="maxi")
    page = text(client.get("/settings/"))
    groups = re.findall(r'data-ruleset-options="(\w+)"', page)
    assert groups == list(yatzy.RULESETS)
    assert 'name="option_yahtzee_upper_bonus_0" value="63"' in page  # the defaults there
    profile = {"display_name": "", "language": "en", "time_zone": "UTC", "ruleset": "yahtzee"}
    fields = {
        **settings_fields("maxi", full_straight_points=30),  # what the other group says
        **settings_fields("yahtzee", forced_order="on", upper_bonus_0=70),
    }
    assert client.post("/settings/", {**profile, **fields}).status_code == 302
    user.refresh_from_db()
    assert (user.ruleset, user.options) == (
        "yahtzee",
        {"forced_order": True, "upper_bonus": [70, 35]},
    )
    again = text(client.get("/settings/"))
    assert 'name="option_yahtzee_upper_bonus_0" value="70"' in again
    assert re.search(r'name="option_yahtzee_forced_order"[^>]*checked', again)
    assert 'name="option_maxi_full_straight_points"' in again


def test_a_solo_game_with_saved_rolls_is_said_to_have_no_hints_before_and_after_it_starts():
    _, client = logged_in()
    form = text(client.get("/games/new/solo/?ruleset=yatzy"))
    saved = re.search(r'name="option_saved_rolls".*?<p class="help"[^>]*>(.*?)</p>', form, re.S)
    assert "has no hints and no analysis" in saved.group(1)
    forced = re.search(r'name="option_forced_order".*?<p class="help"[^>]*>(.*?)</p>', form, re.S)
    assert "no hints" not in forced.group(1)  # forced order has its table
    computer = text(client.get("/games/new/computer/?ruleset=yatzy"))
    assert "has no hints and no analysis" not in computer
    fields = {**defaults("yatzy"), "option_saved_rolls": "on"}
    started = client.post("/games/new/solo/", {"ruleset": "yatzy", **fields}, follow=True)
    assert "leave it without hints and analysis" in unescape(text(started))
    plain = client.post("/games/new/solo/", {"ruleset": "yatzy", **defaults("yatzy")}, follow=True)
    assert "without hints" not in unescape(text(plain))


def test_a_party_shows_no_draw_before_it_is_over():
    player, client = logged_in()
    party = game_services.party_create(player=player, seats=["Ann", "Bo"], ruleset="yahtzee")
    page = text(client.get(f"/parties/{party.id}/"))
    assert re.findall(r'data-standing="\d" data-rank="(\d)"(\s*data-draw)?', page) == [
        ("1", ""),
        ("1", ""),
    ]
    assert "(draw)" not in page


def test_a_hint_reads_as_a_sentence_without_a_space_before_its_full_stop(yahtzee_table):
    _, client = logged_in()
    path = new_game(client, "solo", **defaults("yahtzee"))
    for roll in range(3):
        client.post(f"{path}roll/", {"turn": 0, "roll": roll})
    page = text(client.get(path, {"hint": 1}))
    best = re.search(r"Best move:</strong>(.*?)\n", page).group(1)
    assert re.fullmatch(r" Score \d+ in [^<]*\w\.", best), best


@pytest.mark.parametrize(
    ("moment", "left"),
    [
        (dt.datetime(2026, 3, 29, 0, 30), "22\xa0hours, 30\xa0minutes"),  # a day of 23 hours
        (dt.datetime(2026, 10, 25, 1, 30), "23\xa0hours, 30\xa0minutes"),  # 25 hours
    ],
)
def test_the_time_to_new_dice_counts_real_hours_on_a_day_the_clocks_change(settings, moment, left):
    """Django's timeuntil measured from a now in the deadline's zone by the wall clock:
    an hour off on such a day (the countdown's script mended it, when it ran)."""
    from zoneinfo import ZoneInfo

    settings.DAILY_TIME_ZONE = "Europe/Stockholm"
    with time_machine.travel(moment.replace(tzinfo=ZoneInfo("Europe/Stockholm")), tick=False):
        page = Client().get("/").content.decode()
    assert f'role="timer">{left}</span>' in page
