"""The view that serves the OpenAPI schema (apart from ``config.openapi``, which DRF
imports as its schema class before drf-spectacular's views can be imported)."""

from __future__ import annotations

import threading
from typing import Any

from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema, generated at most once at a time per process.

    drf-spectacular imports its optional extensions lazily, and two threads doing it at
    once can fail one of them (a class attribute is set to None by one while the other
    reads it): seen as 500s on /api/schema/ under gunicorn's threads. Generation is
    serialised; every request still gets a freshly generated schema.
    """

    _lock = threading.Lock()

    @extend_schema(exclude=True)  # as drf-spectacular's own view: not in the schema
    def get(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return super().get(request, *args, **kwargs)  # type: ignore[no-untyped-call]
