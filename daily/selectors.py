"""Daily challenge reads."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from daily import clock
from daily.models import Challenge
from games.models import Round


def challenge_my_round(*, challenge: Challenge, player: User) -> Round | None:
    """The round to show the player on a day: their unfinished one, else their ranked one,
    else their latest practice round."""
    rounds = Round.objects.filter(challenge=challenge, player=player)
    return (
        rounds.filter(status=Round.Status.IN_PROGRESS).first()
        or rounds.filter(ranked=True).first()
        or rounds.first()
    )


def challenge_payload(*, challenge: Challenge, player: User) -> dict[str, Any]:
    mine = challenge_my_round(challenge=challenge, player=player)
    return {
        "date": challenge.date.isoformat(),
        "ruleset": challenge.ruleset,
        "rules": challenge.options,
        "commitment": challenge.commitment,
        "seed": bytes(challenge.seed).hex() if challenge.is_revealed else None,
        "opens_at": clock.opens_at(challenge.date),
        "closes_at": clock.closes_at(challenge.date),
        "reveal_at": clock.reveal_at(challenge.date),
        "time_zone": clock.daily_zone().key,
        "theme": challenge.theme,
        "my_round": None
        if mine is None
        else {
            "id": str(mine.id),
            "status": mine.status,
            "ranked": mine.ranked,
            "total": mine.total,
        },
    }
