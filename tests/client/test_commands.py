"""The commands in-process, against the real API through httpx's WSGI transport: what
each prints, what it keeps on the player's machine, and what it does when the network
goes away or the server asks it to wait."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import stat

import httpx
import pytest
from django.core.wsgi import get_wsgi_application
from rich.console import Console

from client.__main__ import main
from client.commands import App
from client.storage import CredentialStore, Journal
from daily import clock
from daily.services import challenge_get_or_create

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "plum-tractor-quietly-47"
SERVER = "http://testserver"


@pytest.fixture(autouse=True)
def _english(monkeypatch):
    """The client asks for the locale's language: English here, whatever the machine's."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


class Script:
    """Lines typed at the prompt; a callable in between is done at that point. A scratch
    is confirmed (``y``) unless the script answers the question itself."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.prompts = []

    def read(self, prompt):
        self.prompts.append(prompt)
        if "scratch it?" in prompt and self.lines[:1] not in (["y"], ["n"]):
            return "y"
        while self.lines and callable(self.lines[0]):
            self.lines.pop(0)()
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


class Network(httpx.BaseTransport):
    """The server in-process, behind a cable that can be pulled."""

    def __init__(self):
        self.server = httpx.WSGITransport(app=get_wsgi_application())
        self.up = True

    def handle_request(self, request):
        if not self.up:
            raise httpx.ConnectError("Connection refused", request=request)
        return self.server.handle_request(request)


class Terminal:
    """One player's machine running commands in-process; the waits it would sleep are
    recorded in ``waits``."""

    def __init__(self, tmp_path, password=PASSWORD):
        self.store = CredentialStore(tmp_path / "config")
        self.journal = Journal(tmp_path / "data")
        self.password = password
        self.transport = Network()
        self.attempts = 5
        self.width = 120
        self.waits = []

    def __call__(self, *argv, keys=()):
        out, err = io.StringIO(), io.StringIO()
        app = App(
            server=SERVER,
            console=Console(file=out, width=self.width, color_system=None, highlight=False),
            errors=Console(file=err, width=self.width, color_system=None, highlight=False),
            store=self.store,
            journal=self.journal,
            reader=Script(keys),
            read_password=lambda prompt: self.password,
            transport=self.transport,
            attempts=self.attempts,
            sleep=self.waits.append,
        )
        status = main(list(argv), app)
        return status, " ".join(out.getvalue().split()), " ".join(err.getvalue().split())


def turn_keys(turns, *, first=1):
    return [key for box in range(first, turns + 1) for key in ("r", "1", "r", f"s {box}")]


@pytest.fixture
def ada(tmp_path):
    terminal = Terminal(tmp_path)
    assert terminal("register", "ada")[0] == 0
    return terminal


def test_register_keeps_the_token_private_and_logout_removes_it(tmp_path):
    terminal = Terminal(tmp_path)
    status, out, _ = terminal("register", "ada")
    assert status == 0 and "Welcome, ada! Registered on http://testserver and logged in." in out
    assert stat.S_IMODE(terminal.store.path.stat().st_mode) == 0o600
    assert PASSWORD not in terminal.store.path.read_text()
    status, out, _ = terminal("logout")
    assert (status, out) == (
        0,
        "Logged out of http://testserver: the token is revoked and removed.",
    )
    assert not terminal.store.path.exists()
    assert terminal("logout")[1] == "Not logged in on http://testserver."
    status, _, err = terminal("boards")
    assert status == 1 and "Not logged in on http://testserver" in err

    status, out, _ = terminal("login", "ADA")
    assert status == 0 and out == "Logged in as ada on http://testserver."
    terminal.password = "wrong"
    status, _, err = terminal("login", "ada")
    assert status == 1 and err == "Unknown username or wrong password. (invalid_input)"


def test_a_revoked_token_says_to_log_in_again(ada):
    with httpx.Client(transport=ada.transport, base_url=SERVER) as http:
        token = ada.store.get(SERVER).token
        http.post("/api/v1/accounts/logout/", headers={"Authorization": f"Token {token}"})
    status, _, err = ada("boards")
    assert status == 1 and "Log in again: `yatzy-play login NAME`." in err


def test_the_daily_is_played_to_the_end_and_then_on_the_board_under_the_name_as_written(ada):
    with httpx.Client(transport=ada.transport, base_url=SERVER) as http:
        me = http.patch(
            "/api/v1/accounts/me/",
            json={"display_name": "[bold]Ada[/]"},  # rich markup, shown as written
            headers={"Authorization": f"Token {ada.store.get(SERVER).token}"},
        )
        assert me.status_code == 200, me.text
    status, out, _ = ada("play", keys=["?", *turn_keys(20)])
    assert status == 0
    assert "Daily resets in" in out or "Day closed" in out
    total = int(re.search(r"Round completed: (\d+) points", out)[1])
    assert "It is your score of the day" in out
    status, out, _ = ada("boards")
    assert status == 0 and f"1 [bold]Ada[/] {total} ◀ you" in out
    assert f"you: #1 with {total}" in out
    status, out, _ = ada("play")
    assert "You have played the daily of" in out and "--practice" in out
    status, out, _ = ada("verify", clock.today().isoformat())
    assert status == 1 and "is not revealed yet" in out and "This client recorded" in out


def test_leaving_a_round_keeps_it_and_play_resumes_it(ada):
    status, out, _ = ada("play", keys=["r", "s chance", "q"])
    assert status == 0 and "Left the round at turn 2; it is kept on the server." in out
    status, out, _ = ada("play", keys=["q"])
    assert "Turn 2 of 20 · roll 0 of 3" in out and re.search(r"19 Chance \d+", out)


def test_a_solo_game_with_hints_verifies_once_over_and_fails_on_other_dice(ada, yatzy_table):
    status, out, _ = ada("play", "--solo", "yatzy", keys=["r", "?", "1", "r", "s 1", "q"])
    assert status == 0 and "Best moves (expected final score)" in out
    assert re.search(
        r"(keep [\d ]+ \(dice [\d ]+\) and roll|score [A-Z][a-z ]+ for \d+) \d+\.\d", out
    )
    status, out, _ = ada("play", "--solo", "yatzy", keys=turn_keys(15, first=2))
    assert "Resuming your unfinished solo game (yatzy)." in out
    round_id = re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1]
    status, out, _ = ada("verify", round_id)
    assert status == 0 and "VERIFIED" in out
    assert "✓ sha256(seed) equals the round's commitment" in out
    assert "15 turns, 30 rolls recomputed from the seed" in out
    assert "30 compared with the dice shown here" in out

    # Had the server shown other dice during play than the seed gives, verify says so.
    journal = ada.journal.directory / f"{round_id}.json"
    record = json.loads(journal.read_text())
    record["rolls"]["4/2"] = [6, 6, 6, 6, 6]
    journal.write_text(json.dumps(record))
    status, out, _ = ada("verify", round_id)
    assert status == 1 and "✗ turn 5 roll 2" in out and "VERIFICATION FAILED" in out


def test_a_hint_while_the_table_is_built_is_retried_as_the_server_asks_then_explained(ada):
    status, out, err = ada("play", "--solo", "maxi", keys=["r", "?", "q"])
    assert status == 0 and "Left the round at turn 1" in out
    assert "The server is unavailable (503: The strategy table for Maxi Yatzy" in err
    assert "retrying in 10 s (attempt 2 of 5)" in err and ada.waits == [10, 10, 10, 10]
    assert "is being built" in out  # the last answer's message, under the frame


def test_a_computer_game_shows_and_verifies_the_computers_turns(ada):
    status, out, _ = ada("play", "--computer", "easy", "--ruleset", "yatzy", keys=turn_keys(15))
    assert status == 0 and "Computer (easy), turn 15:" in out
    assert re.search(r"You (win|lose|draw): \d+ against the computer's \d+\.", out)
    round_id = re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1]
    status, out, _ = ada("verify", round_id)
    assert status == 0 and "the computer's 15 turns replay on the seed" in out


def test_a_past_day_is_played_unranked_and_verified_by_its_date(ada):
    day = clock.today() - dt.timedelta(days=2)
    challenge_get_or_create(day=day)
    status, out, _ = ada("play", "--date", day.isoformat(), keys=turn_keys(20))
    assert status == 0 and f"Daily {day} · Maxi Yatzy · practice" in out
    assert "The seed is revealed" in out
    status, out, _ = ada("verify", day.isoformat())
    assert status == 0 and f"published for the day {day}" in out and "VERIFIED" in out
    assert ada("verify", (day - dt.timedelta(days=1)).isoformat())[0] == 1


def test_a_friend_plays_a_shared_round_and_sees_both_cards(ada, tmp_path):
    _, out, _ = ada("play", "--solo", "yatzy", keys=turn_keys(15))
    status, out, _ = ada("share", re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1])
    code = re.search(r"Friend code (\w+)", out)[1]
    bob = Terminal(tmp_path / "bob")
    bob("register", "bob")
    status, out, _ = bob("friend", code, keys=turn_keys(15))
    assert status == 0 and "ada challenges you · Yatzy" in out and "Score to beat:" in out
    assert "Side by side" in out
    status, out, _ = bob("friend", code)
    assert "Your round: completed" in out


def test_boards_and_advent_are_shown(ada):
    for board in ("best-day", "streaks", "advent"):
        status, out, _ = ada("boards", board, "--around-me")
        assert status == 0 and "on the board" in out
    status, out, _ = ada("advent", "2026")
    assert status == 0 and "Advent calendar 2026" in out and "Total 0" in out


def test_rules_are_the_servers_with_the_options_given(tmp_path):
    terminal = Terminal(tmp_path)  # no account needed
    terminal.width = 240  # each description on one line
    status, out, _ = terminal("rules", "yahtzee")
    assert status == 0
    assert "Yahtzee (yahtzee) · 5 dice · 13 turns · maximum total 1575" in out
    assert "The American game for five dice" in out
    assert "they earn 35 bonus points." in out
    assert "Full house Three dice of one face and two of another: 25 points. 6 6 6 5 5 25" in out
    assert "Joker rule:" in out
    # Rich markup in the server's words is shown as written ("[threshold, points]").
    assert "the bonus: [threshold, points]." in out
    status, out, _ = terminal(
        "rules", "maxi", "-o", "full_straight_points=30", "-o", "upper_bonus=75,50"
    )
    assert "maximum total 608" in out and "1-2-3-4-5-6: 30 points. 1 2 3 4 5 6 30" in out
    assert "total 75 or more, they earn 50 bonus points." in out
    assert "upper_bonus 75,50 84,100 0-10000 each Upper bonus: The upper total" in out


def test_rules_and_refusals_come_in_the_players_language(tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    terminal = Terminal(tmp_path)
    terminal.width = 240
    status, out, _ = terminal("rules", "yatzy")
    assert (
        status == 0
        and "13 Kåk Tre tärningar av ett värde" in out
        and "14 Chans Vilka tärningar" in out
    )
    status, _, err = terminal("rules", "yatzy", "-o", "full_straight_points=30")
    assert status == 1
    assert err.startswith("Inställningen full_straight_points gäller inte för Yatzy")
    assert err.endswith("(option_not_applicable)")
    status, _, err = terminal("rules", "maxi", "-o", "bogus")
    assert status == 1 and "An option is NAME=VALUE, not 'bogus'." in err
    status, _, err = terminal("rules", "poker")
    assert status == 1 and err.endswith("(unknown_ruleset)")


def test_the_scorecard_has_the_servers_box_names_and_scores_by_them(tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    terminal = Terminal(tmp_path)
    terminal("register", "sven")
    status, out, _ = terminal("play", "--solo", "yatzy", keys=["r", "s chans", "q"])
    assert status == 0 and re.search(r"14 Chans \d+", out) and "15 Yatzy" in out
    assert re.search(r"Chans: \d+ points\.", out)


def test_a_lost_connection_mid_round_resumes_on_the_next_play(ada):
    def pull_the_cable():
        ada.transport.up = False

    ada.attempts = 2
    status, out, err = ada("play", keys=["r", "s chance", pull_the_cable, "r"])
    assert status == 1
    assert (
        "Cannot reach http://testserver (Connection refused); retrying in 1 s (attempt 2 of 2)."
        in err
    )
    assert "Lost the connection to the server" in err and "`yatzy-play play` resumes it" in err

    ada.transport.up = True
    status, out, _ = ada("play", keys=["q"])
    assert status == 0
    assert "Turn 2 of 20 · roll 0 of 3" in out and re.search(r"19 Chance \d+", out)


def test_the_server_refusal_is_printed_in_its_own_words(ada):
    status, _, err = ada("play", "--round", "00000000-0000-0000-0000-000000000000")
    assert (status, err) == (1, "No such round. (round_not_found)")
    # Which rulesets and levels exist is the server's to say.
    status, _, err = ada("play", "--computer", "godlike")
    assert (status, err) == (1, 'level: "godlike" is not a valid choice. (invalid_input)')
    status, _, err = ada("play", "--solo", "poker")
    assert (status, err) == (1, 'ruleset: "poker" is not a valid choice. (invalid_input)')
