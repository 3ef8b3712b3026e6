"""yatzy-play against a live server (gunicorn + a Celery worker on the test database):
accounts and the token file, a whole daily round typed into a pseudo-terminal, the
non-interactive commands' output, verify on revealed rounds, a 409 from another window
and a connection lost mid-round."""

from __future__ import annotations

import datetime as dt
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
from daily.services import challenge_get_or_create
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
            "LANG": "C.UTF-8",
            "TERM": "xterm-256color",
            "NO_COLOR": "1",
            # pexpect answers no cursor-position request; a real terminal does.
            "PROMPT_TOOLKIT_NO_CPR": "1",
        }
        self.env.pop("COLUMNS", None)

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

    def register(self) -> None:
        result = self.run("register", self.name, "--password-stdin", stdin=PASSWORD + "\n")
        assert result.returncode == 0, result.stderr

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


def test_register_login_and_logout_keep_the_token_private_and_the_password_unseen(player):
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
    token = player.token()
    assert PASSWORD not in player.token_file.read_text()

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

    assert (
        "Not logged in" in Player(player.url, player.config.parent / "x", "x").run("boards").stderr
    )


def _hold_most_common(dice: list[int]) -> str:
    face, _ = max(Counter(dice).items(), key=lambda item: (item[1], item[0]))
    return " ".join(str(position + 1) for position, die in enumerate(dice) if die == face)


def _wait_for_frame(child: pexpect.spawn, status: str) -> str:
    """Wait for the frame whose status line is ``status`` and its prompt; the frame."""
    child.expect_exact(status)
    title = child.before.rsplit("\x1b[2J", 1)[-1]  # since the screen was cleared
    child.expect_exact(PROMPT)
    return plain(title + status + child.before)


def test_a_daily_round_is_played_with_keystrokes_through_a_pseudo_terminal(player):
    player.register()
    child = player.spawn("play")
    with player.http() as http:
        for turn in range(1, 21):
            frame = _wait_for_frame(child, f"Turn {turn} of 20 · roll 0 of 3")
            assert "Daily resets in" in frame or "Day closed" in frame
            if turn == 1:
                assert "Maxi Yatzy · ranked" in frame and "No dice yet" in frame
            child.sendline("r")
            frame = _wait_for_frame(child, f"Turn {turn} of 20 · roll 1 of 3")
            round_id = http.get("daily/").json()["my_round"]["id"]
            if turn == 1:  # no hints on an open daily: the server's refusal, as worded
                child.sendline("?")
                hint = _wait_for_frame(child, "Turn 1 of 20 · roll 1 of 3")
                assert "There are no hints or analysis for the daily until its day is over." in hint
            state = http.get(f"rounds/{round_id}/").json()
            # The dice on screen are the server's, with their numbers above them.
            assert "die 1 2 3 4 5 6 face " + " ".join(map(str, state["dice"])) in frame
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
        child.expect_exact("Round completed · total")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        final = http.get(f"rounds/{round_id}/").json()
    tail = plain(child.before)
    assert final["status"] == "completed" and final["ranked"]
    assert f"Round completed: {final['total']} points." in tail
    assert f"yatzy-play verify {round_id}" in tail

    # The board has the player once the worker has recorded the round.
    board = wait_for(lambda: player.output_with("ada", "boards"))
    assert f"1 ada {final['total']} ◀ you" in board
    assert f"you: #1 with {final['total']}" in board

    # Today's seed is hidden: verify says so, and that the commitment was recorded.
    verify = player.run("verify", clock.today().isoformat())
    assert verify.returncode == 1
    assert "is not revealed yet" in verify.stdout
    assert f"This client recorded the commitment {final['commitment']}" in verify.stdout

    again = player.run("play")
    assert again.returncode == 0 and "You have played the daily of" in again.stdout


