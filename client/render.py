"""What the terminal shows, as rich renderables built from the API's answers.

Nothing here talks to the server or reads the keyboard; each function turns data into
something :class:`rich.console.Console` prints. What the server words (box names, rules,
names of players) is shown as :class:`rich.text.Text`, never read as markup, so it
appears exactly as the server wrote it.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

import yatzy
from client.i18n import N_, _, ngettext, pgettext
from client.verify import Report, TurnLine

MODE_TITLES = {
    "daily": N_("Daily"),
    "solo": N_("Solo"),
    "computer": N_("Against the computer"),
    "friend": N_("Friend challenge"),
    "party": N_("Party"),
}
DATED_TITLES = {"daily": N_("Daily {date}"), "friend": N_("Friend challenge {date}")}
"""The title of a round of a day's dice, with its date."""


@dataclass(frozen=True)
class Names:
    """Box names and ruleset titles in the player's language, as the server words them
    (``GET rulesets/``); an id the server did not name is shown as it is.

    >>> names = Names.from_rulesets([{"name": "yatzy", "title": "Yatzy",
    ...                               "boxes": [{"id": "chance", "name": "Chans"}]}])
    >>> names.box("chance"), names.box("villa"), names.ruleset("yatzy")
    ('Chans', 'villa', 'Yatzy')
    """

    boxes: Mapping[str, str] = field(default_factory=dict)
    rulesets: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_rulesets(cls, rulesets: Iterable[Mapping[str, Any]]) -> Names:
        """The names in the answer of ``GET rulesets/``."""
        boxes: dict[str, str] = {}
        titles: dict[str, str] = {}
        for ruleset in rulesets:
            titles[str(ruleset["name"])] = str(ruleset["title"])
            boxes.update({str(box["id"]): str(box["name"]) for box in ruleset["boxes"]})
        return cls(boxes, titles)

    def box(self, box: object) -> str:
        """The name of box ``box``, on one line."""
        return _one_line(self.boxes.get(str(box), str(box)))

    def ruleset(self, name: object) -> str:
        """The title of ruleset ``name``, on one line."""
        return _one_line(self.rulesets.get(str(name), str(name)))


def _one_line(name: object) -> str:
    """A name on one line: a line break (or tab, or a Unicode line or paragraph
    separator) a server put in one is a space, so a box's name keeps to its row of the
    scorecard and a player's to its row of a board.

    >>> _one_line("Two\\n pairs\\t")
    'Two pairs'
    """
    return " ".join(str(name).split())


NO_NAMES = Names()
"""Every box and ruleset shown by its id."""


def parse_time(value: object) -> dt.datetime | None:
    """An ISO date-time from the API, as an aware datetime.

    >>> parse_time("2026-12-02T00:00:00Z").isoformat()
    '2026-12-02T00:00:00+00:00'
    """
    if not isinstance(value, str):
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def duration(seconds: float) -> str:
    """A short duration for people.

    >>> duration(5 * 3600 + 12 * 60 + 9), duration(754), duration(9)
    ('5h 12m', '12m 34s', '9s')
    """
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return _("{hours}h {minutes}m").format(hours=hours, minutes=f"{minutes:02d}")
    if minutes:
        return _("{minutes}m {seconds}s").format(minutes=minutes, seconds=f"{secs:02d}")
    return _("{seconds}s").format(seconds=secs)


def reset_countdown(
    challenge: Mapping[str, Any] | None, now: dt.datetime | None = None, *, short: bool = False
) -> str | None:
    """When the daily resets, in words: before midnight the time left; during the grace
    period the time left to finish a round started before it; None once revealed.
    ``short`` for a narrow line.

    >>> day = {"closes_at": "2026-12-02T00:00:00Z", "reveal_at": "2026-12-02T00:30:00Z"}
    >>> reset_countdown(day, dt.datetime(2026, 12, 1, 18, 47, tzinfo=dt.UTC))
    'Daily resets in 5h 13m (00:00 UTC)'
    >>> reset_countdown(day, dt.datetime(2026, 12, 2, 0, 10, tzinfo=dt.UTC))
    'Day closed: finish within 20m 00s (grace period)'
    >>> reset_countdown(day, dt.datetime(2026, 12, 2, 0, 10, tzinfo=dt.UTC), short=True)
    'finish within 20m 00s'
    """
    if not challenge:
        return None
    closes, reveal = parse_time(challenge.get("closes_at")), parse_time(challenge.get("reveal_at"))
    now = now or dt.datetime.now(dt.UTC)
    if closes and now < closes:
        left = duration((closes - now).total_seconds())
        if short:
            return _("resets in {left}").format(left=left)
        zone_name = str(challenge.get("time_zone") or "UTC")
        try:
            local = closes.astimezone(zoneinfo.ZoneInfo(zone_name))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            local, zone_name = closes.astimezone(dt.UTC), "UTC"
        return _("Daily resets in {left} ({time} {zone})").format(
            left=left, time=f"{local:%H:%M}", zone=zone_name
        )
    if reveal and now < reveal:
        left = duration((reveal - now).total_seconds())
        if short:
            return _("finish within {left}").format(left=left)
        return _("Day closed: finish within {left} (grace period)").format(left=left)
    return None


def round_title(state: Mapping[str, Any], *, names: Names) -> str:
    """``Daily 2026-12-01 · Maxi Yatzy · ranked`` and the like."""
    mode = str(state.get("mode"))
    parts = [_(MODE_TITLES[mode]) if mode in MODE_TITLES else mode]
    if state.get("date") and mode in DATED_TITLES:
        parts[0] = _(DATED_TITLES[mode]).format(date=state["date"])
    parts.append(names.ruleset(state.get("ruleset")))
    if mode == "daily":
        parts.append(_("ranked") if state.get("ranked") else _("practice"))
    if state.get("level"):
        parts.append(_("level {level}").format(level=level_name(state["level"])))
    return " · ".join(parts)


