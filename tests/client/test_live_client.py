"""yatzy-play as installed, against a live server (gunicorn and a Celery worker on the
test database): one player's session through a pseudo-terminal, as README's shows it.
The password typed and never shown, the token file readable only by its owner; a whole
daily round typed key by key, with a 409 from another window; the board once the worker
has recorded the round, and the other non-interactive commands' output; logging out and
in again.

One session, not one test per step: a live stack takes seconds to start. What the
commands do in every other case (solo games with hints, the computer, past days, friend
codes, verify, 503s, lost connections, languages) is tested in-process against the same
API in test_commands.py.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
from collections import Counter
from pathlib import Path

import httpx
import pexpect
import pytest

from daily import clock
from tests.live.conftest import BIN, ROOT, wait_for

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

YATZY_PLAY = str(BIN / "yatzy-play")
PASSWORD = "plum-tractor-quietly-47"
PROMPT = "yatzy>"
MAXI = [
    "ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
    "three_pairs", "three_of_a_kind", "four_of_a_kind", "five_of_a_kind", "small_straight",
    "large_straight", "full_straight", "full_house", "villa", "tower", "chance", "maxi_yatzy",
]  # fmt: skip

_ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-B]|[=>])")
_BOX_DRAWING = re.compile(r"[\u2500-\u257f]")


def plain(text: str) -> str:
    """Terminal output as words: no escape sequences, no box lines, single spaces."""
    return " ".join(_BOX_DRAWING.sub(" ", _ANSI.sub("", text)).split())


class Player:
    """One player's machine: its own config and data directories, the server's URL."""

    def __init__(self, url: str, home: Path, name: str) -> None:
        self.url, self.name = url, name
        self.config, self.data = home / "config", home / "data"
        self.env = {
            **os.environ,
            "XDG_CONFIG_HOME": str(self.config),
            "XDG_DATA_HOME": str(self.data),
            "YATZY_SERVER": url,
            "LANG": "C.UTF-8",  # English, whatever the machine's locale
            "TERM": "xterm-256color",
            "NO_COLOR": "1",
            # pexpect answers no cursor-position request; a real terminal does.
            "PROMPT_TOOLKIT_NO_CPR": "1",
        }
        for variable in ("COLUMNS", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            self.env.pop(variable, None)

    @property
    def token_file(self) -> Path:
        return self.config / "yatzy-play" / "credentials.json"

    def token(self) -> str:
        return json.loads(self.token_file.read_text())["servers"][self.url]["token"]

    def run(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        """The command with its arguments, stdin as given; output as plain words."""
        result = subprocess.run(
            [YATZY_PLAY, *args],
            env={**self.env, "COLUMNS": "120"},
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )
        result.stdout, result.stderr = plain(result.stdout), plain(result.stderr)
        return result

    def output_with(self, word: str, *args: str) -> str | None:
        """The command's output if it has ``word``, else None (for ``wait_for``)."""
        output = self.run(*args).stdout
        return output if f" {word} " in output else None

    def spawn(self, *args: str) -> pexpect.spawn:
        return pexpect.spawn(
            YATZY_PLAY,
            list(args),
            env=self.env,
            cwd=str(ROOT),
            dimensions=(60, 140),
            encoding="utf-8",
            timeout=60,
        )

    def http(self) -> httpx.Client:
        return httpx.Client(
            base_url=f"{self.url}/api/v1/",
            headers={"Authorization": f"Token {self.token()}"},
            timeout=30,
        )


@pytest.fixture
def player(live_stack, tmp_path) -> Player:
    return Player(live_stack.url, tmp_path, "ada")


