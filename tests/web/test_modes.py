"""The pages of the other modes through Django's test client: new games from the
player's settings, the solo hint and the analysis, the computer's turns, friend
challenges (share, /f/{code}, revoke, the friendly 404), the party screen with its
draws, the settings of new games and the games list."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape

import pytest
from django.template.defaultfilters import floatformat
from django.test import Client

import yatzy
from accounts.models import User
from daily import clock
from daily.services import challenge_get_or_create
from games import selectors as game_selectors
from games import services as game_services
from games.models import Party, Round, ShareCode
from tests.factories import make_player
from tests.leaderboards.conftest import noon, travel
from tests.web.test_pages import boxes, logged_in, start, text

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _tables(yahtzee_table):
    """The Yahtzee table (seconds to build, once a session) serves the hints."""


def new_game(client: Client, mode: str, ruleset: str = "yahtzee", **fields) -> str:
    """Start a game through its page's form; returns the page it redirects to."""
    response = client.post(f"/games/new/{mode}/", {"ruleset": ruleset, **fields})
    assert response.status_code == 302, text(response)
    return response["Location"]


def defaults(ruleset: str) -> dict[str, object]:
    """The option fields of a new-game form as its page first shows them."""
    rs = yatzy.get_ruleset(ruleset)
    fields: dict[str, object] = {}
    for name, value in rs.options.items():
        if isinstance(value, list):
            fields[f"option_{name}_0"], fields[f"option_{name}_1"] = value
        elif value is not False:
            fields[f"option_{name}"] = "on" if value is True else value
    return fields


def round_of(path: str) -> Round:
    return Round.objects.get(pk=path.split("/")[2])


def play_out(player: User, rnd: Round) -> Round:
    """Finish a round through the services: one roll a turn, the box worth most."""
    while True:
        rnd.refresh_from_db()
        game = game_selectors.round_game(rnd)
        if game.is_over:
            return rnd
        _, game = game_services.round_roll(
            round_id=rnd.id, player=player, hold=(), turn=game.turn, roll=0
        )
        options = game.options()
        game_services.round_score(
            round_id=rnd.id, player=player, category=max(options, key=options.get), turn=game.turn
        )


def play_page_to_the_end(client: Client, path: str) -> str:
    """Finish a round through its page's forms; returns the last page."""
    while True:
        page = text(client.get(path))
        if 'data-status="in_progress"' not in page:
            return page
        rnd = round_of(path)
        turn = rnd.snapshot["turn"]
        client.post(f"{path}roll/", {"turn": turn, "roll": 0})
        options = boxes(text(client.get(path)))
        client.post(f"{path}score/", {"turn": turn, "category": max(options, key=options.get)})


# -- new games --------------------------------------------------------------------------


def test_a_new_game_starts_from_the_players_settings_and_takes_the_forms_options():
    user, client = logged_in(ruleset="yatzy", options={"upper_bonus": [50, 25]})
    page = text(client.get("/games/new/solo/"))
    assert '<a href="/games/new/solo/?ruleset=yatzy" aria-current="page">' in page
    assert re.search(r'name="option_upper_bonus_0" value="50"', page)
    assert "From your settings" in page
    other = text(client.get("/games/new/solo/?ruleset=yahtzee"))
    assert re.search(r'name="option_upper_bonus_1" value="35"', other)  # Yahtzee's own
    fields = {**defaults("yatzy"), "option_upper_bonus_0": 50, "option_upper_bonus_1": 25}
    path = new_game(client, "solo", "yatzy", option_forced_order="on", **fields)
    rnd = round_of(path)
    assert (rnd.mode, rnd.ruleset) == ("solo", "yatzy")
    assert rnd.options["forced_order"] is True and rnd.options["upper_bonus"] == [50, 25]
    user.refresh_from_db()
    assert user.options == {"upper_bonus": [50, 25]}  # the form changes this game only


def test_a_new_game_form_posted_twice_starts_one_game_and_shown_again_another():
    """A double click on Start sent the form twice and started two games."""
    _, client = logged_in()
    for mode, extra in (("solo", {}), ("party", {"seat_0": "Ann", "seat_1": "Bo"})):
        page = client.get(f"/games/new/{mode}/")
        assert "no-store" in page["Cache-Control"]  # back to it shows it anew
        # Once: a browser sends every input, and the form reads the last of two.
        assert text(page).count('name="request_key"') == 1
        key = re.search(r'name="request_key" value="([0-9a-f]{32})"', text(page))[1]
        fields = {**defaults("maxi"), "ruleset": "maxi", "request_key": key, **extra}
        first = client.post(f"/games/new/{mode}/", fields)
        second = client.post(f"/games/new/{mode}/", fields)
        assert first.status_code == second.status_code == 302
        assert first["Location"] == second["Location"]
        again = re.search(
            r'name="request_key" value="([0-9a-f]{32})"',
            text(client.get(page.request["PATH_INFO"])),
        )[1]
        assert again != key
        third = client.post(f"/games/new/{mode}/", {**fields, "request_key": again})
        assert third["Location"] != first["Location"]
    assert Round.objects.filter(party__isnull=True).count() == 2
    assert Party.objects.count() == 2


