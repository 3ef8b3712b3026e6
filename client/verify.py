"""Provable fairness, run by the player: check a round once its seed is revealed.

:func:`verify_round` takes a round as the API shows it (with ``seed``, ``commitment``,
``actions``, ``scorecard``, …) and checks, with nothing but the seed and the engine:

1. ``sha256(seed)`` equals the commitment in the answer, the day's published commitment
   (a daily round), and the commitment this client recorded while the seed was still
   hidden (:class:`client.storage.Journal`), when it has one;
2. the dice stream v1 (SPEC §3), recomputed here independently with HMAC-SHA256, gives
   the same values as the engine's;
3. replaying the action log with :class:`yatzy.Game` gives each box's points, the
   bonuses and the total the server reports, and the dice on the table now;
4. the log against this client's journal (:class:`client.storage.RoundRecord`), when
   it has one: every action the server acknowledged to this client is in the log at
   the same place (turn and roll), as it was made (the same holds, the same box);
   nothing is missing, and there is nothing this client did not send where it was
   playing (where it sent a move the server refused as stale, 409, the log's move is
   that one); every state it showed (dice, total) is what the log gives there. Stretches
   of the round this client did not see (played in the browser, say) are reported as
   not checked, not as failures. Without a journal only the server's own log is
   checked, and the report says so;
5. for a computer game, the opponent's turns: every roll after its holds, its boxes,
   points and total, and the result.

Each check becomes a :class:`Check`; any failed one makes the report fail. A problem
of the journal comparison is one line per turn, naming the turn and its box.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yatzy
from client.i18n import _, ngettext, pgettext
from client.storage import RoundRecord, Slot

BoxName = Callable[[str], str]
"""A box's name for people, from its id (the server's names; the id itself at worst)."""


class NotVerifiable(Exception):
    """The round cannot be checked yet: its seed is not revealed."""


@dataclass(frozen=True)
class Check:
    """One thing that was checked, and whether it held."""

    ok: bool
    text: str


@dataclass
class RollLine:
    """One roll as recomputed: the positions held before it and the dice after it."""

    hold: tuple[int, ...]
    dice: tuple[int, ...]
    seen: bool | None
    """Whether these dice are those shown during play; None when not recorded."""


@dataclass
class TurnLine:
    """One turn as recomputed."""

    turn: int
    rolls: list[RollLine] = field(default_factory=list)
    category: str | None = None
    points: int | None = None
    server_points: int | None = None
    extra_bonus: int = 0
    """The extra bonus the score earned beside the box's points (Yahtzee's joker)."""
    journal: str | None = None
    """How it compares with this client's journal: ``here`` (played here, as logged),
    ``partly here``, ``elsewhere`` (not checked), ``differs``; None without a journal."""


@dataclass
class Report:
    """What :func:`verify_round` checked."""

    round_id: str
    seed: str
    checks: list[Check] = field(default_factory=list)
    turns: list[TurnLine] = field(default_factory=list)
    opponent_turns: list[TurnLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rolls_checked: int = 0
    rolls_seen: int = 0
    stream_agrees: bool = True
    """Whether the engine's dice and SPEC §3's, derived here on its own, agreed."""
    journal: bool = False
    """Whether the round was compared with a journal of this machine's."""

    @property
    def ok(self) -> bool:
        """Whether every check held."""
        return all(check.ok for check in self.checks)

    @property
    def failures(self) -> list[Check]:
        """The checks that failed."""
        return [check for check in self.checks if not check.ok]

    def check(self, ok: bool, text: str) -> bool:
        """Record a check; returns ``ok``."""
        self.checks.append(Check(ok, text))
        return ok


def stream_values(seed: bytes, turn: int, roll: int, count: int) -> tuple[int, ...]:
    """Dice stream v1 as SPEC §3 words it, written apart from the engine's
    :func:`yatzy.dice.draw` so the two can check each other.

    >>> stream_values(bytes(32), 0, 0, 6)
    (6, 5, 2, 4, 5, 4)
    """
    values: list[int] = []
    k = 0
    while len(values) < count:
        block = hmac.new(seed, f"yatzy-dice/v1/{turn}/{roll}/{k}".encode(), hashlib.sha256)
        values.extend(byte % 6 + 1 for byte in block.digest() if byte < 252)
        k += 1
    return tuple(values[:count])


