"""Path converters for days and years (``isodate``, ``year``), registered once on import."""

import datetime as dt

from django.urls import register_converter


class IsoDateConverter:
    """``2026-12-01`` in a URL; an impossible date does not match (404)."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> dt.date:
        return dt.date.fromisoformat(value)

    def to_url(self, value: dt.date) -> str:
        return value.isoformat()


class YearConverter:
    """A four-digit year, ``2026``."""

    regex = r"[1-9][0-9]{3}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return f"{value:04d}"


register_converter(IsoDateConverter, "isodate")
register_converter(YearConverter, "year")