def _turn_keys(turns: int, *, hint: bool = False) -> str:
    """Keys for a whole game: each turn, roll, keep die 1, roll, score the next box
    (with ``hint``, ask for one after the first roll)."""
    keys = "".join(f"r\n1\nr\ns {box}\n" for box in range(1, turns + 1))
    return keys.replace("r\n", "r\n?\n", 1) if hint else keys


def test_solo_and_computer_games_verify_once_over_and_a_tampered_record_fails(player, yatzy_table):
    player.register()
    # The Maxi table is not built: the hint's 503 is retried as Retry-After asks, then
    # its message shown; the game goes on.
    building = player.run("--retries", "2", "play", "--solo", "maxi", stdin="r\n?\nq\n")
    assert building.returncode == 0, building.stderr
    assert "The server is unavailable (503: The strategy table for maxi" in building.stderr
    assert "retrying in 10 s (attempt 2 of 2)" in building.stderr
    assert "is being built" in building.stdout and "Left the round at turn 1" in building.stdout

    # A hint inside solo play (the Yatzy table is on disk), then the whole game.
    solo = player.run("play", "--solo", "yatzy", stdin=_turn_keys(15, hint=True))
    assert solo.returncode == 0, solo.stderr
    assert "Best moves (expected final score)" in solo.stdout
    assert re.search(
        r"(keep [\d ]+ \(dice [\d ]+\) and roll|score [A-Z][a-z ]+ for \d+) \d+\.\d", solo.stdout
    )
    round_id = re.search(r"yatzy-play verify ([0-9a-f-]{36})", solo.stdout)[1]
    verified = player.run("verify", round_id)
    assert verified.returncode == 0, verified.stdout
    assert "✓ sha256(seed) equals the round's commitment" in verified.stdout
    assert "this client saw" in verified.stdout
    assert "15 turns, 30 rolls recomputed from the seed" in verified.stdout
    assert "30 compared with the dice shown here" in verified.stdout
    assert "VERIFIED" in verified.stdout

    # Had the server shown other dice during play than the seed gives, verify says so.
    journal = player.data / "yatzy-play" / "rounds" / f"{round_id}.json"
    record = json.loads(journal.read_text())
    record["rolls"]["4/2"] = [6, 6, 6, 6, 6]
    journal.write_text(json.dumps(record))
    tampered = player.run("verify", round_id)
    assert tampered.returncode == 1
    assert "✗ turn 5 roll 2" in tampered.stdout and "VERIFICATION FAILED" in tampered.stdout

    computer = player.run("play", "--computer", "easy", "--ruleset", "yatzy", stdin=_turn_keys(15))
    assert computer.returncode == 0, computer.stderr
    assert "Computer (easy), turn 15:" in computer.stdout
    assert re.search(r"You (win|lose|draw): \d+ against the computer's \d+", computer.stdout)
    round_id = re.search(r"yatzy-play verify ([0-9a-f-]{36})", computer.stdout)[1]
    verified = player.run("verify", round_id)
    assert verified.returncode == 0, verified.stdout
    assert "the computer's 15 turns replay on the seed" in verified.stdout
    assert "the result is a" in verified.stdout


def test_a_past_days_round_verifies_against_the_days_commitment(player):
    day = clock.today() - dt.timedelta(days=2)  # revealed whatever the time of day
    challenge_get_or_create(day=day)
    player.register()
    played = player.run("play", "--date", day.isoformat(), stdin=_turn_keys(20))
    assert played.returncode == 0, played.stderr
    assert f"Daily {day} · Maxi Yatzy · practice" in played.stdout
    verified = player.run("verify", day.isoformat())
    assert verified.returncode == 0, verified.stdout
    assert f"it equals the commitment published for the day {day}" in verified.stdout
    assert "the day's revealed seed is this round's seed" in verified.stdout


