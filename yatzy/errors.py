"""Typed errors of the engine.

Every error is a :class:`YatzyError`, hence a :class:`ValueError`, and carries a
stable machine-readable ``code`` (a class attribute), the English ``message`` and the
``params`` the message was built from, so a service can pass the code on unchanged and
word the message in the reader's language from the code and the params (the engine
knows no languages). Illegal moves are :class:`GameError`; a bad ruleset name or option
is a :class:`RulesetError`.

>>> from yatzy import YatzyError, get_ruleset
>>> try:
...     get_ruleset("maxi", bonus=3)
... except YatzyError as error:
...     print(error.code, "|", error.message)  # doctest: +NORMALIZE_WHITESPACE
...     print(error.params)  # doctest: +NORMALIZE_WHITESPACE
unknown_option | unknown option 'bonus' (maxi accepts: forced_order, saved_rolls,
                 upper_bonus, extra_yatzy_bonus, full_straight_points)
{'option': 'bonus', 'ruleset': 'maxi', 'accepted': ['forced_order', 'saved_rolls',
 'upper_bonus', 'extra_yatzy_bonus', 'full_straight_points']}
"""

from typing import Any, ClassVar


class YatzyError(ValueError):
    """Base of every engine error: a stable ``code``, a readable English ``message``
    and its arguments ``params`` (JSON-able values: names, numbers, lists of them).

    Where one code has several messages, ``params["reason"]`` names which one, also
    stably, so a translation can be chosen by ``code`` and ``reason``.

    >>> error = YatzyError("turn 3 is over", turn=3)
    >>> error.code, error.message, str(error), error.params
    ('yatzy_error', 'turn 3 is over', 'turn 3 is over', {'turn': 3})
    """

    code: ClassVar[str] = "yatzy_error"

    def __init__(self, message: str, /, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params: dict[str, Any] = params


class RulesetError(YatzyError):
    """A ruleset name or one of its options cannot be used."""

    code = "ruleset_error"


class UnknownRulesetError(RulesetError):
    """No ruleset has this name."""

    code = "unknown_ruleset"


class UnknownOptionError(RulesetError):
    """No ruleset has an option of this name."""

    code = "unknown_option"


class InvalidOptionError(RulesetError):
    """An option has a value of the wrong type or out of its range."""

    code = "invalid_option"


class OptionNotApplicableError(InvalidOptionError):
    """The option exists, but not for this ruleset (e.g. ``full_straight_points`` on yatzy)."""

    code = "option_not_applicable"


class InvalidDiceError(YatzyError):
    """Dice to score are not ``dice_count`` ints from 1 to 6."""

    code = "invalid_dice"


class InvalidSeedError(YatzyError):
    """A game seed is not 32 bytes."""

    code = "invalid_seed"


class InvalidSnapshotError(YatzyError):
    """A snapshot is malformed or contradicts itself."""

    code = "invalid_snapshot"


class GameError(YatzyError):
    """An illegal action; the game is left exactly as it was."""

    code = "illegal_action"


class InvalidActionError(GameError):
    """An action-log entry is not a well-formed roll or score action."""

    code = "invalid_action"


class GameOverError(GameError):
    """Every box is filled; no more actions are possible."""

    code = "game_over"


class NoRollYetError(GameError):
    """Scoring before the first roll of a turn."""

    code = "no_roll_yet"


class NoRollsLeftError(GameError):
    """Rolling when the turn (and the bank of saved rolls) has no roll left."""

    code = "no_rolls_left"


class InvalidHoldError(GameError):
    """``hold`` is not a set of distinct die positions, or is not empty on a first roll."""

    code = "invalid_hold"


class UnknownCategoryError(GameError):
    """The box id is not a box of this ruleset."""

    code = "unknown_category"


class CategoryUsedError(GameError):
    """The box is already filled."""

    code = "category_used"


class OutOfOrderError(GameError):
    """With ``forced_order``, only the next open box in printed order may be filled."""

    code = "out_of_order"


class JokerRuleError(GameError):
    """Yahtzee's forced joker rule sends an extra Yahtzee to other boxes."""

    code = "joker_rule"