def test_a_form_that_started_a_game_posted_with_other_choices_starts_one_on_the_next_try():
    """Back to the form after starting a party, a third seat added: the answer was the
    API's 409 in the API's words, and the form kept its spent key for ever."""
    _, client = logged_in()
    page = text(client.get("/games/new/party/"))
    key = re.search(r'name="request_key" value="([0-9a-f]{32})"', page)[1]
    fields = {**defaults("maxi"), "ruleset": "maxi", "request_key": key}
    first = client.post("/games/new/party/", {**fields, "seat_0": "A", "seat_1": "B"})
    three = {**fields, "seat_0": "A", "seat_1": "B", "seat_2": "C"}
    refused = client.post("/games/new/party/", three)
    assert refused.status_code == 409
    said = unescape(text(refused))
    assert "This form had already started a game with other choices." in said
    assert "Idempotency" not in said
    fresh = re.search(r'name="request_key" value="([0-9a-f]{32})"', said)[1]
    assert fresh != key and 'name="seat_2"' in said and 'value="C"' in said
    again = client.post("/games/new/party/", {**three, "request_key": fresh})
    assert again.status_code == 302 and again["Location"] != first["Location"]
    assert Party.objects.count() == 2


def test_a_new_game_refuses_options_the_engine_refuses_and_creates_nothing():
    _, client = logged_in()
    fields = {**defaults("maxi"), "ruleset": "maxi", "option_full_straight_points": 22}
    response = client.post("/games/new/solo/", fields)
    assert response.status_code == 400
    too_big = {**defaults("maxi"), "ruleset": "maxi", "option_upper_bonus_0": 10001}
    assert client.post("/games/new/computer/", too_big).status_code == 400
    few = {**defaults("yahtzee"), "ruleset": "yahtzee", "seat_0": "Solo"}
    refused = client.post("/games/new/party/", few)
    assert refused.status_code == 400 and "A party has 2 to 4 seats, not 1." in text(refused)
    # A number is written in ASCII digits, as the API reads it: not 84 in Arabic-Indic.
    other_digits = {**defaults("maxi"), "ruleset": "maxi", "option_upper_bonus_0": "\u0668\u0664"}
    assert client.post("/games/new/solo/", other_digits).status_code == 400
    assert not Round.objects.exists()
    assert client.get("/games/new/chess/").status_code == 404


def test_the_party_forms_seat_names_take_as_many_characters_as_the_service_allows():
    _, client = logged_in()
    page = client.get("/games/new/party/?ruleset=yahtzee").content.decode()
    inputs = re.findall(r'<input[^>]*name="seat_\d"[^>]*>', page)
    assert len(inputs) == game_services.SEATS_MAX
    for tag in inputs:
        assert f'maxlength="{game_services.SEAT_NAME_MAX}"' in tag, tag
    longest = "W" * game_services.SEAT_NAME_MAX
    fields = {**defaults("yahtzee"), "seat_0": longest, "seat_1": "Bo"}
    party = new_game(client, "party", **fields)
    assert longest in text(client.get(party))


# -- solo: the hint and the analysis ----------------------------------------------------


def test_the_hint_shows_the_best_move_and_alternatives_and_marks_the_dice_to_keep():
    _, client = logged_in()
    path = new_game(client, "solo", **defaults("yahtzee"))
    before = text(client.get(path, {"hint": 1}))
    assert 'data-action="hint"' in before
    assert re.search(r'data-hint-best data-kind="roll"', before)
    rnd = round_of(path)
    client.post(f"{path}roll/", {"turn": 0, "roll": 0})
    page = text(client.get(path, {"hint": 1}))
    api = client.get(f"/api/v1/rounds/{rnd.id}/hint/").json()  # the page's session
    best = api["best"]
    kind = re.search(r'data-hint-best data-kind="(\w+)" data-hold="([\d ]*)"', page)
    assert kind.group(1) == best["kind"]
    assert kind.group(2).split() == [str(p) for p in best["hold"]]
    suggested = re.findall(r'data-die="(\d)" data-suggested', page)
    assert suggested == ([str(p) for p in best["hold"]] if best["kind"] == "hold" else [])
    expected = f"Expected final score: {best['expected']:.1f}."
    assert expected in page
    assert len(re.findall(r"<tr data-hint-move>", page)) == min(4, len(api["moves"]) - 1)
    second = api["moves"][1]
    assert f"{second['expected']:.1f}" in page


