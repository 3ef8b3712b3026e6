"""Django's PostgreSQL backend with two savings on the play path (issue #25).

**A health check without a round trip.** With ``CONN_HEALTH_CHECKS`` Django checks a
connection kept from an earlier request before the next request's first query, and its
PostgreSQL backend does so with a ``SELECT 1``: a round trip per request for both
processes. This check asks the socket instead. An idle connection has nothing to read
unless the server has spoken first, and a server that goes away does: a shutdown or
restart (smart, fast or immediate) and ``pg_terminate_backend`` send their error before
they close the socket, and a socket closed by the other side reads as end of file. Either
way the connection is not used again and the request opens a new one, as after a failed
``SELECT 1``. A server that vanishes without a word (its host lost) is found by the
request's own query, which fails with the 503 the ``SELECT 1`` would have failed with,
and Django discards the connection at the request's end. Anything else the server may
send unasked on an idle connection (a notice, a changed setting) only costs a reconnect.

**Prepared statements where they are asked for.** Django binds parameters client-side
and turns psycopg's prepared statements off (``prepare_threshold`` None), so PostgreSQL
parses and plans every statement again. :func:`config.db.prepared_cursor` gives a cursor
that binds server-side and prepares its statements, once per connection (psycopg keeps
them): the round read, the action's write and the rank lookup, whose plans never
change; a play request costs PostgreSQL a third less. Everything else keeps Django's
defaults.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq


class PreparedCursor(psycopg.Cursor[Any]):
    """A psycopg cursor that prepares every statement it executes."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, **kw: Any
    ) -> Any:
        return super().execute(query, params, prepare=True if prepare is None else prepare, **kw)


# psycopg prepares nothing while a connection's threshold is None (Django's default);
# with this one it prepares what a PreparedCursor asks for and nothing else (Django's
# client-side cursors never prepare).
_ONLY_WHEN_ASKED = 2**31


class DatabaseWrapper(base.DatabaseWrapper):
    _prepare_next_cursor = False

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        connection = super().get_new_connection(conn_params)
        if connection.prepare_threshold is None and not self.settings_dict["OPTIONS"].get(
            "server_side_binding"
        ):
            connection.prepare_threshold = _ONLY_WHEN_ASKED
        return connection

    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != pq.TransactionStatus.IDLE:
            # Not between requests (a transaction left open): ask the server.
            return bool(super().is_usable())
        try:
            poller = select.poll()
            poller.register(connection.fileno(), select.POLLIN)
            return not poller.poll(0)
        except (OSError, ValueError):
            return False

    def prepared_cursor(self) -> Any:
        """Django's cursor (its error wrapping, query log and health check), over a
        psycopg cursor that prepares its statements."""
        self._prepare_next_cursor = True
        try:
            return self.cursor()
        finally:
            self._prepare_next_cursor = False

    def create_cursor(self, name: str | None = None) -> Any:
        if name or not self._prepare_next_cursor:
            return super().create_cursor(name)
        # Django's own cursor set-up (the time zone of its values), with this class.
        factory = self.connection.cursor_factory
        self.connection.cursor_factory = PreparedCursor
        try:
            return super().create_cursor(name)
        finally:
            self.connection.cursor_factory = factory
