"""Maxi Yatzy, Yatzy and Yahtzee rules engine: pure, deterministic, no I/O.

>>> import datetime, yatzy
>>> rs = yatzy.get_ruleset("maxi")
>>> rs.score("villa", [3, 3, 3, 5, 5, 5])
24
>>> game = yatzy.Game(rs, yatzy.daily_seed("secret", datetime.date(2026, 12, 1)))
>>> len(game.roll()), game.rolls_left
(6, 2)
"""

from yatzy.dice import commitment, daily_seed
from yatzy.errors import (
    CategoryUsedError,
    GameError,
    GameOverError,
    InvalidActionError,
    InvalidDiceError,
    InvalidHoldError,
    InvalidOptionError,
    InvalidSeedError,
    InvalidSnapshotError,
    JokerRuleError,
    NoRollsLeftError,
    NoRollYetError,
    OptionNotApplicableError,
    OutOfOrderError,
    RulesetError,
    UnknownCategoryError,
    UnknownOptionError,
    UnknownRulesetError,
    YatzyError,
)
from yatzy.game import Game
from yatzy.rules import (
    RULESETS,
    Category,
    OptionSpec,
    Ruleset,
    RulesetName,
    get_ruleset,
    option_specs,
)

__all__ = [
    "RULESETS",
    "Category",
    "CategoryUsedError",
    "Game",
    "GameError",
    "GameOverError",
    "InvalidActionError",
    "InvalidDiceError",
    "InvalidHoldError",
    "InvalidOptionError",
    "InvalidSeedError",
    "InvalidSnapshotError",
    "JokerRuleError",
    "NoRollYetError",
    "NoRollsLeftError",
    "OptionNotApplicableError",
    "OptionSpec",
    "OutOfOrderError",
    "Ruleset",
    "RulesetError",
    "RulesetName",
    "UnknownCategoryError",
    "UnknownOptionError",
    "UnknownRulesetError",
    "YatzyError",
    "commitment",
    "daily_seed",
    "get_ruleset",
    "option_specs",
]
