"""Playing a round at the keyboard: one screen per state (dice with their numbers, the
scorecard with the points each open box would get now and the bonus pace), sized to
the terminal (:class:`client.render.RoundScreen`), one line of input per move, and a
bottom bar with the keys and the countdown to the daily reset.

The keys, as the bar shows them::

    r            roll the dice that are not held (the first roll of a turn throws all)
    1 3 5 / 135  toggle the hold of dice 1, 3 and 5 (numbers as shown above the dice)
    s 7 / s chance   score the box of that number (or id, or the start of its name or
                 of a word of it: s peq is Escalera pequeña); a box that would score
                 0 (a scratch) asks once
    ?            hint: the best moves now (solo and computer games; the daily has none
                 until its day is over: the keys offer it only where the server gives one)
    l            look: show the round again, as the server has it
    q            leave; the round is kept on the server
    Ctrl-Z       stop the client (``fg`` brings it back and draws the round again)

Every move is one request carrying the ``turn``/``roll`` last seen, and every action
the server acknowledges and every state shown goes into the journal
(:class:`client.storage.Journal`) for ``verify``. A 409 means the round moved on
elsewhere: the state it carries is shown instead, holds cleared. Other refusals are
shown as the server worded them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from rich.cells import cell_len, set_cell_size
from rich.console import Console, RenderableType
from rich.text import Text

import yatzy
from client import i18n, render
from client.api import ApiClient, ApiError, Conflict
from client.i18n import _
from client.render import NO_NAMES, Names
from client.storage import Journal, StorageError
from client.verify import points_text

PROMPT = "yatzy> "
CLOSING_LINES = 5
"""Lines left under a finished round's screen: the result, how to verify it, a prompt."""


def offers_hints(state: Mapping[str, Any]) -> bool:
    """Whether the server gives hints on this round, as its state tells (SPEC §4, §7):
    none on a round of a day whose seed is not revealed (a daily, a friend's or a
    party's round of an open challenge), none on a friend round until it is over, none
    with saved rolls (no exact table models them).

    >>> offers_hints({"mode": "solo", "date": None, "seed": None, "rules": {}})
    True
    >>> offers_hints({"mode": "daily", "date": "2026-12-01", "seed": None, "rules": {}})
    False
    """
    if state.get("date") and not state.get("seed"):
        return False
    if state.get("mode") == "friend" and state.get("status") == "in_progress":
        return False
    return not (state.get("rules") or {}).get("saved_rolls")


def keys_help(dice_count: int, *, short: bool = False, hints: bool = True) -> str:
    """The keys, for ``dice_count`` dice: in full, or ``short`` for a narrow bar;
    ``?`` only where the round has ``hints``.

    >>> keys_help(5, short=True)
    'r roll · 1-5 hold · s N score · ? hint · l look · q leave'
    >>> keys_help(6, short=True, hints=False)
    'r roll · 1-6 hold · s N score · l look · q leave'
    """
    # Each key with its word is one text: the keys stay as they are typed.
    keys = [
        _("r roll"),
        (_("1-{count} hold") if short else _("1-{count} toggle hold (e.g. 1 3 or 13)")).format(
            count=dice_count
        ),
        _("s N score") if short else _("s N / s BOX score"),
        *([_("? hint")] if hints else []),
        _("l look") if short else _("l look again"),
        _("q leave"),
    ]
    return " · ".join(keys)


