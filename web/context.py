"""What every page's layout needs: the player's time zone, today's date for the
navigation, the languages of the switcher, the log-in and register links that come
back to the page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

import yatzy
from daily import clock
from web.helpers import account_links


def site(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    today = clock.today()
    return {
        "player_zone": user.time_zone
        if user is not None and user.is_authenticated
        else settings.DAILY_TIME_ZONE,
        "nav_today": today,
        "nav_advent_year": yatzy.advent_latest_year(today),
        "languages": settings.LANGUAGES,
        **account_links(request),
    }