def test_following_the_hints_on_the_page_plays_a_perfect_game_and_the_analysis_says_so():
    _, client = logged_in()
    path = new_game(client, "solo", **defaults("yahtzee"))
    rnd = round_of(path)
    while True:
        page = text(client.get(path, {"hint": 1}))
        if 'data-status="in_progress"' not in page:
            break
        best = re.search(
            r'data-hint-best data-kind="(\w+)" data-hold="([\d ]*)" data-category="(\w*)"', page
        )
        rnd.refresh_from_db()
        turn, roll = rnd.snapshot["turn"], rnd.snapshot["rolls_used"]
        if best.group(1) == "score":
            client.post(f"{path}score/", {"turn": turn, "category": best.group(3)})
        else:
            held = best.group(2).split()
            client.post(f"{path}roll/", {"turn": turn, "roll": roll, "hold": held})
    assert 'data-action="analysis"' in page
    analysis = text(client.get(f"{path}analysis/"))
    api = client.get(f"/api/v1/rounds/{rnd.id}/analysis/").json()
    assert api["loss"] == 0
    assert '<dd data-loss="0.00">' in analysis
    assert len(re.findall(r"<tbody data-turn=", analysis)) == 13
    assert len(re.findall(r"<tr class=\"best\" data-decision", analysis)) == len(api["decisions"])
    chart = re.search(r'<svg data-chart="expectation".*?</svg>', analysis, re.S).group(0)
    assert chart.count('<circle class="point"') == 14  # the start and each of 13 turns
    assert f"13: {float(api['total'])}" in chart  # the last point is the total


def test_a_worse_box_shows_the_points_it_lost_in_the_analysis():
    player, client = logged_in()
    path = new_game(client, "solo", **defaults("yahtzee"))
    rnd = play_out(player, round_of(path))
    api = game_selectors.round_analysis(rnd)
    page = text(client.get(f"{path}analysis/"))
    assert api["loss"] > 0
    # The page rounds as Django's floatformat does (half up, 3.125 -> 3.13).
    assert f'data-loss="{floatformat(api["loss"], "2u")}"' in page
    lost = [d for d in api["decisions"] if d["loss"] > 0.005]
    assert len(re.findall(r'<tr class="lost" data-decision', page)) == len(lost)


def test_an_expired_daily_round_without_a_box_filled_has_an_analysis_page(maxi_table):
    """A ranked round that expired before its first box (rolled once, or not at all)
    is over: its analysis page shows the start alone, one point on the chart."""
    player, client = logged_in()
    day = dt.date(2026, 11, 20)
    with travel(noon(day)):
        rolled, _ = game_services.round_start_daily(player=player, day=day)
        game_services.round_roll(round_id=rolled.id, player=player, hold=(), turn=0, roll=0)
    with travel(dt.datetime(2026, 11, 21, 0, 31, tzinfo=dt.UTC)):
        response = client.get(f"/play/{rolled.id}/analysis/")
        assert response.status_code == 200
        page = text(response)
    assert "data-total>0<" in page
    assert page.count('<circle class="point"') == 1  # the start, no turn after it


def test_a_game_with_saved_rolls_offers_no_hint_and_links_to_no_analysis():
    """No exact table models saved rolls: its pages must not offer a Hint button that
    is always refused, nor link to an analysis page that answers 400."""
    player, client = logged_in()
    path = new_game(client, "solo", "yatzy", **defaults("yatzy"), option_saved_rolls="on")
    rnd = round_of(path)
    assert rnd.options["saved_rolls"] is True
    assert 'data-action="hint"' not in text(client.get(path))
    play_out(player, rnd)
    page = text(client.get(path))
    assert "Game over" in page
    assert 'data-action="analysis"' not in page


def test_a_daily_round_of_an_open_day_has_no_hint_and_no_analysis():
    _, client = logged_in()
    path = start(client)
    client.post(f"{path}roll/", {"turn": 0, "roll": 0})
    page = text(client.get(path, {"hint": 1}))
    assert "data-hint" not in page and 'data-action="hint"' not in page
    assert "H shows a hint" not in page
    refused = client.get(f"{path}analysis/")
    assert refused.status_code == 403
    assert "no hints or analysis for the daily until its day is over" in unescape(text(refused))


