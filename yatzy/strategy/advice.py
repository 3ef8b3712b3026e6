"""Best moves and the analysis of finished games, from an exact table.

>>> import yatzy
>>> from yatzy.strategy import best_move, load_table
>>> rs = yatzy.get_ruleset("yatzy")
>>> table = load_table(rs, build=True)
>>> game = yatzy.Game(rs, bytes(32))
>>> game.roll()
(6, 5, 2, 4, 5)
>>> advice = best_move(game, table=table)
>>> advice.best.hold, advice.best.keep, round(advice.best.expected, 2)
((1, 4), (5, 5), 247.64)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

import yatzy
from yatzy.strategy import _kernel
from yatzy.strategy._layout import Layout
from yatzy.strategy._multisets import FACES, IntArray, sub_keeps
from yatzy.strategy._rules import Rules, rules_of
from yatzy.strategy.tables import Table, load_table

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Move:
    """One choice and the final score expected after it.

    A roll holds ``hold`` (dice positions, what ``Game.roll`` takes), which keeps the
    faces ``keep``; a score fills ``category`` for ``points``.
    """

    expected: float
    category: str | None = None
    points: int | None = None
    hold: tuple[int, ...] = ()
    keep: tuple[int, ...] = ()

    @property
    def is_roll(self) -> bool:
        """Whether this move rolls again rather than fills a box."""
        return self.category is None


@dataclass(frozen=True)
class Advice:
    """Every legal move in a position, best first; ``best`` is ``moves[0]``."""

    moves: tuple[Move, ...]

    @property
    def best(self) -> Move:
        """The move with the highest expected final score."""
        return self.moves[0]


class Future(Protocol):
    """Values of the states after the current turn: the exact table or a heuristic."""

    def bases(
        self, rules: Rules, mask: int, boxes: IntArray
    ) -> tuple[FloatArray, IntArray, IntArray]:
        """``(w, bases, bases_full)`` as ``_kernel.plan_turn`` takes them."""
        ...


@dataclass(frozen=True)
class TableFuture:
    """The exact future values of a table."""

    table: Table

    def bases(
        self, rules: Rules, mask: int, boxes: IntArray
    ) -> tuple[FloatArray, IntArray, IntArray]:
        """Offsets of the states after each box in the table's value array."""
        offsets = self.table.layout.offsets
        after = mask | (1 << boxes)
        full = after | (1 << rules.n_boxes) if rules.has_flag else after
        return self.table.values, offsets[after], offsets[full]


@dataclass(frozen=True)
class Position:
    """A game between actions, as the solver sees it.

    ``mask``: filled boxes (plus the full-yatzy bit where it matters); ``upper``: upper
    total; ``banked``: points so far without the upper bonus (the table counts it).
    """

    rules: Rules
    mask: int
    upper: int
    banked: int
    rolls_used: int
    dice: tuple[int, ...]

    @classmethod
    def of(cls, game: yatzy.Game) -> Position:
        """Read a ``Game``; raises ``UnsupportedRules`` for options no table models."""
        return cls.from_scorecard(
            game.ruleset, game.scorecard, game.extra_bonus, game.rolls_used, game.dice
        )

    @classmethod
    def from_scorecard(
        cls,
        rs: yatzy.Ruleset,
        scorecard: Mapping[Any, int | None],
        extra_bonus: int,
        rolls_used: int,
        dice: Iterable[int],
    ) -> Position:
        """A position from its parts, e.g. a stored round: ``Game.snapshot()`` fields."""
        rules = rules_of(rs)
        mask = 0
        for i, category in enumerate(rules.categories):
            if scorecard[category] is not None:
                mask |= 1 << i
        if rules.has_flag and scorecard[rules.categories[rules.yatzy_box]]:
            mask |= 1 << rules.n_boxes
        upper = sum(scorecard[c] or 0 for c in rules.categories[:FACES])
        banked = sum(p or 0 for p in scorecard.values()) + extra_bonus
        return cls(rules, mask, upper, banked, rolls_used, tuple(dice))


@dataclass(frozen=True)
class TurnPlan:
    """The value of every choice in one turn from a position (see ``_kernel.plan_turn``)."""

    rules: Rules
    mask: int
    boxes: IntArray
    box_values: FloatArray
    before: tuple[FloatArray, FloatArray]
    start: float

    @classmethod
    def build(cls, position: Position, future: Future) -> TurnPlan:
        """Evaluate the turn of ``position`` (its dice are not needed)."""
        rules, mask = position.rules, position.mask
        boxes = _kernel.open_boxes(mask, rules.n_boxes, rules.forced_order)
        w, bases, bases_full = future.bases(rules, mask, boxes)
        ms = rules.ms
        colmap = Layout.of(rules).colmap
        box_values, before2, before3, start = _kernel.plan_turn(
            mask, position.upper, boxes, w, bases, bases_full, colmap, rules.scores, rules.joker,
            rules.upper_face, ms.counts, ms.add, ms.sub, ms.first_outcome, ms.p_roll,
            rules.yatzy_face, rules.n_boxes, rules.threshold, rules.yatzy_box,
            rules.extra_points, rules.has_joker, rules.forced_order,
        )  # fmt: skip
        return cls(rules, mask, boxes, box_values, (before2, before3), float(start))

    def moves(self, position: Position) -> Advice:
        """All legal moves at ``position`` (same turn), best first."""
        rules, ms = self.rules, self.rules.ms
        if position.rolls_used == 0:
            return Advice((Move(position.banked + self.start),))
        k = ms.index_of(position.dice)
        o = k - ms.first_outcome
        moves = []
        for i, c in enumerate(self.boxes.tolist()):
            value = float(self.box_values[i, o])
            if value > _kernel.ILLEGAL / 2:
                points, _ = _kernel.box_points(
                    self.mask, c, o, rules.yatzy_face[o], rules.scores, rules.joker,
                    rules.upper_face, rules.n_boxes, rules.yatzy_box, rules.has_joker,
                    rules.forced_order,
                )  # fmt: skip
                moves.append(
                    Move(position.banked + value, category=rules.categories[c], points=points)
                )
        if position.rolls_used < 3:
            before = self.before[position.rolls_used - 1]
            for keep in sub_keeps(ms.n, k):
                faces = ms.faces(keep)
                moves.append(
                    Move(
                        position.banked + float(before[keep]),
                        hold=hold_positions(position.dice, faces),
                        keep=faces,
                    )
                )
        moves.sort(key=lambda m: -m.expected)
        return Advice(tuple(moves))

    def value_of(self, position: Position, action: Mapping[str, Any]) -> float:
        """Expected final score after a ``Game.actions`` entry taken at ``position``."""
        ms = self.rules.ms
        if action["type"] == "score":
            i = int(
                np.flatnonzero(self.boxes == self.rules.categories.index(action["category"]))[0]
            )
            o = ms.index_of(position.dice) - ms.first_outcome
            return position.banked + float(self.box_values[i, o])
        kept = ms.index_of(position.dice[p] for p in action["hold"])
        return position.banked + float(self.before[position.rolls_used - 1][kept])


