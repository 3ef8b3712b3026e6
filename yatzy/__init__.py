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
from yatzy.standings import (
    BonusPace,
    Result,
    advent_latest_year,
    bonus_pace,
    bonus_par,
    competition_rank,
    competition_ranker,
    competition_ranks,
    result_of,
)

__all__ = [
    "RULESETS",
    "BonusPace",
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
    "Result",
    "Ruleset",
    "RulesetError",
    "RulesetName",
    "UnknownCategoryError",
    "UnknownOptionError",
    "UnknownRulesetError",
    "YatzyError",
    "advent_latest_year",
    "bonus_pace",
    "bonus_par",
    "commitment",
    "competition_rank",
    "competition_ranker",
    "competition_ranks",
    "daily_seed",
    "get_ruleset",
    "option_specs",
    "result_of",
]