def _dice_text(dice: Sequence[int]) -> str:
    return " ".join(str(die) for die in dice) or "-"


def _seed_bytes(report: Report, seed: str) -> bytes | None:
    try:
        raw = bytes.fromhex(seed)
    except ValueError:
        raw = b""
    if len(raw) != 32:
        report.check(False, _("the seed is not 32 bytes in hex: {seed}").format(seed=seed))
        return None
    return raw


def _check_commitments(
    report: Report,
    state: Mapping[str, Any],
    digest: str,
    *,
    challenge: Mapping[str, Any] | None,
    record: RoundRecord | None,
    day_record: tuple[str, str] | None,
) -> None:
    report.notes.insert(0, f"sha256(seed) = {digest}")
    matches = digest == state.get("commitment")
    report.check(
        matches,
        _("sha256(seed) equals the round's commitment")
        if matches
        else _("sha256(seed) equals the round's commitment {commitment}: NOT").format(
            commitment=state.get("commitment")
        ),
    )
    if challenge is not None:
        report.check(
            digest == challenge.get("commitment"),
            _("it equals the commitment published for the day {date}").format(
                date=challenge.get("date")
            ),
        )
        if challenge.get("seed") is not None:
            report.check(
                challenge.get("seed") == state.get("seed"),
                _("the day's revealed seed is this round's seed"),
            )
    if day_record is not None:
        commitment, seen_at = day_record
        report.check(
            digest == commitment,
            (
                _("it equals the day's commitment this client saw at {seen_at}, before the reveal")
                if digest == commitment
                else _(
                    "it equals the day's commitment this client saw at {seen_at}, before the "
                    "reveal ({commitment}): NOT"
                )
            ).format(seen_at=seen_at, commitment=commitment),
        )
    if record is not None and record.actions() and record.commitment is None:
        # Moves made here, and no commitment ever shown (the journal keeps the first one
        # seen): the seed told now was never committed to before play.
        report.check(
            False,
            _(
                "this client played the round without ever being shown its commitment: the "
                "seed was not committed to before play"
            ),
        )
    if record is not None and record.commitment is not None:
        matches = digest == record.commitment
        if record.seed_hidden_when_seen:
            text = (
                _("it equals the commitment this client saw at {seen_at} while the seed was hidden")
                if matches
                else _(
                    "it equals the commitment this client saw at {seen_at} while the seed was "
                    "hidden ({commitment}): NOT"
                )
            )
        else:
            text = (
                _("it equals the commitment this client saw at {seen_at} (seed shown)")
                if matches
                else _(
                    "it equals the commitment this client saw at {seen_at} (seed shown) "
                    "({commitment}): NOT"
                )
            )
        report.check(
            matches,
            text.format(seen_at=record.commitment_seen_at, commitment=record.commitment),
        )


@dataclass(frozen=True)
class Step:
    """One action of the server's log as replayed: its slot, the dice after it (a roll)
    or scored (a score), the points it scored, and the total after it."""

    slot: Slot
    action: Mapping[str, Any]
    dice: tuple[int, ...]
    points: int | None
    total: int


@dataclass
class Replay:
    """The server's log replayed: the game, each step, and the dice and total the round
    showed at each slot it passed (before the action made there)."""

    game: yatzy.Game
    steps: list[Step] = field(default_factory=list)
    at: dict[Slot, tuple[tuple[int, ...], int]] = field(default_factory=dict)


