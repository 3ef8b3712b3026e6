"""Daily challenge reads."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext_lazy as _

from config.api_errors import NotFoundError
from daily import clock
from daily.models import Challenge


def challenge_visible(*, day: dt.date) -> Challenge | None:
    """The challenge of ``day`` if a player may see it, without creating anything:
    ``None`` for today before its row exists; 404 ``no_challenge`` for a future date
    (even when its row exists) or a past date without a row."""
    today = clock.today()
    challenge = Challenge.objects.filter(date=day).first() if day <= today else None
    if challenge is None and day != today:
        raise NotFoundError(
            _("There is no daily challenge for %(date)s."),
            code="no_challenge",
            params={"date": day.isoformat()},
        )
    return challenge


def challenge_seed_shown(challenge: Challenge) -> str | None:
    """The day's seed in hex once it is revealed; ``None`` before (everywhere: the API,
    the rounds of the day, the admin)."""
    return bytes(challenge.seed).hex() if clock.is_revealed(challenge.date) else None
