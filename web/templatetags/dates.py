"""Template filters for dates, one format per language (``web.presenters.day_text``):
``{{ today|day }}`` writes a day, ``{{ daily.reveal_at|moment }}`` a day and its time
in the current time zone. Django's ``|date:"DATE_FORMAT"`` would write Italian's
"04 Dicembre 2026" where the rest of the page writes "4 dicembre 2026"."""

from __future__ import annotations

import datetime as dt

from django import template

from web.presenters import day_text, moment_text

register = template.Library()


@register.filter
def day(value: dt.date | str | None) -> str:
    """``value`` (a date or its ISO text) as the page's language writes a day; empty
    for ``None``."""
    return "" if value is None else day_text(value)


@register.filter
def moment(value: dt.datetime | None) -> str:
    """``value`` as the page's language writes a day and its time; empty for ``None``."""
    return "" if value is None else moment_text(value)
