"""The commands in-process, against the real API through httpx's WSGI transport: what
each prints, what it keeps on the player's machine, and what it does when the network
goes away or the server asks it to wait."""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import io
import json
import os
import re
import stat
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
import time_machine
from django.core.wsgi import get_wsgi_application
from django.utils import timezone as dj_timezone

import yatzy
from client.__main__ import main
from client.commands import App, terminal_console
from client.storage import CredentialStore, Journal
from daily import clock
from daily.services import challenge_get_or_create
from games.models import Round

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
    """The server in-process, behind a cable that can be pulled; ``tamper``, when set,
    rewrites the JSON of the answers to GET requests (a server changing its story)."""

    def __init__(self):
        self.server = httpx.WSGITransport(app=get_wsgi_application())
        self.up = True
        self.tamper = None
        self.requests = []

    def handle_request(self, request):
        if not self.up:
            raise httpx.ConnectError("Connection refused", request=request)
        self.requests.append(request)
        response = self.server.handle_request(request)
        if self.tamper is None or request.method != "GET" or response.status_code != 200:
            return response
        body = json.loads(response.read())
        return httpx.Response(200, json=self.tamper(request.url.path, body))


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
        self.server = SERVER

    def app(self, console, errors, **options):
        """A run of the client on this machine (its files and network)."""
        return App(
            server=self.server,
            console=console,
            errors=errors,
            store=self.store,
            journal=self.journal,
            transport=self.transport,
            **options,
        )

    def __call__(self, *argv, keys=()):
        out, err = io.StringIO(), io.StringIO()
        self.script = Script(keys)  # its prompts: what the last command asked
        app = self.app(
            terminal_console(file=out, width=self.width, color_system=None),
            terminal_console(file=err, width=self.width, color_system=None),
            reader=self.script,
            read_password=lambda prompt: self.password,
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


def test_one_server_is_one_login_however_its_address_is_typed(tmp_path):
    """Registered with ``--server HTTP://TESTSERVER:80/``, the next command with
    ``--server http://testserver`` said "Not logged in on http://testserver"."""
    terminal = Terminal(tmp_path)
    terminal.server = "HTTP://TESTSERVER:80/"
    status, out, _ = terminal("register", "ada")
    assert status == 0 and "Registered on http://testserver and logged in." in out
    for spelled in ("http://testserver", "http://testserver/", "http://TestServer:80"):
        terminal.server = spelled
        assert terminal("boards")[0] == 0
    status, out, _ = terminal("logout")
    assert (status, out) == (
        0,
        "Logged out of http://testserver: the token is revoked and removed.",
    )
    assert not terminal.store.path.exists()


def test_a_revoked_token_says_to_log_in_again(ada):
    with httpx.Client(transport=ada.transport, base_url=SERVER) as http:
        token = ada.store.get(SERVER).token
        http.post("/api/v1/accounts/logout/", headers={"Authorization": f"Token {token}"})
    status, _, err = ada("boards")
    assert status == 1 and "Log in again: `yatzy-play login NAME`." in err


def test_a_damaged_saved_token_says_so_and_logout_forgets_it(ada):
    """A token that no header can carry (a file edited by hand, a server's) was "Cannot
    reach … Illegal header value" on every command, as if the network had failed."""
    from client.storage import Credentials

    ada.store.save(Credentials(SERVER, "ada", "tok\nen"))
    status, _, err = ada("boards")
    assert status == 1 and "The token saved for http://testserver" in err
    assert "is damaged" in err and "Cannot reach" not in err
    assert ada("logout")[0] == 0 and ada.store.get(SERVER) is None
    assert ada("login", "ada")[0] == 0 and ada("boards")[0] == 0


def test_a_token_the_server_gives_that_no_header_can_carry_is_not_kept(ada, monkeypatch):
    from client.api import ApiClient

    original = ApiClient.request

    def odd_token(self, method, path, **kwargs):
        answer = original(self, method, path, **kwargs)
        return {**answer, "token": "t\u00f8ken"} if path == "accounts/token/" else answer

    ada("logout")
    monkeypatch.setattr(ApiClient, "request", odd_token)
    status, _, err = ada("login", "ada")
    assert status == 1 and "not in the form this client reads" in err
    assert ada.store.get(SERVER) is None


def test_a_token_revoked_elsewhere_mid_round_ends_the_screen_with_the_way_back(ada):
    """The screen said "Invalid token." after each key, with no word on what to do."""

    def log_out_elsewhere():
        with httpx.Client(transport=ada.transport, base_url=SERVER) as http:
            token = ada.store.get(SERVER).token
            http.post("/api/v1/accounts/logout/", headers={"Authorization": f"Token {token}"})

    status, _, err = ada("play", keys=["r", log_out_elsewhere, "r", "r", "q"])
    assert status == 1 and "Log in again: `yatzy-play login NAME`." in err
    assert err.count("Invalid token") == 1


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


def test_a_days_round_whose_answer_drops_its_date_is_checked_against_the_commitment_seen_here(
    ada,
):
    status, out, _ = ada("play", keys=turn_keys(20))  # the day's commitment noted, unrevealed
    round_id = re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1]
    (ada.journal.directory / f"{round_id}.json").unlink()  # as if played in the browser
    seed = hashlib.sha256(b"another seed").digest()

    def swapped(path, body):
        """Another seed, its commitment everywhere, the round's dice retold from it; and
        no date in the round, so that the day's commitment seen here is not looked up."""
        if "/daily/" in path or "/rounds/" in path:
            body = body | {"seed": seed.hex(), "commitment": yatzy.commitment(seed)}
        if "/rounds/" in path:
            body = retold(body, body["actions"])
            del body["date"]
        return body

    ada.transport.tamper = swapped
    status, out, _ = ada("verify", clock.today().isoformat())
    assert status == 1 and "VERIFICATION FAILED" in out
    assert "it equals the day's commitment this client saw at" in out


EVIL = "[/]EVIL\x1b]0;pwned\x07\x1b[2J\x9b31m[link=http://evil/]x"


