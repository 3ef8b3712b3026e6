"""Daily challenge writes: creating the challenge rows of days."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction

import yatzy
from daily import clock, selectors
from daily.models import Challenge

# The daily is always Maxi Yatzy with the seed's app settings, which are the engine's
# maxi defaults: bonus 100 at 84, maxi_yatzy 100, full_straight 21, 3 rolls, no saved
# rolls, no extra-yatzy bonus.
DAILY_RULESET = "maxi"


def challenge_get_or_create(*, day: dt.date) -> Challenge:
    """The challenge of ``day``, created if missing. Safe under concurrent callers: the
    date is unique and the seed deterministic, so a losing racer reads the winner's row.

    The insert is ``INSERT … ON CONFLICT DO NOTHING``: losing the race is not a database
    error, so the server never logs the failed statement with the seed in it.
    """
    existing = Challenge.objects.filter(date=day).first()
    if existing is not None:
        return existing
    ruleset = yatzy.get_ruleset(DAILY_RULESET)
    seed = yatzy.daily_seed(settings.DAILY_SEED_SECRET, day)
    Challenge.objects.bulk_create(
        [
            Challenge(
                date=day,
                ruleset=ruleset.name,
                options=ruleset.options,
                seed=seed,
                commitment=yatzy.commitment(seed),
            )
        ],
        ignore_conflicts=True,
    )
    return Challenge.objects.get(date=day)


def challenges_ensure_upcoming() -> list[Challenge]:
    """Create today's challenge and the next ``DAILY_CREATE_AHEAD_DAYS`` before they start."""
    first = clock.today()
    return [
        challenge_get_or_create(day=first + dt.timedelta(days=offset))
        for offset in range(settings.DAILY_CREATE_AHEAD_DAYS + 1)
    ]


def challenge_for_play(*, day: dt.date) -> Challenge:
    """A challenge the caller may play or look at: today's (created on demand) or an
    existing past one. Future dates are 404 even when their row already exists."""
    challenge = selectors.challenge_visible(day=day)
    return challenge if challenge is not None else challenge_get_or_create(day=day)


def challenges_reseed_future() -> list[Challenge]:
    """After ``DAILY_SEED_SECRET`` was rotated: replace the rows of the days that have not
    started (nobody can have played them), so their seeds and public commitments come
    from the current secret. Today's and past days keep theirs. Returns the new rows."""
    with transaction.atomic():
        Challenge.objects.filter(date__gt=clock.today()).delete()
    first = clock.today() + dt.timedelta(days=1)
    return [
        challenge_get_or_create(day=first + dt.timedelta(days=offset))
        for offset in range(settings.DAILY_CREATE_AHEAD_DAYS)
    ]