def _replay(
    report: Report, rs: yatzy.Ruleset, seed: bytes, actions: Sequence[Mapping[str, Any]]
) -> Replay | None:
    game = yatzy.Game(rs, seed)
    replay = Replay(game)
    line = TurnLine(turn=0)
    disagreements = 0
    for number, action in enumerate(actions, start=1):
        slot = (game.turn, game.rolls_used)
        replay.at[slot] = (game.dice, game.total)
        try:
            if action.get("type") == "roll":
                turn, rolls_used = slot
                hold = tuple(sorted(action.get("hold", [])))
                before = game.dice
                dice = game.roll(hold)
                fresh = [position for position in range(rs.dice_count) if position not in hold]
                expected = stream_values(seed, turn, rolls_used, len(fresh))
                independent = list(before) if hold else [0] * rs.dice_count
                for position, value in zip(fresh, expected, strict=True):
                    independent[position] = value
                if tuple(independent) != dice:
                    disagreements += 1
                    report.check(
                        False,
                        _(
                            "turn {turn} roll {roll}: the engine rolled {engine}, "
                            "SPEC §3 gives {spec}"
                        ).format(
                            turn=turn + 1,
                            roll=rolls_used + 1,
                            engine=_dice_text(dice),
                            spec=_dice_text(independent),
                        ),
                    )
                report.rolls_checked += 1
                line.rolls.append(RollLine(hold, dice, None))
                replay.steps.append(Step(slot, action, dice, None, game.total))
            elif action.get("type") == "score":
                category = str(action.get("category"))
                dice = game.dice
                extra_before = game.extra_bonus
                line.category, line.points = category, game.score(category)
                line.extra_bonus = game.extra_bonus - extra_before
                replay.steps.append(Step(slot, action, dice, line.points, game.total))
                report.turns.append(line)
                line = TurnLine(turn=game.turn)
            else:
                raise yatzy.InvalidActionError(
                    _("unknown action {action}").format(action=repr(dict(action)))
                )
        except yatzy.YatzyError as error:
            report.check(
                False,
                _("action {number} of the log is illegal: {error}").format(
                    number=number, error=error
                ),
            )
            return None
    replay.at[(game.turn, game.rolls_used)] = (game.dice, game.total)
    if line.rolls:
        report.turns.append(line)
    report.stream_agrees = disagreements == 0
    return replay


def _next_slot(slot: Slot, event: Mapping[str, Any]) -> Slot:
    turn, roll = slot
    return (turn + 1, 0) if event.get("type") == "score" else (turn, roll + 1)


def _slot(event: Mapping[str, Any]) -> Slot:
    return int(event.get("turn") or 0), int(event.get("roll") or 0)


def _elsewhere(events: Sequence[Mapping[str, Any]]) -> list[tuple[Slot, Slot]]:
    """The stretches of the round the journal says were played elsewhere: before this
    client first showed the round, between a state it showed and a later one it read
    (not answered to its own action), and after it last showed it. Half-open, in slots."""
    stretches: list[tuple[Slot, Slot]] = []
    cursor: Slot = (0, 0)
    for index, event in enumerate(events):
        if event.get("event") == "refused":
            continue
        slot = _slot(event)
        opened = index == 0 or event.get("event") == "action" or bool(event.get("fetched"))
        if slot > cursor and opened:
            stretches.append((cursor, slot))
        if event.get("event") == "action":
            cursor = max(cursor, _next_slot(slot, event))
        else:
            cursor = max(cursor, slot)
    stretches.append((cursor, (10**6, 0)))
    return stretches


def points_text(points: object) -> str:
    """``points`` with its noun: ``1 point``, ``18 points``.

    >>> points_text(1), points_text(0), points_text(18)
    ('1 point', '0 points', '18 points')
    """
    return ngettext("{points} point", "{points} points", _count(points)).format(points=points)


def _count(points: object) -> int:
    """The number that picks the plural form of ``points`` (English's: one for 1, else
    the plural, as for a points value that is no number)."""
    if isinstance(points, int):
        return points
    return 1 if points == 1 else 0