def best_move(state: yatzy.Game | Position, *, table: Table | None = None) -> Advice:
    """The moves at the current point of a game, best first, from the exact table.

    ``state`` is a ``Game`` or a ``Position`` (e.g. ``Position.from_scorecard`` of a
    stored round).  Before a turn's first roll the only move is to roll; after the 1st
    or 2nd roll the moves are every box the dice may fill and every distinct hold; after
    the 3rd, the boxes.  Raises ``TableMissing`` if the table is not built.
    """
    if isinstance(state, yatzy.Game):
        if state.is_over:
            raise yatzy.GameOverError("the game is over: there is no move to advise")
        state = Position.of(state)
    table = table or load_table(state.rules)
    return TurnPlan.build(state, TableFuture(table)).moves(state)


@dataclass(frozen=True)
class Decision:
    """One decision of a played game: what was done, what was best, what it cost."""

    turn: int
    rolls_used: int
    dice: tuple[int, ...]
    action: Mapping[str, Any]
    chosen: float
    best: Move
    points: int | None = None
    """The points the played box got (``None`` for a roll)."""

    @property
    def loss(self) -> float:
        """Expected final points given away by this decision (0 for a best move)."""
        return max(0.0, self.best.expected - self.chosen)


@dataclass(frozen=True)
class Analysis:
    """A finished (or partial) game, decision by decision."""

    expected_start: float
    decisions: tuple[Decision, ...]
    total: int

    @property
    def loss(self) -> float:
        """Expected points lost over all decisions."""
        return sum(d.loss for d in self.decisions)


def analyse(
    rs: yatzy.Ruleset,
    seed: bytes,
    actions: Iterable[Mapping[str, Any]],
    *,
    table: Table | None = None,
) -> Analysis:
    """Replay ``actions`` and grade every decision against the exact table.

    A turn's first roll is no decision; every later roll (the hold) and every box is.
    An illegal action raises the engine's error, as ``Game.replay`` does.

    >>> import yatzy
    >>> table = load_table(yatzy.get_ruleset("yatzy"), build=True)
    >>> game = yatzy.Game(yatzy.get_ruleset("yatzy"), bytes(32))
    >>> _ = game.roll(); _ = game.score("chance")  # 22 in chance on the first roll
    >>> [round(d.loss, 2) for d in analyse(game.ruleset, game.seed, game.actions).decisions]
    [8.02]
    """
    table = table or load_table(rs)
    actions = list(actions)
    try:
        return _analyse(rs, seed, actions, table)
    except (LookupError, TypeError, ValueError):
        # Grading reads an action before the game checks it: an illegal one breaks it
        # first. Raise the engine's own error for it (SPEC §9), as Game.replay does;
        # a legal log that failed is a bug, raised as it is.
        yatzy.Game.replay(rs, seed, actions)
        raise


def _analyse(
    rs: yatzy.Ruleset, seed: bytes, actions: list[Mapping[str, Any]], table: Table
) -> Analysis:
    future = TableFuture(table)
    game = yatzy.Game(rs, seed)
    decisions = []
    plan: TurnPlan | None = None
    for action in actions:
        position = Position.of(game)
        if game.rolls_used == 0:
            plan = TurnPlan.build(position, future)
        elif plan is not None:
            decisions.append(
                Decision(
                    game.turn,
                    game.rolls_used,
                    game.dice,
                    dict(action),
                    plan.value_of(position, action),
                    plan.moves(position).best,
                    game.options()[action["category"]] if action["type"] == "score" else None,
                )
            )
        if action["type"] == "roll":
            game.roll(action["hold"])
        else:
            game.score(action["category"])
    return Analysis(table.start_value, tuple(decisions), game.total)


def hold_positions(dice: tuple[int, ...], faces: Iterable[int]) -> tuple[int, ...]:
    """Positions of ``dice`` that keep ``faces``, taking the leftmost die of each face.

    >>> hold_positions((6, 5, 2, 4, 5), (5, 5, 6))
    (0, 1, 4)
    """
    wanted = list(faces)
    positions = []
    for position, die in enumerate(dice):
        if die in wanted:
            wanted.remove(die)
            positions.append(position)
    return tuple(positions)
