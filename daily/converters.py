import datetime as dt


class IsoDateConverter:
    """``2026-12-01`` in a URL; an impossible date does not match (404)."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> dt.date:
        return dt.date.fromisoformat(value)

    def to_url(self, value: dt.date) -> str:
        return value.isoformat()
