"""The day boundary: the one place that knows what "today" is and when a day ends.

A daily challenge belongs to a calendar date in ``settings.DAILY_TIME_ZONE``. Its day
closes at the next local midnight; rounds started before then may be finished until
``DAILY_GRACE`` later, which is also the moment its seed is revealed.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy


def daily_zone() -> ZoneInfo:
    return ZoneInfo(settings.DAILY_TIME_ZONE)


def today(now: dt.datetime | None = None) -> dt.date:
    """The current challenge date."""
    return (now or timezone.now()).astimezone(daily_zone()).date()


def opens_at(day: dt.date) -> dt.datetime:
    """Local midnight starting ``day``, as an aware datetime."""
    return dt.datetime.combine(day, dt.time.min, tzinfo=daily_zone())


def closes_at(day: dt.date) -> dt.datetime:
    """When ``day`` ends: no new ranked round after this."""
    return opens_at(day + dt.timedelta(days=1))


def reveal_at(day: dt.date) -> dt.datetime:
    """End of the grace period: unfinished ranked rounds expire, the seed is revealed.
    ``DAILY_GRACE`` of real time after the day's end, a clock change inside it or not
    (an aware datetime plus a timedelta moves the wall clock instead)."""
    return (closes_at(day).astimezone(dt.UTC) + settings.DAILY_GRACE).astimezone(daily_zone())


def is_revealed(day: dt.date, now: dt.datetime | None = None) -> bool:
    return (now or timezone.now()) >= reveal_at(day)


def last_revealed_day(now: dt.datetime | None = None) -> dt.date:
    """The latest day whose seed is revealed by ``now`` (the day before yesterday until
    yesterday's grace period ends, yesterday afterwards)."""
    yesterday = today(now) - dt.timedelta(days=1)
    return yesterday if is_revealed(yesterday, now) else yesterday - dt.timedelta(days=1)


def theme(day: dt.date) -> str:
    """The die skin of a day's rounds: Christmas all December."""
    return "christmas" if day.month == 12 else "classic"


THEME_NAMES: dict[str, Promise] = {
    "classic": pgettext_lazy("theme", "Classic"),
    "christmas": pgettext_lazy("theme", "Christmas"),
}


def theme_name(theme_id: str) -> str:
    """A die skin's name in the active language (the id itself for one without a name).

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     theme_name("christmas")
    'Christmas'
    """
    name = THEME_NAMES.get(theme_id)
    return theme_id if name is None else str(name)