def level_name(level: object) -> str:
    """A computer's level (``easy`` to ``expert``) in the player's language, as the
    server names them; one this client does not know as the server sent it."""
    words = {
        "easy": pgettext("level", "easy"),
        "medium": pgettext("level", "medium"),
        "hard": pgettext("level", "hard"),
        "expert": pgettext("level", "expert"),
    }
    return words.get(str(level), str(level))


def round_status(status: object) -> str:
    """A round's status (``completed``, ``expired``) in the player's language; one this
    client does not know as the server sent it."""
    words = {
        "in_progress": pgettext("round status", "in_progress"),
        "completed": pgettext("round status", "completed"),
        "expired": pgettext("round status", "expired"),
    }
    return words.get(str(status), str(status))


def state_ruleset(state: Mapping[str, Any]) -> yatzy.Ruleset | None:
    """The engine's ruleset of a round as the API shows it (``ruleset`` and ``rules``),
    or None for one this client does not know."""
    try:
        return yatzy.get_ruleset(str(state.get("ruleset")), **dict(state.get("rules") or {}))
    except (yatzy.YatzyError, TypeError, ValueError):
        return None


def signed(value: float) -> str:
    """A pace as the score sheet writes it.

    >>> signed(3), signed(-4), signed(0), signed(1.5)
    ('+3', '-4', '0', '+1.5')
    """
    return f"+{value:g}" if value > 0 else f"{value:g}"


def pace_text(pace: yatzy.BonusPace) -> str:
    """The upper bonus pace in a few words (the numbers are :func:`yatzy.bonus_pace`'s).

    >>> maxi = yatzy.get_ruleset("maxi")
    >>> pace_text(yatzy.bonus_pace(maxi, {"sixes": 30, "twos": 4}))
    'bonus pace +2, 50 to go'
    >>> pace_text(yatzy.bonus_pace(maxi, dict.fromkeys(["ones", "twos"], 0)))
    'bonus pace -12, 84 to go'
    """
    if pace["reached"]:
        return _("bonus reached (+{points})").format(points=pace["points"])
    if pace["missed"]:
        return _("bonus missed")
    return _("bonus pace {pace}, {needed} to go").format(
        pace=signed(pace["pace"]), needed=pace["needed"]
    )


def status_line(state: Mapping[str, Any], pace: yatzy.BonusPace | None = None) -> Text:
    """``Turn 4 of 20 · roll 1 of 3 · total 57 · bonus pace +3, 27 to go`` (or the
    final line)."""
    total = state.get("total", 0)
    if state.get("status") != "in_progress":
        text = _("Round {status} · total {total}").format(
            status=round_status(state.get("status")), total=total
        )
    else:
        rolls = state.get("roll", 0) + state.get("rolls_left", 0)
        text = _("Turn {turn} of {turns} · roll {roll} of {rolls} · total {total}").format(
            turn=state.get("turn", 0) + 1,
            turns=state.get("turns"),
            roll=state.get("roll", 0),
            rolls=rolls,
            total=total,
        )
    if pace is not None:
        text += f" · {pace_text(pace)}"
    return Text(text, style="bold", no_wrap=True, overflow="ellipsis")


def dice_table(dice: Sequence[int], held: Collection[int], *, boxed: bool = True) -> RenderableType:
    """The dice with their numbers (1-based, what the player types); held ones marked
    (``[3]`` and ``held`` under it, so it reads without colour too). ``boxed``: in a
    frame (six lines), else three lines."""
    if not dice:
        return Text(_("No dice yet: roll (r)."), style="dim")
    table = Table(
        box=box.ROUNDED if boxed else None,
        show_header=True,
        header_style="dim",
        pad_edge=boxed,
        padding=(0, 1) if boxed else (0, 2, 0, 0),
    )
    table.add_column(pgettext("dice", "die"), style="dim")
    for number in range(1, len(dice) + 1):
        table.add_column(str(number), justify="center", min_width=5 if boxed else 4)
    faces: list[RenderableType] = [Text(pgettext("dice", "face"))]
    marks: list[RenderableType] = [Text("")]
    for position, face in enumerate(dice):
        is_held = position in held
        faces.append(
            Text(f"[{face}]", style="bold reverse") if is_held else Text(f" {face} ", style="bold")
        )
        marks.append(Text(pgettext("dice", "held") if is_held else "", style="cyan"))
    table.add_row(*faces)
    table.add_row(*marks)
    return table


@dataclass(frozen=True)
class _CardRow:
    number: str
    label: Text
    you: Text
    pace: Text = field(default_factory=Text)
    theirs: Text = field(default_factory=Text)


def _card_rows(
    state: Mapping[str, Any], pace: yatzy.BonusPace | None, *, names: Names
) -> list[_CardRow]:
    """The scorecard's lines: each box (its points, or the points it would get now),
    after the upper boxes their total against the threshold and the bonus, then any
    extra bonus, then the total."""
    scorecard: Mapping[str, int | None] = state.get("scorecard") or {}
    options: Mapping[str, int] = state.get("options") or {}
    opponent: Mapping[str, Any] = state.get("opponent") or {}
    theirs_card: Mapping[str, int | None] = opponent.get("scorecard") or {}
    par = pace["par"] if pace else {}
    playing = state.get("status") == "in_progress"

    def theirs(value: object) -> Text:
        return Text("" if value is None or not opponent else str(value))

    rows: list[_CardRow] = []
    upper_left = sum(1 for box in scorecard if box in par)
    for number, (category, points) in enumerate(scorecard.items(), start=1):
        if points is not None:
            you = Text(str(points), style="bold")
        elif playing and category in options:
            now = options[category]
            you = Text(f"+{now}", style="green" if now else "dim")
        else:
            you = Text("")
        pace_cell = Text("")
        if pace and category in par:
            ahead = pace["boxes"].get(category)
            if ahead is None:
                pace_cell = Text(_("par {par}").format(par=f"{par[category]:g}"), style="dim")
            else:
                pace_cell = Text(signed(ahead), style="red" if ahead < 0 else "green")
        rows.append(
            _CardRow(
                str(number),
                Text(names.box(category)),
                you,
                pace_cell,
                theirs(theirs_card.get(category)),
            )
        )
        if category in par:
            upper_left -= 1
            if upper_left == 0 and pace:
                rows.extend(_bonus_rows(state, pace, opponent))
    for key, label in (("extra_bonus", N_("Extra bonus")),):
        if state.get(key) or opponent.get(key):
            rows.append(
                _CardRow(
                    "",
                    Text(_(label), style="dim"),
                    Text(str(state.get(key, 0))),
                    theirs=theirs(opponent.get(key)),
                )
            )
    rows.append(
        _CardRow(
            "",
            Text(_("Total"), style="bold"),
            Text(str(state.get("total", 0)), style="bold"),
            theirs=theirs(opponent.get("total")),
        )
    )
    return rows


