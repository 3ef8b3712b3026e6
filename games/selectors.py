"""Round reads: the one place that turns a stored round into what a player may see."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import yatzy
from accounts.models import User
from config.api_errors import NotFoundError
from daily import clock
from daily.models import Challenge
from daily.selectors import challenge_seed_shown
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


def round_status(rnd: Round) -> str:
    """The status every read shows: a ranked round still unfinished at its day's reveal
    is ``expired`` from that moment, before any job or action has stored it so."""
    if (
        rnd.status == Round.Status.IN_PROGRESS
        and rnd.ranked
        and rnd.challenge is not None
        and clock.is_revealed(rnd.challenge.date)
    ):
        return Round.Status.EXPIRED
    return rnd.status


def round_seed_shown(rnd: Round) -> str | None:
    """The round's seed in hex once a player may see it: a daily round's with its day's."""
    return challenge_seed_shown(rnd.challenge) if rnd.challenge is not None else None


def round_payload(rnd: Round, game: yatzy.Game | None = None) -> dict[str, Any]:
    """Everything a player may see of a round. Dice appear only once rolled."""
    game = game or round_game(rnd)
    day = rnd.challenge.date if rnd.challenge else None
    status = round_status(rnd)
    return {
        "id": str(rnd.id),
        "mode": rnd.mode,
        "date": day.isoformat() if day else None,
        "ruleset": rnd.ruleset,
        "rules": rnd.options,
        "ranked": rnd.ranked,
        "status": status,
        "theme": clock.theme(day) if day else "classic",
        "turn": game.turn,
        "turns": len(game.ruleset.categories),
        "roll": game.rolls_used,
        "rolls_left": game.rolls_left if status == Round.Status.IN_PROGRESS else 0,
        "dice": list(game.dice),
        "scorecard": dict(game.scorecard),
        "options": game.options() if status == Round.Status.IN_PROGRESS else {},
        "upper_total": game.upper_total,
        "bonus": game.bonus,
        "extra_bonus": game.extra_bonus,
        "total": game.total,
        "actions": game.actions,
        "commitment": yatzy.commitment(bytes(rnd.seed)),
        "seed": round_seed_shown(rnd),
        "started_at": rnd.started_at,
        "completed_at": rnd.completed_at,
    }


def _round_summary(rnd: Round | None) -> dict[str, Any] | None:
    if rnd is None:
        return None
    return {
        "id": str(rnd.id),
        "status": round_status(rnd),
        "ranked": rnd.ranked,
        "total": rnd.total,
    }


def challenge_payload(*, challenge: Challenge, player: User) -> dict[str, Any]:
    """A day's challenge as the player sees it: ``my_round`` is their ranked round (its
    total is their score of the day), ``practice_round`` their unfinished practice round."""
    rounds = Round.objects.filter(challenge=challenge, player=player).select_related("challenge")
    ranked = rounds.filter(ranked=True).first()
    practice = rounds.filter(ranked=False, status=Round.Status.IN_PROGRESS).first()
    return {
        "date": challenge.date.isoformat(),
        "ruleset": challenge.ruleset,
        "rules": challenge.options,
        "commitment": challenge.commitment,
        "seed": challenge_seed_shown(challenge),
        "opens_at": clock.opens_at(challenge.date),
        "closes_at": clock.closes_at(challenge.date),
        "reveal_at": clock.reveal_at(challenge.date),
        "time_zone": clock.daily_zone().key,
        "theme": challenge.theme,
        "my_round": _round_summary(ranked),
        "practice_round": _round_summary(practice),
    }
