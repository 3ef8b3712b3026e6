"""Request ids on every log line: taken from ``X-Request-ID`` (when a proxy set a sane
one) or made up, echoed in the response, and added to log records by a filter; and a filter
that keeps each error answer to one log line under runserver."""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar

from django.http import HttpRequest, HttpResponse

request_id: ContextVar[str] = ContextVar("request_id", default="-")

_SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get("X-Request-ID", "")
        # Not reset on the way out: Django logs a request's 4xx/5xx after the middleware
        # chain has returned, and that line must carry the id too. The next request on
        # this thread sets its own.
        request_id.set(incoming if _SANE_ID.fullmatch(incoming) else uuid.uuid4().hex)
        response = self.get_response(request)
        response["X-Request-ID"] = request_id.get()
        return response


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


# How http.server (under runserver) writes each request's access line.
_ACCESS_LINE = '"%s" %s %s'


class NoErrorAccessLines(logging.Filter):
    """Leaves out runserver's access lines for 4xx and 5xx answers: Django logs each of
    those itself (``django.request``, with the request id), so one line per error is
    enough. Its other lines (200s, the server's own messages) pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", 0)
        return not (record.msg == _ACCESS_LINE and status >= 400)
