"""Playing a round at the keyboard: one frame per state (dice with their numbers, the
scorecard with the points each open box would get now, the countdown to the daily
reset), one line of input per move.

The keys, as the help shows them::

    r            roll the dice that are not held (the first roll of a turn throws all)
    1 3 5 / 135  toggle the hold of dice 1, 3 and 5 (numbers as shown above the dice)
    s 7 / s chance   score the box of that number (or id, or name prefix)
    ?            hint: the best moves now (solo and computer games; the daily has none)
    l            look: show the round again, as the server has it
    q            leave; the round is kept and `yatzy-play play` resumes it

Every move is one request carrying the ``turn``/``roll`` last seen. A 409 means the
round moved on elsewhere: the state it carries is shown instead, holds cleared. Other
refusals are shown as the server worded them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rich.console import Console, RenderableType
from rich.text import Text

import yatzy
from client import render
from client.api import ApiClient, ApiError, Conflict
from client.render import NO_NAMES, Names
from client.storage import Journal

PROMPT = "yatzy> "
HELP = (
    "r roll · 1-6 toggle hold (e.g. 1 3 or 13) · s N / s BOX score · ? hint · "
    "l look again · q leave (resume later with yatzy-play play)"
)


@dataclass(frozen=True)
class Roll:
    """Roll the dice that are not held."""


@dataclass(frozen=True)
class Toggle:
    """Toggle the hold of these dice (1-based numbers)."""

    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Score:
    """Fill this box."""

    category: str


@dataclass(frozen=True)
class Hint:
    """Ask the server for the best moves."""


@dataclass(frozen=True)
class Look:
    """Fetch and show the round again."""


@dataclass(frozen=True)
class Help:
    """Show the keys."""


@dataclass(frozen=True)
class Quit:
    """Leave the round (it stays on the server)."""


@dataclass(frozen=True)
class Invalid:
    """Input that is no command; ``message`` says why."""

    message: str


Command = Roll | Toggle | Score | Hint | Look | Help | Quit | Invalid


def resolve_box(text: str, boxes: Sequence[str], names: Names = NO_NAMES) -> str | Invalid:
    """The box ``text`` names: its number on the scorecard, its id, or a prefix of one
    id or of its name (as the server names it, in the player's language).

    >>> boxes = ["ones", "twos", "chance", "three_pairs", "three_of_a_kind"]
    >>> resolve_box("3", boxes), resolve_box("ch", boxes), resolve_box("three pairs", boxes)
    ('chance', 'chance', 'three_pairs')
    >>> resolve_box("sjan", boxes, Names({"chance": "Sjanse"}))
    'chance'
    >>> resolve_box("three", boxes)
    Invalid(message='"three" could be three_pairs, three_of_a_kind: type more of it.')
    """
    wanted = text.strip().lower().replace(" ", "_").replace("-", "_")
    if wanted.isdigit():
        number = int(wanted)
        if 1 <= number <= len(boxes):
            return boxes[number - 1]
        return Invalid(f"There is no box {number}: the boxes are numbered 1 to {len(boxes)}.")
    if wanted in boxes:
        return wanted
    matches = [
        box
        for box in boxes
        if box.startswith(wanted) or names.box(box).lower().replace(" ", "_").startswith(wanted)
    ]
    if len(matches) == 1:
        return matches[0]
    if matches:
        return Invalid(f'"{text}" could be {", ".join(matches)}: type more of it.')
    return Invalid(f'No box is called "{text}". Boxes: {", ".join(boxes)}.')


def parse_command(
    text: str, *, boxes: Sequence[str], dice_count: int, names: Names = NO_NAMES
) -> Command:
    """What a line typed at the prompt asks for.

    >>> parse_command("135", boxes=[], dice_count=6), parse_command("h 2 6", boxes=[], dice_count=6)
    (Toggle(numbers=(1, 3, 5)), Toggle(numbers=(2, 6)))
    >>> parse_command("s 2", boxes=["ones", "twos"], dice_count=5)
    Score(category='twos')
    >>> parse_command("7", boxes=[], dice_count=5)
    Invalid(message='There is no die 7: the dice are numbered 1 to 5.')
    """
    words = text.strip().lower().split()
    if not words:
        return Look()
    head, rest = words[0], words[1:]
    if head in ("r", "roll"):
        return Roll()
    if head in ("?", "hint"):
        return Hint()
    if head in ("l", "look"):
        return Look()
    if head in ("help", "keys"):
        return Help()
    if head in ("q", "quit", "exit"):
        return Quit()
    if head in ("s", "score"):
        if not rest:
            return Invalid("Score which box? e.g. s 7, or s chance.")
        resolved = resolve_box(" ".join(rest), boxes, names)
        return resolved if isinstance(resolved, Invalid) else Score(resolved)
    digits = rest if head in ("h", "hold") else words
    if digits and all(word.isdigit() for word in digits):
        numbers = tuple(int(char) for word in digits for char in word)
        wrong = [n for n in numbers if not 1 <= n <= dice_count]
        if wrong:
            return Invalid(f"There is no die {wrong[0]}: the dice are numbered 1 to {dice_count}.")
        return Toggle(numbers)
    return Invalid(f'"{text.strip()}" is not a move. {HELP}')


class LineReader(Protocol):
    """Where the moves come from."""

    def read(self, prompt: str) -> str:
        """One line; EOFError or KeyboardInterrupt when the player leaves."""
        ...


class TerminalReader:
    """prompt_toolkit on a terminal (line editing, history, box completion, a bottom
    line with the live countdown); plain ``input()`` otherwise (a pipe, a script)."""

    def __init__(self, *, toolbar: Callable[[], str] | None, words: Sequence[str]) -> None:
        self._session: Any = None
        if sys.stdin.isatty() and sys.stdout.isatty():
            from prompt_toolkit import PromptSession
            from prompt_toolkit.completion import WordCompleter

            self._session = PromptSession(
                completer=WordCompleter(list(words)),
                bottom_toolbar=toolbar,
                refresh_interval=1.0 if toolbar else 0,
            )

    def read(self, prompt: str) -> str:
        """One line from the player."""
        if self._session is None:
            return input(prompt)
        return str(self._session.prompt(prompt))


class PlaySession:
    """One round at the keyboard, from whatever state it is in to its end or ``q``."""

    def __init__(
        self,
        api: ApiClient,
        console: Console,
        journal: Journal,
        *,
        reader: LineReader | None = None,
        challenge: dict[str, Any] | None = None,
        names: Names = NO_NAMES,
    ) -> None:
        self.api = api
        self.console = console
        self.journal = journal
        self.challenge = challenge
        self.names = names
        self.held: set[int] = set()
        self._reader = reader

    def countdown(self) -> str | None:
        """The countdown to the daily reset, for a round of a daily challenge."""
        return render.reset_countdown(self.challenge)

    def _toolbar(self) -> str:
        return " " + " · ".join(filter(None, [self.countdown(), HELP]))

    def show(self, state: dict[str, Any], messages: Sequence[RenderableType]) -> None:
        """Draw the round's frame (the screen is cleared first on a terminal)."""
        if self.console.is_terminal:
            self.console.clear()
        frame = render.round_frame(
            state, self.held, names=self.names, countdown=self.countdown(), messages=messages
        )
        self.console.print(frame)

    def run(self, state: dict[str, Any]) -> dict[str, Any]:
        """Play until the round is over or the player leaves; the last state seen."""
        boxes = list(state.get("scorecard") or {})
        dice_count = yatzy.get_ruleset(str(state.get("ruleset"))).dice_count
        reader = self._reader or TerminalReader(
            toolbar=self._toolbar if self.challenge else None,
            words=["roll", "score", "hint", "look", "help", "quit", *boxes],
        )
        messages: list[RenderableType] = [Text(HELP, style="dim")]
        while True:
            self.journal.record(state)
            self.show(state, messages)
            if state.get("status") != "in_progress":
                return state
            try:
                line = reader.read(PROMPT)
            except (EOFError, KeyboardInterrupt):
                return state
            command = parse_command(line, boxes=boxes, dice_count=dice_count, names=self.names)
            if isinstance(command, Quit):
                return state
            try:
                state, messages = self.apply(command, state)
            except Conflict as conflict:
                self.held.clear()
                state = conflict.current or self.api.round(str(state["id"]))
                messages = [
                    Text(conflict.message, style="bold yellow"),
                    Text("The round had moved on; this is its current state.", style="yellow"),
                ]
            except ApiError as error:
                messages = [Text(error.message, style="bold red")]

    def apply(
        self, command: Command, state: dict[str, Any]
    ) -> tuple[dict[str, Any], list[RenderableType]]:
        """Carry out one command; the new state and the messages to show under it."""
        round_id = str(state["id"])
        if isinstance(command, Invalid):
            return state, [Text(command.message, style="red")]
        if isinstance(command, Help):
            return state, [Text(HELP)]
        if isinstance(command, Look):
            return self.api.round(round_id), []
        if isinstance(command, Toggle):
            if not state.get("dice"):
                return state, [Text("Roll first: there are no dice to hold yet.", style="red")]
            for number in command.numbers:
                self.held ^= {number - 1}
            return state, []
        if isinstance(command, Roll):
            hold = sorted(self.held) if state.get("roll") else []
            new = self.api.roll(round_id, hold=hold, turn=state["turn"], roll=state["roll"])
            return new, []
        if isinstance(command, Score):
            seen_turns = len((state.get("opponent") or {}).get("turns", []))
            new = self.api.score(round_id, category=command.category, turn=state["turn"])
            self.held.clear()
            points = new.get("scorecard", {}).get(command.category)
            messages: list[RenderableType] = [
                Text(f"{self.names.box(command.category)}: {points} points.", style="green")
            ]
            opponent = new.get("opponent") or {}
            for turn in opponent.get("turns", [])[seen_turns:]:
                messages.append(
                    render.opponent_turn(
                        turn, opponent.get("level"), opponent.get("total", 0), names=self.names
                    )
                )
            return new, messages
        assert isinstance(command, Hint)
        return state, [render.hint_table(self.api.hint(round_id), names=self.names)]
