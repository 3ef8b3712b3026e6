"""Statements the hot paths send many times a second, and the JSON of their values.

A round's snapshot is a few kilobytes of JSON written by every action and read by every
request on the round; :mod:`json` spends about ten times orjson's CPU on it. The two
functions here give :mod:`json`'s results with orjson's speed, and fall back to
:mod:`json` for whatever orjson does not handle as :mod:`json` does (an integer beyond
64 bits; a value :mod:`json` refuses is still refused, with its error).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db.backends.base.base import BaseDatabaseWrapper

# Keys that are not strings become strings, as json.dumps makes them; datetimes and
# dataclasses, which orjson would write and json.dumps refuses, go to the fallback.
_DUMPS_OPTIONS = (
    orjson.OPT_NON_STR_KEYS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def json_dumps(value: Any) -> str:
    """``json.dumps(value)``, compact, by orjson where it can."""
    try:
        return orjson.dumps(value, option=_DUMPS_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)


def json_loads(text: str | bytes) -> Any:
    """``json.loads(text)`` by orjson where it can; raises :class:`json.JSONDecodeError`."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def prepared_cursor(connection: BaseDatabaseWrapper) -> Any:
    """A cursor whose statements the database parses and plans once per connection
    where the backend can (``config.postgresql``), else Django's plain cursor (SQLite
    keeps its own statement cache). For statements built once per database with
    parameters for every value: their plans never change."""
    prepared = getattr(connection, "prepared_cursor", None)
    return prepared() if prepared is not None else connection.cursor()
