"""Provable fairness, run by the player: check a round once its seed is revealed.

:func:`verify_round` takes a round as the API shows it (with ``seed``, ``commitment``,
``actions``, ``scorecard``, …) and checks, with nothing but the seed and the engine:

1. ``sha256(seed)`` equals the commitment in the answer, the day's published commitment
   (a daily round), and the commitment this client recorded while the seed was still
   hidden (:class:`client.storage.Journal`), when it has one;
2. the dice stream v1 (SPEC §3), recomputed here independently with HMAC-SHA256, gives
   the same values as the engine's;
3. replaying the action log with :class:`yatzy.Game` gives every roll the client was
   shown during play, each box's points, the bonuses and the total the server reports;
4. for a computer game, the opponent's turns: every roll after its holds, its boxes,
   points and total, and the result.

Each check becomes a :class:`Check`; any failed one makes the report fail.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yatzy
from client.storage import RoundRecord


class NotVerifiable(Exception):
    """The round cannot be checked yet: its seed is not revealed."""


@dataclass(frozen=True)
class Check:
    """One thing that was checked, and whether it held."""

    ok: bool
    text: str


@dataclass(frozen=True)
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
            f"it equals the day's commitment this client saw at {seen_at}, before the reveal",
        )
    if record is not None and record.commitment is not None:
        when = "while the seed was hidden" if record.seed_hidden_when_seen else "(seed shown)"
        report.check(
            digest == record.commitment,
            f"it equals the commitment this client saw at {record.commitment_seen_at} {when}",
        )
    else:
        report.notes.append(
            "This client has no record of the round (it was not played here), so the "
            "commitment and dice are compared with the server's answers only."
        )


def _replay(
    report: Report,
    rs: yatzy.Ruleset,
    seed: bytes,
    actions: Sequence[Mapping[str, Any]],
    record: RoundRecord | None,
) -> yatzy.Game | None:
    game = yatzy.Game(rs, seed)
    line = TurnLine(turn=0)
    for number, action in enumerate(actions, start=1):
        try:
            if action.get("type") == "roll":
                turn, rolls_used = game.turn, game.rolls_used
                hold = tuple(sorted(action.get("hold", [])))
                before = game.dice
                dice = game.roll(hold)
                fresh = [position for position in range(rs.dice_count) if position not in hold]
                expected = stream_values(seed, turn, rolls_used, len(fresh))
                independent = list(before) if hold else [0] * rs.dice_count
                for position, value in zip(fresh, expected, strict=True):
                    independent[position] = value
                if tuple(independent) != dice:
                    report.check(
                        False,
                        f"turn {turn + 1} roll {rolls_used + 1}: the engine rolled "
                        f"{_dice_text(dice)}, SPEC §3 gives {_dice_text(independent)}",
                    )
                seen_dice = record.dice_seen(turn, rolls_used + 1) if record else None
                seen = None if seen_dice is None else tuple(seen_dice) == dice
                if seen is not None:
                    report.rolls_seen += 1
                    if not seen:
                        report.check(
                            False,
                            f"turn {turn + 1} roll {rolls_used + 1}: the seed gives "
                            f"{_dice_text(dice)}, but this client was shown "
                            f"{_dice_text(seen_dice or [])}",
                        )
                report.rolls_checked += 1
                line.rolls.append(RollLine(hold, dice, seen))
            elif action.get("type") == "score":
                category = str(action.get("category"))
                line.category, line.points = category, game.score(category)
                report.turns.append(line)
                line = TurnLine(turn=game.turn)
            else:
                raise yatzy.InvalidActionError(f"unknown action {dict(action)!r}")
        except yatzy.YatzyError as error:
            report.check(False, f"action {number} of the log is illegal: {error}")
            return None
    if line.rolls:
        report.turns.append(line)
    return game


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
    if all(state[key] == getattr(game, key) for key in sums):
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
            line.category, line.points = category, bot.score(category)
            line.server_points = recorded.get("points")
        except yatzy.YatzyError as error:
            report.check(False, f"the computer's turn {turn + 1} is illegal: {error}")
            return None
        if line.points != line.server_points:
            report.check(
                False,
                f"the computer's turn {turn + 1}: {line.category} gives {line.points}, "
                f"the server says {line.server_points}",
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
) -> Report:
    """Check a revealed round (see the module's docstring); raises :class:`NotVerifiable`
    while its seed is hidden.

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
    game = _replay(report, rs, raw, actions, record)
    if game is None:
        return report
    turns_done = sum(1 for action in actions if action.get("type") == "score")
    seen = f"; {report.rolls_seen} compared with the dice shown here" if report.rolls_seen else ""
    report.check(
        True,
        f"{len(actions)} actions replayed: {turns_done} turns, {report.rolls_checked} rolls "
        f"recomputed from the seed (engine and SPEC §3 agree){seen}",
    )
    if state.get("dice") or game.dice:
        report.check(
            list(state.get("dice") or []) == list(game.dice),
            f"the dice on the table now: {_dice_text(game.dice)}",
        )
    _check_totals(report, game, state)
    opponent = state.get("opponent")
    if isinstance(opponent, Mapping):
        bot = _check_opponent(report, rs, raw, opponent)
        if bot is not None and bot.is_over and game.is_over and state.get("result"):
            result = yatzy.result_of(game.total, bot.total)
            report.check(
                state["result"] == result,
                f"the result is a {result} ({game.total} against {bot.total})",
            )
    return report
