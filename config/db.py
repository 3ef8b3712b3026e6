"""Statements the hot paths send many times a second."""

from __future__ import annotations

from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper


def prepared_cursor(connection: BaseDatabaseWrapper) -> Any:
    """A cursor whose statements the database parses and plans once per connection
    where the backend can (``config.postgresql``), else Django's plain cursor (SQLite
    keeps its own statement cache). For statements built once per database with
    parameters for every value: their plans never change."""
    prepared = getattr(connection, "prepared_cursor", None)
    return prepared() if prepared is not None else connection.cursor()