def test_a_hint_while_the_table_is_being_built_says_so():
    _, client = logged_in()
    fields = {**defaults("yatzy"), "option_upper_bonus_0": 60, "option_upper_bonus_1": 40}
    path = new_game(client, "solo", "yatzy", **fields)  # a table nobody has built
    page = text(client.get(path, {"hint": 1}))
    assert "data-hint-error" in page
    assert "is being built" in page


# -- the computer -----------------------------------------------------------------------


def test_the_computer_plays_each_turn_after_the_player_and_the_page_shows_it():
    _, client = logged_in()
    path = new_game(client, "computer", level="easy", **defaults("yahtzee"))
    rnd = round_of(path)
    assert rnd.level == "easy"
    page = text(client.get(path))
    assert "data-opponent-turn" not in page and "computer: Easy" in page
    client.post(f"{path}roll/", {"turn": 0, "roll": 0})
    category = next(iter(boxes(text(client.get(path)))))
    client.post(f"{path}score/", {"turn": 0, "category": category})
    page = text(client.get(path))
    rnd.refresh_from_db()
    played = rnd.opponent["turns"][0]
    assert 'data-opponent-turn="1"' in page
    assert f'data-opponent-box="{played["category"]}">{played["points"]}<' in page
    assert page.count("Roll 1</span>") == 1
    final = play_page_to_the_end(client, path)
    rnd.refresh_from_db()
    result = game_selectors.round_result(rnd, game_selectors.round_game(rnd))
    assert f'data-result="{result}"' in final
    assert f"data-opponent-total>{rnd.opponent['snapshot']['total']}<" in final


def test_the_computers_extra_yahtzee_has_its_line_and_its_joker_turn_says_130(monkeypatch):
    # Every roll is five sixes. The player fills chance, then sixes (no extra Yahtzee);
    # the computer fills yahtzee, then sixes by the joker with +100: its column shows
    # the line, so it adds up to its total, though the player has no extra bonus.
    import yatzy.game

    monkeypatch.setattr(yatzy.game, "draw", lambda seed, turn, roll, count: (6,) * count)
    _, client = logged_in()
    path = new_game(client, "computer", level="easy", **defaults("yahtzee"))
    for turn, category in enumerate(["chance", "sixes"]):
        client.post(f"{path}roll/", {"turn": turn, "roll": 0})
        client.post(f"{path}score/", {"turn": turn, "category": category})
    rnd = round_of(path)
    assert rnd.opponent["snapshot"]["extra_bonus"] == 100
    page = text(client.get(path))
    assert re.search(
        r'Extra yatzy bonus</th><td>0</td><td class="num opponent" data-opponent-extra>100<',
        page,
    ), page
    # Its joker turn's line said "Scored 30 in Sixes." though its total went up by 130;
    # the player's own score read out says 130 (the test below).
    assert "Scored 50 in Yahtzee." in page
    assert page.count("Scored 130 in Sixes.") == 2, page  # its last turn, and the list
    assert "Scored 30 in Sixes." not in page
    assert [turn["points"] for turn in rnd.opponent["turns"]] == [50, 30]  # stored: the box's


def test_the_score_read_out_after_a_joker_yahtzee_counts_its_extra_100(monkeypatch):
    # The first two turns roll five sixes: yahtzee takes 50, then the joker sends the
    # second Yahtzee to sixes, 30 there and 100 extra; the total goes up by 130, and the
    # line a screen reader hears at the next turn's start says 130, not the box's 30.
    import yatzy.game

    def draw(seed, turn, roll, count):
        return ((6, 6, 6, 6, 6) if turn < 2 else (1, 2, 3, 4, 6))[:count]

    monkeypatch.setattr(yatzy.game, "draw", draw)
    _, client = logged_in()
    path = new_game(client, "solo", **defaults("yahtzee"))
    for turn, category in enumerate(["yahtzee", "sixes"]):
        client.post(f"{path}roll/", {"turn": turn, "roll": 0})
        client.post(f"{path}score/", {"turn": turn, "category": category})
    rnd = round_of(path)
    assert rnd.snapshot["extra_bonus"] == 100
    page = text(client.get(path))
    assert "You scored 130 in Sixes." in page, page
    # A score without an extra bonus is read out as the box's points alone.
    client.post(f"{path}roll/", {"turn": 2, "roll": 0})
    client.post(f"{path}score/", {"turn": 2, "category": "chance"})
    assert "You scored 16 in Chance." in text(client.get(path))


# -- friend challenges ------------------------------------------------------------------


