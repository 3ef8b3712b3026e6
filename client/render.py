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
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from client.verify import Report, TurnLine

MODE_TITLES = {
    "daily": "Daily",
    "solo": "Solo",
    "computer": "Against the computer",
    "friend": "Friend challenge",
    "party": "Party",
}


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
        """The name of box ``box``."""
        return self.boxes.get(str(box), str(box))

    def ruleset(self, name: object) -> str:
        """The title of ruleset ``name``."""
        return self.rulesets.get(str(name), str(name))


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
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def reset_countdown(
    challenge: Mapping[str, Any] | None, now: dt.datetime | None = None
) -> str | None:
    """When the daily resets, in words: before midnight the time left; during the grace
    period the time left to finish a round started before it; None once revealed.

    >>> day = {"closes_at": "2026-12-02T00:00:00Z", "reveal_at": "2026-12-02T00:30:00Z"}
    >>> reset_countdown(day, dt.datetime(2026, 12, 1, 18, 47, tzinfo=dt.UTC))
    'Daily resets in 5h 13m (00:00 UTC)'
    >>> reset_countdown(day, dt.datetime(2026, 12, 2, 0, 10, tzinfo=dt.UTC))
    'Day closed: finish within 20m 00s (grace period)'
    """
    if not challenge:
        return None
    closes, reveal = parse_time(challenge.get("closes_at")), parse_time(challenge.get("reveal_at"))
    now = now or dt.datetime.now(dt.UTC)
    if closes and now < closes:
        zone_name = str(challenge.get("time_zone") or "UTC")
        try:
            local = closes.astimezone(zoneinfo.ZoneInfo(zone_name))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            local, zone_name = closes.astimezone(dt.UTC), "UTC"
        left = duration((closes - now).total_seconds())
        return f"Daily resets in {left} ({local:%H:%M} {zone_name})"
    if reveal and now < reveal:
        left = duration((reveal - now).total_seconds())
        return f"Day closed: finish within {left} (grace period)"
    return None


def round_title(state: Mapping[str, Any], *, names: Names) -> str:
    """``Daily 2026-12-01 · Maxi Yatzy · ranked`` and the like."""
    parts = [MODE_TITLES.get(str(state.get("mode")), str(state.get("mode")))]
    if state.get("date") and state.get("mode") in ("daily", "friend"):
        parts[0] += f" {state['date']}"
    parts.append(names.ruleset(state.get("ruleset")))
    if state.get("mode") == "daily":
        parts.append("ranked" if state.get("ranked") else "practice")
    if state.get("level"):
        parts.append(f"level {state['level']}")
    return " · ".join(parts)


def status_line(state: Mapping[str, Any]) -> Text:
    """``Turn 4 of 20 · roll 1 of 3 · total 57`` (or the final line)."""
    total = state.get("total", 0)
    if state.get("status") != "in_progress":
        return Text(f"Round {state.get('status')} · total {total}", style="bold")
    rolls = state.get("roll", 0) + state.get("rolls_left", 0)
    return Text(
        f"Turn {state.get('turn', 0) + 1} of {state.get('turns')} · "
        f"roll {state.get('roll', 0)} of {rolls} · total {total}",
        style="bold",
    )


def dice_table(dice: Sequence[int], held: Collection[int]) -> RenderableType:
    """The dice with their numbers (1-based, what the player types); held ones marked."""
    if not dice:
        return Text("No dice yet: roll (r).", style="dim")
    table = Table(box=box.ROUNDED, show_header=True, header_style="dim", pad_edge=True)
    table.add_column("die", style="dim")
    for number in range(1, len(dice) + 1):
        table.add_column(str(number), justify="center", min_width=5)
    faces: list[RenderableType] = [Text("face")]
    marks: list[RenderableType] = [Text("")]
    for position, face in enumerate(dice):
        is_held = position in held
        faces.append(Text(f" {face} ", style="bold reverse" if is_held else "bold"))
        marks.append(Text("held" if is_held else "", style="cyan"))
    table.add_row(*faces)
    table.add_row(*marks)
    return table


