"""A round's payload as the API words it, built from an engine game, for the client's
tests that need a state without a server."""

from typing import Any

import yatzy


def round_state(game: yatzy.Game, ruleset: str, seed: bytes) -> dict[str, Any]:
    """``game``'s round as ``rounds/r1/`` answers it (the seed once it is over)."""
    return {
        "id": "r1",
        "mode": "solo",
        "ruleset": ruleset,
        "rules": game.ruleset.options,
        "status": "completed" if game.is_over else "in_progress",
        "turn": game.turn,
        "turns": len(game.ruleset.categories),
        "roll": game.rolls_used,
        "rolls_left": game.rolls_left,
        "dice": list(game.dice),
        "scorecard": game.scorecard,
        "options": game.options(),
        "upper_total": game.upper_total,
        "bonus": game.bonus,
        "extra_bonus": game.extra_bonus,
        "total": game.total,
        "actions": game.actions,
        "commitment": yatzy.commitment(seed),
        "seed": seed.hex() if game.is_over else None,
    }


def mid_game(ruleset: str, seed: bytes = bytes(range(32))) -> dict[str, Any]:
    """A round at turn 6, rolled once, its first five boxes filled."""
    rs = yatzy.get_ruleset(ruleset)
    game = yatzy.Game(rs, seed)
    for box in rs.categories[:5]:
        game.roll()
        game.score(box)
    game.roll()
    return round_state(game, ruleset, seed)