def test_a_friend_plays_a_shared_round_and_both_scorecards_show_side_by_side():
    owner, owner_client = logged_in("ada", display_name="Ada <b>L</b>")
    path = new_game(owner_client, "solo", **defaults("yahtzee"))
    shared = play_out(owner, round_of(path))
    assert 'data-action="share"' in text(owner_client.get(path))
    shared_page = owner_client.post(f"{path}share/", follow=True)
    code = re.search(r"data-share-code>(\w{8})<", text(shared_page)).group(1)
    assert f'value="http://testserver/f/{code}"' in text(shared_page)

    _, friend = logged_in("bea")
    invite = text(friend.get(f"/f/{code.lower()}"))  # as people type it
    assert "<bdi>Ada &lt;b&gt;L&lt;/b&gt;</bdi> challenges you" in invite
    assert 'name="view" value="target"' in invite
    started = friend.post(f"/f/{code}/play/", {"view": "target"})
    assert started.status_code == 302
    mine = started["Location"]
    assert f"Score to beat: {shared.total}" in text(friend.get(mine))
    assert "data-hint" not in text(friend.get(mine, {"hint": 1}))  # no hints for friends
    play_page_to_the_end(friend, mine)
    done = text(friend.get(f"/f/{code}"))
    assert "data-comparison" in done
    assert len(re.findall(r"data-compare-turn=", done)) == 13
    assert f"data-target>{shared.total}<" in done
    assert f"data-total>{round_of(mine).total}<" in done

    owner_page = text(owner_client.get(path))
    assert '<tr data-play-row><td class="who"><bdi>bea</bdi></td><td>target</td>' in owner_page
    own = text(owner_client.get(f"/f/{code}"))
    assert "Your challenge" in own and 'data-action="revoke"' in own
    revoked = owner_client.post(f"/f/{code}/revoke/", follow=True)
    assert "its link no longer works" in text(revoked)
    kept = friend.get(f"/f/{code}")  # who played it keeps the comparison
    assert kept.status_code == 200 and "data-comparison" in text(kept)
    assert 'name="view"' not in text(kept)
    _, stranger = logged_in("cyd")
    gone = stranger.get(f"/f/{code}")
    assert gone.status_code == 404 and "This challenge link does not work" in text(gone)
    assert 'data-action="share"' in text(owner_client.get(path))  # can be shared anew


def test_a_revoke_posted_twice_goes_back_to_the_round_both_times():
    # A double click on "Yes, revoke it" posts twice; the browser shows the second
    # answer, which was the friendly 404 "This challenge link does not work" although
    # the code had just been revoked as asked.
    owner, owner_client = logged_in("ada")
    path = new_game(owner_client, "solo", **defaults("yahtzee"))
    play_out(owner, round_of(path))
    owner_client.post(f"{path}share/")
    code = game_selectors.share_of_round(round_id=round_of(path).id, player=owner).code
    first = owner_client.post(f"/f/{code}/revoke/")
    second = owner_client.post(f"/f/{code.lower()}/revoke/", follow=True)
    assert first.status_code == 302 and first["Location"] == path
    assert second.redirect_chain == [(path, 302)]
    assert f"The code {code} is revoked: its link no longer works." in text(second)
    _, other = logged_in("eve")
    assert other.post(f"/f/{code}/revoke/").status_code == 404  # nobody else's to revoke


def test_an_unknown_code_is_a_friendly_404_and_only_the_sharer_may_revoke():
    owner, owner_client = logged_in("ada")
    path = new_game(owner_client, "solo", **defaults("yahtzee"))
    play_out(owner, round_of(path))
    owner_client.post(f"{path}share/")
    code = game_selectors.share_of_round(round_id=round_of(path).id, player=owner).code
    _, other = logged_in("eve")
    response = other.get("/f/<b>nope")
    assert response.status_code == 404
    assert "&lt;b&gt;nope" in text(response) and "<b>nope" not in text(response)
    assert other.post(f"/f/{code}/revoke/").status_code == 404
    assert other.get(f"/f/{code}").status_code == 200  # still live
    own_start = owner_client.post(f"/f/{code}/play/", {"view": "blind"}, follow=True)
    assert "This is your own round&#x27;s code." in text(own_start)
    visitor = Client().get(f"/f/{code}")  # readable logged out (tests/web/test_first_contact.py)
    assert visitor.status_code == 200 and 'data-action="register"' in text(visitor)


def test_an_unfinished_round_cannot_be_shared():
    _, client = logged_in()
    path = new_game(client, "solo", **defaults("yahtzee"))
    page = text(client.post(f"{path}share/", follow=True))
    assert "Only a finished round can be shared." in page
    assert "data-share-code" not in page


# -- parties ----------------------------------------------------------------------------


def party_of(path: str) -> Party:
    return Party.objects.get(pk=path.split("/")[2])