def test_a_server_cannot_drive_the_terminal_through_its_words(ada):
    """Escape sequences in a server's strings cleared the screen and set the window's
    title; markup in them ("[/]") raised rich's MarkupError on log-in."""

    def evil(path, body):
        if path.endswith("/accounts/me/"):
            return {**body, "username": EVIL}
        if "/leaderboards/" in path:
            for entry in body["results"]:
                entry["display_name"] = EVIL
        return body

    status, out, _ = ada("play", keys=turn_keys(20))
    assert status == 0
    ada.transport.tamper = evil
    status, out, err = ada("login", "ada")
    assert status == 0 and "Logged in as [/]EVIL]0;pwned[2J31m[link=http://evil/]x" in out
    status, out, _ = ada("boards")
    assert status == 0 and "[/]EVIL]0;pwned" in out
    for text in (out, err):
        assert not any(char in text for char in "\x1b\x07\x9b")


@pytest.mark.parametrize(
    ("where", "tampered"),
    [
        ("/leaderboards/", lambda body: {**body, "results": [None]}),
        ("/leaderboards/", lambda body: [1, 2, 3]),
        ("/daily/", lambda body: {key: value for key, value in body.items() if key != "date"}),
    ],
)
def test_an_answer_of_another_shape_is_one_line_not_a_traceback(ada, where, tampered):
    ada.transport.tamper = lambda path, body: (
        tampered(body)
        if path.endswith(where) or (where == "/leaderboards/" and where in path)
        else body
    )
    status, out, err = ada("boards")
    assert status == 1
    assert "is not in the form this client reads" in err and "Traceback" not in out + err


def test_an_answer_that_ends_a_round_mid_way_says_how_to_resume_it(ada):
    """A lost connection mid-round named the command that resumes the round; an answer
    of another shape, or a 401 (logged out elsewhere), ended the session without it."""
    resume = r"Your round is kept on the server: `yatzy-play play` \(or `yatzy-play play --round "
    resume += r"[\w-]+`\) resumes it\.$"

    def misshapen(path, body):
        return {**body, "scorecard": [1]} if "/rounds/" in path else body

    status, _, err = ada(
        "play", keys=["r", lambda: setattr(ada.transport, "tamper", misshapen), "l"]
    )
    assert status == 1 and "is not in the form this client reads" in err
    assert re.search(resume, err), err
    ada.transport.tamper = None
    status, _, err = ada("play", keys=[lambda: ada("logout"), "r"])
    assert status == 1 and "Log in again" in err
    assert re.search(resume, err), err


def test_leaving_a_round_keeps_it_and_names_the_command_that_resumes_it(ada):
    status, out, _ = ada("play", keys=["r", "s chance", "q"])
    assert status == 0 and "Left the round at turn 2; it is kept on the server." in out
    daily = re.search(r"with `yatzy-play play` \(or `yatzy-play play --round ([\w-]+)`", out)
    status, out, _ = ada("play", keys=["q"])
    assert "Turn 2 of 20 · roll 0 of 3" in out and re.search(r"19 Chance \d+", out)
    status, out, _ = ada("play", "--round", daily[1], keys=["q"])
    assert "Turn 2 of 20 · roll 0 of 3" in out

    status, out, _ = ada("play", "--solo", "yatzy", keys=["r", "q"])
    solo = re.search(r"Resume it with `yatzy-play play --round ([\w-]+)`\.", out)
    assert solo, out
    status, out, _ = ada("play", "--round", solo[1], keys=["q"])
    assert status == 0 and "Solo · Yatzy" in out and "Turn 1 of 15 · roll 1 of 3" in out
    # By the start of its id, as `games` shows it.
    status, out, _ = ada("play", "--round", solo[1][:8].upper(), keys=["q"])
    assert status == 0 and "Solo · Yatzy" in out and "Turn 1 of 15 · roll 1 of 3" in out
    none = next(start for start in ("0000", "ffff") if not {daily[1][:4], solo[1][:4]} & {start})
    status, _, err = ada("play", "--round", none)
    assert status == 1 and "None of your unfinished games has an id starting with" in err


def test_a_ranked_round_left_before_midnight_is_resumed_in_the_grace_period(ada):
    # SPEC §4: a round started before midnight may be finished in the grace period; the
    # command the client names to resume it must resume it, not start the new day's.
    with time_machine.travel(dt.datetime(2026, 12, 5, 23, 50, tzinfo=dt.UTC), tick=False):
        status, out, _ = ada("play", keys=["r", "s chance", "q"])
        assert status == 0 and "with `yatzy-play play` (or" in out
    with time_machine.travel(dt.datetime(2026, 12, 6, 0, 10, tzinfo=dt.UTC), tick=False):
        status, out, _ = ada("play", keys=["q"])
        assert status == 0 and "Turn 2 of 20 · roll 0 of 3" in out
        assert "Your ranked round of 2026-12-05 may still be finished" in out
        assert not Round.objects.filter(challenge__date=dt.date(2026, 12, 6)).exists()
    with time_machine.travel(dt.datetime(2026, 12, 6, 0, 31, tzinfo=dt.UTC), tick=False):
        status, out, _ = ada("play", keys=["q"])  # expired: today's daily, from turn 1
        assert status == 0 and "Turn 1 of 20 · roll 0 of 3" in out
    assert Round.objects.get(challenge__date=dt.date(2026, 12, 6)).ranked


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
    assert "30 rolls compared with the dice shown here" in out
    assert re.search(r" 1 [\d ]+ ✓ → keep 1 → [\d ]+ ✓ → Ones \d+ played here", out)  # names

    # Had the server shown other dice during play than the seed gives, verify says so.
    journal = ada.journal.directory / f"{round_id}.json"
    record = json.loads(journal.read_text())
    shown = [e for e in record["events"] if e["event"] == "shown" and e["turn"] == 4]
    next(e for e in shown if e["roll"] == 2)["dice"] = [6, 6, 6, 6, 6]
    journal.write_text(json.dumps(record))
    status, out, _ = ada("verify", round_id)
    assert status == 1 and "✗ turn 5 (Fives): roll 2: the seed gives" in out
    assert "but this client was shown 6 6 6 6 6" in out and "VERIFICATION FAILED" in out


def retold(body, actions):
    """A round's answer told again from another action log, consistent in itself: what
    a server that changed its story after play would answer."""
    rs = yatzy.get_ruleset(body["ruleset"], **body["rules"])
    game = yatzy.Game.replay(rs, bytes.fromhex(body["seed"]), actions)
    return body | {
        "actions": game.actions,
        "scorecard": game.scorecard,
        "upper_total": game.upper_total,
        "bonus": game.bonus,
        "extra_bonus": game.extra_bonus,
        "total": game.total,
    }


