"""Real daily rounds for the skill-and-luck tests: played on the day's own dice (the
seed's), through the services the API calls, each decision taken by a chosen player:
the exact table's best move, a bot level, or the worst box."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import time_machine

import yatzy
from accounts.models import User
from games import services as game_services
from games.models import Round
from yatzy.strategy import Move, Table, best_move, bot_move

UTC = dt.UTC
Policy = Callable[[yatzy.Game], Move]


def noon(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(12), tzinfo=UTC)


def after_reveal(day: dt.date) -> dt.datetime:
    """A minute after the grace period of ``day`` (30 minutes, UTC) has ended."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0, 31), tzinfo=UTC)


def travel(moment: dt.datetime) -> time_machine.travel:
    return time_machine.travel(moment, tick=False)


def expert(table: Table) -> Policy:
    """Every decision the exact table's best move: what a cheat with the table plays."""
    return lambda game: best_move(game, table=table).best


def bot(level: str) -> Policy:
    return lambda game: bot_move(game, level)  # type: ignore[arg-type]


def worst(game: yatzy.Game) -> Move:
    """One roll a turn, then the open box with the fewest points."""
    if game.rolls_used == 0:
        return Move(0.0)
    options = game.options()
    category = min(options, key=lambda box: (options[box], box))
    return Move(0.0, category=category, points=options[category])


def play_ranked(
    player: User, day: dt.date, policy: Policy, *, at: dt.datetime | None = None
) -> Round:
    """``player``'s ranked round of ``day``, played at noon to its end by ``policy``."""
    with travel(at or noon(day)):
        rnd, created = game_services.round_start_daily(player=player, day=day)
        assert created and rnd.ranked
        game = yatzy.Game.from_snapshot(rnd.snapshot)
        while not game.is_over:
            move = policy(game)
            if move.category is not None:
                rnd, game = game_services.round_score(
                    round_id=rnd.id, player=player, category=move.category, turn=game.turn
                )
            else:
                rnd, game = game_services.round_roll(
                    round_id=rnd.id,
                    player=player,
                    hold=move.hold,
                    turn=game.turn,
                    roll=game.rolls_used,
                )
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    return rnd