def _process_arguments() -> list[str]:
    """The command lines of every process on this machine."""
    arguments = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            arguments.append(cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            continue
    return arguments


def _hold_most_common(dice: list[int]) -> str:
    face, _ = max(Counter(dice).items(), key=lambda item: (item[1], item[0]))
    return " ".join(str(position + 1) for position, die in enumerate(dice) if die == face)


def _wait_for_frame(child: pexpect.spawn, status: str) -> str:
    """Wait for the frame whose status line is ``status`` and its prompt; the frame."""
    child.expect_exact(status)
    title = child.before.rsplit("\x1b[2J", 1)[-1]  # since the screen was cleared
    child.expect_exact(PROMPT)
    return plain(title + status + child.before)


def test_a_terminal_session_from_registration_through_the_daily_to_logout(player, live_stack):
    for name in ("bea", "cy"):
        live_stack.play_daily_round(live_stack.register(name))
    _register_typing_the_password(player)
    final = _play_the_daily_with_keystrokes(player)
    _look_at_the_board_calendar_and_rules(player, final)
    _list_and_give_up_a_solo_game(player)
    _log_out_and_in_again(player)


def _register_typing_the_password(player: Player) -> None:
    child = player.spawn("register", "ada")
    child.expect_exact("Password: ")
    child.sendline(PASSWORD)
    child.expect_exact("Password (again): ")
    # The password is typed, not an argument: no process on the machine shows it.
    assert not [args for args in _process_arguments() if PASSWORD in args]
    child.sendline(PASSWORD)
    child.expect(pexpect.EOF)
    child.close()
    output = plain(child.before)
    assert child.exitstatus == 0, output
    assert "Welcome, ada! Registered on" in output and "logged in" in output
    assert PASSWORD not in output  # never echoed
    assert stat.S_IMODE(player.token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(player.token_file.parent.stat().st_mode) == 0o700
    assert PASSWORD not in player.token_file.read_text()


def _play_the_daily_with_keystrokes(player: Player) -> dict:
    """Each turn: roll (in the first three, also hold the most common face by die
    numbers and roll again), then score the best box by its number; the final state."""
    child = player.spawn("play")
    with player.http() as http:
        for turn in range(1, 21):
            frame = _wait_for_frame(child, f"Turn {turn} of 20 · roll 0 of 3")
            assert "Daily resets in" in frame or "Day closed" in frame
            if turn == 1:
                assert "Maxi Yatzy · ranked" in frame and "No dice yet" in frame
                # pexpect answers no cursor-position request, so prompt_toolkit draws no
                # bottom bar: the keys and the countdown are in the frame instead.
                assert "r roll · 1-6 toggle hold" in frame
                # Another window rolls first: the client's roll is a 409, and it shows
                # the round as the server has it (rolled once) instead of rolling again.
                round_id = http.get("daily/").json()["my_round"]["id"]
                http.post(f"rounds/{round_id}/roll/", json={"hold": [], "turn": 0, "roll": 0})
            child.sendline("r")
            frame = _wait_for_frame(child, f"Turn {turn} of 20 · roll 1 of 3")
            if turn == 1:
                assert "The round has moved on since you last saw it" in frame
                # No hints on an open daily: the server's refusal, as worded.
                child.sendline("?")
                hint = _wait_for_frame(child, "Turn 1 of 20 · roll 1 of 3")
                assert "There are no hints or analysis for the daily until its day is over." in hint
            state = http.get(f"rounds/{round_id}/").json()
            # The dice on screen are the server's, with their numbers above them.
            assert "die 1 2 3 4 5 6 face " + " ".join(map(str, state["dice"])) in frame
            if turn <= 3:
                holds = _hold_most_common(state["dice"])
                child.sendline(holds)
                frame = _wait_for_frame(child, f"Turn {turn} of 20 · roll 1 of 3")
                assert frame.count("held") == len(holds.split())
                child.sendline("r")
                frame = _wait_for_frame(child, f"Turn {turn} of 20 · roll 2 of 3")
                state = http.get(f"rounds/{round_id}/").json()
                kept = [int(n) - 1 for n in holds.split()]
                assert all(state["dice"][p] == state["dice"][kept[0]] for p in kept)
            # Score the best box by its number on the scorecard (its points are shown).
            best = max(state["options"], key=lambda box: (state["options"][box], box))
            assert f"+{state['options'][best]}" in frame
            child.sendline(f"s {MAXI.index(best) + 1}")
            if state["options"][best] == 0:  # a scratch asks once
                child.expect_exact("scratch it? [y/N]")
                child.sendline("y")
        child.expect_exact("Round completed · total")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        final: dict = http.get(f"rounds/{round_id}/").json()
    tail = plain(child.before)
    assert final["status"] == "completed" and final["ranked"]
    assert f"Round completed: {final['total']} points." in tail
    assert f"yatzy-play verify {round_id}" in tail
    return final


def _look_at_the_board_calendar_and_rules(player: Player, final: dict) -> None:
    # The board has the player once the worker has recorded the round.
    board = wait_for(lambda: player.output_with("ada", "boards"))
    assert f"Today's dice · {clock.today()}" in board and "3 on the board" in board
    rank = re.search(rf"(\d) ada {final['total']} ◀ you", board)[1]
    assert f"you: #{rank} with {final['total']}" in board
    assert re.search(r"rank player score 1 (ada|bea|cy) \d+", board)

    streaks = player.run("boards", "streaks", "--around-me")
    assert streaks.returncode == 0 and "longest current" in streaks.stdout
    advent = player.run("advent", "2026")
    assert advent.returncode == 0
    assert "Advent calendar 2026" in advent.stdout and " 24 " in advent.stdout
    assert re.search(r"1 2 3 4 5 6 (open|locked|missed|empty|\d+ #[\d-]+) ", advent.stdout)

    # The rules as the server words them, with the options given; a refusal in its words.
    rules = player.run("rules", "maxi", "-o", "full_straight_points=30")
    assert rules.returncode == 0
    assert "Maxi Yatzy (maxi) · 6 dice · 20 turns · maximum total 658" in rules.stdout
    assert "they earn 100 bonus points." in rules.stdout
    assert "1-2-3-4-5-6: 30 points. 1 2 3 4 5 6 30" in rules.stdout
    assert "19 Chance Any dice: the sum of them all. 1 2 4 5 6 6 24" in rules.stdout
    bad = player.run("rules", "yatzy", "-o", "full_straight_points=30")
    assert bad.returncode == 1
    assert "The option full_straight_points does not apply to Yatzy" in bad.stderr

    # Today's seed is hidden: verify says so, and that the commitment was recorded.
    verify = player.run("verify", clock.today().isoformat())
    assert verify.returncode == 1
    assert "is not revealed yet" in verify.stdout
    assert f"This client recorded the commitment {final['commitment']}" in verify.stdout


def _list_and_give_up_a_solo_game(player: Player) -> None:
    """A solo game started and left; `games` lists it first, by the start of its id;
    `give-up` asks on a terminal (in a pipe it wants --yes) and the game is gone."""
    child = player.spawn("play", "--solo", "yatzy")
    child.expect_exact(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    with player.http() as http:
        solo = http.get("games/", params={"mode": "solo", "status": "in_progress"}).json()
    short = solo["results"][0]["id"][:8]
    games = player.run("games")
    assert games.returncode == 0, games.stderr
    header = "Your games id game ruleset turn points status day / against"
    first = rf"{short} solo Yatzy 0/15 0 playing [0-9a-f]{{8}} daily Maxi Yatzy 20/20"
    assert re.search(rf"{header} {first}", games.stdout), games.stdout
    assert "1 unfinished · 2 in all" in games.stdout

    piped = player.run("give-up", short)
    assert piped.returncode == 2 and "add --yes" in piped.stderr
    child = player.spawn("give-up", short)
    child.expect_exact("[y/N] ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert f"Gave up your solo game {short} (Yatzy, 0/15 turns, 0 points)" in plain(child.before)
    again = player.run("games")
    assert again.returncode == 0 and "0 unfinished · 1 in all" in again.stdout
    assert f" {short} " not in again.stdout
    gone = player.run("give-up", solo["results"][0]["id"], "--yes")
    assert gone.returncode == 1 and "No such game. (game_not_found)" in gone.stderr


def _log_out_and_in_again(player: Player) -> None:
    token = player.token()
    logout = player.run("logout")
    assert logout.returncode == 0 and "the token is revoked and removed" in logout.stdout
    assert not player.token_file.exists()
    with httpx.Client(base_url=player.url) as http:
        me = http.get("/api/v1/accounts/me/", headers={"Authorization": f"Token {token}"})
    assert me.status_code == 401

    wrong = player.run("login", "ada", "--password-stdin", stdin="not-the-password\n")
    assert wrong.returncode == 1
    assert "Unknown username or wrong password." in wrong.stderr  # the server's words
    assert not player.token_file.exists()

    child = player.spawn("login", "ada")
    child.expect_exact("Password: ")
    child.sendline(PASSWORD)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Logged in as ada on" in plain(child.before) and PASSWORD not in child.before
    assert stat.S_IMODE(player.token_file.stat().st_mode) == 0o600