def test_verify_fails_on_a_server_that_swaps_two_turns_boxes_or_deletes_a_roll(ada, tmp_path):
    _, out, _ = ada("play", "--solo", "yatzy", keys=turn_keys(15))  # box N in turn N
    round_id = re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1]
    shown_total = int(re.search(r"Round completed: (\d+) points", out)[1])
    assert ada("verify", round_id)[0] == 0

    def swap_sixes_and_chance(path, body):
        if path != f"/api/v1/rounds/{round_id}/":
            return body
        actions = copy.deepcopy(body["actions"])
        scores = {action["category"]: action for action in actions if action["type"] == "score"}
        scores["sixes"]["category"], scores["chance"]["category"] = "chance", "sixes"
        return retold(body, actions)

    ada.transport.tamper = swap_sixes_and_chance
    status, out, _ = ada("verify", round_id)
    assert status == 1 and "VERIFICATION FAILED" in out
    assert "✓ the round: all 15 boxes of the scorecard match the engine" in out  # consistent
    sixes = re.search(
        r"✗ turn 6 \(Sixes\): this client's Sixes \((\d+) points\) after roll 2, "
        r"the server's log has Chance \((\d+) points\) after roll 2 instead",
        out,
    )
    chance = re.search(r"✗ turn 14 \(Chance\): this client's Chance \((\d+) points\) after "
                       r"roll 2, the server's log has Sixes \((\d+) points\) after roll 2 instead",
                       out)  # fmt: skip
    assert sixes and chance, out
    forged_total = shown_total - int(sixes[1]) - int(chance[1]) + int(sixes[2]) + int(chance[2])
    total_line = (
        f"✗ after turn 15 this client was shown the total {shown_total}, the server's log "
        f"gives {forged_total}"
    )
    assert (total_line in out) == (forged_total != shown_total)  # the dice may make it equal

    def delete_turn_10s_second_roll(path, body):
        if path != f"/api/v1/rounds/{round_id}/":
            return body
        actions = copy.deepcopy(body["actions"])
        del actions[9 * 3 + 1]
        return retold(body, actions)

    ada.transport.tamper = delete_turn_10s_second_roll
    status, out, _ = ada("verify", round_id)
    assert status == 1
    assert "✗ turn 10 (Four of a kind): this client's roll 2 keeping dice 1, the server" in out
    assert "after roll 2 is missing from the server's log" in out

    # The same answer, on a machine that did not play the round: only the server's own
    # log can be checked there, and verify says so.
    laptop = Terminal(tmp_path / "laptop")
    laptop.store, laptop.transport = ada.store, ada.transport
    status, out, _ = laptop("verify", round_id)
    assert status == 0
    assert f"This machine has no journal of round {round_id}" in out
    assert "only the server's own log could be checked" in out
    assert "VERIFIED against the server's own log only" in out


def test_turns_played_in_the_browser_are_not_checked_and_not_failures(ada):
    status, out, _ = ada("play", "--solo", "yatzy", keys=["r", "q"])
    round_id = re.search(r"--round ([\w-]+)`", out)[1]
    with httpx.Client(transport=ada.transport, base_url=f"{SERVER}/api/v1/") as browser:
        auth = {"Authorization": f"Token {ada.store.get(SERVER).token}"}
        for turn, box in ((0, "chance"), (1, "ones"), (2, "twos")):
            if turn:
                browser.post(
                    f"rounds/{round_id}/roll/", json={"turn": turn, "roll": 0}, headers=auth
                ).raise_for_status()
            browser.post(
                f"rounds/{round_id}/score/", json={"category": box, "turn": turn}, headers=auth
            ).raise_for_status()
    keys = [k for n in (3, *range(4, 14), 15) for k in ("r", "1", "r", f"s {n}")]
    status, out, _ = ada("play", "--round", round_id, keys=keys)
    assert status == 0 and "Round completed" in out
    status, out, _ = ada("verify", round_id)
    assert status == 0, out
    assert "Turn(s) 2-3 were played elsewhere (not in this machine's journal)" in out
    assert re.search(r" 1 [\d ]+ ✓ → Chance \d+ partly here 2 [\d ]+ → Ones \d+ elsewhere", out)
    assert "VERIFIED: every die and the total follow from the committed seed" in out


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


def test_a_number_too_large_for_an_integer_is_one_line_not_a_traceback(ada):
    _, out, _ = ada("play", "--computer", "easy", "--ruleset", "yatzy", keys=turn_keys(15))
    round_id = re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1]
    network = ada.transport

    class HugeTurn(httpx.BaseTransport):
        """The round's answer with a computer's turn of 1e400 (a float, infinite)."""

        def handle_request(self, request):
            response = network.handle_request(request)
            if not request.url.path.endswith(f"/rounds/{round_id}/"):
                return response
            body = json.loads(response.read())
            body["opponent"]["turns"][1]["turn"] = "HUGE"
            return httpx.Response(200, content=json.dumps(body).replace('"HUGE"', "1e400"))

    ada.transport = HugeTurn()
    status, out, err = ada("verify", round_id)
    assert status == 1 and "is not in the form this client reads" in err


def test_a_past_day_is_played_unranked_and_verified_by_its_date(ada):
    day = clock.today() - dt.timedelta(days=2)
    challenge_get_or_create(day=day)
    status, out, _ = ada("play", "--date", day.isoformat(), keys=turn_keys(20))
    assert status == 0 and f"Daily {day} · Maxi Yatzy · practice" in out
    assert "The seed is revealed" in out
    status, out, _ = ada("verify", day.isoformat())
    assert status == 0 and f"published for the day {day}" in out and "VERIFIED" in out
    assert ada("verify", (day - dt.timedelta(days=1)).isoformat())[0] == 1


def test_verify_by_date_finds_a_practice_round_past_the_first_page_of_games(ada):
    """verify DATE looked for a day without a ranked round among the first page of the
    player's games (50): with more daily rounds since, "You have no round on" it."""
    day = clock.today() - dt.timedelta(days=3)
    challenge_get_or_create(day=day)
    assert ada("play", "--date", day.isoformat(), keys=turn_keys(20))[0] == 0
    played = Round.objects.get(player__username="ada", challenge__date=day)
    later = challenge_get_or_create(day=day + dt.timedelta(days=1))
    for _ in range(60):  # newer practice rounds of the next day, as replays would leave
        played.pk, played.challenge = uuid.uuid4(), later
        played.started_at = dj_timezone.now()
        played.save(force_insert=True)
    status, out, err = ada("verify", day.isoformat())
    assert status == 0 and "VERIFIED" in out, err
    assert ada("verify", (day - dt.timedelta(days=1)).isoformat())[0] == 1


