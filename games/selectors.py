"""Round reads: the one place that turns a stored round into its API view."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import yatzy
from accounts.models import User
from config.api_errors import NotFoundError
from daily import clock
from games.models import Round


def round_game(rnd: Round) -> yatzy.Game:
    """The engine game of a stored round."""
    return yatzy.Game.from_snapshot(rnd.snapshot)


def round_get_for_player(*, round_id: UUID, player: User) -> Round:
    """The player's round; another player's round is indistinguishable from none (404)."""
    # The action log is also in the snapshot, so the hot path does not load it.
    rounds = Round.objects.select_related("challenge").defer("actions")
    try:
        return rounds.get(pk=round_id, player=player)
    except Round.DoesNotExist:
        raise NotFoundError("No such round.", code="round_not_found") from None


def round_seed_revealed(rnd: Round) -> bool:
    """A daily round's seed is public once its day is revealed; until then nobody sees it."""
    return rnd.challenge is not None and clock.is_revealed(rnd.challenge.date)


def round_payload(rnd: Round, game: yatzy.Game | None = None) -> dict[str, Any]:
    """Everything a player may see of a round. Dice appear only once rolled."""
    game = game or round_game(rnd)
    day = rnd.challenge.date if rnd.challenge else None
    return {
        "id": str(rnd.id),
        "mode": rnd.mode,
        "date": day.isoformat() if day else None,
        "ruleset": rnd.ruleset,
        "rules": rnd.options,
        "ranked": rnd.ranked,
        "status": rnd.status,
        "theme": clock.theme(day) if day else "classic",
        "turn": game.turn,
        "turns": len(game.ruleset.categories),
        "roll": game.rolls_used,
        "rolls_left": game.rolls_left,
        "dice": list(game.dice),
        "scorecard": dict(game.scorecard),
        "options": game.options() if rnd.status == Round.Status.IN_PROGRESS else {},
        "upper_total": game.upper_total,
        "bonus": game.bonus,
        "extra_bonus": game.extra_bonus,
        "total": game.total,
        "actions": game.actions,
        "commitment": yatzy.commitment(bytes(rnd.seed)),
        "seed": bytes(rnd.seed).hex() if round_seed_revealed(rnd) else None,
        "started_at": rnd.started_at,
        "completed_at": rnd.completed_at,
    }
