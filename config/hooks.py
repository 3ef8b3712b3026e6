"""Hooks: how a lower app tells a higher one that something happened, without importing it.

The apps depend one way (``docs/architecture.md``): ``accounts``, ``daily``, ``games``,
``leaderboards``, each importing only those before it. Where a lower app's write must be
followed by a higher app's (a completed ranked round owes the boards an update, in the
same transaction), the lower app declares a :class:`Hook` and calls it; the higher app
registers the one handler in its ``AppConfig.ready``. A hook with no handler raises
instead of silently dropping the work.

>>> finished = Hook("example.finished")
>>> finished.register(lambda *, n: n * 2)
>>> finished(n=21)
42
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured


class Hook:
    """One moment a lower app announces and exactly one higher app handles."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._handler: Callable[..., Any] | None = None

    def register(self, handler: Callable[..., Any]) -> None:
        """Set the handler; registering a different one twice is a wiring mistake."""
        if self._handler is not None and self._handler is not handler:
            raise ImproperlyConfigured(f"hook {self.name} already has a handler")
        self._handler = handler

    def __call__(self, **kwargs: Any) -> Any:
        if self._handler is None:
            raise ImproperlyConfigured(f"nothing handles the hook {self.name}")
        return self._handler(**kwargs)

    def __repr__(self) -> str:
        return f"<Hook {self.name}>"


web_process_started = Hook("config.web_process_started")
"""``()``: a web server process (not gunicorn's, which warms in its own hooks) has
loaded the site (``config/wsgi.py``). ``games`` warms the strategy tables on it
(``games.tables.tables_watch``)."""
