"""Round writes: create a round, and roll or score on it, one action at a time.

Each action is an optimistic, versioned write: read the round, check the client's
``turn``/``roll`` against it, let the engine apply the action, then store the new state
with ``UPDATE … WHERE version = <the version read>``. Of two concurrent requests only
one can store; the other (like any retried or duplicated request) is answered 409 with
the current state, so no action is ever applied twice and no request waits on a lock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import Any
from uuid import UUID

from django.db import transaction
from django.db.models import F
from django.utils import timezone

import yatzy
from accounts.models import User
from config.api_errors import ConflictError, ServiceError
from config.celery import enqueue_on_commit
from daily import clock
from daily.models import Challenge
from games import selectors
from games.models import Round
from leaderboards.services import board_player_refresh, board_update_pending
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
) -> tuple[Round, yatzy.Game]:
    rnd = selectors.round_get_for_player(round_id=round_id, player=player)
    if _expired(rnd):
        Round.objects.filter(pk=rnd.pk, status=Round.Status.IN_PROGRESS).update(
            status=Round.Status.EXPIRED, updated_at=timezone.now(), version=F("version") + 1
        )
        rnd.status = Round.Status.EXPIRED
    if rnd.status == Round.Status.EXPIRED:
        raise ServiceError(
            "The day of this ranked round has ended and its grace period is over.",
            code="round_expired",
        )
    game = selectors.round_game(rnd)
    # Checked before the engine sees the action: a retry of an action that was applied
    # (even the one that finished the round) is a 409 with the current state.
    seen = {"turn": game.turn, "roll": game.rolls_used}
    if any(seen[key] != value for key, value in expect.items()):
        raise _stale(rnd, game)
    act(game)
    now = timezone.now()
    if game.is_over:
        rnd.status, rnd.total, rnd.completed_at = Round.Status.COMPLETED, game.total, now
    owes_boards = game.is_over and rnd.ranked
    # Completing a ranked round also records the board update it owes, atomically, so
    # that a job lost by the broker is still run (leaderboards.services.boards_catch_up).
    with transaction.atomic() if owes_boards else nullcontext():
        stored = Round.objects.filter(pk=rnd.pk, version=rnd.version).update(
            actions=game.actions,
            snapshot=game.snapshot(),
            status=rnd.status,
            total=rnd.total,
            completed_at=rnd.completed_at,
            updated_at=now,
            version=rnd.version + 1,
        )
        if stored and owes_boards:
            board_update_pending(round_id=rnd.pk)
            enqueue_on_commit(board_record_round, str(rnd.id))
    if not stored:
        # Another request on this round stored its action between our read and write.
        current = selectors.round_get_for_player(round_id=round_id, player=player)
        raise _stale(current, selectors.round_game(current))
    rnd.version += 1
    rnd.updated_at = now
    return rnd, game


def _stale(rnd: Round, game: yatzy.Game) -> ConflictError:
    return ConflictError(
        "The round has moved on since you last saw it; here is its current state.",
        extra=selectors.round_payload(rnd, game),
    )


def round_roll(
    *, round_id: UUID, player: User, hold: Sequence[int], turn: int, roll: int
) -> tuple[Round, yatzy.Game]:
    """Roll the dice not held. ``turn``/``roll`` are what the client last saw.
    Returns the stored round and its game after the roll."""
    return _round_act(
        round_id=round_id,
        player=player,
        expect={"turn": turn, "roll": roll},
        act=lambda game: game.roll(hold=tuple(hold)),
    )


def round_score(
    *, round_id: UUID, player: User, category: str, turn: int
) -> tuple[Round, yatzy.Game]:
    """Fill one open box with the current dice. ``turn`` is what the client last saw.
    Returns the stored round and its game after the score."""
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
    ).update(status=Round.Status.EXPIRED, updated_at=timezone.now(), version=F("version") + 1)


def round_delete(*, rnd: Round) -> None:
    """Delete a round (an operator removing a bad record). A ranked daily round's player
    gets their board lines recomputed from the rounds that remain, in the same
    transaction, so no board shows a round that no longer exists."""
    with transaction.atomic():
        rnd.delete()
        if rnd.ranked and rnd.challenge is not None:
            board_player_refresh(player_id=rnd.player_id, day=rnd.challenge.date)
