"""Round writes: start a round, roll or score on it one action at a time, close a day.

Each action is an optimistic, versioned write: read the round, check the client's
``turn``/``roll`` against it, let the engine apply the action, then store the new state
with ``UPDATE … WHERE version = <the version read>``. Of two concurrent requests only
one can store; the other (like any retried or duplicated request) is answered 409 with
the current state, so no action is ever applied twice and no request waits on a lock.

What the boards must do when a ranked round completes, is deleted, or its day closes is
announced through :mod:`games.hooks` inside the same transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
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
from daily import clock
from daily.models import Challenge
from daily.services import challenge_for_play
from games import hooks, selectors
from games.models import Round

logger = logging.getLogger(__name__)


def round_create(
    *, player: User, challenge: Challenge | None, ranked: bool, ruleset: yatzy.Ruleset, seed: bytes
) -> Round | None:
    """Store a new round at its first turn, before any die is rolled.

    Returns ``None`` when a unique constraint refused it (a concurrent start won): the
    insert is ``INSERT … ON CONFLICT DO NOTHING``, so losing that race is no database
    error and the server never logs the refused statement, seed included.
    """
    game = yatzy.Game(ruleset, seed)
    rnd = Round(
        player=player,
        challenge=challenge,
        ranked=ranked,
        ruleset=ruleset.name,
        options=ruleset.options,
        seed=seed,
        actions=game.actions,
        snapshot=game.snapshot(),
    )
    Round.objects.bulk_create([rnd], ignore_conflicts=True)
    return Round.objects.filter(pk=rnd.pk).first()


def round_start_daily(*, player: User, day: dt.date) -> tuple[Round, bool]:
    """Start the player's round on ``day``'s challenge, or return their unfinished one.

    The first round a player starts on the challenge's own day is ranked; any later
    round, and any round on a past day, is practice. Returns ``(round, created)``.
    """
    challenge = challenge_for_play(day=day)
    for _attempt in range(3):
        unfinished = Round.objects.filter(
            player=player, challenge=challenge, status=Round.Status.IN_PROGRESS
        ).first()
        if unfinished is not None:
            return unfinished, False
        ranked = (
            day == clock.today()
            and not Round.objects.filter(player=player, challenge=challenge, ranked=True).exists()
        )
        rnd = round_create(
            player=player,
            challenge=challenge,
            ranked=ranked,
            ruleset=yatzy.get_ruleset(challenge.ruleset, **challenge.options),
            seed=bytes(challenge.seed),
        )
        if rnd is not None:
            return rnd, True
        # A concurrent start won a unique constraint; read what it created.
    raise ConflictError(
        "Another start of this round is under way; try again.", code="start_conflict"
    )


def _round_act(
    *, round_id: UUID, player: User, expect: dict[str, int], act: Callable[[yatzy.Game], Any]
) -> tuple[Round, yatzy.Game]:
    rnd = selectors.round_get_for_player(round_id=round_id, player=player)
    if selectors.round_status(rnd) == Round.Status.EXPIRED:
        if rnd.status != Round.Status.EXPIRED:
            Round.objects.filter(pk=rnd.pk, status=Round.Status.IN_PROGRESS).update(
                status=Round.Status.EXPIRED, updated_at=timezone.now(), version=F("version") + 1
            )
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
            hooks.ranked_round_completed(round_id=rnd.pk)
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


def round_delete(*, rnd: Round) -> None:
    """Delete a round (an operator removing a bad record). A ranked daily round's boards
    are brought up to date in the same transaction, so no board shows a round that no
    longer exists."""
    with transaction.atomic():
        rnd.delete()
        if rnd.ranked and rnd.challenge is not None:
            hooks.ranked_round_removed(player_id=rnd.player_id, day=rnd.challenge.date)


def day_close(*, day: dt.date) -> bool:
    """Close a day whose grace period is over: expire its unfinished ranked rounds and
    settle its boards. Idempotent; returns True only for the call that closed it."""
    if not clock.is_revealed(day):
        return False
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().filter(date=day).first()
        if challenge is None or challenge.closed_at is not None:
            return False
        expired = Round.objects.filter(
            challenge=challenge, ranked=True, status=Round.Status.IN_PROGRESS
        ).update(status=Round.Status.EXPIRED, updated_at=timezone.now(), version=F("version") + 1)
        hooks.day_closing(day=day)
        challenge.closed_at = timezone.now()
        challenge.save(update_fields=["closed_at"])
    logger.info("closed daily %s (%d unfinished ranked rounds expired)", day, expired)
    return True


def days_close_due() -> list[dt.date]:
    """Close every day whose grace period has ended and that is not closed yet."""
    pending = Challenge.objects.filter(closed_at__isnull=True, date__lt=clock.today())
    return [c.date for c in pending.only("date") if day_close(day=c.date)]