def bottom_bar(
    width: int, dice_count: int, countdowns: Sequence[str | None] = (), *, hints: bool = True
) -> str:
    """The bottom bar: the keys on the left, the countdown (long, else short) on the
    right, in the longest wording that fits ``width`` columns (as a terminal counts
    them: a Japanese character takes two).

    >>> bottom_bar(80, 6, ["Daily resets in 5h 13m (00:00 UTC)", "resets in 5h 13m"])
    ' r roll · 1-6 hold · s N score · ? hint · l look · q leave     resets in 5h 13m '
    >>> len(bottom_bar(40, 6))
    40
    """
    keys = [keys_help(dice_count, hints=hints), keys_help(dice_count, short=True, hints=hints)]
    clocks = [c for c in countdowns if c] or [""]
    # The keys in full, then the shorter keys, then the shorter countdown too.
    wordings = [(keys[0], clocks[0]), *((keys[1], clock) for clock in clocks)]
    for left, right in wordings:
        room = width - cell_len(left) - cell_len(right) - 2
        if room >= (4 if right else 0):
            return f" {left}{' ' * room}{right} "
    text = f" {keys[-1]}   {clocks[-1]}"
    return (
        set_cell_size(text, width - 1) + "…"
        if cell_len(text) > width
        else set_cell_size(text, width)
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


_LETTER_FOLDS = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d"})
"""Letters with no decomposition, as players who type without them write them."""


def fold(text: str) -> str:
    """``text`` as a box name is compared, the way players type one: without case
    (``casefold``: ß is ss), without accents (NFKD, its Latin combining marks dropped:
    é is e, å is a, ż is z; a Japanese voicing mark is kept), with æ as ae, œ as oe, ø
    as o, ł as l and đ as d, and spaces and hyphens as ``_`` (as in the box ids).

    >>> fold("Große Straße"), fold("Escalera pequeña"), fold("Kåk"), fold("Mały strit")
    ('grosse_strasse', 'escalera_pequena', 'kak', 'maly_strit')
    >>> fold("Tårn") == fold("TARN"), fold("ラージ") == fold("ラーシ")
    (True, False)
    """
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    plain = "".join(char for char in decomposed if not "\u0300" <= char <= "\u036f")
    folded = unicodedata.normalize("NFC", plain).translate(_LETTER_FOLDS)
    return folded.replace(" ", "_").replace("-", "_")


def _word_starts(name: str) -> list[str]:
    """``name`` (an id, or a name as :func:`fold` has it) from the start of each of its
    words: where a player may begin typing it.

    >>> _word_starts("escalera_pequena")
    ['escalera_pequena', 'pequena']
    """
    words = name.split("_")
    return ["_".join(words[i:]) for i in range(len(words))]


def resolve_box(text: str, boxes: Sequence[str], names: Names = NO_NAMES) -> str | Invalid:
    """The box ``text`` names: its number on the scorecard, its id, or a prefix of one
    id or of its name (as the server names it, in the player's language), compared as
    :func:`fold` has them (no case, no accents: ``grosse`` is Große Straße); failing
    those, a prefix of a later word of one (``pequena`` is Escalera pequeña). A whole
    name, then a start of a name, comes before a later word: ``brelan`` is the French
    Brelan, not Double brelan, and ``deux`` Deux, not Deux paires.

    >>> boxes = ["ones", "twos", "chance", "three_pairs", "three_of_a_kind"]
    >>> resolve_box("3", boxes), resolve_box("ch", boxes), resolve_box("three pairs", boxes)
    ('chance', 'chance', 'three_pairs')
    >>> resolve_box("sjan", boxes, Names({"chance": "Sjanse"}))
    'chance'
    >>> resolve_box("grosse", ["large_straight"], Names({"large_straight": "Große Straße"}))
    'large_straight'
    >>> resolve_box("pairs", boxes), resolve_box("kind", boxes)
    ('three_pairs', 'three_of_a_kind')
    >>> resolve_box("three", boxes)
    Invalid(message='"three" could be three_pairs, three_of_a_kind: type more of it.')
    """
    number_text = text.strip()
    # ASCII digits only: str.isdigit() also accepts "²", which int() refuses; and a
    # bounded length, as int() refuses 4,300 digits and more.
    if number_text.isascii() and number_text.isdigit():
        number = int(number_text) if len(number_text) <= 6 else 0
        if 1 <= number <= len(boxes):
            return boxes[number - 1]
        shown = number_text if len(number_text) <= 6 else number_text[:6] + "…"
        return Invalid(
            _("There is no box {box}: the boxes are numbered 1 to {count}.").format(
                box=shown, count=len(boxes)
            )
        )
    wanted = fold(text.strip())
    if wanted in boxes:
        return wanted
    spellings = {box: (box, fold(names.box(box))) for box in boxes}
    named = [box for box, (_, name) in spellings.items() if name == wanted]
    if len(named) == 1:
        return named[0]
    for any_word in (False, True):
        matches = [
            box
            for box, spelt in spellings.items()
            if any(
                start.startswith(wanted)
                for one in spelt
                for start in (_word_starts(one) if any_word else [one])
            )
        ]
        if len(matches) == 1:
            return matches[0]
        if matches:
            shown = ", ".join(names.box(box) for box in matches)  # as the scorecard names them
            return Invalid(
                _('"{text}" could be {boxes}: type more of it.').format(text=text, boxes=shown)
            )
    return Invalid(
        _(
            'No box is called "{text}": type its number (1 to {count}) or the start of its name.'
        ).format(text=text, count=len(boxes))
    )


def parse_command(
    text: str,
    *,
    boxes: Sequence[str],
    dice_count: int,
    names: Names = NO_NAMES,
    hints: bool = True,
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
        if not rest:
            return Roll()
        # A roll cannot be taken back: never made with words after it left unread.
        if all(word.isascii() and word.isdigit() for word in rest):
            return Invalid(
                _(
                    '"{text}": {key} takes nothing after it. Hold dice first ({dice}), then {key}.'
                ).format(text=text.strip(), key=head, dice=" ".join(rest))
            )
        return Invalid(
            _('"{text}": {key} takes nothing after it. {keys}').format(
                text=text.strip(), key=head, keys=keys_help(dice_count, hints=hints)
            )
        )
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
            return Invalid(_("Score which box? e.g. s 7, or s chance."))
        resolved = resolve_box(" ".join(rest), boxes, names)
        return resolved if isinstance(resolved, Invalid) else Score(resolved)
    digits = rest if head in ("h", "hold") else words
    if digits and all(word.isascii() and word.isdigit() for word in digits):
        numbers = tuple(int(char) for word in digits for char in word)
        wrong = [n for n in numbers if not 1 <= n <= dice_count]
        if wrong:
            return Invalid(
                _("There is no die {die}: the dice are numbered 1 to {count}.").format(
                    die=wrong[0], count=dice_count
                )
            )
        return Toggle(numbers)
    return Invalid(
        _('"{text}" is not a move. {keys}').format(
            text=text.strip(), keys=keys_help(dice_count, hints=hints)
        )
    )


def said_yes(read: Callable[[str], str], question: str) -> bool:
    """The player's yes to ``question`` (``[y/N]``): anything else, Ctrl-D or Ctrl-C is
    a no.

    >>> said_yes(lambda q: " Yes", "Sure? [y/N] "), said_yes(lambda q: "", "Sure? [y/N] ")
    (True, False)
    """
    try:
        answer = read(question)
    except (EOFError, KeyboardInterrupt):
        return False
    return answer.strip().lower() in ("y", "yes")


class LineReader(Protocol):
    """Where the moves come from."""

    def read(self, prompt: str) -> str:
        """One line; EOFError or KeyboardInterrupt when the player leaves."""
        ...


class TerminalReader:
    """prompt_toolkit on a terminal (line editing, history, the box name suggested as it
    is typed, accepted with Tab or →, and the bottom bar right under the prompt);
    plain ``input()`` otherwise (a pipe, a script). A suggestion, not a completion menu:
    prompt_toolkit reserves lines above its bar for a menu (8 by default), which would
    push the round's screen up; with no completer it reserves none."""

    def __init__(
        self,
        *,
        toolbar: Callable[[int], str],
        boxes: Sequence[str],
        names: Names,
        refresh: bool,
    ) -> None:
        self._session: Any = None
        if sys.stdin.isatty() and sys.stdout.isatty():
            from prompt_toolkit import PromptSession
            from prompt_toolkit.application import get_app, run_in_terminal
            from prompt_toolkit.auto_suggest import AutoSuggest, Suggestion
            from prompt_toolkit.key_binding import KeyBindings

            class BoxSuggest(AutoSuggest):
                def get_suggestion(self, buffer: Any, document: Any) -> Suggestion | None:
                    rest = box_completion(document.text, boxes, names)
                    return Suggestion(rest) if rest else None

            keys = KeyBindings()

            @keys.add("tab")
            def _accept(event: Any) -> None:
                suggestion = event.current_buffer.suggestion
                if suggestion:
                    event.current_buffer.insert_text(suggestion.text)

            if hasattr(signal, "SIGTSTP"):

                @keys.add("c-z")
                async def _suspend(event: Any) -> None:
                    # Ctrl-Z stops the client as it stops any program (the keys are read
                    # raw: unbound, it would be typed into the line and spoil the move);
                    # back in the foreground, an empty line draws the round again ("l").
                    await run_in_terminal(lambda: os.kill(0, signal.SIGTSTP))
                    event.app.exit(result="")

            self._session = PromptSession(
                auto_suggest=BoxSuggest(),
                key_bindings=keys,
                bottom_toolbar=lambda: toolbar(get_app().output.get_size().columns),
                refresh_interval=1.0 if refresh else 0,
            )

    @property
    def shows_bar(self) -> bool:
        """Whether the bottom bar is on the screen: prompt_toolkit on a terminal that
        answers cursor-position requests (it draws the bar only where it knows how many
        lines are left; until a terminal is known not to answer, it is taken to)."""
        if self._session is None:
            return False
        from prompt_toolkit.renderer import CPR_Support

        return bool(self._session.app.renderer.cpr_support != CPR_Support.NOT_SUPPORTED)

    def read(self, prompt: str) -> str:
        """One line from the player."""
        if self._session is None:
            return input(prompt)
        return str(self._session.prompt(prompt))


def box_completion(text: str, boxes: Sequence[str], names: Names = NO_NAMES) -> str:
    """What completes ``s PREFIX`` to the one box :func:`resolve_box` finds for it: the
    rest of the name after its shortest start (or, typed from a later word, that word's)
    that :func:`fold` makes what was typed; nothing where no start of it does (``gros``
    is no start of Große: ``Groß`` folds to ``gross``).

    >>> names = Names({"small_straight": "Small straight", "large_straight": "Große Straße"})
    >>> box_completion("s sm", ["small_straight", "large_straight"], names)
    'all straight'
    >>> box_completion("s gro", ["small_straight", "large_straight"], names)
    'ße Straße'
    >>> box_completion("s gros", ["small_straight", "large_straight"], names)
    ''
    >>> box_completion("s str", ["small_straight"], names)
    'aight'
    >>> box_completion("s 2", ["small_straight", "large_straight"], names)
    ''
    """
    head, _, typed = text.partition(" ")
    typed = typed.lstrip()
    if head.lower() not in ("s", "score") or not typed or typed.isdigit():
        return ""
    resolved = resolve_box(typed, boxes, names)
    if isinstance(resolved, Invalid):
        return ""
    wanted = fold(typed)
    spellings = (unicodedata.normalize("NFC", names.box(resolved)), resolved)
    # A start of the name or id first, as resolve_box has it, then a later word's.
    starts = [(full, 0) for full in spellings] + [
        (full, at + 1) for full in spellings for at, char in enumerate(full) if char in " -_"
    ]
    for full, start in starts:
        for end in range(start + 1, len(full) + 1):
            if fold(full[start:end]) == wanted:
                return full[end:]
    return ""


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
        target: str | None = None,
    ) -> None:
        self.api = api
        self.console = console
        self.journal = journal
        self.challenge = challenge
        self.names = names
        self.target = target
        """A friend's score to beat, for the title (``ada's score to beat: 263``)."""
        self.held: set[int] = set()
        self._reader = reader
        self._terminal: TerminalReader | None = None
        self._dice_count = 6
        self._hints = True
        """Whether the round shown has hints (``?`` in the keys): :func:`offers_hints`."""
        self._keys_shown = False
        self._journal_lost = False
        self._sent: dict[str, Any] | None = None
        """The action of the request under way (a 409 refusing it goes into the journal)."""
        self._on_screen: dict[str, Any] | None = None
        """The state drawn last (a retry notice is drawn on it)."""

    def countdown(self, *, short: bool = False) -> str | None:
        """The countdown to the daily reset, for a round of a daily challenge."""
        return render.reset_countdown(self.challenge, short=short)

    def _toolbar(self, width: int) -> str:
        clocks = [self.countdown(), self.countdown(short=True)]
        return bottom_bar(width - 1, self._dice_count, clocks, hints=self._hints)

    def show(self, state: dict[str, Any], messages: Sequence[RenderableType]) -> None:
        """Draw the round's screen: on a terminal, cleared first and sized to fit above
        the prompt and the bottom bar (which has the keys and the ticking countdown);
        without the bar (a pipe, a terminal that does not answer cursor-position
        requests) with the keys and the countdown in it."""
        self._hints = offers_hints(state)
        self._on_screen = state
        height = None
        if self.console.is_terminal:
            if self.console.is_dumb_terminal:
                # rich takes TERM=dumb for 80x25 whatever its size; ask the terminal.
                with contextlib.suppress(OSError, ValueError):
                    self.console.size = os.get_terminal_size(self.console.file.fileno())
            self.console.clear()
            # Room for the prompt and the bar; once over, for the closing lines and the
            # shell's prompt instead.
            below = 2 if state.get("status") == "in_progress" else CLOSING_LINES
            height = max(1, self.console.size.height - below)
        bar = self._terminal is not None and self._terminal.shows_bar
        # Without the bar the keys are on every screen of a terminal, and once in a log.
        if not bar and (self.console.is_terminal or not self._keys_shown):
            keys = keys_help(self._dice_count, hints=self._hints)
            messages = [Text(keys, style="dim"), *messages]
            self._keys_shown = True
        frame = render.round_frame(
            state,
            self.held,
            names=self.names,
            countdown=None if bar else self.countdown(),
            target=self.target,
            messages=messages,
            height=height,
        )
        self.console.print(frame)

    def run(self, state: dict[str, Any], note: RenderableType | None = None) -> dict[str, Any]:
        """Play until the round is over or the player leaves; the last state seen.
        ``note`` is said on the first screen (a line printed before it would be cleared
        with the terminal). On a terminal, the API client's notices (a request retried:
        the server unreachable, busy, throttling) are drawn on the round's screen, each
        in place of the one before, rather than printed under it (which scrolled it)."""
        notify = self.api.notify
        if self.console.is_terminal:
            self.api.notify = partial(self._notice, fallback=notify)
        try:
            return self._play(state, note)
        finally:
            self.api.notify = notify

    def _notice(self, message: str, *, fallback: Callable[[str], None]) -> None:
        """A notice of the API client, in the message lines of the round's screen."""
        if self._on_screen is None:
            fallback(message)
            return
        self.show(self._on_screen, [Text(message, style="yellow")])

    def _play(self, state: dict[str, Any], note: RenderableType | None) -> dict[str, Any]:
        boxes = list(state.get("scorecard") or {})
        self._dice_count = yatzy.get_ruleset(str(state.get("ruleset"))).dice_count
        reader = self._reader
        if reader is None:
            terminal = TerminalReader(
                toolbar=self._toolbar,
                boxes=boxes,
                names=self.names,
                refresh=self.challenge is not None,
            )
            self._terminal = reader = terminal
        messages: list[RenderableType] = []
        if note is not None:
            messages.append(Text(note) if isinstance(note, str) else note)
        fetched = True
        while True:
            shown = partial(self.journal.shown, state, held=self.held, fetched=fetched)
            messages = [*self._note(shown), *messages]
            self.show(state, messages)
            if state.get("status") != "in_progress":
                return state
            try:
                line = reader.read(PROMPT)
            except (EOFError, KeyboardInterrupt):
                return state
            command = parse_command(
                line,
                boxes=boxes,
                dice_count=self._dice_count,
                names=self.names,
                hints=self._hints,
            )
            if isinstance(command, Quit):
                return state
            if isinstance(command, Score) and not self._scratch_confirmed(command, state, reader):
                messages = [Text(_("Not scored."), style="yellow")]
                fetched = False
                continue
            self._sent = None
            try:
                state, messages, fetched = self.apply(command, state)
            except Conflict as conflict:
                # The server's words say the round moved on; what is ours to add is
                # that the holds made for the old state are gone.
                cleared = i18n.sentence_gap() + _("Your holds are cleared.") if self.held else ""
                self.held.clear()
                current = conflict.current or {}
                # A party seat's round answers for the party (its seat order): the
                # party's state is not this round's, which is read again instead.
                if current.get("id") != state["id"] or "scorecard" not in current:
                    current = self.api.round(str(state["id"]))
                moved = (current.get("turn"), current.get("roll")) != (state["turn"], state["roll"])
                refused = self._sent
                noted: list[RenderableType] = (
                    self._note(partial(self.journal.refused, refused, before=state))
                    if refused is not None and moved
                    else []
                )
                state = current
                fetched = True
                messages = [
                    *noted,
                    Text.assemble((conflict.message, "bold yellow"), (cleared, "yellow")),
                ]
            except ApiError as error:
                if error.status == 401:  # logged out elsewhere: no key here will help
                    raise
                messages, fetched = [Text(error.message, style="bold red")], False

    def _note(self, write: Callable[[], None]) -> list[RenderableType]:
        """Note what happened in the round's journal. A journal this machine cannot read
        or write (damaged, a read-only directory) ends the notes of this round, said
        once, never the round: the server has the action either way."""
        if self._journal_lost:
            return []
        try:
            write()
        except StorageError as error:
            self._journal_lost = True
            return [
                Text(  # the words that matter first: a narrow screen cuts the path
                    _(
                        "The round goes on without its journal (`verify` cannot check what "
                        "follows): {error}."
                    ).format(error=error),
                    style="yellow",
                )
            ]
        return []

    def _scratch_confirmed(self, command: Score, state: dict[str, Any], reader: LineReader) -> bool:
        """A box that would score 0 now asks once before it is scored (a typo must not
        scratch a box); any other move goes ahead."""
        options = state.get("options") or {}
        if options.get(command.category, 1) != 0:
            return True
        name = self.names.box(command.category)
        # Drawn again first, so the question takes the prompt's line, not one below it.
        self.show(state, [])
        question = _("{box} scores 0 now: scratch it? [y/N]").format(box=name)
        return said_yes(reader.read, f"{question} ")

    def apply(
        self, command: Command, state: dict[str, Any]
    ) -> tuple[dict[str, Any], list[RenderableType], bool]:
        """Carry out one command; the new state, the messages to show under it, and
        whether the state was read afresh (rather than answered to an action of ours)."""
        round_id = str(state["id"])
        if isinstance(command, Invalid):
            return state, [Text(command.message, style="red")], False
        if isinstance(command, Help):
            return state, [Text(keys_help(self._dice_count, hints=self._hints))], False
        if isinstance(command, Look):
            return self.api.round(round_id), [], True
        if isinstance(command, Toggle):
            if not state.get("dice"):
                message = Text(_("Roll first: there are no dice to hold yet."), style="red")
                return state, [message], False
            for number in command.numbers:
                self.held ^= {number - 1}
            return state, [], False
        if isinstance(command, Roll):
            hold = sorted(self.held) if state.get("roll") else []
            self._sent = {"type": "roll", "hold": hold}
            new = self.api.roll(round_id, hold=hold, turn=state["turn"], roll=state["roll"])
            noted = self._note(
                partial(self.journal.acted, {"type": "roll", "hold": hold}, new, before=state)
            )
            return new, noted, False
        if isinstance(command, Score):
            seen_turns = len((state.get("opponent") or {}).get("turns", []))
            self._sent = {"type": "score", "category": command.category}
            new = self.api.score(
                round_id, category=command.category, turn=state["turn"], roll=state["roll"]
            )
            action = {"type": "score", "category": command.category}
            messages: list[RenderableType] = self._note(
                partial(self.journal.acted, action, new, before=state)
            )
            self.held.clear()
            points = new.get("scorecard", {}).get(command.category)
            # The extra bonus the score earned beside the box (Yahtzee's joker).
            extra = (new.get("extra_bonus") or 0) - (state.get("extra_bonus") or 0)
            box, scored = self.names.box(command.category), points_text(points)
            said = (
                _("{box}: {points} +{extra} extra bonus.").format(
                    box=box, points=scored, extra=extra
                )
                if extra > 0
                else _("{box}: {points}.").format(box=box, points=scored)
            )
            messages += [Text(said, style="green")]
            opponent = new.get("opponent") or {}
            for turn in opponent.get("turns", [])[seen_turns:]:
                messages.append(
                    render.opponent_turn(
                        turn, opponent.get("level"), opponent.get("total", 0), names=self.names
                    )
                )
            return new, messages, False
        assert isinstance(command, Hint)
        return state, [render.hint_table(self.api.hint(round_id), names=self.names)], False