def play_party(player: User, party: Party, *, actions: int) -> None:
    """Play ``actions`` turns of a two-seat party in seat order, through the services the
    pages call: one roll, then the box with the most points."""
    for n in range(actions):
        turn, seat = divmod(n, 2)
        party = game_services.party_act(
            party_id=party.id, player=player, seat=seat, turn=turn, roll=0, action="roll"
        )
        options = game_selectors.round_game(party.seats.get(seat=seat)).options()
        game_services.party_act(
            party_id=party.id,
            player=player,
            seat=seat,
            turn=turn,
            category=max(options, key=options.get),
            action="score",
        )


def test_a_party_passes_the_turn_from_seat_to_seat_and_names_are_escaped():
    _, client = logged_in()
    seats = {"seat_0": "Ann", "seat_1": "Bo", "seat_2": "<script>alert(1)</script>"}
    path = new_game(client, "party", **seats, **defaults("yahtzee"))
    assert re.fullmatch(r"/parties/[0-9a-f-]{36}/", path)
    page = text(client.get(path))
    assert re.search(r'data-seat-turn="0"><bdi>Ann</bdi>.s turn<', page)
    assert page.count('<details class="seat-card"') == 3
    assert "Keys: 1-5 hold a die" in page  # Yahtzee's five dice, before the first roll too
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    client.post(f"{path}roll/", {"seat": 0, "turn": 0, "roll": 0})
    # The same roll again (a double submit): Ann's turn still, her roll seen is behind.
    again = client.post(f"{path}roll/", {"seat": 0, "turn": 0, "roll": 0}, follow=True)
    assert "The party has moved on since you last saw it" in text(again)
    assert "It is Ann" not in text(again)
    category = next(iter(boxes(text(client.get(path)))))
    client.post(f"{path}score/", {"seat": 0, "turn": 0, "category": category})
    page = text(client.get(path))
    assert re.search(r'data-seat-turn="1"><bdi>Bo</bdi>.s turn<', page)
    wrong = client.post(f"{path}roll/", {"seat": 0, "turn": 1, "roll": 0}, follow=True)
    assert "It is Bo&#x27;s turn (seat 1)" in text(wrong)
    party = party_of(path)
    assert party.current_seat == 1
    assert party.seats.get(seat=0).snapshot["turn"] == 1


def test_party_standings_show_equal_totals_as_a_draw():
    player, client = logged_in()
    party = game_services.party_create(player=player, seats=["Ann", "Bo"], ruleset="yahtzee")
    rs = yatzy.get_ruleset("yahtzee")
    same = yatzy.Game(rs, bytes(32))
    Round.objects.filter(party=party).update(seed=bytes(32), snapshot=same.snapshot())
    play_party(player, party, actions=13 * 2)
    page = text(client.get(f"/parties/{party.id}/"))
    assert 'data-status="completed"' in page
    assert len(re.findall(r'data-rank="1" data-draw>', page)) == 2
    assert "A draw: <bdi>Ann</bdi>, <bdi>Bo</bdi> share first place" in page


def test_a_party_seats_finished_round_has_share_on_the_party_page():
    player, client = logged_in()
    party = game_services.party_create(player=player, seats=["Ann", "Bo"], ruleset="yahtzee")
    ann = party.seats.get(seat=0)
    play_party(player, party, actions=13 * 2 - 1)  # Bo's last box stays open: Ann is done
    page = text(client.get(f"/parties/{party.id}/"))
    assert page.count('data-action="share"') == 1
    assert f'action="/play/{ann.id}/share/"' in page
    shared = text(client.post(f"/play/{ann.id}/share/", follow=True))
    code = ShareCode.objects.get(round=ann).code
    assert f"data-share-code>{code}<" in shared


def test_a_forms_address_opened_after_logging_in_again_leads_back_to_its_page():
    """A form posted once the session has ended goes to the log-in page, whose ``next``
    is the form's address: after logging in the player lands on the page the form was
    on, not on a blank "405 Method Not Allowed"."""
    me, client = logged_in()
    solo = new_game(client, "solo", **defaults("yahtzee"))
    party = new_game(client, "party", seat_0="Ann", seat_1="Bo", **defaults("yahtzee"))
    friend, _ = make_player("friend")
    shared = game_services.game_start(player=friend, mode="solo", ruleset="yahtzee")
    play_out(friend, shared)
    code = game_services.share_create(round_id=shared.id, player=friend).code
    mine = game_services.share_create(round_id=play_out(me, round_of(solo)).id, player=me).code
    logged_out = Client().post(f"{solo}roll/", {"turn": 0, "roll": 0})
    assert logged_out["Location"] == f"/accounts/login/?next={solo}roll/"
    pages = {
        f"{solo}roll/": solo,
        f"{solo}score/": solo,
        f"{solo}share/": solo,
        f"{party}roll/": party,
        f"{party}score/": party,
        f"/f/{code}/play/": f"/f/{code}",
        f"/f/{mine}/revoke/": f"/f/{mine}",
        f"/daily/{clock.today()}/play/": "/",
    }
    for address, page in pages.items():
        response = client.get(address)
        assert (response.status_code, response.get("Location")) == (302, page), address
    assert not Round.objects.filter(player=me, challenge__isnull=False).exists()
    assert ShareCode.objects.get(code=mine).revoked_at is None