def scorecard_table(state: Mapping[str, Any], *, names: Names) -> Table:
    """Every box in printed order: its number, name, the points filled or, for an open
    box after a roll, the points it would get now; the computer's column beside it."""
    scorecard: Mapping[str, int | None] = state.get("scorecard") or {}
    options: Mapping[str, int] = state.get("options") or {}
    opponent = state.get("opponent")
    table = Table(box=box.SIMPLE_HEAD, show_footer=True, pad_edge=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("box", footer="total")
    table.add_column("you", justify="right", footer=str(state.get("total", 0)))
    playing = state.get("status") == "in_progress"
    if playing:
        table.add_column("now", justify="right", style="green")
    if opponent:
        table.add_column("computer", justify="right", footer=str(opponent.get("total", 0)))
    opponent_card = opponent.get("scorecard", {}) if opponent else {}
    for number, (category, points) in enumerate(scorecard.items(), start=1):
        now = f"+{options[category]}" if category in options and points is None else ""
        row: list[RenderableType] = [
            str(number),
            Text(names.box(category)),
            "" if points is None else str(points),
        ]
        if playing:
            row.append(now)
        if opponent:
            theirs = opponent_card.get(category)
            row.append("" if theirs is None else str(theirs))
        table.add_row(*row)
        if number == 6:
            upper: list[RenderableType] = [
                "",
                Text("upper total / bonus", style="dim"),
                f"{state.get('upper_total', 0)} / {state.get('bonus', 0)}",
            ]
            if playing:
                upper.append("")
            if opponent:
                upper.append(f"{opponent.get('upper_total', 0)} / {opponent.get('bonus', 0)}")
            table.add_row(*upper, end_section=True)
    if state.get("extra_bonus"):
        table.add_row("", "extra bonus", str(state["extra_bonus"]), *([""] if playing else []))
    return table


def round_frame(
    state: Mapping[str, Any],
    held: Collection[int],
    *,
    names: Names,
    countdown: str | None = None,
    messages: Sequence[RenderableType] = (),
) -> RenderableType:
    """The whole screen of a round: title, countdown, status, dice, scorecard, messages."""
    title = Text(round_title(state, names=names), style="bold magenta")
    if countdown:
        title.append(f"   {countdown}", style="yellow")
    parts: list[RenderableType] = [title, status_line(state)]
    if state.get("status") == "in_progress":
        parts.append(dice_table(state.get("dice") or [], held))
    parts.append(scorecard_table(state, names=names))
    parts.extend(messages)
    return Group(*parts)


def opponent_turn(line: Mapping[str, Any], level: str | None, total: int, *, names: Names) -> Text:
    """One turn of the computer: its rolls, what it kept, its box and points."""
    steps = []
    rolls, holds = line.get("rolls", []), line.get("holds", [])
    for index, dice in enumerate(rolls):
        if index:
            kept = [rolls[index - 1][p] for p in holds[index - 1]]
            steps.append(f"keeps {' '.join(map(str, kept)) or 'nothing'}")
        steps.append(" ".join(map(str, dice)))
    text = Text(f"Computer ({level}), turn {line.get('turn', 0) + 1}: ", style="bold blue")
    text.append(" → ".join(steps))
    text.append(
        f" → {names.box(line.get('category'))} {line.get('points')} (total {total})",
        style="blue",
    )
    return text


def hint_table(hint: Mapping[str, Any], *, names: Names, limit: int = 6) -> RenderableType:
    """The best moves now, best first, with the final score each is expected to give."""
    table = Table(title="Best moves (expected final score)", box=box.SIMPLE_HEAD)
    table.add_column("move")
    table.add_column("expected", justify="right")
    dice = hint.get("dice", [])
    for move in hint.get("moves", [])[:limit]:
        table.add_row(Text(move_text(move, dice, names=names)), f"{move.get('expected', 0):.1f}")
    return table


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
        return "roll"
    if kind == "hold":
        positions = move.get("hold") or []
        if not positions:
            return "roll all dice again"
        keep = " ".join(map(str, move.get("keep") or [dice[p] for p in positions]))
        numbers = " ".join(str(p + 1) for p in positions)
        return f"keep {keep} (dice {numbers}) and roll"
    return f"score {names.box(move.get('category'))} for {move.get('points')}"


def challenge_summary(challenge: Mapping[str, Any], *, names: Names) -> Text:
    """The day: date, commitment (and seed once revealed), the player's score."""
    text = Text(f"Daily {challenge.get('date')} · ", style="bold")
    text.append(names.ruleset(challenge.get("ruleset")))
    text.append(f"\ncommitment {challenge.get('commitment')}")
    if challenge.get("seed"):
        text.append(f"\nseed       {challenge.get('seed')}")
    mine = challenge.get("my_round")
    if mine:
        total = f"score {mine.get('total')}" if mine.get("total") is not None else "unfinished"
        text.append(f"\nYour ranked round: {mine.get('status')} · {total}")
    return text


BOARD_TITLES = {
    "daily": "Today's dice",
    "best-day": "Best day",
    "streaks": "Most days in a row",
    "advent": "Advent",
}
VALUE_TITLES = {
    "daily": "score",
    "best-day": "best score",
    "streaks": "longest",
    "advent": "sum",
}


def board_table(kind: str, page: Mapping[str, Any], *, subtitle: str = "") -> RenderableType:
    """A page of a board; the player's own line marked."""
    title = BOARD_TITLES.get(kind, kind) + (f" · {subtitle}" if subtitle else "")
    if page.get("frozen"):
        title += " (final)"
    me = page.get("me") or {}
    table = Table(title=title, box=box.SIMPLE_HEAD, title_style="bold")
    table.add_column("rank", justify="right")
    table.add_column("player")
    table.add_column(VALUE_TITLES.get(kind, "value"), justify="right")
    if kind == "streaks":
        table.add_column("current", justify="right")
    table.add_column("")
    for entry in page.get("results", []):
        mine = bool(me) and entry.get("username") == me.get("username")
        row: list[RenderableType] = [
            str(entry.get("rank")),
            Text(str(entry.get("display_name") or entry.get("username"))),
            str(entry.get("value")),
        ]
        if kind == "streaks":
            row.append(str(entry.get("current", "")))
        row.append("◀ you" if mine else "")
        table.add_row(*row, style="bold cyan" if mine else None)
    lines: list[RenderableType] = [table]
    if not page.get("results"):
        lines.append(Text("No one on this board yet.", style="dim"))
    footer = Text(f"{page.get('count', 0)} on the board", style="dim")
    if me:
        footer.append(f" · you: #{me.get('rank')} with {me.get('value')}", style="bold")
    expert = page.get("expert")
    if expert:
        footer.append(
            f" · expert (optimal play): {expert.get('value')}, rank #{expert.get('rank')}"
        )
    if page.get("next"):
        footer.append(" · more: --page N")
    lines.append(footer)
    return Group(*lines)


DOOR_STYLES = {"played": "bold green", "open": "yellow", "missed": "red", "locked": "dim"}


def advent_calendar(calendar: Mapping[str, Any]) -> RenderableType:
    """The 24 doors, six a row: each with its state, and score and rank once played."""
    table = Table(
        title=f"Advent calendar {calendar.get('year')}",
        box=box.ROUNDED,
        show_header=False,
        title_style="bold",
    )
    for _ in range(6):
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
                cell.append(state, style=DOOR_STYLES.get(state, ""))
            cells.append(cell)
        table.add_row(*cells)
    footer = Text(f"Total {calendar.get('total', 0)}", style="bold")
    if calendar.get("rank"):
        footer.append(f" · rank #{calendar['rank']} on the advent board")
    footer.append(
        "\nPast doors open an unranked replay: yatzy-play play --date YYYY-12-DD", style="dim"
    )
    return Group(table, footer)


def rules_view(rules: Mapping[str, Any]) -> RenderableType:
    """A ruleset as the server describes it (``GET rulesets/{name}/``): the game, how a
    turn goes and the bonus, its boxes with an example roll each, its options."""
    head = Text(f"{rules.get('title')} ({rules.get('name')})", style="bold magenta")
    head.append(
        f" · {rules.get('dice')} dice · {rules.get('turns')} turns · "
        f"maximum total {rules.get('max_total')}"
    )
    parts: list[RenderableType] = [head, Text(str(rules.get("summary", "")))]
    bonus = (rules.get("upper_bonus") or {}).get("text")
    for line in [*rules.get("rules", []), *([bonus] if bonus else [])]:
        parts.append(Text(f"• {line}"))
    boxes = Table(box=box.SIMPLE_HEAD)
    boxes.add_column("#", justify="right", style="dim")
    boxes.add_column("box")
    boxes.add_column("scores")
    boxes.add_column("example", no_wrap=True)
    boxes.add_column("pts", justify="right")
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
            title=f"Options (yatzy-play rules {rules.get('name')} -o NAME=VALUE)",
            box=box.SIMPLE_HEAD,
            title_justify="left",
        )
        options.add_column("option", no_wrap=True)
        options.add_column("now", justify="right")
        options.add_column("default", justify="right")
        options.add_column("allowed")
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
    return f"{low}-{high}" + (" each" if option.get("kind") == "pair" else "")


