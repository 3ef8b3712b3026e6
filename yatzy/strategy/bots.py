"""Computer opponents from Easy to Expert, playing through ``yatzy.Game``.

- ``easy`` keeps its most frequent face and takes the box with the most points.
- ``medium`` plays each turn optimally for a simple aim: points now plus the average
  each open box yields when a turn is played for it alone (its *par*).
- ``hard`` adds an estimate of the upper bonus to that aim and values the yatzy box
  at twice its par (a yatzy can come in any later turn).
- ``expert`` plays the exact table (``hard`` while the table is not built).

With banked rolls (``saved_rolls``) no turn model and no table exist: ``medium`` and
``hard`` plan each turn with its own three rolls and bank what it leaves, never
spending the bank; ``expert`` plays as ``hard``.

Bots hold no state and draw no random numbers: the same seed gives the same game.

>>> import yatzy
>>> game = bot_play(yatzy.Game(yatzy.get_ruleset("yatzy"), bytes(32)), "medium")
>>> game.is_over, game.total
(True, 161)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Literal, get_args

import numpy as np

import yatzy
from yatzy.strategy import _kernel
from yatzy.strategy._layout import Layout
from yatzy.strategy._multisets import FACES, IntArray
from yatzy.strategy._rules import Rules, rules_of
from yatzy.strategy.advice import (
    FloatArray,
    Future,
    Move,
    Position,
    TableFuture,
    TurnPlan,
    hold_positions,
)
from yatzy.strategy.tables import Table, TableMissing, load_table

Level = Literal["easy", "medium", "hard", "expert"]
LEVELS: tuple[Level, ...] = get_args(Level)


@dataclass(frozen=True)
class BotTurn:
    """What a bot did in one turn: the dice after each roll, the positions it held
    before each reroll, and the box it filled with its points."""

    turn: int
    rolls: tuple[tuple[int, ...], ...]
    holds: tuple[tuple[int, ...], ...]
    category: str
    points: int


def bot_play(game: yatzy.Game, level: Level, *, table: Table | None = None) -> yatzy.Game:
    """Play ``game`` to its end at ``level``; returns the same game."""
    while not game.is_over:
        bot_turn(game, level, table=table)
    return game


def bot_turn(game: yatzy.Game, level: Level, *, table: Table | None = None) -> BotTurn:
    """Play the current turn of ``game`` from wherever it stands to its box.

    ``expert`` plays ``table`` when given (else the table on disk, else ``hard``).

    >>> import yatzy
    >>> record = bot_turn(yatzy.Game(yatzy.get_ruleset("yatzy"), bytes(32)), "easy")
    >>> record.rolls[0], len(record.holds) == len(record.rolls) - 1
    ((6, 5, 2, 4, 5), True)
    """
    plan = _plan(game, level, table)
    turn = game.turn
    rolls: list[tuple[int, ...]] = [game.dice] if game.rolls_used else []
    holds: list[tuple[int, ...]] = []
    while True:
        move = plan(game)
        if move.is_roll:
            if game.rolls_used:
                holds.append(move.hold)
            rolls.append(game.roll(move.hold))
            continue
        assert move.category is not None
        points = game.score(move.category)
        return BotTurn(turn, tuple(rolls), tuple(holds), move.category, points)


def bot_move(game: yatzy.Game, level: Level, *, table: Table | None = None) -> Move:
    """The move ``level`` makes next; ``expected`` is the level's own estimate."""
    return _plan(game, level, table)(game)


class _Planner:
    """Moves of one turn: the plan is built once, each decision is then a look-up.

    ``rs`` is the ruleset the plan is made for: the game's, or (banked rolls) the same
    without them."""

    def __init__(self, game: yatzy.Game, future: Future, rs: yatzy.Ruleset) -> None:
        self.rs = rs
        self.plan = TurnPlan.build(self._position(game), future)

    def _position(self, game: yatzy.Game) -> Position:
        return Position.from_scorecard(
            self.rs, game.scorecard, game.extra_bonus, game.rolls_used, game.dice
        )

    def __call__(self, game: yatzy.Game) -> Move:
        return self.plan.moves(self._position(game)).best


def _plan(game: yatzy.Game, level: Level, table: Table | None) -> Callable[[yatzy.Game], Move]:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    if level == "easy":
        return _easy_move
    rs = game.ruleset
    if rs.saved_rolls:
        # No turn model covers banked rolls: each turn is planned with its own three
        # rolls, and what it leaves goes to the bank, never spent. No table either, so
        # the expert plays as hard.
        rs = _without_saved_rolls(rs)
        if level == "expert":
            level = "hard"
    rules = rules_of(rs)
    if level == "expert":
        try:
            return _Planner(game, TableFuture(table or load_table(rules)), rs)
        except TableMissing:
            level = "hard"
    if level == "hard":
        return _Planner(game, HeuristicFuture(rules, with_bonus=True, yatzy_weight=2.0), rs)
    return _Planner(game, HeuristicFuture(rules), rs)


def _without_saved_rolls(rs: yatzy.Ruleset) -> yatzy.Ruleset:
    return yatzy.get_ruleset(rs.name, **{**rs.options, "saved_rolls": False})