def test_a_friend_plays_a_shared_round_with_the_target_in_sight_and_sees_both_cards(ada, tmp_path):
    _, out, _ = ada("play", "--solo", "yatzy", keys=turn_keys(15))
    target = int(re.search(r"Round completed: (\d+) points", out)[1])
    status, out, _ = ada("share", re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1])
    code = re.search(r"Friend code (\w+)", out)[1]
    # One's own code is refused before anything says it is a challenge.
    status, out, err = ada("friend", code.lower())
    assert (status, out) == (1, "") and err == "This is your own round's code. (own_share)"

    bob = Terminal(tmp_path / "bob")
    bob("register", "bob")
    status, out, _ = bob("friend", f"http://testserver/f/{code}", keys=["r", "q"])
    assert status == 0 and f"ada challenges you · Yatzy Score to beat: {target} " in out
    assert f"Friend challenge · Yatzy ada's score to beat: {target}" in out  # the play title
    resume = re.search(r"Resume it with `yatzy-play play --round ([\w-]+)`\.", out)[1]
    status, out, _ = bob("play", "--round", resume, keys=turn_keys(15)[1:])
    assert status == 0 and f"ada's score to beat: {target}" in out
    status, out, _ = bob("friend", code)
    assert "Your round: completed" in out and "Side by side" in out

    # Each column adds up to its total: the boxes, then the upper total and its bonus.
    with httpx.Client(transport=bob.transport, base_url=SERVER) as http:
        token = bob.store.get(SERVER).token
        view = http.get(
            f"/api/v1/friend/{code}/", headers={"Authorization": f"Token {token}"}
        ).json()
    rs = yatzy.get_ruleset("yatzy")
    sums = []
    for card, total in (
        (view["my_round"]["scorecard"], view["my_round"]["total"]),
        (view["sharer_round"]["scorecard"], view["sharer_round"]["total"]),
    ):
        upper = sum(card[box] for box in yatzy.bonus_par(rs))
        bonus = 50 if upper >= 63 else 0
        assert sum(card.values()) + bonus == total
        sums.append((upper, bonus))
    (my_upper, my_bonus), (their_upper, their_bonus) = sums
    assert f"upper total {my_upper} {their_upper} bonus {my_bonus} {their_bonus} " in out
    assert out.endswith(f"total {view['my_round']['total']} {view['sharer_round']['total']}")


def test_boards_and_advent_are_shown(ada):
    # A day of December 1-24, whatever the day the suite runs.
    with time_machine.travel(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC), tick=False):
        status, out, _ = ada("boards", "best-day", "--around-me")
        assert status == 0 and "No one on this board yet." in out and "0 on the board" in out
        status, out, _ = ada("advent", "2026")  # no daily played or missed yet
        assert status == 0 and " empty " in out and "replay" not in out
        assert ada("play", keys=turn_keys(20))[0] == 0  # today's ranked daily
        total = Round.objects.get(player__username="ada", ranked=True).total
        # The player's own line on each board: rank 1 of 1, their score, one day in a row.
        for board, value in (("best-day", total), ("streaks", 1), ("advent", total)):
            status, out, _ = ada("boards", board, "--around-me")
            assert status == 0 and f"1 on the board · you: #1 with {value}" in out, out
            assert "◀ you" in out
        status, out, _ = ada("advent", "2026")
        assert status == 0 and "Advent calendar 2026" in out and f"Total {total}" in out
        assert "yatzy-play play --date 2026-12-DD (DD the door)" in out and "YYYY" not in out


def test_advent_without_a_year_is_the_latest_that_has_begun_as_on_the_pages(ada):
    """From January to November the calendar and board shown without a year are last
    December's, as the pages' navigation has them; the client showed the coming
    December's, 24 locked doors and an empty board."""
    with time_machine.travel(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC), tick=False):
        assert ada("play", keys=turn_keys(20))[0] == 0  # a ranked daily of December 5
    total = Round.objects.get(player__username="ada", ranked=True).total
    with time_machine.travel(dt.datetime(2027, 1, 10, 12, tzinfo=dt.UTC), tick=False):
        status, out, _ = ada("advent")
        assert status == 0 and "Advent calendar 2026" in out and f"Total {total}" in out, out
        status, out, _ = ada("boards", "advent", "--around-me")
        assert status == 0 and f"you: #1 with {total}" in out, out
    with time_machine.travel(dt.datetime(2027, 12, 1, 12, tzinfo=dt.UTC), tick=False):
        status, out, _ = ada("advent")
        assert status == 0 and "Advent calendar 2027" in out, out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["play", "--date", "2026-02-30"], "2026-02-30 is not a day: dates are YYYY-MM-DD"),
        (["play", "--date", "yesterday"], "yesterday is not a day"),
        (["boards", "--date", "2026-13-01"], "2026-13-01 is not a day"),
        (["play", "--round", "42"], "42 is not a game id: `yatzy-play games` shows them"),
        (["share", "not-a-round"], "not-a-round is not a round id"),
        (["verify", "2026-1-1"], "2026-1-1 is neither a round id"),
        (["friend", "7KQ30AB"], "7KQ30AB is not a friend code: a code is 8 letters and digits"),
        (["friend", "UUUUUUUU"], "UUUUUUUU is not a friend code"),
        (["advent", "0"], "0 is not a year: years are four digits, e.g. 2026"),
        (["advent", "26"], "26 is not a year"),
        (["boards", "advent", "--year", "0"], "0 is not a year"),
        (["--server", "http://[::1", "boards"], "http://[::1 is not a server's address"),
        (["boards", "--server", "ftp://x"], "ftp://x is not a server's address"),
        (["--server", "http://127.0.0.1:99999", "boards"], "a port is 1 to 65535"),
        (["--server", "http://127.0.0.1:0", "boards"], "a port is 1 to 65535"),
        (["--server", "http://127.0.0.1:8000?x=1", "boards"], "it has no ? or # part"),
        (["--server", "http://127.0.0.1:8000/#top", "boards"], "it has no ? or # part"),
        # Options of one kind of game, given to another, were silently ignored.
        (["play", "--ruleset", "yatzy"], "--ruleset is for a game against the computer"),
        (["play", "--solo", "yatzy", "--ruleset", "maxi"], "--ruleset is for a game against"),
        (["play", "--new"], "--new is for a solo or computer game"),
        (["play", "--date", "2026-12-01", "--new"], "--new is for a solo or computer game"),
        (["play", "--solo", "maxi", "--practice"], "--practice is for a day's dice"),
        (["play", "--computer", "easy", "--practice"], "--practice is for a day's dice"),
        # A day or a year for a board of none showed another board than the one asked.
        (["boards", "best-day", "2026-12-01"], "a day is for the daily or decisions board"),
        (["boards", "streaks", "--date", "2026-12-01"], "a day is for the daily or decisions"),
        (["boards", "advent", "2026-12-01"], "a day is for the daily or decisions board"),
        (["boards", "streaks", "--year", "2026"], "--year is for the advent board"),
        (["boards", "daily", "--year", "2026"], "--year is for the advent board"),
        (["boards", "daily", "2026-12-01", "--date", "2026-12-02"], "the day is given twice"),
        (["give-up", "x"], "x is not a game id: `yatzy-play games` shows them, e.g. 4c5c1114"),
    ],
)
def test_bad_dates_codes_and_round_ids_are_explained_here_not_sent(ada, argv, said, capsys):
    sent = len(ada.transport.requests)
    with pytest.raises(SystemExit) as exit_:
        ada(*argv)
    assert exit_.value.code == 2  # a usage error
    err = " ".join(capsys.readouterr().err.split())
    assert said in err
    assert len(ada.transport.requests) == sent


