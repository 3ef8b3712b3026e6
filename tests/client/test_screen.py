"""The play screen as a player sees it: ``yatzy-play`` in a pseudo-terminal of 80x24
(and 120x40) against pytest-django's live server, its output fed to a terminal
emulator (pyte) that answers the cursor-position requests as a real terminal does, and
the screen read line by line: title, turn and roll, the dice with their numbers, every
box with its points now, the upper total, the bonus pace, the prompt and the bottom bar
with the keys, all on screen at once and nothing scrolled off, for every ruleset.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pexpect
import pyte
import pytest

import yatzy
from tests.live.conftest import BIN, ROOT

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

YATZY_PLAY = str(BIN / "yatzy-play")
PASSWORD = "plum-tractor-quietly-47"


class Terminal(pyte.HistoryScreen):
    """A VT100 screen that keeps what scrolls off its top and answers the program's
    queries (cursor position, status) on its input, as a terminal does."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines, history=1000)
        self.child: pexpect.spawn | None = None

    def write_process_input(self, data: str) -> None:
        assert self.child is not None
        self.child.send(data.encode())

    @property
    def scrolled(self) -> list[str]:
        """The lines that scrolled off the top (none, on a screen that fits)."""
        return ["".join(char.data for char in line.values()) for line in self.history.top]