def _bonus_rows(
    state: Mapping[str, Any], pace: yatzy.BonusPace, opponent: Mapping[str, Any]
) -> list[_CardRow]:
    """The upper total against the threshold with the pace, and the bonus with what is
    left to reach it: the numbers of :func:`yatzy.bonus_pace`."""
    threshold = pace["threshold"]
    if pace["reached"]:
        lead, left = Text(pgettext("bonus", "reached"), style="green"), Text("")
    elif pace["missed"]:
        lead, left = Text(pgettext("bonus", "missed"), style="red"), Text("")
    else:
        lead = Text(signed(pace["pace"]), style="red" if pace["pace"] < 0 else "green")
        left = Text(_("{needed} to go").format(needed=pace["needed"]))
    upper = _CardRow(
        "",
        Text(_("Upper total"), style="dim"),
        Text(f"{state.get('upper_total', 0)}/{threshold}"),
        lead,
        Text(str(opponent.get("upper_total", "")) if opponent else ""),
    )
    bonus = _CardRow(
        "",
        Text(
            _("Bonus {points} at {threshold}").format(points=pace["points"], threshold=threshold),
            style="dim",
        ),
        Text(str(state.get("bonus", 0))),
        left,
        Text(str(opponent.get("bonus", "")) if opponent else ""),
    )
    return [upper, bonus]