def test_another_players_party_is_not_found_on_its_page_and_forms(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "play": "2/minute",
        },
    }
    owner, _ = make_player("owner")
    party = game_services.party_create(player=owner, seats=["Ann", "Bo"], ruleset="yahtzee")
    _, other = logged_in("other")
    assert other.get(f"/parties/{party.id}/").status_code == 404
    body = {"seat": 0, "turn": 0, "roll": 0, "category": "chance"}
    # Complete forms (the second pair over the play budget of 2), then incomplete ones.
    for fields in [body, body, {}, {"seat": "x"}]:
        for action in ("roll", "score"):
            answer = other.post(f"/parties/{party.id}/{action}/", fields)
            assert answer.status_code == 404, (action, fields)
            assert "No such party." in text(answer)
    assert all(rnd.snapshot["rolls_used"] == 0 for rnd in party.seats.all())


# -- settings and the games list --------------------------------------------------------


def settings_fields(ruleset: str, **options: object) -> dict[str, object]:
    """The settings page's option fields of ``ruleset`` as it first shows them (each
    ruleset's are named after it), with ``options`` changed."""
    fields = {f"option_{ruleset}_{name[7:]}": value for name, value in defaults(ruleset).items()}
    return {**fields, **{f"option_{ruleset}_{name}": value for name, value in options.items()}}


def test_settings_store_the_options_of_new_games_and_a_new_ruleset_starts_from_its_defaults():
    user, client = logged_in(ruleset="maxi")
    page = text(client.get("/settings/"))
    assert "They apply from your next new game" in page
    assert 'name="option_maxi_full_straight_points"' in page
    profile = {"display_name": "Ada", "language": "en", "time_zone": "UTC"}
    options = settings_fields("maxi", full_straight_points=30, forced_order="on")
    assert client.post("/settings/", {**profile, "ruleset": "maxi", **options}).status_code == 302
    user.refresh_from_db()
    assert user.options == {"forced_order": True, "full_straight_points": 30}
    fresh = {**options, **settings_fields("yahtzee")}
    switched = client.post("/settings/", {**profile, "ruleset": "yahtzee", **fresh}, follow=True)
    user.refresh_from_db()
    assert (user.ruleset, user.options) == ("yahtzee", {})
    assert re.search(r'name="option_yahtzee_upper_bonus_0" value="63"', text(switched))
    bad = client.post(
        "/settings/", {**profile, "ruleset": "yahtzee", "option_yahtzee_upper_bonus_0": -1}
    )
    assert bad.status_code == 400


def test_the_games_list_shows_unfinished_and_finished_games_with_their_links():
    player, client = logged_in()
    solo = round_of(new_game(client, "solo", **defaults("yahtzee")))
    done = play_out(
        player, round_of(new_game(client, "computer", level="easy", **defaults("yahtzee")))
    )
    party = party_of(new_game(client, "party", seat_0="Ann", seat_1="Bo", **defaults("yahtzee")))
    daily = round_of(start(client))
    page = text(client.get("/games/"))
    unfinished, finished = page.split('id="finished-heading"')
    for rnd in (solo, daily):
        assert (
            f'data-game="{rnd.id}"' in unfinished and f'href="/play/{rnd.id}/">Resume' in unfinished
        )
    assert f'data-game="{party.id}" data-mode="party"' in unfinished
    assert f'href="/parties/{party.id}/">Resume' in unfinished
    assert "<bdi>Ann</bdi> 0 · <bdi>Bo</bdi> 0" in unfinished
    play_party(player, party, actions=1)  # Ann has played turn 1; Bo's turn 1 is next
    line = re.search(rf'data-game="{party.id}".*?</tr>', text(client.get("/games/")), re.S)
    assert "turn 1<" in line.group(0) and "turn 2" not in line.group(0)
    line = re.search(rf'data-game="{done.id}".*?</tr>', finished, re.S).group(0)
    assert "Computer (Easy)" in line and "Yahtzee" in line
    theirs = done.opponent["snapshot"]["total"]
    assert f"<span data-game-total>{done.total}</span> \N{EN DASH} {theirs}" in line
    assert f'href="/play/{done.id}/">Review' in line
    assert page.count("data-game=") == 4