class Session:
    """``yatzy-play ARGS`` in a pseudo-terminal of ``columns``x``lines``."""

    def __init__(self, env: dict[str, str], args: list[str], columns: int, lines: int) -> None:
        self.screen = Terminal(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(
            YATZY_PLAY, args, env=env, cwd=str(ROOT), dimensions=(lines, columns), timeout=60
        )
        self.screen.child = self.child

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        return "\n".join(self.lines())

    def pump(self, seconds: float) -> bool:
        """Feed the screen what the program writes for up to ``seconds``; whether it
        wrote anything."""
        try:
            data = self.child.read_nonblocking(1 << 16, timeout=seconds)
        except pexpect.TIMEOUT:
            return False
        except pexpect.EOF:
            return False
        self.stream.feed(data)
        return True

    def wait(self, ready: Callable[[list[str]], bool], timeout: float = 60) -> list[str]:
        """The screen once ``ready`` holds and the program has gone quiet."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump(0.2)
            if ready(self.lines()) and not self.pump(0.4):
                return self.lines()
        raise AssertionError(f"the screen never got ready:\n{self.text()}")

    def prompt(self, status: str) -> list[str]:
        """The screen whose status line has ``status``, waiting at the prompt."""
        return self.wait(
            lambda lines: (
                status in lines[1]
                and any(line.startswith("yatzy>") for line in lines)
                and "r roll" in lines[-1]
            )
        )

    def type(self, line: str) -> None:
        self.child.send(line.encode() + b"\r")

    def close(self) -> None:
        self.child.close(force=True)


@pytest.fixture
def player(live_server, tmp_path):
    """A registered player's environment, and an API client with their token."""
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "YATZY_SERVER": live_server.url,
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
    }
    for variable in ("COLUMNS", "LINES", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "NO_COLOR"):
        env.pop(variable, None)
    registered = subprocess.run(
        [YATZY_PLAY, "register", "ada", "--password-stdin"],
        env=env,
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert registered.returncode == 0, registered.stderr
    credentials = Path(env["XDG_CONFIG_HOME"]) / "yatzy-play" / "credentials.json"
    token = re.search(r'"token": "([^"]+)"', credentials.read_text())[1]
    http = httpx.Client(
        base_url=f"{live_server.url}/api/v1/",
        headers={"Authorization": f"Token {token}"},
        timeout=30,
    )
    names = {box["id"]: box["name"] for rs in http.get("rulesets/").json() for box in rs["boxes"]}
    yield env, http, names
    http.close()


def unfinished(http: httpx.Client) -> dict:
    game = http.get("games/", params={"status": "in_progress"}).json()["results"][0]
    return http.get(f"rounds/{game['id']}/").json()


def assert_fits(session: Session, state: dict, names: dict[str, str], *, dice: int) -> None:
    """Everything a turn needs is on the screen at once: title on the first line, the
    status with the bonus pace, the dice as the server has them, every box with the
    points it has or would get now, the upper total and bonus, the prompt, and the bar
    on the last line; nothing scrolled off the top."""
    lines = session.lines()
    text = "\n".join(lines)
    assert not session.screen.scrolled, f"scrolled off: {session.screen.scrolled}\n{text}"
    assert re.match(r"(Daily|Solo|Against the computer) ", lines[0]), text
    turn, roll = state["turn"] + 1, state["roll"]
    assert lines[1].startswith(f"Turn {turn} of {state['turns']} · roll {roll} of 3"), text
    pace = yatzy.bonus_pace(yatzy.get_ruleset(state["ruleset"]), state["scorecard"])
    if pace["reached"]:
        words = f"bonus reached (+{pace['points']})"
    elif len(pace["boxes"]) == 6:
        words = "bonus missed"
    else:
        ahead = f"+{pace['pace']}" if pace["pace"] > 0 else str(pace["pace"])
        words = f"bonus pace {ahead}, {pace['needed']} to go"
    assert lines[1].endswith(f"total {state['total']} · {words}"), text
    if state["dice"]:
        faces = [line for line in lines if line.startswith("face") or line.startswith("│ face")]
        assert len(faces) == 1, text
        assert re.findall(r"\d", faces[0]) == [str(die) for die in state["dice"]], text
    for number, (box, points) in enumerate(state["scorecard"].items(), start=1):
        now = state["options"].get(box)
        shown = str(points) if points is not None else "" if now is None else f"+{now}"
        points_now = rf" +{re.escape(shown)}" if shown else ""
        pattern = rf"(^|[ │]){number} {re.escape(names[box])}{points_now}( |$)"
        assert any(re.search(pattern, line) for line in lines), f"{box} {shown}\n{text}"
    assert any(f"Upper total {state['upper_total']}/" in " ".join(line.split()) for line in lines)
    assert lines[-2].startswith("yatzy>"), text  # the prompt right above the bar
    bar = lines[-1]
    assert f"r roll · 1-{dice} hold" in bar or f"1-{dice} toggle hold" in bar, text
    assert len(lines) == session.screen.lines


def play_turn(session: Session, http, names, *, dice: int, hold: str = "1 2") -> dict:
    """Roll, check the screen; hold, roll again, check; score the best box (saying yes
    to a scratch); the state after it."""
    state = unfinished(http)
    turn = state["turn"] + 1
    session.type("r")
    session.prompt(f"Turn {turn} of {state['turns']} · roll 1 of")
    state = unfinished(http)
    assert_fits(session, state, names, dice=dice)
    session.type(hold)
    lines = session.wait(lambda lines: any("held" in line for line in lines))
    assert sum(line.count("held") for line in lines) == len(hold.split())
    session.type("r")
    session.prompt(f"Turn {turn} of {state['turns']} · roll 2 of")
    state = unfinished(http)
    assert_fits(session, state, names, dice=dice)
    best = max(state["options"], key=lambda box: (state["options"][box], box))
    session.type(f"s {list(state['scorecard']).index(best) + 1}")
    if state["options"][best] == 0:
        session.wait(lambda lines: any("scratch it? [y/N]" in line for line in lines))
        session.type("y")
    if turn == state["turns"]:
        session.wait(lambda lines: lines[1].startswith("Round completed"))
    else:
        session.prompt(f"Turn {turn + 1} of")
    return http.get(f"rounds/{state['id']}/").json()


def test_every_rulesets_turn_fits_80_by_24_and_a_bigger_terminal_gets_the_room(player):
    env, http, names = player
    daily = Session(env, ["play"], 80, 24)
    try:
        lines = daily.prompt("Turn 1 of 20 · roll 0 of 3 · total 0 · bonus pace 0, 84 to go")
        assert lines[0].startswith("Daily ") and "· Maxi Yatzy · ranked" in lines[0]
        assert "No dice yet" in daily.text()
        assert re.search(r"(resets in|finish within) \S+", lines[-1])
        assert_fits(daily, unfinished(http), names, dice=6)
        after = play_turn(daily, http, names, dice=6)
        assert_fits(daily, after, names, dice=6)
        scored = next(box for box, points in after["scorecard"].items() if points is not None)
        assert re.search(rf"{re.escape(names[scored])}: \d+ points\.", daily.text())
        daily.type("q")
        daily.child.expect(pexpect.EOF)
    finally:
        daily.close()

    # The same round on a bigger terminal: one column, the dice in a frame.
    roomy = Session(env, ["play"], 120, 40)
    try:
        lines = roomy.prompt("Turn 2 of 20 · roll 0 of 3")
        roomy.type("r")
        lines = roomy.prompt("roll 1 of 3")
        state = unfinished(http)
        assert_fits(roomy, state, names, dice=6)
        assert any(line.startswith("╭") for line in lines)  # the dice in a frame
        boxes = [line for line in lines if re.match(r" ?\d+ \S", line)]
        assert len(boxes) == 20 and "│" not in "".join(boxes)  # one box a line
        roomy.type("q")
        roomy.child.expect(pexpect.EOF)
    finally:
        roomy.close()

    for ruleset, dice in (("yatzy", 5), ("yahtzee", 5)):
        solo = Session(env, ["play", "--solo", ruleset], 80, 24)
        try:
            solo.prompt("Turn 1 of")
            assert solo.lines()[0].startswith("Solo ·")
            play_turn(solo, http, names, dice=dice)
            solo.type("q")
            solo.child.expect(pexpect.EOF)
        finally:
            solo.close()

    computer = Session(env, ["play", "--computer", "easy"], 80, 24)
    try:
        computer.prompt("Turn 1 of 20")
        after = play_turn(computer, http, names, dice=6)
        assert after["opponent"]["turns"], after
        text = computer.text()
        assert "Computer (easy), turn 1:" in text and "comp." in text
        assert_fits(computer, after, names, dice=6)
    finally:
        computer.close()


def test_a_whole_yahtzee_game_ends_on_a_screen_that_fits(player):
    env, http, names = player
    solo = Session(env, ["play", "--solo", "yahtzee"], 80, 24)
    try:
        solo.prompt("Turn 1 of 13")
        for _ in range(13):
            final = play_turn(solo, http, names, dice=5)
        lines = solo.lines()
        assert not solo.screen.scrolled
        assert lines[1].startswith(f"Round completed · total {final['total']}")
        assert lines[0].startswith("Solo · Yahtzee")
        for number, (box, points) in enumerate(final["scorecard"].items(), start=1):
            pattern = rf"(^|[ │]){number} {re.escape(names[box])} +{points}\b"
            assert any(re.search(pattern, line) for line in lines), box
        solo.child.expect(pexpect.EOF)
    finally:
        solo.close()


def test_a_terminal_that_answers_no_cursor_request_gets_the_keys_and_countdown_on_screen(
    player,
):
    """prompt_toolkit draws its bottom bar only where it knows the lines left; without
    it the keys and the countdown are part of the screen itself."""
    env, _, _ = player
    session = Session({**env, "PROMPT_TOOLKIT_NO_CPR": "1"}, ["play"], 80, 24)
    try:
        lines = session.wait(lambda lines: any(line.startswith("yatzy>") for line in lines))
        assert re.search(r"(Daily resets in|Day closed: finish within) \S+", lines[0])
        assert any(line.startswith("r roll · 1-6 toggle hold") for line in lines)
        assert lines[-2].startswith("yatzy>") and not session.screen.scrolled
    finally:
        session.close()


def test_ctrl_z_at_the_prompt_stops_the_client_and_then_draws_the_round_again(player):
    """Ctrl-Z suspends the client as it does any program; it is never typed into the
    line (prompt_toolkit reads the keys raw), where it spoiled the next move ("1" is not
    a move). Back in the foreground, the round is drawn again whole. (In this
    pseudo-terminal the client leads an orphaned process group, which the kernel keeps
    from stopping: it goes straight on.)"""
    env, http, names = player
    session = Session(env, ["play"], 80, 24)
    try:
        session.prompt("Turn 1 of 20 · roll 0 of 3")
        session.type("r")
        session.prompt("roll 1 of 3")
        session.screen.reset()  # so the round drawn again is read, not the first one
        session.child.sendcontrol("z")
        lines = session.prompt("roll 1 of 3")
        assert lines[0].startswith("Daily ") and any(line.startswith("face") for line in lines)
        session.type("1")
        lines = session.wait(lambda lines: any("held" in line for line in lines))
        assert "is not a move" not in session.text()
        assert sum(line.count("held") for line in lines) == 1
        assert_fits(session, unfinished(http), names, dice=6)
    finally:
        session.close()


def test_a_dumb_terminal_gets_a_screen_of_its_own_size(player):
    """rich takes a TERM=dumb terminal (Emacs' shell, a serial line) for 80x25 whatever
    its size: at 60x20 the screen was laid out for 80 columns and 23 lines, its lines
    wrapped and its title, status and dice scrolled off. It is sized to the terminal,
    as any other (which cannot be cleared: each screen is written under the last)."""
    env, _, _ = player
    session = Session({**env, "TERM": "dumb"}, ["play"], 60, 20)
    try:
        session.wait(lambda lines: any(line.startswith("yatzy>") for line in lines))
        session.type("r")
        lines = session.wait(lambda lines: any("roll 1 of 3" in line for line in lines))
        # The whole screen under the line typed (its title gives way to the keys).
        assert lines[0] == "yatzy> r", session.text()
        assert lines[1].startswith("Turn 1 of 20 · roll 1 of 3"), session.text()
        frame = lines[1:]
        assert any(line.startswith("face") for line in frame), session.text()
        assert any(line.startswith(" 6 Sixes") for line in frame)
        assert any("20 Maxi Yatzy" in line for line in frame)
        assert frame[-1].startswith("yatzy>")
    finally:
        session.close()