def scorecard_table(
    state: Mapping[str, Any],
    *,
    names: Names,
    pace: yatzy.BonusPace | None = None,
    columns: int = 1,
    name_width: int | None = None,
) -> Table:
    """Every box in printed order: its number, name, the points filled or, for an open
    box after a roll, the points it would get now (``+12``); the upper boxes' pace
    against par, their total and the bonus; the computer's column beside it. In
    ``columns`` side-by-side halves (two fit an 80-column terminal); box names cut to
    ``name_width`` if given."""
    rows = _card_rows(state, pace, names=names)
    opponent = bool(state.get("opponent"))
    height = -(-len(rows) // columns)
    halves = [rows[start : start + height] for start in range(0, len(rows), height)]
    table = Table(box=None, pad_edge=False, padding=(0, 1, 0, 0), header_style="dim")
    for index, half in enumerate(halves):
        if index:
            table.add_column("│", style="dim", no_wrap=True)
        table.add_column("#", justify="right", style="dim", no_wrap=True)
        table.add_column(_("box"), no_wrap=True, overflow="ellipsis", max_width=name_width)
        table.add_column(_("you"), justify="right", no_wrap=True)
        if any(row.pace.plain for row in half):
            table.add_column(_("pace"), justify="right", no_wrap=True)
        if opponent:
            heading = _("computer") if columns == 1 else _("comp.")
            table.add_column(heading, justify="right", no_wrap=True)
    for line in range(height):
        cells: list[RenderableType] = []
        for index, half in enumerate(halves):
            with_pace = any(row.pace.plain for row in half)
            if index:
                cells.append("│")
            if line < len(half):
                row = half[line]
                cells.extend([row.number, row.label, row.you])
                if with_pace:
                    cells.append(row.pace)
                if opponent:
                    cells.append(row.theirs)
            else:
                cells.extend([""] * (3 + with_pace + opponent))
        table.add_row(*cells)
    return table


class Cropped:
    """A renderable in exactly ``height`` lines: cut (the last one an ellipsis; in a
    single line, the first one cut to end in it), or padded with blank ones; as many as
    it takes when ``height`` is None."""

    def __init__(self, renderable: RenderableType, height: int | None) -> None:
        self.renderable, self.height = renderable, height

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = console.render_lines(self.renderable, options.update(height=None), pad=False)
        if self.height is not None:
            if len(lines) > self.height == 1:
                # One line for more: its start, cut to end in the ellipsis.
                cut = Segment.adjust_line_length(lines[0], max(0, options.max_width - 1))
                lines = [[*cut, Segment("…", Style(dim=True))]]
            elif len(lines) > self.height:
                lines = [*lines[: max(0, self.height - 1)], [Segment("…", Style(dim=True))]]
            lines = lines[: self.height] + [[]] * (self.height - len(lines))
        for line in lines:
            yield from line
            yield Segment.line()


TOO_SMALL = N_(
    "The window is too small for the round: make it bigger (80x24 fits every game), "
    "then l draws it again."
)
"""What a round's screen says instead of itself on a terminal smaller than any layout."""

MESSAGE_LINES = 2
"""Lines a round's screen keeps for messages whatever it shows, so the layout stays put
from one move to the next (the messages may take more where there is room)."""


@dataclass
class RoundScreen:
    """The whole screen of a round: title (with the countdown or a friend's score to
    beat), status with the bonus pace, the dice, the scorecard, then the messages.

    With ``height`` (a terminal's lines, less the prompt's) it picks the roomiest
    layout that fits: dice in a frame or on three lines, the scorecard in one column or
    two; the messages get the lines left, cut or padded to them, so the prompt and the
    bar under it sit at the bottom of the terminal. Without it, nothing is cut or
    padded (a pipe, a log)."""

    state: Mapping[str, Any]
    held: Collection[int]
    names: Names
    countdown: str | None = None
    target: str | None = None
    messages: Sequence[RenderableType] = ()
    height: int | None = None

    def _parts(self) -> tuple[Text, Text, yatzy.BonusPace | None]:
        title = Text(
            round_title(self.state, names=self.names),
            style="bold magenta",
            no_wrap=True,
            overflow="ellipsis",
        )
        right = "   ".join(filter(None, [self.target, self.countdown]))
        if right:
            title.append(f"   {right}", style="yellow")
        rs = state_ruleset(self.state)
        pace = yatzy.bonus_pace(rs, self.state.get("scorecard") or {}) if rs else None
        return title, status_line(self.state, pace), pace

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        flat = options.update(width=width, height=None)
        title, status, pace = self._parts()
        playing = self.state.get("status") == "in_progress"
        dice = self.state.get("dice") or []

        def lines(renderable: RenderableType) -> list[list[Segment]]:
            return console.render_lines(renderable, flat, pad=False)

        def layout(boxed: bool, columns: int, *, fit: bool = True) -> list[list[Segment]] | None:
            # None where a part is wider than the terminal (with ``fit``): rich would cut
            # the dice off at the frame's edge and a box's points to an ellipsis.
            unbounded = options.update(width=10 * width, height=None)

            def wide(renderable: RenderableType) -> bool:
                return fit and Measurement.get(console, unbounded, renderable).maximum > width

            card = scorecard_table(self.state, names=self.names, pace=pace, columns=columns)
            if Measurement.get(console, unbounded, card).maximum > width:
                # Names too long for the width (a server's own): each cut to a dozen
                # letters, so the points beside it stay (rich would narrow every column).
                card = scorecard_table(
                    self.state, names=self.names, pace=pace, columns=columns, name_width=12
                )
                if wide(card):
                    return None
            parts: list[RenderableType] = [title, status]
            if playing:
                parts.append(dice_table(dice, self.held, boxed=boxed))
                if wide(parts[-1]):
                    return None
            parts.append(card)
            return [line for part in parts for line in lines(part)]

        # The roomiest that fits; on a terminal too small for any, the last one laid out.
        chosen: list[list[Segment]] | None = None
        for boxed, columns in [(True, 1), (False, 1), (True, 2), (False, 2)]:
            laid = layout(boxed, columns)
            if laid is not None:
                chosen = laid
                if self.height is None or len(laid) + MESSAGE_LINES <= self.height:
                    break
        if self.height is not None and (chosen is None or len(chosen) > self.height):
            if playing:
                # Smaller than any layout: rather than a screen that scrolls (its top
                # gone) or dice cut off at the edge, say so, over the turn and the
                # messages; "l" draws the round again once the window is bigger.
                notice = Text(_(TOO_SMALL), style="bold yellow")
                chosen = lines(notice)[: self.height] + lines(status)
                chosen = chosen[: self.height]
                for line in chosen:
                    yield from line
                    yield Segment.line()
                yield Cropped(Group(*self.messages), self.height - len(chosen))
                return
            # A finished round is drawn once, no key draws it again: whole, as in a
            # pipe (the terminal's scrollback keeps what scrolls).
            yield replace(self, height=None)
            return
        if chosen is None:  # a pipe narrower than any layout: one column all the same
            chosen = layout(False, 1, fit=False) or []
        room = None if self.height is None else max(0, self.height - len(chosen))
        if room == 0 and self.messages and len(chosen) > 1:
            # A terminal too small for any layout with its message lines (60x20): the
            # title gives up its line (the status under it keeps the turn), so a refusal
            # or the points just scored are never cut to nothing, as if ignored.
            chosen, room = chosen[1:], 1
        for line in chosen:
            yield from line
            yield Segment.line()
        yield Cropped(Group(*self.messages), room)


def round_frame(
    state: Mapping[str, Any],
    held: Collection[int],
    *,
    names: Names,
    countdown: str | None = None,
    target: str | None = None,
    messages: Sequence[RenderableType] = (),
    height: int | None = None,
) -> RoundScreen:
    """The screen of a round (see :class:`RoundScreen`)."""
    return RoundScreen(state, held, names, countdown, target, messages, height)


def opponent_turn(line: Mapping[str, Any], level: str | None, total: int, *, names: Names) -> Text:
    """One turn of the computer: its rolls, what it kept, its box and points."""
    steps = []
    rolls, holds = line.get("rolls", []), line.get("holds", [])
    for index, dice in enumerate(rolls):
        if index:
            kept = [rolls[index - 1][p] for p in holds[index - 1]]
            steps.append(
                _("keeps {dice}").format(dice=" ".join(map(str, kept)))
                if kept
                else _("keeps nothing")
            )
        steps.append(" ".join(map(str, dice)))
    turn = line.get("turn", 0) + 1
    text = Text(
        _("Computer ({level}), turn {turn}:").format(level=level_name(level), turn=turn) + " ",
        style="bold blue",
    )
    text.append(" → ".join(steps))
    points = scored_points(line.get("points"), line.get("extra_bonus") or 0)
    scored = _("{box} {points} (total {total})").format(
        box=names.box(line.get("category")), points=points, total=total
    )
    text.append(f" → {scored}", style="blue")
    return text


def scored_points(points: object, extra_bonus: int) -> str:
    """A score's points and the extra bonus it earned (Yahtzee's joker), as the scorecard
    adds them.

    >>> scored_points(30, 0), scored_points(30, 100)
    ('30', '30 +100')
    """
    return f"{points} +{extra_bonus}" if extra_bonus else f"{points}"


def hint_table(hint: Mapping[str, Any], *, names: Names, limit: int = 6) -> RenderableType:
    """The best moves now, best first, with the final score each is expected to give:
    one run of text that wraps, so it takes few lines under the scorecard."""
    text = Text(_("Best moves (expected final score):") + " ", style="bold")
    dice = hint.get("dice", [])
    for index, move in enumerate(hint.get("moves", [])[:limit]):
        if index:
            text.append(" · ", style="dim")
        text.append(move_text(move, dice, names=names))
        text.append(f" {move.get('expected', 0):.1f}", style="cyan")
    return text


def move_text(move: Mapping[str, Any], dice: Sequence[int] = (), *, names: Names) -> str:
    """A move in the words of the play prompt.

    >>> move_text({"kind": "hold", "hold": [1, 4], "keep": [5, 5]}, names=Names())
    'keep 5 5 (dice 2 5) and roll'
    >>> move_text({"kind": "score", "category": "chance", "points": 22},
    ...           names=Names({"chance": "Chance"}))
    'score Chance for 22'
    """
    kind = move.get("kind")
    if kind == "roll":
        return pgettext("move", "roll")
    if kind == "hold":
        positions = move.get("hold") or []
        if not positions:
            return _("roll all dice again")
        keep = " ".join(map(str, move.get("keep") or [dice[p] for p in positions]))
        numbers = " ".join(str(p + 1) for p in positions)
        return _("keep {keep} (dice {numbers}) and roll").format(keep=keep, numbers=numbers)
    return _("score {box} for {points}").format(
        box=names.box(move.get("category")), points=move.get("points")
    )


def challenge_summary(challenge: Mapping[str, Any], *, names: Names) -> Text:
    """The day: date, commitment (and seed once revealed), the player's score."""
    text = Text(_("Daily {date}").format(date=challenge.get("date")) + " · ", style="bold")
    text.append(names.ruleset(challenge.get("ruleset")))
    # The two labels padded to one width, so the hashes start in one column.
    labels = {"commitment": _("commitment"), "seed": _("seed")}
    width = max(cell_len(label) for label in labels.values())
    labels = {key: label + " " * (width - cell_len(label)) for key, label in labels.items()}
    text.append(f"\n{labels['commitment']} {challenge.get('commitment')}")
    if challenge.get("seed"):
        text.append(f"\n{labels['seed']} {challenge.get('seed')}")
    mine = challenge.get("my_round")
    if mine:
        total = (
            _("score {total}").format(total=mine.get("total"))
            if mine.get("total") is not None
            else _("unfinished")
        )
        text.append(
            "\n"
            + _("Your ranked round: {status} · {total}").format(
                status=round_status(mine.get("status")), total=total
            )
        )
    return text


BOARD_TITLES = {
    "daily": N_("Today's dice"),
    "decisions": N_("Best decisions"),
    "best-day": N_("Best day"),
    "streaks": N_("Most days in a row"),
    "advent": N_("Advent"),
}
VALUE_TITLES = {
    "daily": N_("score"),
    "decisions": N_("points lost"),
    "best-day": N_("best score"),
    "streaks": N_("longest"),
    "advent": N_("sum"),
}


def _board_value(kind: str, value: Any) -> str:
    """A line's value as the board shows it: a loss to the hundredth of a point.

    >>> _board_value("decisions", 3), _board_value("decisions", 12.345), _board_value("daily", 7)
    ('3.00', '12.35', '7')
    """
    if kind == "decisions" and isinstance(value, int | float):
        return f"{value:.2f}"
    return str(value)


def board_table(kind: str, page: Mapping[str, Any], *, subtitle: str = "") -> RenderableType:
    """A page of a board; the player's own line marked."""
    title = _(BOARD_TITLES[kind]) if kind in BOARD_TITLES else kind
    title += f" · {subtitle}" if subtitle else ""
    if page.get("frozen"):
        title += " " + _("(final)")
    me = page.get("me") or {}
    table = Table(title=title, box=box.SIMPLE_HEAD, title_style="bold")
    table.add_column(_("rank"), justify="right")
    table.add_column(_("player"))
    table.add_column(_(VALUE_TITLES[kind]) if kind in VALUE_TITLES else _("value"), justify="right")
    if kind == "streaks":
        table.add_column(_("current"), justify="right")
    table.add_column("")
    for entry in page.get("results", []):
        mine = bool(me) and entry.get("username") == me.get("username")
        row: list[RenderableType] = [
            str(entry.get("rank")),
            Text(_one_line(entry.get("display_name") or entry.get("username"))),
            _board_value(kind, entry.get("value")),
        ]
        if kind == "streaks":
            row.append(str(entry.get("current", "")))
        row.append("◀ " + _("you") if mine else "")
        table.add_row(*row, style="bold cyan" if mine else None)
    lines: list[RenderableType] = [table]
    if not page.get("results") and page.get("count"):
        # Around the player, on a board with lines but none of theirs.
        lines.append(
            Text(
                _("You are not on this board yet: without --around-me it shows its first page."),
                style="dim",
            )
        )
    elif not page.get("results"):
        lines.append(Text(_("No one on this board yet."), style="dim"))
    if page.get("analysed") is False:
        lines.append(
            Text(
                _(
                    "Not every round is analysed yet: a day's decisions are judged once its"
                    " dice are revealed, and its board fills up as the analysis runs."
                ),
                style="yellow",
            )
        )
    if page.get("min_days"):
        days = page["min_days"]
        mean = ngettext(
            "The mean over each player's days analysed, from {days} days.",
            "The mean over each player's days analysed, from {days} days.",
            days,
        )
        lines.append(Text(mean.format(days=days)))
    count = page.get("count", 0)
    footer = Text(
        ngettext("{count} on the board", "{count} on the board", count).format(count=count),
        style="dim",
    )
    if me:
        mine_value = _board_value(kind, me.get("value"))
        you = _("you: #{rank} with {value}").format(rank=me.get("rank"), value=mine_value)
        footer.append(f" · {you}", style="bold")
    expert = page.get("expert")
    if expert:
        expert_text = _("expert (optimal play): {value}, rank #{rank}").format(
            value=expert.get("value"), rank=expert.get("rank")
        )
        footer.append(f" · {expert_text}")
    if page.get("next"):
        footer.append(" · " + _("more: --page N"))
    lines.append(footer)
    return Group(*lines)


SHORT_ID = 8
"""How much of a game's id the games list shows: what ``give-up`` takes back."""


def short_id(game_id: object) -> str:
    """The start of a game's id that the games list shows.

    >>> short_id("4c5c1114-a7bc-4f37-82cf-2c37250a39bf")
    '4c5c1114'
    """
    return str(game_id)[:SHORT_ID]


def game_kind(game: Mapping[str, Any]) -> str:
    """A game's mode as the games list words it (a day's dice not ranked: practice).

    >>> game_kind({"mode": "computer"}), game_kind({"mode": "daily", "ranked": False})
    ('computer', 'practice')
    """
    mode = str(game.get("mode"))
    if mode == "daily" and not game.get("ranked"):
        return _("practice")
    kinds = {
        "daily": pgettext("game kind", "daily"),
        "solo": pgettext("game kind", "solo"),
        "computer": pgettext("game kind", "computer"),
        "friend": pgettext("game kind", "friend"),
        "party": pgettext("game kind", "party"),
    }
    return kinds.get(mode, _one_line(mode))


def game_turns(game: Mapping[str, Any]) -> str:
    """``turns played/turns of the game`` (the game's ruleset's turns, where this
    client knows the ruleset)."""
    try:
        turns: object = len(yatzy.get_ruleset(str(game.get("ruleset"))).categories)
    except (yatzy.YatzyError, TypeError, ValueError):
        turns = "?"
    return f"{game.get('turn')}/{turns}"


def _game_details(game: Mapping[str, Any]) -> Text:
    """A game's day, its computer's level and points, or a party's seats with theirs;
    on one line, cut to the room the row leaves."""
    if game.get("seats"):
        text = ", ".join(
            f"{_one_line(seat.get('name'))} {seat.get('total')}" for seat in game["seats"]
        )
    elif game.get("mode") == "computer":
        text = f"{_one_line(level_name(game.get('level')))} {game.get('opponent_total')}"
    else:
        text = str(game.get("date") or "")
    return Text(text, no_wrap=True, overflow="ellipsis")


GAME_STATUSES = {
    "in_progress": N_("playing"),
    "completed": N_("done"),
    "win": N_("won"),
    "loss": N_("lost"),
    "draw": N_("drawn"),
    "expired": N_("expired"),
}


def games_table(
    unfinished: Sequence[Mapping[str, Any]], page: Mapping[str, Any], *, names: Names
) -> RenderableType:
    """The player's games: every unfinished one first, then a page of the others as the
    API lists them (newest first); each by the start of its id, as ``give-up`` takes it.
    Only the last column gives way on a narrow terminal."""
    table = Table(
        title=_("Your games"), box=box.SIMPLE_HEAD, title_style="bold", collapse_padding=True
    )
    for column in (_("id"), _("game"), _("ruleset")):
        table.add_column(column, no_wrap=True)
    for column in (_("turn"), _("points")):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column(_("status"), no_wrap=True)
    table.add_column(_("day / against"))
    others = [game for game in page.get("results", []) if game.get("status") != "in_progress"]
    for game in [*unfinished, *others]:
        status = str(game.get("result") or game.get("status"))
        playing = game.get("status") == "in_progress"
        table.add_row(
            short_id(game.get("id")),
            game_kind(game),
            names.ruleset(game.get("ruleset")),
            game_turns(game),
            str(game.get("total")),
            _(GAME_STATUSES[status]) if status in GAME_STATUSES else status,
            _game_details(game),
            style="bold" if playing else None,
        )
    lines: list[RenderableType] = [table]
    if not unfinished and not others:
        lines.append(Text(_("No games here yet: `yatzy-play play` starts the day's."), style="dim"))
    count = page.get("count", 0)
    footer = Text(
        " · ".join(
            [
                ngettext("{count} unfinished", "{count} unfinished", len(unfinished)).format(
                    count=len(unfinished)
                ),
                ngettext("{count} in all", "{count} in all", count).format(count=count),
            ]
        ),
        style="dim",
    )
    if page.get("next"):
        footer.append(" · " + _("more: --page N"))
    lines.append(footer)
    if unfinished:
        lines.append(
            Text(
                _("`yatzy-play give-up ID` gives up an unfinished solo, computer or party game."),
                style="dim",
            )
        )
    return Group(*lines)


def door_state(state: str) -> str:
    """A door's state (``played``, ``open``...) in the player's language."""
    words = {
        "played": pgettext("door", "played"),
        "open": pgettext("door", "open"),
        "missed": pgettext("door", "missed"),
        "locked": pgettext("door", "locked"),
        "empty": pgettext("door", "empty"),
    }
    return words.get(state, state)


DOOR_STYLES = {
    "played": "bold green",
    "open": "yellow",
    "missed": "red",
    "locked": "dim",
    "empty": "dim",
}


def advent_calendar(calendar: Mapping[str, Any]) -> RenderableType:
    """The 24 doors, six a row: each with its state, and score and rank once played."""
    table = Table(
        title=_("Advent calendar {year}").format(year=calendar.get("year")),
        box=box.ROUNDED,
        show_header=False,
        title_style="bold",
    )
    for _column in range(6):
        table.add_column(justify="center", min_width=10)
    doors = calendar.get("doors", [])
    for start in range(0, len(doors), 6):
        cells: list[RenderableType] = []
        for door in doors[start : start + 6]:
            state = str(door.get("state"))
            cell = Text(f"{door.get('day')}\n", style="bold")
            if state == "played":
                played = f"{door.get('score')}  #{door.get('rank') or '-'}"
                cell.append(played, style=DOOR_STYLES[state])
            else:
                cell.append(door_state(state), style=DOOR_STYLES.get(state, ""))
            cells.append(cell)
        table.add_row(*cells)
    footer = Text(_("Total {total}").format(total=calendar.get("total", 0)), style="bold")
    if calendar.get("rank"):
        rank = _("rank #{rank} on the advent board").format(rank=calendar["rank"])
        footer.append(f" · {rank}")
    if any(door.get("state") in ("played", "missed") for door in doors):
        # Only doors with a daily behind them: an empty door has nothing to replay.
        replay = _(
            "Past doors open an unranked replay: yatzy-play play --date {year}-12-DD (DD the door)"
        ).format(year=calendar.get("year"))
        footer.append(f"\n{replay}", style="dim")
    return Group(table, footer)


def rules_view(rules: Mapping[str, Any]) -> RenderableType:
    """A ruleset as the server describes it (``GET rulesets/{name}/``): the game, how a
    turn goes and the bonus, its boxes with an example roll each, its options."""
    head = Text(f"{rules.get('title')} ({rules.get('name')})", style="bold magenta")
    dice, turns = rules.get("dice"), rules.get("turns")
    facts = [
        ngettext("{count} dice", "{count} dice", _count(dice)).format(count=dice),
        ngettext("{count} turns", "{count} turns", _count(turns)).format(count=turns),
        _("maximum total {total}").format(total=rules.get("max_total")),
    ]
    head.append(" · " + " · ".join(facts))
    parts: list[RenderableType] = [head, Text(str(rules.get("summary", "")))]
    bonus = (rules.get("upper_bonus") or {}).get("text")
    for line in [*rules.get("rules", []), *([bonus] if bonus else [])]:
        parts.append(Text(f"• {line}"))
    boxes = Table(box=box.SIMPLE_HEAD)
    boxes.add_column("#", justify="right", style="dim")
    boxes.add_column(_("box"))
    boxes.add_column(_("scores"))
    boxes.add_column(_("example"), no_wrap=True)
    boxes.add_column(_("pts"), justify="right")
    for number, rule in enumerate(rules.get("boxes", []), start=1):
        example = rule.get("example") or {}
        boxes.add_row(
            str(number),
            Text(str(rule.get("name"))),
            Text(str(rule.get("description", ""))),
            " ".join(map(str, example.get("dice", []))),
            str(example.get("points", "")),
        )
    parts.append(boxes)
    if rules.get("options"):
        options = Table(
            title=_("Options (yatzy-play rules {name} -o NAME=VALUE)").format(
                name=rules.get("name")
            ),
            box=box.SIMPLE_HEAD,
            title_justify="left",
        )
        options.add_column(_("option"), no_wrap=True)
        options.add_column(_("now"), justify="right")
        options.add_column(_("default"), justify="right")
        options.add_column(_("allowed"))
        options.add_column("")
        for option in rules["options"]:
            text = Text(f"{option.get('title')}: ", style="bold")
            text.append(str(option.get("description", "")), style="not bold")
            options.add_row(
                str(option.get("name")),
                _value(option.get("value")),
                _value(option.get("default")),
                _allowed(option),
                text,
            )
        parts.append(options)
    return Group(*parts)


def _allowed(option: Mapping[str, Any]) -> str:
    """An option's allowed values: its choices, or its range.

    >>> _allowed({"kind": "choice", "choices": [21, 25, 30]})
    '21, 25, 30'
    >>> _allowed({"kind": "pair", "choices": None, "minimum": 0, "maximum": 10000})
    '0-10000 each'
    """
    if option.get("choices"):
        return ", ".join(_value(choice) for choice in option["choices"])
    low, high = option.get("minimum"), option.get("maximum")
    if low is None or high is None:
        return ""
    if option.get("kind") == "pair":
        return _("{low}-{high} each").format(low=low, high=high)
    return f"{low}-{high}"


def _count(value: object) -> int:
    """A number from the server for choosing a plural form (2 for anything else)."""
    return value if isinstance(value, int) else 2


def _value(value: object) -> str:
    """An option's value as ``-o NAME=VALUE`` takes it: ``true``, ``25``, ``75,50``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple):
        return ",".join(map(_value, value))
    return str(value)


JOURNAL_MARKS = {
    "here": (N_("played here"), "green"),
    "partly here": (N_("partly here"), "green"),
    "elsewhere": (N_("elsewhere: not checked"), "dim"),
    "differs": (N_("✗ differs"), "bold red"),
}


def _turn_text(line: TurnLine, names: Names) -> str:
    steps = []
    for index, roll in enumerate(line.rolls):
        if index:
            kept = " ".join(str(p + 1) for p in roll.hold)
            steps.append(_("keep {dice}").format(dice=kept) if kept else _("keep none"))
        mark = "" if roll.seen is None else (" ✓" if roll.seen else " ✗")
        steps.append(" ".join(map(str, roll.dice)) + mark)
    box_text = (
        f"{names.box(line.category)} {scored_points(line.points, line.extra_bonus)}"
        if line.category
        else _("(unfinished)")
    )
    return " → ".join([*steps, box_text])


def verify_report(report: Report, *, names: Names = NO_NAMES) -> RenderableType:
    """What ``verify`` checked: each turn recomputed (and how it compares with this
    machine's journal), then each check, then the verdict."""
    parts: list[RenderableType] = [
        Text(_("Round {id}").format(id=report.round_id), style="bold"),
        Text(_("seed {seed}").format(seed=report.seed)),
    ]
    for title, turns in (
        (N_("Recomputed from the seed (you)"), report.turns),
        (N_("Recomputed from the seed (computer)"), report.opponent_turns),
    ):
        if not turns:
            continue
        table = Table(title=_(title), box=box.SIMPLE_HEAD, title_justify="left")
        table.add_column(_("turn"), justify="right")
        table.add_column(_("rolls (✓ = the dice shown during play)"))
        journal = any(line.journal for line in turns)
        if journal:
            table.add_column(_("journal"))
        for line in turns:
            row: list[RenderableType] = [str(line.turn + 1), Text(_turn_text(line, names))]
            if journal:
                text, style = JOURNAL_MARKS.get(line.journal or "", ("", ""))
                row.append(Text(_(text) if text else "", style=style))
            table.add_row(*row)
        parts.append(table)
    parts.extend(Text(note, style="dim") for note in report.notes)
    for check in report.checks:
        mark, style = ("✓", "green") if check.ok else ("✗", "bold red")
        parts.append(Text(f"{mark} {check.text}", style=style))
    if not report.journal:
        parts.append(
            Text(
                _(
                    "This machine has no journal of round {id} (it was not played "
                    "here): only the server's own log could be checked, against the seed and the "
                    "engine. A server that changed its log after play would pass; verify on the "
                    "machine it was played on to compare the log with what was shown there."
                ).format(id=report.round_id),
                style="bold yellow",
            )
        )
    if not report.ok:
        parts.append(
            Text(
                ngettext(
                    "VERIFICATION FAILED: {count} difference(s).",
                    "VERIFICATION FAILED: {count} difference(s).",
                    len(report.failures),
                ).format(count=len(report.failures)),
                style="bold white on red",
            )
        )
    elif report.journal:
        parts.append(
            Text(
                _(
                    "VERIFIED: every die and the total follow from the committed seed, and the "
                    "server's log is what this machine played and was shown."
                ),
                style="bold green",
            )
        )
    else:
        parts.append(
            Text(
                _(
                    "VERIFIED against the server's own log only: every die and the total follow "
                    "from the committed seed (no journal here to compare the moves with)."
                ),
                style="bold green",
            )
        )
    return Group(*parts)


def friend_target(view: Mapping[str, Any]) -> str | None:
    """The score to beat of a friend challenge, for the play screen's title (None
    while the friend plays blind).

    >>> friend_target({"sharer": "ada", "target": 263})
    "ada's score to beat: 263"
    >>> friend_target({"sharer": "w" * 150, "target": 98})
    "wwwwwwwwwwwwwwwwwww…'s score to beat: 98"
    """
    if view.get("target") is None:
        return None
    # A name cut to 20 columns: a long one (150 letters may be a username) pushed the
    # score, the one thing the title is there to show, past the edge of the title.
    sharer = Text(_one_line(view.get("sharer")))
    sharer.truncate(SHARER_WIDTH, overflow="ellipsis")
    return _("{sharer}'s score to beat: {target}").format(
        sharer=sharer.plain, target=view["target"]
    )


SHARER_WIDTH = 20
"""The columns a friend's name takes in the play screen's title at most."""


def _sums(rs: yatzy.Ruleset | None, card: Mapping[str, int | None], total: object) -> list[str]:
    """A finished card's upper total, bonus and extra bonus (what its total adds up
    from besides the boxes), the bonus as :func:`yatzy.bonus_pace` reckons it."""
    if rs is None or not card:
        return ["", "", ""]
    pace = yatzy.bonus_pace(rs, card)
    upper = sum(card.get(box) or 0 for box in pace["par"])
    bonus = pace["points"] if pace["reached"] else 0
    boxes = sum(points or 0 for points in card.values())
    extra = int(total) - boxes - bonus if isinstance(total, int) else 0
    return [str(upper), str(bonus), str(extra)]


def friend_view(view: Mapping[str, Any], *, names: Names) -> RenderableType:
    """A friend challenge: who shared it, its rules, the target, and both cards once
    both are finished (with the upper totals and bonuses, so each column adds up)."""
    sharer = _one_line(view.get("sharer"))
    head = Text(_("{sharer} challenges you").format(sharer=sharer), style="bold magenta")
    head.append(f" · {names.ruleset(view.get('ruleset'))}")
    if view.get("date"):
        head.append(" · " + _("the daily of {date}").format(date=view["date"]))
    if view.get("target") is not None:
        head.append("\n" + _("Score to beat: {target}").format(target=view["target"]))
    elif view.get("view") == "blind":
        head.append("\n" + _("Blind: you see their score once you finish."))
    parts: list[RenderableType] = [head]
    mine, theirs = view.get("my_round") or {}, view.get("sharer_round") or {}
    if mine.get("status") and mine.get("status") != "in_progress":
        parts.append(
            Text(
                _("Your round: {status} · {total}").format(
                    status=round_status(mine.get("status")), total=mine.get("total")
                )
            )
        )
    if theirs:
        rs = state_ruleset({"ruleset": view.get("ruleset"), "rules": view.get("options")})
        table = Table(box=box.SIMPLE_HEAD, show_footer=True, title=_("Side by side"))
        table.add_column(_("box"), footer=_("total"))
        table.add_column(_("you"), justify="right", footer=str(mine.get("total")))
        table.add_column(Text(sharer), justify="right", footer=str(theirs.get("total")))
        my_card = mine.get("scorecard") or {}
        their_card = theirs.get("scorecard") or {}
        upper = set(yatzy.bonus_par(rs)) if rs else set()
        sums = zip(
            _sums(rs, my_card, mine.get("total")),
            _sums(rs, their_card, theirs.get("total")),
            strict=True,
        )
        labels = [_("upper total"), _("bonus"), _("extra bonus")]
        rows = [(label, a, b) for label, (a, b) in zip(labels, sums, strict=True)]
        left = len(upper)
        for category, points in their_card.items():
            table.add_row(Text(names.box(category)), str(my_card.get(category)), str(points))
            if category in upper:
                left -= 1
                if left == 0:
                    for index, (label, a, b) in enumerate(rows[:2]):
                        table.add_row(Text(label, style="dim"), a, b, end_section=index == 1)
        label, a, b = rows[2]
        if a not in ("", "0") or b not in ("", "0"):
            table.add_row(Text(label, style="dim"), a, b)
        parts.append(table)
    return Group(*parts)