def _easy_move(game: yatzy.Game) -> Move:
    """Keep the most frequent face (the higher on a tie); take the most points.

    It estimates nothing, so its moves carry ``expected`` 0.
    """
    if game.rolls_used == 0:
        return Move(0.0)
    face, count = max(Counter(game.dice).items(), key=lambda fc: (fc[1], fc[0]))
    if game.rolls_left > 0 and count < len(game.dice):
        return Move(0.0, hold=hold_positions(game.dice, [face] * count))
    options = game.options()
    best = max(options.values())
    if best == 0:
        category = min(options, key=lambda c: _par(game.ruleset)[c])
    else:
        category = next(c for c, p in options.items() if p == best)
    return Move(0.0, category=category, points=options[category])


@dataclass(frozen=True)
class HeuristicFuture:
    """A cheap stand-in for the table: the par of each open box, plus a bonus estimate.

    With ``with_bonus`` the upper bonus counts with its chance of being reached: the
    chance that the open upper boxes, each played for itself, add what the threshold
    still needs (:func:`_upper_tail`). Each is counted with one roll more than a turn
    has, for the dice other turns leave in it: three rolls undervalued the bonus, and
    the smooth curve used before overvalued it where the threshold is high
    (docs/strategy.md).
    """

    rules: Rules
    with_bonus: bool = False
    yatzy_weight: float = 1.0

    def bases(
        self, rules: Rules, mask: int, boxes: IntArray
    ) -> tuple[FloatArray, IntArray, IntArray]:
        """One short value array per box: its columns, then (yatzy box) the full variant."""
        layout = Layout.of(rules)
        par = _par_array(rules).copy()
        par[rules.yatzy_box] *= self.yatzy_weight
        open_par = sum(par[b] for b in range(rules.n_boxes) if not mask >> b & 1)
        open_count = rules.n_boxes - bin(mask & ((1 << rules.n_boxes) - 1)).count("1")
        segments: list[FloatArray] = []
        bases = np.empty(len(boxes), dtype=np.int64)
        bases_full = np.empty(len(boxes), dtype=np.int64)
        size = 0
        for i, c in enumerate(boxes.tolist()):
            um = (mask | (1 << c)) & 63
            upper = layout.colval[um, : layout.ncols[um]]
            values = open_par - par[c] + self._bonus(rules, um, upper)
            bases[i] = bases_full[i] = size
            segments.append(values)
            size += len(values)
            if rules.has_flag and c == rules.yatzy_box:
                # A full yatzy box makes every later yatzy worth the extra points.
                chance = _par_array(rules)[c] / rules.scores[c].max()
                segments.append(values + rules.extra_points * chance * (open_count - 1))
                bases_full[i] = size
                size += len(values)
        return np.concatenate(segments), bases, bases_full

    def _bonus(self, rules: Rules, um: int, upper: IntArray) -> FloatArray:
        if not self.with_bonus:
            return np.zeros(len(upper))
        open_faces = tuple(f for f in range(1, FACES + 1) if not um >> (f - 1) & 1)
        tail = _upper_tail(rules.ms.n, open_faces)
        need = rules.threshold - upper
        chance = np.where(need < len(tail), tail[np.clip(need, 0, len(tail) - 1)], 0.0)
        return np.asarray(rules.bonus * chance, dtype=np.float64)


# Rolls a bot's bonus estimate gives each open upper box: a turn's three and one more.
_BONUS_ESTIMATE_ROLLS = 4


@cache
def _upper_tail(dice: int, open_faces: tuple[int, ...]) -> FloatArray:
    """``tail[s]``: the chance that the open upper boxes, each played for itself (all
    dice of its face kept, the others thrown again, ``_BONUS_ESTIMATE_ROLLS`` times),
    add at least ``s`` points.

    >>> tail = _upper_tail(5, (6,))  # sixes alone: at least one, three, all five
    >>> [round(float(tail[points]), 4) for points in (6, 18, 30)], len(tail) - 1
    ([0.9739, 0.5332, 0.0372], 30)
    """
    # How many dice show the face after the rolls: a chain over the count kept.
    kept = np.zeros(dice + 1)
    kept[0] = 1.0
    for _ in range(_BONUS_ESTIMATE_ROLLS):
        after = np.zeros(dice + 1)
        for count, chance in enumerate(kept):
            thrown = dice - count
            for new in range(thrown + 1):
                after[count + new] += (
                    chance * math.comb(thrown, new) * (1 / 6) ** new * (5 / 6) ** (thrown - new)
                )
        kept = after
    points = np.ones(1)
    for face in open_faces:
        step = np.zeros(face * dice + 1)
        step[::face] = kept
        points = np.convolve(points, step)
    return np.asarray(np.cumsum(points[::-1])[::-1], dtype=np.float64)


@cache
def _par(rs: yatzy.Ruleset) -> dict[str, float]:
    # A box's par is a one-turn figure, the same with or without banked rolls.
    rules = rules_of(_without_saved_rolls(rs))
    return dict(zip(rules.categories, _par_array(rules).tolist(), strict=True))


def _par_array(rules: Rules) -> FloatArray:
    """Expected points of each box when a whole turn is played for that box alone."""
    if rules.key not in _PAR:
        ms = rules.ms
        a = np.zeros((ms.n_keeps, rules.n_boxes))
        a[ms.first_outcome :] = rules.scores.T
        for _ in range(2):
            _kernel.expect(a, ms.add, ms.first_outcome)
            _kernel.best_subkeep(a, ms.sub)
        _PAR[rules.key] = ms.p_roll @ a[ms.first_outcome :]
    return _PAR[rules.key]


_PAR: dict[str, FloatArray] = {}
