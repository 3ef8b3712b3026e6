"""A game in progress: turns, rolls, the scorecard, bonuses, action log and snapshots."""

import reprlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Self

from yatzy.dice import SEED_SIZE, draw
from yatzy.errors import (
    CategoryUsedError,
    GameOverError,
    InvalidActionError,
    InvalidHoldError,
    InvalidSeedError,
    InvalidSnapshotError,
    JokerRuleError,
    NoRollsLeftError,
    NoRollYetError,
    OutOfOrderError,
    YatzyError,
)
from yatzy.rules import UPPER_CATEGORIES, Category, Dice, Ruleset, get_ruleset

ROLLS_PER_TURN = 3
"""Rolls a turn gives; with ``saved_rolls`` the unused ones are banked."""

SNAPSHOT_VERSION = 1
_SNAPSHOT_KEYS = frozenset(
    {
        "version",
        "ruleset",
        "seed",
        "actions",
        "turn",
        "rolls_used",
        "dice",
        "saved_rolls",
        "scorecard",
        "extra_bonus",
        "upper_total",
        "bonus",
        "total",
        "is_over",
    }
)
# The snapshot's numbers and flags, whose JSON type is checked beside their value.
_SCALARS = frozenset(
    {"turn", "rolls_used", "saved_rolls", "extra_bonus", "upper_total", "bonus", "total", "is_over"}
)


class _Roll(NamedTuple):
    hold: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "roll", "hold": list(self.hold)}


class _Score(NamedTuple):
    category: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "score", "category": self.category}


_Action = _Roll | _Score
# A NamedTuple's own constructor is a Python function; restoring a game builds dozens.
_new_action = tuple.__new__


def _parse_action(action: object) -> _Action:
    # JSON objects arrive as dicts: the exact type is checked first, as the common case.
    if (type(action) is dict or isinstance(action, Mapping)) and len(action) == 2:
        kind = action.get("type")
        if kind == "roll":
            hold = action.get("hold")
            if isinstance(hold, list | tuple):
                return _new_action(_Roll, (tuple(hold),))
        elif kind == "score":
            category = action.get("category")
            if type(category) is str:
                return _new_action(_Score, (category,))
    raise InvalidActionError(
        'an action is {"type": "roll", "hold": [positions]} or '
        f'{{"type": "score", "category": box}}, not {reprlib.repr(action)}'
    )


def _checked_hold(hold: Iterable[int], dice_count: int, first_roll: bool) -> tuple[int, ...]:
    """``hold`` as sorted positions, or :class:`InvalidHoldError`."""
    try:
        positions = tuple(sorted(hold))
    except TypeError:
        positions = None
    if positions is None or not _distinct_positions(positions, dice_count):
        raise InvalidHoldError(
            f"hold lists distinct die positions from 0 to {dice_count - 1}, "
            f"not {reprlib.repr(hold)}",
            reason="positions",
            last=dice_count - 1,
        )
    if positions and first_roll:
        raise InvalidHoldError(
            "the first roll of a turn throws all dice: hold must be empty", reason="first_roll"
        )
    return positions


def _distinct_positions(positions: tuple[Any, ...], dice_count: int) -> bool:
    """Whether sorted ``positions`` are distinct ints from 0 to ``dice_count - 1``."""
    previous = -1
    for position in positions:
        if type(position) is not int or position <= previous:
            return False
        previous = position
    return previous < dice_count