def test_an_unfinished_solo_computer_or_party_game_is_given_up_from_the_games_list():
    player, client = logged_in()
    solo = round_of(new_game(client, "solo", **defaults("yahtzee")))
    party = party_of(new_game(client, "party", seat_0="Ann", seat_1="Bo", **defaults("yahtzee")))
    done = play_out(
        player, round_of(new_game(client, "computer", level="easy", **defaults("yahtzee")))
    )
    daily = round_of(start(client))
    page = text(client.get("/games/"))

    def line(game) -> str:
        return re.search(rf'data-game="{game.id}".*?</tr>', page, re.S).group(0)

    # Asked for in two steps: the button opens the question, its form gives it up.
    for game in (solo, party):
        assert 'data-action="give-up-ask"' in line(game)
        assert f'action="/games/{game.id}/give-up/"' in line(game)
    for game in (done, daily):  # finished, or a daily round: nothing to give up
        assert "give-up" not in line(game)
    assert client.get(f"/games/{solo.id}/give-up/")["Location"] == "/games/"
    assert Round.objects.filter(pk=solo.id).exists()  # a GET gives nothing up
    response = client.post(f"/games/{solo.id}/give-up/", follow=True)
    assert "The game is given up." in text(response)
    assert not Round.objects.filter(pk=solo.id).exists()
    client.post(f"/games/{party.id}/give-up/")
    assert not Party.objects.filter(pk=party.id).exists()
    # A daily round posted anyway is refused with the API's message, and kept.
    refused = text(client.post(f"/games/{daily.id}/give-up/", follow=True))
    assert "Daily and friend rounds cannot be given up" in refused
    assert Round.objects.filter(pk=daily.id).exists()


def test_give_up_from_the_games_list_shares_the_apis_play_budget(settings):
    """The page's give-up is the API's DELETE games/{id}/ (throttle scope play): over
    the budget it is refused with the throttle's words and nothing is given up."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "play": "1/minute",
        },
    }
    player, client = logged_in()
    first, second = (
        game_services.game_start(player=player, mode="solo", ruleset="yahtzee") for _ in "ab"
    )
    assert "The game is given up." in text(client.post(f"/games/{first.id}/give-up/", follow=True))
    assert not Round.objects.filter(pk=first.id).exists()
    refused = client.post(f"/games/{second.id}/give-up/", follow=True)
    assert "The game is given up." not in text(refused)
    assert "Too many attempts; try again in" in text(refused), text(refused)
    assert Round.objects.filter(pk=second.id).exists()


# -- safety of the new pages ------------------------------------------------------------


def test_the_new_pages_have_csrf_on_every_form_and_nothing_inline():
    player, client = logged_in()
    solo = new_game(client, "solo", **defaults("yahtzee"))
    play_out(player, round_of(solo))
    client.post(f"{solo}share/")
    party = new_game(client, "party", seat_0="Ann", seat_1="Bo", **defaults("yahtzee"))
    computer = new_game(client, "computer", level="easy", **defaults("yahtzee"))
    client.post(f"{computer}roll/", {"turn": 0, "roll": 0})
    code = re.search(r"data-share-code>(\w{8})<", text(client.get(solo))).group(1)
    paths = [
        "/games/",
        "/games/new/solo/",
        "/games/new/computer/",
        "/games/new/party/",
        solo,
        f"{solo}analysis/",
        f"{computer}?hint=1",
        party,
        f"/f/{code}",
        "/settings/",
    ]
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        page = text(response)
        assert "unsafe-inline" not in response["Content-Security-Policy"]
        assert not re.search(r"<script(?![^>]*\ssrc=)", page), path
        assert not re.search(r"<style|\sstyle=|\son[a-z]+=", page), path
        for form in re.findall(r'<form method="post".*?</form>', page, re.S):
            assert 'name="csrfmiddlewaretoken"' in form, path
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post("/games/new/solo/", {"ruleset": "yahtzee"}).status_code == 403
    assert strict.post(f"{party}roll/", {"seat": 0, "turn": 0, "roll": 0}).status_code == 403


def test_a_practice_round_of_a_revealed_day_has_the_hint_button():
    _, client = logged_in()
    today = clock.today()
    yesterday = today - dt.timedelta(days=1)
    with travel(noon(today)):
        challenge_get_or_create(day=yesterday)
        path = client.post(f"/daily/{yesterday}/play/")["Location"]
        page = text(client.get(path, {"hint": 1}))
    # The Maxi table, which no test builds: the hint says it is being built.
    assert 'data-action="hint"' in page and "data-hint-error" in page