def _value(value: object) -> str:
    """An option's value as ``-o NAME=VALUE`` takes it: ``true``, ``25``, ``75,50``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple):
        return ",".join(map(_value, value))
    return str(value)


def _turn_text(line: TurnLine) -> str:
    steps = []
    for index, roll in enumerate(line.rolls):
        if index:
            steps.append("keep " + (" ".join(str(p + 1) for p in roll.hold) or "none"))
        mark = "" if roll.seen is None else (" ✓" if roll.seen else " ✗")
        steps.append(" ".join(map(str, roll.dice)) + mark)
    box_text = f"{line.category} {line.points}" if line.category else "(unfinished)"
    return " → ".join([*steps, box_text])


def verify_report(report: Report) -> RenderableType:
    """What ``verify`` checked: each turn recomputed, then each check, then the verdict."""
    parts: list[RenderableType] = [
        Text(f"Round {report.round_id}", style="bold"),
        Text(f"seed {report.seed}"),
    ]
    for label, turns in (("you", report.turns), ("computer", report.opponent_turns)):
        if not turns:
            continue
        table = Table(
            title=f"Recomputed from the seed ({label})", box=box.SIMPLE_HEAD, title_justify="left"
        )
        table.add_column("turn", justify="right")
        table.add_column("rolls (✓ = the dice shown during play)")
        for line in turns:
            table.add_row(str(line.turn + 1), _turn_text(line))
        parts.append(table)
    parts.extend(Text(note, style="dim") for note in report.notes)
    for check in report.checks:
        mark, style = ("✓", "green") if check.ok else ("✗", "bold red")
        parts.append(Text(f"{mark} {check.text}", style=style))
    if report.ok:
        parts.append(
            Text(
                "VERIFIED: every die and the total follow from the committed seed.",
                style="bold green",
            )
        )
    else:
        parts.append(
            Text(
                f"VERIFICATION FAILED: {len(report.failures)} difference(s).",
                style="bold white on red",
            )
        )
    return Group(*parts)


def friend_view(view: Mapping[str, Any], *, names: Names) -> RenderableType:
    """A friend challenge: who shared it, its rules, the target, and both cards once
    both are finished."""
    head = Text(f"{view.get('sharer')} challenges you", style="bold magenta")
    head.append(f" · {names.ruleset(view.get('ruleset'))}")
    if view.get("date"):
        head.append(f" · the daily of {view['date']}")
    if view.get("target") is not None:
        head.append(f"\nScore to beat: {view['target']}")
    elif view.get("view") == "blind":
        head.append("\nBlind: you see their score once you finish.")
    parts: list[RenderableType] = [head]
    mine, theirs = view.get("my_round") or {}, view.get("sharer_round") or {}
    if mine.get("status") and mine.get("status") != "in_progress":
        parts.append(Text(f"Your round: {mine.get('status')} · {mine.get('total')}"))
    if theirs:
        table = Table(box=box.SIMPLE_HEAD, show_footer=True, title="Side by side")
        table.add_column("box", footer="total")
        table.add_column("you", justify="right", footer=str(mine.get("total")))
        table.add_column(
            Text(str(view.get("sharer"))), justify="right", footer=str(theirs.get("total"))
        )
        my_card = mine.get("scorecard") or {}
        for category, points in (theirs.get("scorecard") or {}).items():
            table.add_row(Text(names.box(category)), str(my_card.get(category)), str(points))
        parts.append(table)
    return Group(*parts)