def test_the_non_interactive_commands_show_boards_calendar_and_rules(player, live_stack):
    for name in ("bea", "cy"):
        live_stack.play_daily_round(live_stack.register(name))
    player.register()
    board = wait_for(lambda: player.output_with("cy", "boards"))
    assert f"Today's dice · {clock.today()}" in board and "2 on the board" in board
    assert re.search(r"rank player score 1 (bea|cy) \d+ [12] (bea|cy) \d+", board)

    best = player.run("boards", "best-day")
    assert best.returncode == 0 and "Best day" in best.stdout and "best score" in best.stdout
    streaks = player.run("boards", "streaks", "--around-me")
    assert streaks.returncode == 0 and "longest current" in streaks.stdout

    advent = player.run("advent", "2026")
    assert advent.returncode == 0
    assert "Advent calendar 2026" in advent.stdout and " 24 " in advent.stdout
    assert re.search(r"1 2 3 4 5 6 (open|locked|missed|\d+ #[\d-]+) ", advent.stdout)

    # This server has no rulesets endpoint: the engine describes the rules.
    rules = player.run("rules", "maxi")
    assert rules.returncode == 0
    assert "Maxi Yatzy (maxi) 6 dice, 20 turns of up to 3 rolls" in rules.stdout
    assert "upper bonus 100 at 84; maximum total 649" in rules.stdout
    assert "Villa Two different three of a kinds: the sum of those six dice. 3 3 3 5 5 5 24" in (
        rules.stdout
    )
    assert "Described by the local engine" in rules.stdout
    custom = player.run("rules", "maxi", "-o", "full_straight_points=30")
    assert "1 2 3 4 5 6 30" in custom.stdout
    bad = player.run("rules", "yatzy", "-o", "full_straight_points=30")
    assert bad.returncode == 1 and "does not apply to yatzy" in bad.stderr


def test_a_409_from_another_window_shows_the_current_state(player):
    player.register()
    child = player.spawn("play", "--solo", "yatzy")
    _wait_for_frame(child, "Turn 1 of 15 · roll 0 of 3")
    with player.http() as http:
        game = http.get("games/", params={"status": "in_progress"}).json()["results"][0]
        # Another window rolls first.
        http.post(f"rounds/{game['id']}/roll/", json={"hold": [], "turn": 0, "roll": 0})
    child.sendline("r")
    frame = _wait_for_frame(child, "Turn 1 of 15 · roll 1 of 3")
    assert "The round had moved on; this is its current state." in frame
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "Left the round at turn 1" in plain(child.before)


def test_a_connection_lost_mid_round_resumes_on_the_next_play(live_stack_factory, tmp_path):
    stack = live_stack_factory()
    player = Player(stack.url, tmp_path, "dee")
    player.register()
    child = player.spawn("--retries", "2", "play")
    _wait_for_frame(child, "Turn 1 of 20 · roll 0 of 3")
    child.sendline("r")
    _wait_for_frame(child, "Turn 1 of 20 · roll 1 of 3")
    child.sendline("s chance")
    _wait_for_frame(child, "Turn 2 of 20 · roll 0 of 3")

    web = stack.processes["web"]
    web.terminate()
    web.wait(timeout=30)
    child.sendline("r")
    child.expect(pexpect.EOF)
    child.close()
    lost = plain(child.before)
    assert child.exitstatus == 1
    assert "retrying in 1 s (attempt 2 of 2)" in lost
    assert "Lost the connection to the server" in lost
    assert "`yatzy-play play` resumes it" in lost

    port = stack.url.rsplit(":", 1)[1]
    stack.processes["web"] = subprocess.Popen(
        [str(BIN / "gunicorn"), "config.wsgi:application", f"--bind=127.0.0.1:{port}",
         "--workers=1", "--log-level=warning"],
        cwd=ROOT,
        env=stack.env,
    )  # fmt: skip
    wait_for(lambda: _answers(stack.url))
    child = player.spawn("play")
    frame = _wait_for_frame(child, "Turn 2 of 20 · roll 0 of 3")
    assert re.search(r"19 Chance \d+", frame)
    child.sendline("q")
    child.expect(pexpect.EOF)


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/schema/", timeout=2).status_code == 200
    except httpx.TransportError:
        return False