def test_a_server_address_that_is_not_the_api_is_said_to_be_so(tmp_path):
    terminal = Terminal(tmp_path)
    terminal.server = f"{SERVER}/admin"
    status, _, err = terminal("rules", "maxi")
    assert status == 1
    assert err.startswith(
        "http://testserver/admin does not answer like a Maxi Yatzy Daily server: "
        "http://testserver/admin/api/v1/rulesets/maxi/ gave 302 Found, sending the client on "
    )
    assert err.endswith(
        "--server takes the address of the site itself, e.g. http://127.0.0.1:8000."
    )
    assert "http_302" not in err
    terminal.server = f"{SERVER}/rules"
    status, _, err = terminal("rules", "maxi")
    assert status == 1 and "does not answer like a Maxi Yatzy Daily server" in err


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


@pytest.mark.parametrize("name", ["../accounts/me", "..", "maxi?x=1", "maxi#x", "ma xi"])
def test_a_ruleset_name_is_one_part_of_the_path_whatever_it_holds(tmp_path, name):
    """`rules ../accounts/me` asked for the profile and showed it as rules ("None (None)
    · None dice · None turns"); `rules maxi?x=1` showed Maxi's."""
    terminal = Terminal(tmp_path)
    status, out, err = terminal("rules", name)
    assert (status, out) == (1, "")
    unknown = f"There is no ruleset {name} (the rulesets are maxi, yatzy, yahtzee)."
    # A slash, even encoded, is no ruleset name the server's path can hold.
    assert err == ("Not found. (not_found)" if "/" in name else f"{unknown} (unknown_ruleset)")


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
    # The client's own words too (client/locale), NAME=VALUE as typed.
    assert status == 1 and "En inställning skrivs NAME=VALUE, inte 'bogus'." in err
    status, _, err = terminal("rules", "poker")
    assert status == 1 and err.endswith("(unknown_ruleset)")


