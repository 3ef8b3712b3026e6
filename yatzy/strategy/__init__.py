"""Optimal play: exact strategy tables, best-move advice, game analysis and bots.

>>> import yatzy
>>> from yatzy.strategy import load_table
>>> round(load_table(yatzy.get_ruleset("yahtzee"), build=True).start_value, 7)
254.5877287
"""

from yatzy.strategy._rules import UnsupportedRules
from yatzy.strategy.advice import Advice, Analysis, Decision, Move, analyse, best_move
from yatzy.strategy.bots import LEVELS, BotTurn, Level, bot_move, bot_play, bot_turn
from yatzy.strategy.tables import (
    Table,
    TableMissing,
    load_table,
    solve,
    table_exists,
    tables_dir,
)

__all__ = [
    "LEVELS",
    "Advice",
    "Analysis",
    "BotTurn",
    "Decision",
    "Level",
    "Move",
    "Table",
    "TableMissing",
    "UnsupportedRules",
    "analyse",
    "best_move",
    "bot_move",
    "bot_play",
    "bot_turn",
    "load_table",
    "solve",
    "table_exists",
    "tables_dir",
]
