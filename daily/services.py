"""Daily challenge writes: creating days, starting a player's round, closing a day."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

import yatzy
from accounts.models import User
from config.api_errors import NotFoundError
from daily import clock
from daily.models import Challenge
from games import services as game_services
from games.models import Round
from leaderboards import services as board_services

logger = logging.getLogger(__name__)

# The daily is always Maxi Yatzy with the seed's app settings, which are the engine's
# maxi defaults: bonus 100 at 84, maxi_yatzy 100, full_straight 21, 3 rolls, no saved
# rolls, no extra-yatzy bonus.
DAILY_RULESET = "maxi"


def challenge_get_or_create(*, day: dt.date) -> Challenge:
    """The challenge of ``day``, created if missing. Safe under concurrent callers: the
    date is unique and the seed deterministic, so a losing racer reads the winner's row."""
    ruleset = yatzy.get_ruleset(DAILY_RULESET)
    seed = yatzy.daily_seed(settings.DAILY_SEED_SECRET, day)
    challenge, _ = Challenge.objects.get_or_create(
        date=day,
        defaults={
            "ruleset": ruleset.name,
            "options": ruleset.options,
            "seed": seed,
            "commitment": yatzy.commitment(seed),
        },
    )
    return challenge


def challenges_ensure_upcoming() -> list[Challenge]:
    """Create today's challenge and the next ``DAILY_CREATE_AHEAD_DAYS`` before they start."""
    first = clock.today()
    return [
        challenge_get_or_create(day=first + dt.timedelta(days=offset))
        for offset in range(settings.DAILY_CREATE_AHEAD_DAYS + 1)
    ]


def challenge_for_play(*, day: dt.date) -> Challenge:
    """A challenge the caller may see: today's (created on demand) or an existing past one.

    Future dates are 404 even when their row already exists.
    """
    today = clock.today()
    if day == today:
        return challenge_get_or_create(day=day)
    challenge = Challenge.objects.filter(date=day).first() if day < today else None
    if challenge is None:
        raise NotFoundError(
            f"There is no daily challenge for {day.isoformat()}.", code="no_challenge"
        )
    return challenge


def daily_round_start(*, player: User, day: dt.date) -> tuple[Round, bool]:
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
        try:
            with transaction.atomic():
                rnd = game_services.round_create(
                    player=player,
                    challenge=challenge,
                    ranked=ranked,
                    ruleset=yatzy.get_ruleset(challenge.ruleset, **challenge.options),
                    seed=bytes(challenge.seed),
                )
            return rnd, True
        except IntegrityError:
            # A concurrent start won the unique constraint; read what it created.
            continue
    raise IntegrityError("could not start a round after concurrent retries")


def day_close(*, day: dt.date) -> bool:
    """Close a day whose grace period is over: expire its unfinished ranked rounds and
    settle its boards. Idempotent; returns True only for the call that closed it."""
    if not clock.is_revealed(day):
        return False
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().filter(date=day).first()
        if challenge is None or challenge.closed_at is not None:
            return False
        expired = game_services.rounds_expire_unfinished_ranked(challenge=challenge)
        board_services.board_day_freeze(day=day)
        challenge.closed_at = timezone.now()
        challenge.save(update_fields=["closed_at"])
    logger.info("closed daily %s (%d unfinished ranked rounds expired)", day, expired)
    return True


def days_close_due() -> list[dt.date]:
    """Close every day whose grace period has ended and that is not closed yet."""
    pending = Challenge.objects.filter(closed_at__isnull=True, date__lt=clock.today())
    return [c.date for c in pending.only("date") if day_close(day=c.date)]