def _move_text(event: Mapping[str, Any], roll: int, box_name: BoxName) -> str:
    """An action at roll ``roll`` of its turn, in words: ``roll 2 keeping dice 1 2``,
    ``Sixes (18 points) after roll 2``; a first roll says what it kept only where it
    kept something (no first roll may: a journal changed by hand).

    >>> name = str.title
    >>> _move_text({"type": "roll", "hold": []}, 0, name), _move_text({"hold": [0]}, 0, name)
    ('roll 1', 'roll 1 keeping dice 1')
    """
    if event.get("type") == "score":
        box = box_name(str(event.get("category")))
        if event.get("points") is None:
            return _("{box} after roll {roll}").format(box=box, roll=roll)
        points = event["points"]
        return ngettext(
            "{box} ({points} point) after roll {roll}",
            "{box} ({points} points) after roll {roll}",
            _count(points),
        ).format(box=box, points=points, roll=roll)
    kept = " ".join(str(p + 1) for p in sorted(event.get("hold") or []))
    if not roll and not kept:
        return _("roll {roll}").format(roll=1)
    if kept:
        return _("roll {roll} keeping dice {dice}").format(roll=roll + 1, dice=kept)
    return _("roll {roll} keeping none").format(roll=roll + 1)


def _same_move(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> bool:
    if mine.get("type") != theirs.get("type"):
        return False
    if mine.get("type") == "score":
        return mine.get("category") == theirs.get("category")
    return sorted(mine.get("hold") or []) == sorted(theirs.get("hold") or [])


def _check_journal(report: Report, replay: Replay, record: RoundRecord, box_name: BoxName) -> None:
    """The server's log against this client's journal (see the module's docstring):
    each acknowledged action at its slot, no action missing or extra where this client
    played, the dice and totals it showed; the rest reported as played elsewhere."""
    problems: dict[int, list[str]] = {}
    boxes: dict[int, str] = {}
    server = {step.slot: step for step in replay.steps}
    acks: dict[Slot, Mapping[str, Any]] = {}
    # The server acknowledges one action a slot (its turn/roll precondition): a second
    # one journaled at a slot is extra, whatever it is, and must not hide the first.
    doubled: list[Mapping[str, Any]] = []
    for event in record.actions():
        if _slot(event) in acks:
            doubled.append(event)
        else:
            acks[_slot(event)] = event
    stretches = _elsewhere(record.events)

    def elsewhere(slot: Slot) -> bool:
        return any(start <= slot < end for start, end in stretches)

    def problem(turn: int, text: str) -> None:
        problems.setdefault(turn, []).append(text)

    refused: dict[Slot, list[Mapping[str, Any]]] = {}
    for event in record.refusals():
        refused.setdefault(_slot(event), []).append(event)

    for extra in doubled:
        turn, roll = _slot(extra)
        problem(
            turn,
            _(
                "this client's journal has {move} as well, a second action at the same point "
                "of the round, which no server's log can hold"
            ).format(move=_move_text(extra, roll, box_name)),
        )

    here: set[int] = set()
    away: set[int] = set()
    for slot, step in server.items():
        turn, roll = slot
        theirs = {**step.action, "points": step.points}
        if step.action.get("type") == "score":
            boxes.setdefault(turn, str(step.action.get("category")))
        mine = acks.get(slot)
        if mine is not None:
            here.add(turn)
            if mine.get("type") == "score":
                boxes[turn] = str(mine.get("category"))
            if not _same_move(mine, step.action):
                problem(
                    turn,
                    _("this client's {mine}, the server's log has {theirs} instead").format(
                        mine=_move_text(mine, roll, box_name),
                        theirs=_move_text(theirs, roll, box_name),
                    ),
                )
            elif mine.get("type") == "score" and mine.get("points") != step.points:
                problem(
                    turn,
                    _("this client was shown {move}, the seed gives {points}").format(
                        move=_move_text(mine, roll, box_name), points=step.points
                    ),
                )
        elif slot in refused:
            # This client was playing here: its action was refused as stale (409). The
            # log's is that one (applied, its answer lost), else made elsewhere at this
            # very moment, or the server's own: which this client cannot tell, so it fails.
            here.add(turn)
            if not any(_same_move(sent, step.action) for sent in refused[slot]):
                problem(
                    turn,
                    _(
                        "this client's {mine} was refused as stale (409: the round had moved "
                        "on), and the server's log has {theirs} there, which this client did "
                        "not make (unless it was made in another window at that moment)"
                    ).format(
                        mine=_move_text(refused[slot][-1], roll, box_name),
                        theirs=_move_text(theirs, roll, box_name),
                    ),
                )
        elif elsewhere(slot):
            away.add(turn)
        else:
            problem(
                turn,
                _("the server's log has {move}, which this client did not make").format(
                    move=_move_text(theirs, roll, box_name)
                ),
            )
    for slot, mine in acks.items():
        if slot not in server:
            turn, roll = slot
            here.add(turn)
            if mine.get("type") == "score":
                boxes[turn] = str(mine.get("category"))
            problem(
                turn,
                _("this client's {move} is missing from the server's log").format(
                    move=_move_text(mine, roll, box_name)
                ),
            )

    # Where a total shown differs (turn and roll), the total shown and the log's.
    totals: dict[Slot, tuple[int, int]] = {}
    cursor: Slot = (0, 0)
    drawn: set[tuple[Slot, tuple[int, ...], object]] = set()
    for event in record.events:
        slot = _slot(event)
        if event.get("event") == "refused":
            continue
        if event.get("event") == "action":
            slot, dice = _next_slot(slot, event), event.get("dice")
            cursor = max(cursor, slot)
            if event.get("type") == "score":
                dice = None
        else:
            dice = event.get("dice")
            state = (slot, tuple(dice or ()), event.get("total"))
            # A state shown before, drawn again (a typo, a hold) by a client of this
            # player that had not seen the later one another client of it had: no news
            # from the server. A state read afresh (fetched) that goes back is.
            redrawn = not event.get("fetched") and state in drawn
            drawn.add(state)
            if slot < cursor and not redrawn:
                problem(
                    slot[0],
                    _("the server showed roll {roll} after it had shown a later state").format(
                        roll=slot[1]
                    ),
                )
            cursor = max(cursor, slot)
        turn, roll = slot
        if slot not in replay.at:
            problem(
                turn,
                _(
                    "this client was shown roll {roll} ({dice}), which the server's log never "
                    "reaches"
                ).format(roll=roll, dice=_dice_text(dice))
                if dice
                else _(
                    "this client was shown roll {roll}, which the server's log never reaches"
                ).format(roll=roll),
            )
            continue
        dice_then, total_then = replay.at[slot]
        if dice and roll and tuple(dice) != dice_then:
            problem(
                turn,
                _(
                    "roll {roll}: the seed gives {seed_dice}, but this client was shown {shown}"
                ).format(roll=roll, seed_dice=_dice_text(dice_then), shown=_dice_text(dice)),
            )
        if event.get("total") is not None and event["total"] != total_then:
            totals.setdefault(slot, (int(event["total"]), total_then))

    states = record.states_shown()
    for line in report.turns:
        for index, roll_line in enumerate(line.rolls, start=1):
            seen = [
                tuple(event["dice"])
                for event in states
                if _slot(event) == (line.turn, index) and event.get("dice")
            ]
            if seen:
                report.rolls_seen += 1
                roll_line.seen = all(dice == roll_line.dice for dice in seen)
        line.journal = (
            "differs"
            if line.turn in problems
            else "here"
            if line.turn in here and line.turn not in away
            else "partly here"
            if line.turn in here
            else "elsewhere"
        )
    for turn in sorted(problems):
        text = "; ".join(dict.fromkeys(problems[turn]))
        report.check(
            False,
            _("turn {turn} ({box}): {problems}").format(
                turn=turn + 1, box=box_name(boxes[turn]), problems=text
            )
            if turn in boxes
            else _("turn {turn}: {problems}").format(turn=turn + 1, problems=text),
        )
    wrong = list(totals.items())
    for (turn, roll), (shown_total, replayed) in dict(wrong[:1] + wrong[-1:]).items():
        where = (
            _(
                "after turn {turn} this client was shown the total {shown}, the server's log "
                "gives {log}"
            )
            if roll == 0
            else _(
                "at turn {turn} roll {roll} this client was shown the total {shown}, the "
                "server's log gives {log}"
            )
        )
        report.check(
            False,
            where.format(
                turn=turn if roll == 0 else turn + 1, roll=roll, shown=shown_total, log=replayed
            ),
        )
    elsewhere_turns = sorted(away - here - set(problems))
    if elsewhere_turns:
        report.notes.append(
            ngettext(
                "Turn(s) {turns} were played elsewhere (not in this machine's journal): their "
                "moves are not checked against it, only replayed.",
                "Turn(s) {turns} were played elsewhere (not in this machine's journal): their "
                "moves are not checked against it, only replayed.",
                len(elsewhere_turns),
            ).format(turns=_turn_list(elsewhere_turns))
        )
    if not problems and not totals:
        report.check(
            True,
            _(
                "the server's log has each of the {moves} moves made here, as made, and none "
                "that was not; {rolls} rolls compared with the dice shown here, and the totals "
                "shown match"
            ).format(moves=len(acks), rolls=report.rolls_seen),
        )


def _turn_list(turns: Sequence[int]) -> str:
    """Turn numbers (0-based in) for people, runs joined.

    >>> _turn_list([0, 1, 2, 5, 7, 8])
    '1-3, 6, 8-9'
    """
    runs: list[list[int]] = []
    for turn in turns:
        if runs and turn == runs[-1][-1] + 1:
            runs[-1].append(turn)
        else:
            runs.append([turn])
    return ", ".join(
        f"{run[0] + 1}-{run[-1] + 1}" if len(run) > 1 else str(run[0] + 1) for run in runs
    )


def _sum_name(key: str) -> str:
    """The name of one of a scorecard's sums (``upper_total``: ``upper total``)."""
    names = {
        "upper_total": pgettext("verify", "upper total"),
        "bonus": pgettext("verify", "bonus"),
        "extra_bonus": pgettext("verify", "extra bonus"),
        "total": pgettext("verify", "total"),
    }
    return names.get(key, key.replace("_", " "))


def _check_totals(
    report: Report, game: yatzy.Game, state: Mapping[str, Any], *, who: str | None = None
) -> None:
    """The scorecard and sums of ``state`` against the engine's; ``who`` names whose
    (the round, else the computer's game) at the start of each check."""
    who = pgettext("verify", "the round") if who is None else who
    scorecard = state.get("scorecard") or {}
    differing = [
        _("{box}: server {server}, engine {engine}").format(
            box=box, server=scorecard.get(box), engine=points
        )
        for box, points in game.scorecard.items()
        if scorecard.get(box) != points
    ]
    extra = sorted(set(scorecard) - set(game.scorecard))
    report.check(
        not differing and not extra,
        ngettext(
            "{who}: all {count} boxes of the scorecard match the engine",
            "{who}: all {count} boxes of the scorecard match the engine",
            len(game.scorecard),
        ).format(who=who, count=len(game.scorecard))
        if not differing and not extra
        else _("{who}: the scorecard differs ({differences})").format(
            who=who, differences="; ".join(differing + extra)
        ),
    )
    sums = [key for key in ("upper_total", "bonus", "extra_bonus", "total") if key in state]
    for key in sums:
        if state[key] != getattr(game, key):
            report.check(
                False,
                _("{who}: {sum} {engine}, but the server says {server}").format(
                    who=who, sum=_sum_name(key), engine=getattr(game, key), server=state[key]
                ),
            )
    if "total" not in state:
        # No total to check is no total verified: "VERIFIED" says the total follows.
        report.check(
            False,
            _("{who}: the server gives no total (the engine's is {total})").format(
                who=who, total=game.total
            ),
        )
    elif all(state[key] == getattr(game, key) for key in sums):
        report.check(
            True,
            _("{who}: {sums} as the server says").format(
                who=who,
                sums=", ".join(f"{_sum_name(key)} {getattr(game, key)}" for key in sums),
            ),
        )


def _check_opponent(
    report: Report, rs: yatzy.Ruleset, seed: bytes, opponent: Mapping[str, Any]
) -> yatzy.Game | None:
    bot = yatzy.Game(rs, seed)
    for recorded in opponent.get("turns", []):
        turn = int(recorded.get("turn", -1))
        if turn != bot.turn:
            report.check(
                False,
                _("the computer's turns are out of order at turn {turn}").format(turn=turn + 1),
            )
            return None
        line = TurnLine(turn=turn)
        rolls = [tuple(r) for r in recorded.get("rolls", [])]
        holds = [tuple(sorted(h)) for h in recorded.get("holds", [])]
        if len(holds) != len(rolls) - 1:
            report.check(
                False,
                _("the computer's turn {turn}: one hold before each reroll").format(turn=turn + 1),
            )
            return None
        try:
            for index, shown in enumerate(rolls):
                hold = holds[index - 1] if index else ()
                dice = bot.roll(hold)
                report.rolls_checked += 1
                line.rolls.append(RollLine(hold, dice, dice == shown))
                if dice != shown:
                    report.check(
                        False,
                        _(
                            "the computer's turn {turn} roll {roll}: the seed gives "
                            "{seed_dice}, the server showed {shown}"
                        ).format(
                            turn=turn + 1,
                            roll=index + 1,
                            seed_dice=_dice_text(dice),
                            shown=_dice_text(shown),
                        ),
                    )
            category = str(recorded.get("category"))
            before = bot.extra_bonus
            line.category, line.points = category, bot.score(category)
            line.server_points = recorded.get("points")
            # The extra bonus the score earned (Yahtzee's joker), where the server says it.
            line.extra_bonus = bot.extra_bonus - before
            said_extra = recorded.get("extra_bonus")
        except yatzy.YatzyError as error:
            report.check(
                False,
                _("the computer's turn {turn} is illegal: {error}").format(
                    turn=turn + 1, error=error
                ),
            )
            return None
        if line.points != line.server_points:
            report.check(
                False,
                _(
                    "the computer's turn {turn}: {box} gives {points}, the server says {server}"
                ).format(
                    turn=turn + 1, box=line.category, points=line.points, server=line.server_points
                ),
            )
        if said_extra is not None and said_extra != line.extra_bonus:
            report.check(
                False,
                _(
                    "the computer's turn {turn}: {box} earns an extra bonus of {bonus}, the "
                    "server says {server}"
                ).format(
                    turn=turn + 1, box=line.category, bonus=line.extra_bonus, server=said_extra
                ),
            )
        report.opponent_turns.append(line)
    report.check(
        True,
        ngettext(
            "the computer's {count} turns replay on the seed",
            "the computer's {count} turns replay on the seed",
            len(report.opponent_turns),
        ).format(count=len(report.opponent_turns)),
    )
    _check_totals(report, bot, opponent, who=pgettext("verify", "the computer"))
    return bot


def _result_name(result: object) -> str:
    """A game's result (``win``, ``loss``, ``draw``) in words; another as it is."""
    names = {
        "win": pgettext("verify result", "win"),
        "loss": pgettext("verify result", "loss"),
        "draw": pgettext("verify result", "draw"),
    }
    return names.get(str(result), str(result))


def verify_round(
    state: Mapping[str, Any],
    *,
    challenge: Mapping[str, Any] | None = None,
    record: RoundRecord | None = None,
    day_record: tuple[str, str] | None = None,
    box_name: BoxName = str,
) -> Report:
    """Check a revealed round (see the module's docstring); raises :class:`NotVerifiable`
    while its seed is hidden. ``record`` is this machine's journal of it, ``day_record``
    the day's commitment as this machine saw it before the reveal.

    >>> game = yatzy.Game(yatzy.get_ruleset("yatzy"), bytes(32))
    >>> _ = game.roll(); _ = game.roll(hold=[0]); _ = game.score("twos")
    >>> state = {"id": "r1", "ruleset": "yatzy", "rules": {}, "actions": game.actions,
    ...          "seed": bytes(32).hex(), "commitment": yatzy.commitment(bytes(32)),
    ...          "scorecard": game.scorecard, "total": 6}
    >>> report = verify_round(state)
    >>> report.ok, report.rolls_checked, report.turns[0].rolls[1].dice
    (True, 2, (6, 2, 4, 2, 2))
    >>> verify_round({**state, "total": 7}).failures[-1].text
    'the round: total 6, but the server says 7'
    """
    round_id = str(state.get("id"))
    seed = state.get("seed")
    if not seed:
        raise NotVerifiable(
            _(
                "The seed of round {round} is not revealed yet (commitment {commitment}). A "
                "daily's seed is shown once its day is over, another game's once it is finished."
            ).format(round=round_id, commitment=state.get("commitment"))
        )
    report = Report(round_id=round_id, seed=str(seed))
    raw = _seed_bytes(report, str(seed))
    if raw is None:
        return report
    digest = hashlib.sha256(raw).hexdigest()
    _check_commitments(
        report, state, digest, challenge=challenge, record=record, day_record=day_record
    )
    rules = state.get("rules") or {}
    try:
        rs = yatzy.get_ruleset(str(state.get("ruleset")), **rules)
    except yatzy.YatzyError as error:
        report.check(
            False,
            _("the ruleset {ruleset} {options} is unknown: {error}").format(
                ruleset=state.get("ruleset"), options=rules, error=error
            ),
        )
        return report
    if challenge is not None:
        report.check(
            challenge.get("rules") == rules and challenge.get("ruleset") == state.get("ruleset"),
            _("the round plays the day's rules ({ruleset})").format(ruleset=rs.name),
        )
    actions = state.get("actions") or []
    replay = _replay(report, rs, raw, actions)
    if replay is None:
        return report
    game = replay.game
    turns_done = sum(1 for action in actions if action.get("type") == "score")
    if report.stream_agrees:
        report.check(
            True,
            ngettext(
                "{actions} actions replayed: {turns} turns, {rolls} rolls recomputed from the "
                "seed (engine and SPEC §3 agree)",
                "{actions} actions replayed: {turns} turns, {rolls} rolls recomputed from the "
                "seed (engine and SPEC §3 agree)",
                len(actions),
            ).format(actions=len(actions), turns=turns_done, rolls=report.rolls_checked),
        )
    if record is not None:
        report.journal = True
        _check_journal(report, replay, record, box_name)
    if state.get("dice") or game.dice:
        same = list(state.get("dice") or []) == list(game.dice)
        report.check(
            same,
            (
                _("the dice on the table now: {dice}")
                if same
                else _("the dice on the table now: {dice}, but the server shows {server}")
            ).format(dice=_dice_text(game.dice), server=_dice_text(state.get("dice") or [])),
        )
    _check_totals(report, game, state)
    if state.get("status") == "completed":
        # A finished round fills every box: a "completed" round the log does not finish
        # would hide turns the server never showed.
        report.check(
            game.is_over,
            (
                ngettext(
                    "the round is over: {filled} of {count} boxes filled",
                    "the round is over: {filled} of {count} boxes filled",
                    len(rs.categories),
                )
                if game.is_over
                else ngettext(
                    "the round is over: {filled} of {count} boxes filled, but the server says "
                    "it is completed",
                    "the round is over: {filled} of {count} boxes filled, but the server says "
                    "it is completed",
                    len(rs.categories),
                )
            ).format(filled=turns_done, count=len(rs.categories)),
        )
    opponent = state.get("opponent")
    bot = _check_opponent(report, rs, raw, opponent) if isinstance(opponent, Mapping) else None
    if state.get("result"):
        # A result stands only on both games replayed to their end: a server that cut the
        # computer's log short (or left it out) could claim any result otherwise.
        if bot is not None and bot.is_over and game.is_over:
            result = yatzy.result_of(game.total, bot.total)
            report.check(
                state["result"] == result,
                (
                    _("the result is a {result} ({total} against {opponent})")
                    if state["result"] == result
                    else _(
                        "the result is a {result} ({total} against {opponent}), but the server "
                        "says {server}"
                    )
                ).format(
                    result=_result_name(result),
                    total=game.total,
                    opponent=bot.total,
                    server=_result_name(state["result"]),
                ),
            )
        else:
            report.check(
                False,
                _(
                    "the server says the result is a {result}, but its log does not finish "
                    "both games"
                ).format(result=_result_name(state["result"])),
            )
    return report
