"""The commands in-process, against the real API through httpx's WSGI transport: what
each prints, and what it keeps on the player's machine."""

from __future__ import annotations

import datetime as dt
import io
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


class Script:
    def __init__(self, lines):
        self.lines = list(lines)

    def read(self, prompt):
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


class Terminal:
    """One player's machine running commands in-process."""

    def __init__(self, tmp_path, password=PASSWORD):
        self.store = CredentialStore(tmp_path / "config")
        self.journal = Journal(tmp_path / "data")
        self.password = password
        self.transport = httpx.WSGITransport(app=get_wsgi_application())

    def __call__(self, *argv, keys=()):
        out, err = io.StringIO(), io.StringIO()
        app = App(
            server=SERVER,
            console=Console(file=out, width=120, color_system=None, highlight=False),
            errors=Console(file=err, width=120, color_system=None, highlight=False),
            store=self.store,
            journal=self.journal,
            reader=Script(keys),
            read_password=lambda prompt: self.password,
            transport=self.transport,
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


def test_the_daily_is_played_to_the_end_and_then_on_the_board(ada):
    status, out, _ = ada("play", keys=["?", *turn_keys(20)])
    assert status == 0
    assert "Daily resets in" in out or "Day closed" in out
    total = int(re.search(r"Round completed: (\d+) points", out)[1])
    assert "It is your score of the day" in out
    status, out, _ = ada("boards")
    assert status == 0 and f"1 ada {total} ◀ you" in out and f"you: #1 with {total}" in out
    status, out, _ = ada("play")
    assert "You have played the daily of" in out and "--practice" in out
    status, out, _ = ada("verify", clock.today().isoformat())
    assert status == 1 and "is not revealed yet" in out and "This client recorded" in out


def test_leaving_a_round_keeps_it_and_play_resumes_it(ada):
    status, out, _ = ada("play", keys=["r", "s chance", "q"])
    assert status == 0 and "Left the round at turn 2; it is kept on the server." in out
    status, out, _ = ada("play", keys=["q"])
    assert "Turn 2 of 20 · roll 0 of 3" in out and re.search(r"19 Chance \d+", out)


def test_a_solo_game_with_hints_verifies_once_over(ada, yatzy_table):
    status, out, _ = ada("play", "--solo", "yatzy", keys=["r", "?", "1", "r", "s 1", "q"])
    assert status == 0 and "Best moves (expected final score)" in out
    status, out, _ = ada("play", "--solo", "yatzy", keys=turn_keys(15, first=2))
    assert "Resuming your unfinished solo game (yatzy)." in out
    round_id = re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1]
    status, out, _ = ada("verify", round_id)
    assert status == 0 and "VERIFIED" in out
    assert "30 compared with the dice shown here" in out


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


def test_boards_advent_and_rules_are_shown(ada):
    for board in ("best-day", "streaks", "advent"):
        status, out, _ = ada("boards", board, "--around-me")
        assert status == 0 and "on the board" in out
    status, out, _ = ada("advent", "2026")
    assert status == 0 and "Advent calendar 2026" in out and "Total 0" in out
    status, out, _ = ada("rules", "yahtzee")
    assert status == 0 and "Yahtzee (yahtzee) 5 dice, 13 turns" in out
    assert "maximum total 1575" in out and "Described by the local engine" in out
    status, _, err = ada("rules", "maxi", "-o", "bogus")
    assert status == 1 and "An option is NAME=VALUE" in err


def test_the_server_refusal_is_printed_in_its_own_words(ada):
    status, _, err = ada("play", "--round", "00000000-0000-0000-0000-000000000000")
    assert (status, err) == (1, "No such round. (round_not_found)")
