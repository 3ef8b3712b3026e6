"""Round writes: create a round, and roll or score on it, one action at a time.

Every action runs in a transaction holding the round's row lock (``select_for_update``;
on SQLite the IMMEDIATE transaction serialises writers) and checks the client's
``turn``/``roll`` against the stored state first, so a retried or duplicated request is
answered 409 with the current state instead of being applied twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils import timezone

import yatzy
from accounts.models import User
from config.api_errors import ConflictError, ServiceError
from config.celery import enqueue_on_commit
from daily import clock
from daily.models import Challenge
from games import selectors
from games.models import Round
from leaderboards.tasks import board_record_round


def round_create(
    *, player: User, challenge: Challenge | None, ranked: bool, ruleset: yatzy.Ruleset, seed: bytes
) -> Round:
    """Store a new round at its first turn, before any die is rolled."""
    game = yatzy.Game(ruleset, seed)
    return Round.objects.create(
        player=player,
        challenge=challenge,
        ranked=ranked,
        ruleset=ruleset.name,
        options=ruleset.options,
        seed=seed,
        actions=game.actions,
        snapshot=game.snapshot(),
    )


def _expired(rnd: Round) -> bool:
    """A ranked daily round can no longer be played once its day's grace period is over."""
    return (
        rnd.ranked
        and rnd.status == Round.Status.IN_PROGRESS
        and rnd.challenge is not None
        and clock.is_revealed(rnd.challenge.date)
    )


def _round_act(
    *, round_id: UUID, player: User, expect: dict[str, int], act: Callable[[yatzy.Game], Any]
) -> Round:
    with transaction.atomic():
        rnd = selectors.round_get_for_player(round_id=round_id, player=player, for_update=True)
        if _expired(rnd):
            rnd.status = Round.Status.EXPIRED
            rnd.save(update_fields=["status", "updated_at"])
        else:
            game = selectors.round_game(rnd)
            seen = {"turn": game.turn, "roll": game.rolls_used}
            if rnd.status == Round.Status.EXPIRED:
                raise ServiceError("This round has expired.", code="round_expired")
            # Checked before the engine sees the action: a retry of an action that was
            # applied (even the one that finished the round) is a 409 with the state.
            if any(seen[key] != value for key, value in expect.items()):
                raise ConflictError(
                    "The round has moved on since you last saw it; here is its current state.",
                    extra=selectors.round_payload(rnd, game),
                )
            act(game)
            rnd.actions = game.actions
            rnd.snapshot = game.snapshot()
            if game.is_over:
                rnd.status = Round.Status.COMPLETED
                rnd.total = game.total
                rnd.completed_at = timezone.now()
            rnd.save()
            if game.is_over and rnd.ranked:
                enqueue_on_commit(board_record_round, str(rnd.id))
            return rnd
    raise ServiceError(
        "The day of this ranked round has ended and its grace period is over.",
        code="round_expired",
    )


def round_roll(*, round_id: UUID, player: User, hold: Sequence[int], turn: int, roll: int) -> Round:
    """Roll the dice not held. ``turn``/``roll`` are what the client last saw."""
    return _round_act(
        round_id=round_id,
        player=player,
        expect={"turn": turn, "roll": roll},
        act=lambda game: game.roll(hold=tuple(hold)),
    )


def round_score(*, round_id: UUID, player: User, category: str, turn: int) -> Round:
    """Fill one open box with the current dice. ``turn`` is what the client last saw."""
    return _round_act(
        round_id=round_id,
        player=player,
        expect={"turn": turn},
        act=lambda game: game.score(category),
    )


def rounds_expire_unfinished_ranked(*, challenge: Challenge) -> int:
    """Expire the ranked rounds of a closed day that were never finished. Idempotent."""
    return Round.objects.filter(
        challenge=challenge, ranked=True, status=Round.Status.IN_PROGRESS
    ).update(status=Round.Status.EXPIRED, updated_at=timezone.now())
