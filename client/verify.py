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
        report.check(False, f"the seed is not 32 bytes in hex: {seed}")
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
    report.check(
        digest == state.get("commitment"),
        "sha256(seed) equals the round's commitment"
        + ("" if digest == state.get("commitment") else f" {state.get('commitment')}: NOT"),
    )
    if challenge is not None:
        report.check(
            digest == challenge.get("commitment"),
            f"it equals the commitment published for the day {challenge.get('date')}",
        )
        if challenge.get("seed") is not None:
            report.check(
                challenge.get("seed") == state.get("seed"),
                "the day's revealed seed is this round's seed",
            )
    if day_record is not None:
        commitment, seen_at = day_record
        report.check(
            digest == commitment,
            f"it equals the day's commitment this client saw at {seen_at}, before the reveal"
            + ("" if digest == commitment else f" ({commitment}): NOT"),
        )
    if record is not None and record.actions() and record.commitment is None:
        # Moves made here, and no commitment ever shown (the journal keeps the first one
        # seen): the seed told now was never committed to before play.
        report.check(
            False,
            "this client played the round without ever being shown its commitment: the "
            "seed was not committed to before play",
        )
    if record is not None and record.commitment is not None:
        when = "while the seed was hidden" if record.seed_hidden_when_seen else "(seed shown)"
        report.check(
            digest == record.commitment,
            f"it equals the commitment this client saw at {record.commitment_seen_at} {when}"
            + ("" if digest == record.commitment else f" ({record.commitment}): NOT"),
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
                        f"turn {turn + 1} roll {rolls_used + 1}: the engine rolled "
                        f"{_dice_text(dice)}, SPEC §3 gives {_dice_text(independent)}",
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
                raise yatzy.InvalidActionError(f"unknown action {dict(action)!r}")
        except yatzy.YatzyError as error:
            report.check(False, f"action {number} of the log is illegal: {error}")
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
    return f"{points} point" if points == 1 else f"{points} points"


def _move_text(event: Mapping[str, Any], roll: int, box_name: BoxName) -> str:
    """An action at roll ``roll`` of its turn, in words: ``roll 2 keeping dice 1 2``,
    ``Sixes (18 points) after roll 2``; a first roll says what it kept only where it
    kept something (no first roll may: a journal changed by hand).

    >>> name = str.title
    >>> _move_text({"type": "roll", "hold": []}, 0, name), _move_text({"hold": [0]}, 0, name)
    ('roll 1', 'roll 1 keeping dice 1')
    """
    if event.get("type") == "score":
        points = f" ({points_text(event['points'])})" if event.get("points") is not None else ""
        return f"{box_name(str(event.get('category')))}{points} after roll {roll}"
    kept = " ".join(str(p + 1) for p in sorted(event.get("hold") or []))
    if not roll and not kept:
        return "roll 1"
    return f"roll {roll + 1} keeping {'dice ' + kept if kept else 'none'}"


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
            f"this client's journal has {_move_text(extra, roll, box_name)} as well, a second "
            "action at the same point of the round, which no server's log can hold",
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
                    f"this client's {_move_text(mine, roll, box_name)}, the server's log "
                    f"has {_move_text(theirs, roll, box_name)} instead",
                )
            elif mine.get("type") == "score" and mine.get("points") != step.points:
                problem(
                    turn,
                    f"this client was shown {_move_text(mine, roll, box_name)}, the seed "
                    f"gives {step.points}",
                )
        elif slot in refused:
            # This client was playing here: its action was refused as stale (409). The
            # log's is that one (applied, its answer lost), else made elsewhere at this
            # very moment, or the server's own: which this client cannot tell, so it fails.
            here.add(turn)
            if not any(_same_move(sent, step.action) for sent in refused[slot]):
                problem(
                    turn,
                    f"this client's {_move_text(refused[slot][-1], roll, box_name)} was "
                    "refused as stale (409: the round had moved on), and the server's log "
                    f"has {_move_text(theirs, roll, box_name)} there, which this client did "
                    "not make (unless it was made in another window at that moment)",
                )
        elif elsewhere(slot):
            away.add(turn)
        else:
            problem(
                turn,
                f"the server's log has {_move_text(theirs, roll, box_name)}, which this "
                "client did not make",
            )
    for slot, mine in acks.items():
        if slot not in server:
            turn, roll = slot
            here.add(turn)
            if mine.get("type") == "score":
                boxes[turn] = str(mine.get("category"))
            problem(
                turn,
                f"this client's {_move_text(mine, roll, box_name)} is missing from the "
                "server's log",
            )

    totals: dict[str, tuple[int, int]] = {}
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
                    f"the server showed roll {slot[1]} after it had shown a later state",
                )
            cursor = max(cursor, slot)
        turn, roll = slot
        if slot not in replay.at:
            shown = f" ({_dice_text(dice)})" if dice else ""
            problem(
                turn,
                f"this client was shown roll {roll}{shown}, which the server's log never reaches",
            )
            continue
        dice_then, total_then = replay.at[slot]
        if dice and roll and tuple(dice) != dice_then:
            problem(
                turn,
                f"roll {roll}: the seed gives {_dice_text(dice_then)}, but this client was "
                f"shown {_dice_text(dice)}",
            )
        if event.get("total") is not None and event["total"] != total_then:
            where = f"after turn {turn}" if roll == 0 else f"at turn {turn + 1} roll {roll}"
            totals.setdefault(where, (int(event["total"]), total_then))

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
        name = f" ({box_name(boxes[turn])})" if turn in boxes else ""
        text = "; ".join(dict.fromkeys(problems[turn]))
        report.check(False, f"turn {turn + 1}{name}: {text}")
    wrong = list(totals.items())
    for where, (shown_total, replayed) in dict(wrong[:1] + wrong[-1:]).items():
        report.check(
            False,
            f"{where} this client was shown the total {shown_total}, the server's log "
            f"gives {replayed}",
        )
    elsewhere_turns = sorted(away - here - set(problems))
    if elsewhere_turns:
        report.notes.append(
            f"Turn(s) {_turn_list(elsewhere_turns)} were played elsewhere (not in this "
            "machine's journal): their moves are not checked against it, only replayed."
        )
    if not problems and not totals:
        report.check(
            True,
            f"the server's log has each of the {len(acks)} moves made here, as made, and "
            f"none that was not; {report.rolls_seen} rolls compared with the dice shown "
            "here, and the totals shown match",
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


def _check_totals(
    report: Report, game: yatzy.Game, state: Mapping[str, Any], *, who: str = "the round"
) -> None:
    scorecard = state.get("scorecard") or {}
    differing = [
        f"{box}: server {scorecard.get(box)}, engine {points}"
        for box, points in game.scorecard.items()
        if scorecard.get(box) != points
    ]
    extra = sorted(set(scorecard) - set(game.scorecard))
    report.check(
        not differing and not extra,
        f"{who}: all {len(game.scorecard)} boxes of the scorecard match the engine"
        if not differing and not extra
        else f"{who}: the scorecard differs ({'; '.join(differing + extra)})",
    )
    sums = [key for key in ("upper_total", "bonus", "extra_bonus", "total") if key in state]
    for key in sums:
        if state[key] != getattr(game, key):
            report.check(
                False,
                f"{who}: {key.replace('_', ' ')} {getattr(game, key)}, "
                f"but the server says {state[key]}",
            )
    if "total" not in state:
        # No total to check is no total verified: "VERIFIED" says the total follows.
        report.check(False, f"{who}: the server gives no total (the engine's is {game.total})")
    elif all(state[key] == getattr(game, key) for key in sums):
        report.check(
            True,
            f"{who}: "
            + ", ".join(f"{key.replace('_', ' ')} {getattr(game, key)}" for key in sums)
            + " as the server says",
        )


def _check_opponent(
    report: Report, rs: yatzy.Ruleset, seed: bytes, opponent: Mapping[str, Any]
) -> yatzy.Game | None:
    bot = yatzy.Game(rs, seed)
    for recorded in opponent.get("turns", []):
        turn = int(recorded.get("turn", -1))
        if turn != bot.turn:
            report.check(False, f"the computer's turns are out of order at turn {turn + 1}")
            return None
        line = TurnLine(turn=turn)
        rolls = [tuple(r) for r in recorded.get("rolls", [])]
        holds = [tuple(sorted(h)) for h in recorded.get("holds", [])]
        if len(holds) != len(rolls) - 1:
            report.check(False, f"the computer's turn {turn + 1}: one hold before each reroll")
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
                        f"the computer's turn {turn + 1} roll {index + 1}: the seed gives "
                        f"{_dice_text(dice)}, the server showed {_dice_text(shown)}",
                    )
            category = str(recorded.get("category"))
            before = bot.extra_bonus
            line.category, line.points = category, bot.score(category)
            line.server_points = recorded.get("points")
            # The extra bonus the score earned (Yahtzee's joker), where the server says it.
            line.extra_bonus = bot.extra_bonus - before
            said_extra = recorded.get("extra_bonus")
        except yatzy.YatzyError as error:
            report.check(False, f"the computer's turn {turn + 1} is illegal: {error}")
            return None
        if line.points != line.server_points:
            report.check(
                False,
                f"the computer's turn {turn + 1}: {line.category} gives {line.points}, "
                f"the server says {line.server_points}",
            )
        if said_extra is not None and said_extra != line.extra_bonus:
            report.check(
                False,
                f"the computer's turn {turn + 1}: {line.category} earns an extra bonus of "
                f"{line.extra_bonus}, the server says {said_extra}",
            )
        report.opponent_turns.append(line)
    report.check(True, f"the computer's {len(report.opponent_turns)} turns replay on the seed")
    _check_totals(report, bot, opponent, who="the computer")
    return bot


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
            f"The seed of round {round_id} is not revealed yet (commitment "
            f"{state.get('commitment')}). A daily's seed is shown once its day is over, "
            "another game's once it is finished."
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
        report.check(False, f"the ruleset {state.get('ruleset')} {rules} is unknown: {error}")
        return report
    if challenge is not None:
        report.check(
            challenge.get("rules") == rules and challenge.get("ruleset") == state.get("ruleset"),
            f"the round plays the day's rules ({rs.name})",
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
            f"{len(actions)} actions replayed: {turns_done} turns, {report.rolls_checked} "
            "rolls recomputed from the seed (engine and SPEC §3 agree)",
        )
    if record is not None:
        report.journal = True
        _check_journal(report, replay, record, box_name)
    if state.get("dice") or game.dice:
        report.check(
            list(state.get("dice") or []) == list(game.dice),
            f"the dice on the table now: {_dice_text(game.dice)}"
            + (
                ""
                if list(state.get("dice") or []) == list(game.dice)
                else f", but the server shows {_dice_text(state.get('dice') or [])}"
            ),
        )
    _check_totals(report, game, state)
    if state.get("status") == "completed":
        # A finished round fills every box: a "completed" round the log does not finish
        # would hide turns the server never showed.
        report.check(
            game.is_over,
            f"the round is over: {turns_done} of {len(rs.categories)} boxes filled"
            + ("" if game.is_over else ", but the server says it is completed"),
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
                f"the result is a {result} ({game.total} against {bot.total})"
                + ("" if state["result"] == result else f", but the server says {state['result']}"),
            )
        else:
            report.check(
                False,
                f"the server says the result is a {state['result']}, but its log does not "
                "finish both games",
            )
    return report