class Game:
    """One player's game: the seeded dice, the scorecard and the log of actions.

    The dice come from the seed (see :mod:`yatzy.dice`), so a seed and an action log
    always give the same game. Every illegal action raises a
    :class:`~yatzy.errors.GameError` and leaves the game exactly as it was.

    >>> game = Game(get_ruleset("yatzy"), bytes(32))
    >>> game.dice, game.options()  # nothing is shown before the turn's first roll
    ((), {})
    >>> game.roll()
    (6, 5, 2, 4, 5)
    >>> game.roll(hold=[0])  # keep the 6, throw the other four again
    (6, 2, 4, 2, 2)
    >>> game.options()["twos"], game.score("twos"), game.total
    (6, 6, 6)
    >>> game.turn, game.rolls_used, game.dice
    (1, 0, ())
    """

    def __init__(self, ruleset: Ruleset, seed: bytes) -> None:
        if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_SIZE:
            raise InvalidSeedError(
                f"a game seed is {SEED_SIZE} bytes, not {type(seed).__name__}", size=SEED_SIZE
            )
        self._ruleset = ruleset
        self._seed = bytes(seed)
        self._turn = 0
        self._rolls_used = 0
        self._dice: Dice = ()
        self._sorted_dice: Dice = ()
        self._card: list[int | None] = [None] * len(ruleset.categories)
        self._saved_rolls = 0
        self._extra_bonus = 0
        self._actions: list[_Action] = []

    def __repr__(self) -> str:
        return (
            f"<Game {self._ruleset.name} turn={self._turn} rolls_used={self._rolls_used} "
            f"dice={self._dice} total={self.total}>"
        )

    # -- actions ---------------------------------------------------------------------------

    def roll(self, hold: Iterable[int] = ()) -> Dice:
        """Roll every die not in ``hold`` (0-based positions); returns the new dice.

        The first roll of a turn throws all dice, so ``hold`` must then be empty.

        >>> game = Game(get_ruleset("maxi"), bytes(32))
        >>> first = game.roll()
        >>> second = game.roll(hold=[1, 3])
        >>> (second[1], second[3]) == (first[1], first[3]), game.rolls_used, game.rolls_left
        (True, 2, 1)
        """
        self._check_not_over()
        if self.rolls_left == 0:
            raise NoRollsLeftError(
                f"no rolls left in turn {self._turn}: fill a box", turn=self._turn
            )
        dice_count = self._ruleset.dice_count
        held = _checked_hold(hold, dice_count, first_roll=self._rolls_used == 0)
        thrown = [position for position in range(dice_count) if position not in held]
        dice = list(self._dice) if held else [0] * dice_count
        for position, value in zip(
            thrown, self._draw(self._turn, self._rolls_used, len(thrown)), strict=True
        ):
            dice[position] = value

        if self._rolls_used >= ROLLS_PER_TURN:
            self._saved_rolls -= 1
        self._rolls_used += 1
        self._dice = tuple(dice)
        self._sorted_dice = tuple(sorted(dice))
        self._actions.append(_Roll(held))
        return self._dice

    def score(self, category: str) -> int:
        """Fill box ``category`` with the current dice and end the turn; returns its points.

        >>> game = Game(get_ruleset("yatzy", forced_order=True), bytes(32))
        >>> _ = game.roll()
        >>> game.score("chance")
        Traceback (most recent call last):
        ...
        yatzy.errors.OutOfOrderError: with forced_order the next box is ones, not chance
        >>> game.score("ones")
        0
        """
        self._check_not_over()
        rules = self._ruleset
        index = rules._index(category)
        if self._rolls_used == 0:
            raise NoRollYetError(f"roll before filling a box (turn {self._turn})", turn=self._turn)
        if self._card[index] is not None:
            raise CategoryUsedError(f"{category} is already filled", category=category)
        allowed = rules._allowed(self._sorted_dice, self._card)
        if index not in allowed:
            names = [rules.categories[i] for i in allowed]
            boxes = ", ".join(names)
            if rules.forced_order:
                raise OutOfOrderError(
                    f"with forced_order the next box is {boxes}, not {category}",
                    category=category,
                    boxes=names,
                )
            raise JokerRuleError(
                f"the joker rule sends this extra yahtzee to {boxes}",
                category=category,
                boxes=names,
            )

        points = rules._points(self._sorted_dice, self._card)[index]
        self._extra_bonus += rules._extra_bonus(self._sorted_dice, self._card)
        self._card[index] = points
        if rules.saved_rolls:
            self._saved_rolls += max(0, ROLLS_PER_TURN - self._rolls_used)
        self._turn += 1
        self._rolls_used = 0
        self._dice = self._sorted_dice = ()
        self._actions.append(_Score(rules.categories[index]))
        return points

    def _draw(self, turn: int, roll: int, count: int) -> Dice:
        """The values for roll ``roll`` of turn ``turn``: the only source of dice.

        Tests override this one method to script the dice; the game never rolls otherwise.
        """
        return draw(self._seed, turn, roll, count)

    def _check_not_over(self) -> None:
        if self.is_over:
            raise GameOverError("the game is over: every box is filled")

    # -- state -----------------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset, options included, fixed for the whole game."""
        return self._ruleset

    @property
    def seed(self) -> bytes:
        """The 32-byte seed of the dice."""
        return self._seed

    @property
    def dice(self) -> Dice:
        """The dice by position; ``()`` before a turn's first roll, so none is shown early."""
        return self._dice

    @property
    def turn(self) -> int:
        """0-based index of the current turn; equals the number of boxes once the game is over."""
        return self._turn

    @property
    def rolls_used(self) -> int:
        """Rolls made in the current turn."""
        return self._rolls_used

    @property
    def rolls_left(self) -> int:
        """Rolls still possible in the current turn, banked saved rolls included.

        >>> Game(get_ruleset("maxi"), bytes(32)).rolls_left
        3
        """
        if self.is_over:
            return 0
        return max(0, ROLLS_PER_TURN - self._rolls_used) + self._saved_rolls

    @property
    def saved_rolls(self) -> int:
        """Rolls banked by earlier turns (only with the ``saved_rolls`` option)."""
        return self._saved_rolls

    @property
    def scorecard(self) -> dict[Category, int | None]:
        """Every box in printed order with its points, or None while open."""
        return dict(zip(self._ruleset.categories, self._card, strict=True))

    def options(self) -> dict[Category, int]:
        """The boxes that may be filled now, each with the points it would get.

        Empty before a turn's first roll. It follows ``forced_order`` (only the next
        box) and Yahtzee's joker rule (only the boxes it allows, at joker values).

        >>> game = Game(get_ruleset("yatzy", forced_order=True), bytes(32))
        >>> game.options()
        {}
        >>> _ = game.roll()
        >>> list(game.options())
        ['ones']
        """
        if self._rolls_used == 0:
            return {}
        rules = self._ruleset
        points = rules._points(self._sorted_dice, self._card)
        return {
            rules.categories[i]: points[i] for i in rules._allowed(self._sorted_dice, self._card)
        }

    @property
    def upper_total(self) -> int:
        """Sum of the filled upper boxes (ones to sixes)."""
        return sum(points for points in self._card[: len(UPPER_CATEGORIES)] if points is not None)

    @property
    def bonus(self) -> int:
        """The upper bonus, earned as soon as the upper total reaches the threshold."""
        threshold, points = self._ruleset.upper_bonus
        return points if self.upper_total >= threshold else 0

    @property
    def extra_bonus(self) -> int:
        """Points from further yatzys: Yahtzee's 100s, or the ``extra_yatzy_bonus`` option."""
        return self._extra_bonus

    @property
    def total(self) -> int:
        """All filled boxes plus both bonuses."""
        filled = sum(points for points in self._card if points is not None)
        return filled + self.bonus + self._extra_bonus

    @property
    def is_over(self) -> bool:
        """Whether every box is filled."""
        return self._turn == len(self._card)

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The action log, JSON-able: what :meth:`replay` needs besides ruleset and seed.

        >>> game = Game(get_ruleset("yatzy"), bytes(32))
        >>> _ = game.roll(); _ = game.roll(hold=[4, 0]); _ = game.score("chance")
        >>> game.actions  # doctest: +NORMALIZE_WHITESPACE
        [{'type': 'roll', 'hold': []}, {'type': 'roll', 'hold': [0, 4]},
         {'type': 'score', 'category': 'chance'}]
        """
        return [action.to_json() for action in self._actions]

    # -- rebuilding ------------------------------------------------------------------------

    @classmethod
    def replay(cls, ruleset: Ruleset, seed: bytes, actions: Iterable[Mapping[str, Any]]) -> Self:
        """Rebuild a game by playing its action log again; illegal actions raise.

        >>> game = Game(get_ruleset("maxi"), bytes(32))
        >>> _ = game.roll(); _ = game.score("chance")
        >>> Game.replay(game.ruleset, game.seed, game.actions).snapshot() == game.snapshot()
        True
        """
        game = cls(ruleset, seed)
        for action in actions:
            parsed = _parse_action(action)
            if isinstance(parsed, _Roll):
                game.roll(parsed.hold)
            else:
                game.score(parsed.category)
        return game

    def snapshot(self) -> dict[str, Any]:
        """The whole game as JSON-able data; :meth:`from_snapshot` restores it.

        It holds the seed in hex: keep it server-side while the seed is secret.

        >>> snapshot = Game(get_ruleset("yahtzee"), bytes(32)).snapshot()
        >>> snapshot["ruleset"]["name"], snapshot["turn"], snapshot["dice"], snapshot["total"]
        ('yahtzee', 0, [], 0)
        """
        return {"actions": self.actions, **self._state()}

    def _state(self) -> dict[str, Any]:
        """The snapshot without its action log: what the log and the scorecard decide."""
        return {
            "version": SNAPSHOT_VERSION,
            "ruleset": {"name": self._ruleset.name, "options": self._ruleset.options},
            "seed": self._seed.hex(),
            "turn": self._turn,
            "rolls_used": self._rolls_used,
            "dice": list(self._dice),
            "saved_rolls": self._saved_rolls,
            "scorecard": self.scorecard,
            "extra_bonus": self._extra_bonus,
            "upper_total": self.upper_total,
            "bonus": self.bonus,
            "total": self.total,
            "is_over": self.is_over,
        }

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any]) -> Self:
        """Restore a game from :meth:`snapshot` data, checking it without a full replay.

        The scorecard and extra bonus are taken as stored; everything else is rebuilt
        from the action log (only the current turn's rolls are drawn again), and the
        result must reproduce the snapshot exactly, else
        :class:`~yatzy.errors.InvalidSnapshotError`.

        >>> game = Game(get_ruleset("maxi"), bytes(32))
        >>> _ = game.roll()
        >>> Game.from_snapshot(game.snapshot()).dice == game.dice
        True
        """
        try:
            return cls._restore(snapshot)
        except InvalidSnapshotError:
            raise
        except YatzyError as error:
            raise InvalidSnapshotError(f"invalid snapshot: {error.message}") from error

    @classmethod
    def _restore(cls, data: Mapping[str, Any]) -> Self:
        if not isinstance(data, Mapping) or data.keys() != _SNAPSHOT_KEYS:
            raise InvalidSnapshotError(
                f"a snapshot is a mapping with the keys {', '.join(sorted(_SNAPSHOT_KEYS))}"
            )
        if type(data["version"]) is not int or data["version"] != SNAPSHOT_VERSION:
            raise InvalidSnapshotError(f"unknown snapshot version {reprlib.repr(data['version'])}")
        game = cls(_ruleset_of(data["ruleset"]), _seed_of(data["seed"]))
        rules = game._ruleset
        if not isinstance(data["actions"], list):
            raise InvalidSnapshotError("actions must be a list")
        actions = [_parse_action(action) for action in data["actions"]]
        current_turn_start = len(actions)
        while current_turn_start and type(actions[current_turn_start - 1]) is _Roll:
            current_turn_start -= 1

        scored = [action.category for action in actions if type(action) is _Score]
        game._card = _card_of(rules, data["scorecard"])
        filled = [
            category
            for category, points in zip(rules.categories, game._card, strict=True)
            if points is not None
        ]
        if sorted(scored) != sorted(filled):
            raise InvalidSnapshotError("the filled boxes differ from the scored actions")
        if rules.forced_order and scored != filled:
            raise InvalidSnapshotError("with forced_order boxes are filled in printed order")
        game._turn = len(scored)
        game._saved_rolls = _bank_after(rules, actions[:current_turn_start])
        game._extra_bonus = data["extra_bonus"]
        # Further yatzys are worth a fixed amount each, at most one per scored turn.
        per_yatzy = rules._extra_yatzy_points()
        if type(game._extra_bonus) is not int or game._extra_bonus not in range(
            0, per_yatzy * game._turn + 1, per_yatzy or 1
        ):
            raise InvalidSnapshotError(f"impossible extra_bonus {reprlib.repr(game._extra_bonus)}")
        game._actions = actions[:current_turn_start]
        for action in actions[current_turn_start:]:
            assert isinstance(action, _Roll)
            game.roll(action.hold)

        # The whole turns' actions are the stored ones, checked by _bank_after; the
        # current turn's rolls were made again, and their holds must be stored as the
        # game logs them (sorted). The rest must be what the log and scorecard give.
        restored = game._state()
        # Equality alone would let 1.0 or True stand for 1, and 0 for False.
        mismatched = sorted(
            key
            for key, value in restored.items()
            if value != data[key] or (key in _SCALARS and type(value) is not type(data[key]))
        )
        if game._actions != actions:
            mismatched.append("actions")
        if mismatched:
            raise InvalidSnapshotError(
                f"snapshot fields disagree with its actions: {', '.join(mismatched)}"
            )
        return game


def _ruleset_of(data: object) -> Ruleset:
    if (
        not isinstance(data, Mapping)
        or data.keys() != {"name", "options"}
        or not isinstance(data["options"], Mapping)
        or not all(isinstance(option, str) for option in data["options"])
    ):
        raise InvalidSnapshotError('ruleset must be {"name": name, "options": {option: value}}')
    return get_ruleset(data["name"], **data["options"])


def _seed_of(data: object) -> bytes:
    try:
        if isinstance(data, str) and len(data) == 2 * SEED_SIZE:
            return bytes.fromhex(data)
    except ValueError:
        pass
    raise InvalidSnapshotError(f"seed must be {SEED_SIZE} bytes in hex")


def _card_of(rules: Ruleset, data: object) -> list[int | None]:
    # Key order is not kept by every store (PostgreSQL jsonb sorts keys).
    if not isinstance(data, Mapping) or data.keys() != set(rules.categories):
        raise InvalidSnapshotError(f"scorecard must have exactly the boxes of {rules.name}")
    card = [data[category] for category in rules.categories]
    for category, points, most in zip(rules.categories, card, rules._box_maxima, strict=True):
        if points is not None and not (type(points) is int and 0 <= points <= most):
            raise InvalidSnapshotError(f"impossible points {reprlib.repr(points)} in {category}")
    return card


def _bank_after(rules: Ruleset, completed_turns: Sequence[_Action]) -> int:
    """Saved rolls in the bank after these whole turns; checks each turn's rolls and holds."""
    bank = 0
    rolls_in_turn = 0
    for action in completed_turns:
        if type(action) is _Roll:
            _checked_hold(action.hold, rules.dice_count, first_roll=rolls_in_turn == 0)
            if rolls_in_turn >= ROLLS_PER_TURN:
                bank -= 1
            rolls_in_turn += 1
            if bank < 0:
                raise InvalidSnapshotError("a turn rolls more often than its rolls allow")
        elif rolls_in_turn == 0:
            raise InvalidSnapshotError("a box is scored before any roll of its turn")
        else:
            if rules.saved_rolls:
                bank += max(0, ROLLS_PER_TURN - rolls_in_turn)
            rolls_in_turn = 0
    return bank