def test_the_scorecard_has_the_servers_box_names_and_scores_by_them(tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    terminal = Terminal(tmp_path)
    terminal("register", "sven")
    status, out, _ = terminal("play", "--solo", "yatzy", keys=["r", "s chans", "q"])
    assert status == 0 and re.search(r"14 Chans \d+", out) and "15 Yatzy" in out
    # The client's own words follow the server's language too (client/locale).
    assert re.search(r"Chans: \d+ poäng\.", out)


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
    assert "Lost the connection to the server" in err
    assert re.search(r"`yatzy-play play` \(or `yatzy-play play --round [\w-]+`\) resumes it", err)

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


def test_a_journal_damaged_mid_round_ends_its_notes_not_the_round(ada):
    """The client exited at the next note, after the server had taken the roll, and
    resuming the round failed on the same file until it was deleted by hand."""

    def damage():
        (path,) = ada.journal.directory.glob("*.json")
        path.write_text('{"events": "oops"')

    status, out, _ = ada("play", keys=["r", damage, "r", "1", "r", "q"])
    assert status == 0
    assert out.count("The round goes on without its journal") == 1
    assert "Turn 1 of 20 · roll 3 of 3" in out  # every roll went to the server
    status, out, _ = ada("play", keys=["q"])  # resuming works, and says so once
    assert status == 0 and "Turn 1 of 20 · roll 3 of 3" in out
    assert "The round goes on without its journal" in out


def test_a_damaged_days_file_does_not_stop_the_daily(ada):
    days = ada.journal.directory.parent / "days"
    days.mkdir(parents=True)
    (days / f"{clock.today()}.json").write_text("{")
    status, out, err = ada("play", keys=["r", "q"])
    assert status == 0 and "Turn 1 of 20 · roll 1 of 3" in out
    assert "The day's commitment is not kept here." in err


def test_logout_forgets_the_token_here_before_revoking_it(ada, monkeypatch):
    """The server revoked the token, then the client could not delete its file: the
    next command used a revoked token. Now a token it cannot forget stays usable."""
    token = ada.store.get(SERVER).token
    original = Path.unlink

    def read_only(path, *args, **kwargs):
        if path.name == "credentials.json":
            raise PermissionError(13, "Permission denied", str(path))
        return original(path, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", read_only)
    status, _, err = ada("logout")
    assert status == 1 and "cannot write" in err and "credentials.json" in err
    assert ada.store.get(SERVER).token == token
    assert ada("boards")[0] == 0  # still logged in: the server was not told


def test_a_new_game_whose_answer_is_lost_is_not_started_twice(ada):
    """The client retries a request whose answer did not come; a new game's retry
    started a second game, and a second of the 20 unfinished."""
    network = ada.transport
    server = network.server
    lost = []

    class LosesTheFirstAnswer(httpx.BaseTransport):
        def handle_request(self, request):
            response = server.handle_request(request)
            if request.url.path == "/api/v1/games/" and request.method == "POST" and not lost:
                lost.append(request.headers.get("Idempotency-Key"))
                raise httpx.ReadTimeout("timed out", request=request)
            return response

    network.server = LosesTheFirstAnswer()
    status, out, _ = ada("play", "--solo", "yatzy", keys=["q"])
    assert status == 0 and "Solo · Yatzy" in out
    assert lost and lost[0]
    assert Round.objects.filter(mode="solo").count() == 1
    assert ada.waits == [1.0]  # retried once


def test_a_registration_whose_answer_is_lost_logs_in_to_the_account_it_created(tmp_path):
    """The client retries a request whose answer did not come; a registration's retry
    found the name taken by the account the first attempt had created, and the player
    was told the name was taken, with no token kept."""
    from accounts.models import User

    terminal = Terminal(tmp_path)
    server = terminal.transport.server
    lost = []

    class LosesTheFirstAnswer(httpx.BaseTransport):
        def handle_request(self, request):
            response = server.handle_request(request)
            if request.url.path == "/api/v1/accounts/register/" and not lost:
                lost.append(response.status_code)
                raise httpx.ReadTimeout("timed out", request=request)
            return response

    terminal.transport.server = LosesTheFirstAnswer()
    status, out, err = terminal("register", "ada")
    assert lost == [201]
    assert status == 0, err
    assert "Welcome, ada!" in out
    assert User.objects.filter(username="ada").count() == 1
    assert terminal("boards")[0] == 0  # the token kept is the account's


def test_a_retried_registration_still_refuses_a_name_another_player_holds(tmp_path):
    """Only a password that logs in makes a taken name the client's own account."""
    first = Terminal(tmp_path / "first")
    assert first("register", "ada")[0] == 0
    other = Terminal(tmp_path / "other", password="another-password-entirely-93")
    server = other.transport.server

    class LosesTheFirstAnswer(httpx.BaseTransport):
        calls = 0

        def handle_request(self, request):
            self.calls += 1
            if self.calls == 1:
                raise httpx.ReadTimeout("timed out", request=request)
            return server.handle_request(request)

    other.transport.server = LosesTheFirstAnswer()
    status, _, err = other("register", "ada")
    assert status == 1 and "taken" in err
    assert other.store.get(SERVER) is None


def test_a_token_this_machine_cannot_keep_is_revoked_on_the_server_again(ada):
    """Log-in took a token from the server, then failed to save it: the token stayed
    live on the server, kept nowhere."""
    from knox.models import AuthToken

    before = AuthToken.objects.count()
    lock = ada.store.path.parent / ".lock"
    lock.unlink()
    lock.mkdir()  # the folder's lock cannot be taken: nothing can be saved
    status, _, err = ada("login", "ada")
    assert status == 1 and "cannot write" in err and ".lock" in err
    assert AuthToken.objects.count() == before  # the new one revoked again


def test_a_terminal_that_cannot_show_every_character_gets_them_replaced_not_a_failure(
    tmp_path, monkeypatch
):
    """An ASCII terminal (LC_ALL=C without UTF-8 mode): the characters it cannot show
    ("·", "ü", a Japanese box name) are replaced, and the command does its work; it did
    nothing but blame the server's answer for a UnicodeEncodeError."""
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    raw = io.BytesIO()
    ascii_out = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    err = io.StringIO()
    app = Terminal(tmp_path).app(
        terminal_console(file=ascii_out, width=240, color_system=None),
        terminal_console(file=err, width=240, color_system=None),
    )
    assert main(["rules", "maxi"], app) == 0, err.getvalue()
    out = raw.getvalue().decode("ascii")
    # The client's own words in German too, the locale's language ("6 Würfel · 20 Züge").
    assert "Maxi Yatzy (maxi) ? 6 W?rfel ? 20 Z?ge" in out and "F?nfer" in out
    assert err.getvalue() == ""


def test_practice_while_the_ranked_round_is_unfinished_is_refused_not_the_ranked_round(ada):
    """A day has one unfinished round per player: `play --practice` with today's ranked
    round unfinished resumed that ranked round, whose score counts, as if it were the
    practice asked for. It is refused, saying how to finish it; nothing is sent."""
    status, _, _ = ada("play", keys=["r", "q"])
    assert status == 0
    sent = len(ada.transport.requests)
    status, out, err = ada("play", "--practice", keys=["r", "s 1", "q"])
    assert status == 1 and out == ""
    assert "Your ranked round of " in err and "is unfinished" in err
    assert "`yatzy-play play` resumes it" in err
    assert all(request.method == "GET" for request in ada.transport.requests[sent:])
    state = Round.objects.get()
    assert state.ranked and state.status == "in_progress"


def test_ctrl_c_while_a_move_waits_for_the_server_says_how_to_resume(ada):
    """Ctrl-C at the prompt leaves the round with the command that resumes it; Ctrl-C
    while a move waited to be retried ended the client without a word (status 130)."""

    class CtrlC(list):
        def append(self, seconds):
            raise KeyboardInterrupt

    def pull_the_cable():
        ada.transport.up = False

    ada.waits = CtrlC()
    status, _, err = ada("play", keys=["r", pull_the_cable, "r"])
    assert status == 130
    assert "Interrupted: the round is kept on the server as far as it got" in err
    assert re.search(r"`yatzy-play play` \(or `yatzy-play play --round [\w-]+`\) resumes it", err)


def test_a_party_seat_played_out_of_turn_stays_on_its_round_with_the_servers_words(ada):
    """A party seat's round played (`play --round`) while another seat has the turn: the
    409 carries the party's state, not a round's. The client showed that as the round
    ("Turn 1 of None · roll 0 of 0", no boxes), and the next move ended it on "not in the
    form this client reads (KeyError: 'turn')". The round is read again instead."""
    with httpx.Client(transport=ada.transport, base_url=SERVER) as http:
        headers = {"Authorization": f"Token {ada.store.get(SERVER).token}"}
        party = http.post(
            "/api/v1/games/",
            json={"mode": "party", "ruleset": "yatzy", "seats": ["Ann", "Bo"]},
            headers=headers,
        ).json()
    bo = party["seats"][1]["round"]["id"]
    status, out, err = ada("play", "--round", bo, keys=["r", "r", "q"])
    assert status == 0, err
    assert "It is Ann's turn (seat 0)" in out
    assert "of None" not in out and "KeyError" not in err
    assert out.count("Turn 1 of 15 · roll 0 of 3") == 3
    assert f"Resume it with `yatzy-play play --round {bo}`" in out


@pytest.mark.parametrize("command", ["register", "login"])
def test_ctrl_d_at_the_password_prompt_is_one_line_not_a_traceback(tmp_path, command):
    """Ctrl-D (end of input) at "Password:" raised EOFError out of getpass: a traceback."""

    def ctrl_d(prompt):
        raise EOFError

    out, err = io.StringIO(), io.StringIO()
    terminal = Terminal(tmp_path)
    app = terminal.app(
        terminal_console(file=out, width=120, color_system=None),
        terminal_console(file=err, width=120, color_system=None),
        read_password=ctrl_d,
    )
    assert main([command, "ada"], app) == 1
    assert err.getvalue().strip() == "No password given; nothing was sent."
    assert terminal.transport.requests == []


def test_a_password_asked_with_no_terminal_gives_no_python_warning(tmp_path):
    """With no terminal at all (cron, CI: no controlling terminal), getpass reads the
    password from standard input, and Python's GetPassWarning came out with its source
    line ("getpass.py:91: GetPassWarning ... passwd = fallback_getpass(...)")."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "YATZY_SERVER": SERVER}
    env.pop("PYTHONWARNINGS", None)
    done = subprocess.run(
        [sys.executable, "-m", "client", "register", "ada"],
        input="one passphrase\nanother one\n",
        capture_output=True,
        text=True,
        env=env,
        start_new_session=True,  # no controlling terminal: /dev/tty cannot be opened
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "The two passwords differ; nothing was registered." in done.stderr
    assert "Password input may be echoed" in done.stderr
    assert "GetPassWarning" not in done.stderr and "fallback_getpass" not in done.stderr


def test_resuming_a_solo_game_is_said_on_the_rounds_screen_not_wiped_by_it(tmp_path):
    """On a terminal every round's screen clears the one before: "Resuming your
    unfinished solo game", printed just before the first, was never seen, and `play
    --solo` showed an old game's turn 2 without a word."""
    terminal = Terminal(tmp_path)
    assert terminal("register", "ada")[0] == 0
    terminal("play", "--solo", "yatzy", keys=["r", "s 1", "q"])
    out = io.StringIO()
    app = terminal.app(
        terminal_console(file=out, width=80, height=24, force_terminal=True),
        terminal_console(file=io.StringIO(), width=80),
        reader=Script(["q"]),
    )
    assert main(["play", "--solo", "yatzy"], app) == 0
    screens = out.getvalue().split("\x1b[2J")  # each screen starts by clearing the last
    assert len(screens) > 1
    last = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", screens[-1])
    assert "Turn 2 of 15" in last and "Resuming your unfinished solo game (yatzy)" in last


def test_who_challenges_is_said_on_the_rounds_screen_not_wiped_by_it(ada, tmp_path):
    """`friend CODE` printed "ada challenges you · …" just before the round's first
    screen, which clears the terminal: the line was never seen (`--blind` lost it all)."""
    _, out, _ = ada("play", "--solo", "yatzy", keys=turn_keys(15))
    _, out, _ = ada("share", re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1])
    code = re.search(r"Friend code (\w+)", out)[1]
    bob = Terminal(tmp_path / "bob")
    bob("register", "bob")
    screen = io.StringIO()
    app = bob.app(
        terminal_console(file=screen, width=80, height=24, force_terminal=True),
        terminal_console(file=io.StringIO(), width=80),
        reader=Script(["q"]),
    )
    assert main(["friend", code, "--blind"], app) == 0
    screens = screen.getvalue().split("\x1b[2J")  # each screen starts by clearing the last
    assert len(screens) > 1
    last = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", screens[-1])
    # On the round's screen, above the prompt (the view is shown again once it is left).
    assert last.index("Blind: you see their score") < last.index("Resume it with")


def new_game(terminal, **body):
    """A game started through the API, as the pages or another client would."""
    with httpx.Client(transport=terminal.transport, base_url=SERVER) as http:
        headers = {"Authorization": f"Token {terminal.store.get(SERVER).token}"}
        answer = http.post("/api/v1/games/", json=body, headers=headers)
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_games_lists_the_unfinished_first_and_give_up_deletes_one_by_the_id_shown(ada):
    """A player at the 20 unfinished games who only had the terminal client was stuck:
    no command listed the games nor gave one up. `games` lists them, unfinished first,
    each by the start of its id; `give-up` takes that id back, asks, and the game is
    gone from the list and from the unfinished ones."""
    assert ada("play", "--solo", "yatzy", keys=turn_keys(15))[0] == 0  # finished
    solo = new_game(ada, mode="solo", ruleset="yatzy")
    computer = new_game(ada, mode="computer", level="hard", ruleset="yahtzee")
    status, out, _ = ada("games")
    assert status == 0
    rows = re.findall(r"([0-9a-f]{8}) (solo|computer) ", out)
    assert rows == [
        (computer["id"][:8], "computer"),
        (solo["id"][:8], "solo"),
        (rows[2][0], "solo"),
    ]
    assert re.search(r"computer Yahtzee 0/13 0 playing hard 0", out), out
    assert "2 unfinished · 3 in all" in out
    # Asked first: anything but yes gives nothing up.
    sent = len(ada.transport.requests)
    status, out, _ = ada("give-up", solo["id"][:8], keys=["n"])
    assert status == 1 and "Nothing was given up." in out
    assert not any(r.method == "DELETE" for r in ada.transport.requests[sent:])
    assert Round.objects.filter(pk=solo["id"]).exists()
    status, out, _ = ada("give-up", solo["id"][:8].upper(), keys=["y"])
    assert status == 0, out
    assert f"Gave up your solo game {solo['id'][:8]} (Yatzy, 0/15 turns, 0 points)" in out
    assert ada.transport.requests[-1].method == "DELETE"
    assert not Round.objects.filter(pk=solo["id"]).exists()
    status, out, _ = ada("give-up", computer["id"], "--yes")
    assert status == 0 and not Round.objects.filter(pk=computer["id"]).exists()
    status, out, _ = ada("games")
    assert status == 0 and "0 unfinished · 1 in all" in out and "give-up" not in out


def test_play_round_by_a_start_of_an_id_leaves_out_parties(ada):
    """`games` lists a party by the party's id, which is no round's: `play --round` with
    its start said "No such round."; it is not among the rounds that start so."""
    party = new_game(ada, mode="party", ruleset="yatzy", seats=["Ann", "Bo"])
    status, _, err = ada("play", "--round", party["id"][:8])
    assert status == 1 and "None of your unfinished games has an id starting with" in err, err
    assert not any("/rounds/" in str(r.url) for r in ada.transport.requests)


def test_give_up_with_no_terminal_to_ask_on_is_a_usage_error_unless_yes(ada, capsys):
    solo = new_game(ada, mode="solo", ruleset="yatzy")
    out, err = io.StringIO(), io.StringIO()
    app = ada.app(terminal_console(file=out), terminal_console(file=err), sleep=ada.waits.append)
    assert app.reader is None and not sys.stdin.isatty()  # a pipe, as under pytest
    sent = len(ada.transport.requests)
    with pytest.raises(SystemExit) as exit_:
        main(["give-up", solo["id"][:8]], app)
    assert exit_.value.code == 2
    assert "give-up asks first; with no terminal to ask on, add --yes" in " ".join(
        capsys.readouterr().err.split()
    )
    assert len(ada.transport.requests) == sent
    assert main(["give-up", solo["id"][:8], "--yes"], app) == 0
    assert not Round.objects.filter(pk=solo["id"]).exists()


def test_give_up_of_a_daily_or_friend_round_is_refused_at_once_without_asking(ada, tmp_path):
    """`give-up` asked "[y/N]" about a daily or friend round, and only on a yes did the
    server's refusal come. The games list says what the game is: refused at once, in the
    words the server would refuse it with, and nothing is asked or sent."""
    refusal = "Daily and friend rounds cannot be given up; play them to the end."
    assert ada("play", keys=["q"])[0] == 0  # today's ranked round, left unfinished
    daily = Round.objects.get(player__username="ada", mode="daily")
    _, out, _ = ada("play", "--solo", "yatzy", keys=turn_keys(15))
    _, out, _ = ada("share", re.search(r"yatzy-play verify ([0-9a-f-]{36})", out)[1])
    code = re.search(r"Friend code (\w+)", out)[1]
    bob = Terminal(tmp_path / "bob")
    bob("register", "bob")
    assert bob("friend", code, keys=["r", "q"])[0] == 0  # a friend round, left unfinished
    friend = Round.objects.get(player__username="bob", mode="friend")
    for player, game, argv in (
        (ada, daily, (str(daily.id)[:8],)),
        (ada, daily, (str(daily.id), "--yes")),
        (bob, friend, (str(friend.id)[:8].upper(),)),
    ):
        sent = len(player.transport.requests)
        status, out, err = player("give-up", *argv, keys=["y"])
        assert player.script.prompts == []
        assert not any(r.method == "DELETE" for r in player.transport.requests[sent:])
        assert (status, out, err) == (1, "", refusal)
        assert Round.objects.filter(pk=game.pk).exists()


def test_give_up_of_a_party_with_a_shared_seat_is_refused_at_once_without_asking(ada):
    """A party one of whose seats' rounds is shared cannot be given up either: the games
    list says so (`can_give_up`), and the client refuses in the server's words."""
    party = new_game(ada, mode="party", ruleset="yatzy", seats=["Ann", "Bo"])
    with httpx.Client(transport=ada.transport, base_url=SERVER) as http:
        http.headers["Authorization"] = f"Token {ada.store.get(SERVER).token}"
        url = f"/api/v1/parties/{party['id']}"
        while party["seats"][0]["round"]["status"] == "in_progress":
            seat = party["current_seat"]
            state = party["seats"][seat]["round"]
            move = {"seat": seat, "turn": state["turn"], "roll": 0, "hold": []}
            state = http.post(f"{url}/roll/", json=move).json()["seats"][seat]["round"]
            box = next(box for box, points in state["scorecard"].items() if points is None)
            move = {"seat": seat, "turn": state["turn"], "category": box}
            party = http.post(f"{url}/score/", json=move).json()
        shared = party["seats"][0]["round"]["id"]
        assert http.post(f"/api/v1/rounds/{shared}/share/").status_code == 200
    sent = len(ada.transport.requests)
    status, out, err = ada("give-up", party["id"][:8], keys=["y"])
    assert ada.script.prompts == []
    assert not any(r.method == "DELETE" for r in ada.transport.requests[sent:])
    assert (status, out) == (1, "")
    assert err == (
        "A seat's round of this party is shared as a friend challenge, so the party "
        "cannot be given up; play it to the end."
    )
    assert Round.objects.filter(party_id=party["id"]).count() == 2


def test_give_up_refused_by_the_server_says_its_words_and_changes_nothing(ada):
    """A round the unfinished games do not list (a finished daily) is the server's to
    refuse."""
    assert ada("play", keys=turn_keys(20))[0] == 0  # today's ranked round, finished
    daily = Round.objects.get(player__username="ada", mode="daily")
    status, _, err = ada("give-up", str(daily.id), "--yes")
    assert status == 1
    assert "Daily and friend rounds cannot be given up; play them to the end." in err
    assert "(abandon_not_allowed)" in err
    assert Round.objects.filter(pk=daily.pk).exists()
    status, _, err = ada("give-up", str(uuid.uuid4()), "--yes")
    assert status == 1 and "(game_not_found)" in err
    status, _, err = ada("give-up", "abcd", "--yes")
    assert status == 1
    assert "None of your unfinished games has an id starting with abcd" in err


def test_a_give_up_whose_answer_is_lost_is_done_when_the_retry_finds_no_game(ada):
    """The DELETE was applied but its answer lost: the retry's 404 is the give-up
    done, not "No such game." (as a retried registration finds its own account)."""
    solo = new_game(ada, mode="solo", ruleset="yatzy")
    server = ada.transport.server

    class LosesTheFirstAnswer(httpx.BaseTransport):
        lost = 0

        def handle_request(self, request):
            response = server.handle_request(request)
            if request.method == "DELETE" and not self.lost:
                self.lost += 1
                raise httpx.ReadTimeout("timed out", request=request)
            return response

    ada.transport.server = LosesTheFirstAnswer()
    status, out, err = ada("give-up", solo["id"], "--yes")
    assert status == 0, err
    assert "Gave up your solo game" in out and "No such game" not in err
    assert ada.waits == [1.0]  # retried once
    assert not Round.objects.filter(pk=solo["id"]).exists()


def test_too_many_unfinished_games_says_how_to_list_and_give_one_up(ada):
    for _ in range(20):
        new_game(ada, mode="solo", ruleset="yatzy")
    status, _, err = ada("play", "--solo", "yatzy", "--new")
    assert status == 1 and "(too_many_unfinished_games)" in err
    assert (
        "`yatzy-play games` lists your unfinished games; `yatzy-play give-up ID` gives one up."
        in err
    )
