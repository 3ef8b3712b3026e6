"""One shape for every API error: ``{"code": ..., "message": ..., "details"?: ...}``.

Services raise :class:`ServiceError` (or let an engine :class:`yatzy.YatzyError` through);
DRF raises its own exceptions; this handler turns all of them into that shape with the
right status. Nothing a client sends should reach Django's 500 page.

The ``code`` never depends on the language; the ``message`` is made in the answer's
language by :mod:`config.messages` (engine errors from their code and params, service
errors from the gettext template they carry). DRF's own messages come translated by
DRF's and Django's catalogues, and by the project's for those DRF leaves untranslated
(``config.messages.FRAMEWORK_MESSAGES``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

import yatzy
from config.messages import engine_message, render

logger = logging.getLogger(__name__)


class ServiceError(Exception):
    """A business rule refused the request; carries the API status, code and message.

    ``message`` is an English message id marked where it is raised
    (``gettext_lazy("No such round.")``, ``ngettext_lazy`` where a count is shown) and
    ``params`` its named arguments; :attr:`text` is the message in the active language.

    >>> from django.utils.translation import gettext_lazy as _
    >>> error = NotFoundError(_("There is no season %(slug)s."), params={"slug": "winter"})
    >>> error.code, error.text
    ('not_found', 'There is no season winter.')
    """

    status_code: int = status.HTTP_400_BAD_REQUEST
    code = "invalid_request"

    def __init__(
        self,
        message: str | Promise,
        *,
        code: str | None = None,
        extra: Any = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.params = params or {}
        if code is not None:
            self.code = code
        self.extra = extra

    @property
    def text(self) -> str:
        """The message in the active language, its params filled in."""
        return render(self.message, self.params)


class NotFoundError(ServiceError):
    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"


class ForbiddenError(ServiceError):
    status_code = status.HTTP_403_FORBIDDEN
    code = "forbidden"


class ConflictError(ServiceError):
    """The client acted on stale state; ``extra`` holds the current state to resync."""

    status_code = status.HTTP_409_CONFLICT
    code = "stale_state"


def _message_from_details(detail: Any) -> str:
    """First human-readable message in a DRF error detail tree."""
    if isinstance(detail, dict):
        for field, value in detail.items():
            inner = _message_from_details(value)
            return inner if field == "non_field_errors" else f"{field}: {inner}"
    if isinstance(detail, list) and detail:
        return _message_from_details(detail[0])
    return str(detail)


MAX_PROBLEMS = 10


def encodable(text: str) -> str:
    """``text`` as UTF-8 can carry it: a lone surrogate (which the parser refuses before
    any field sees it) would be shown as its escape rather than fail the whole answer.

    >>> encodable("bad \\ud800 input")
    'bad \\\\ud800 input'
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _bounded(detail: Any, depth: int = 0) -> Any:
    """A DRF error tree cut to at most ``MAX_PROBLEMS`` entries per level and a few
    levels deep, so an answer stays small whatever the request held.

    >>> _bounded({str(i): ["bad"] for i in range(100)}).keys() == {str(i) for i in range(10)}
    True
    """
    if depth > 3:
        return "…"
    if isinstance(detail, dict):
        items = list(detail.items())[:MAX_PROBLEMS]
        return {key: _bounded(value, depth + 1) for key, value in items}
    if isinstance(detail, list):
        return [_bounded(value, depth + 1) for value in detail[:MAX_PROBLEMS]]
    return encodable(str(detail)[:500])


NO_DATA = gettext_lazy("No data provided: the body is null, not a JSON object.")


# A database that does not answer (a restart, a failover): the API's 503
# `database_unavailable` and the pages' 503 (web.middleware) say this, with Retry-After.
DATABASE_UNAVAILABLE = gettext_lazy("The database is unavailable; retry shortly.")
DATABASE_RETRY_AFTER = "2"


def database_unavailable() -> tuple[dict[str, Any], int, dict[str, str]]:
    """The API's answer to a database that does not answer: its body, status and
    headers (DRF's views through :func:`exception_handler`, and a middleware's
    ``OperationalError`` through the site's ``handler500``)."""
    return (
        error_body("database_unavailable", str(DATABASE_UNAVAILABLE)),
        status.HTTP_503_SERVICE_UNAVAILABLE,
        {"Retry-After": DATABASE_RETRY_AFTER},
    )


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The JSON body of an error response.

    >>> error_body("not_found", "No such round.")
    {'code': 'not_found', 'message': 'No such round.'}
    """
    return {"code": code, "message": encodable(message), **extra}


def error_text(exc: ServiceError | yatzy.YatzyError) -> str:
    """A service or engine error's message in the active language (what the API's
    ``message`` says; pages show the same)."""
    return exc.text if isinstance(exc, ServiceError) else engine_message(exc)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler producing :func:`error_body` responses."""
    if isinstance(exc, ServiceError):
        extra = {} if exc.extra is None else {"current": exc.extra}
        retry_after = getattr(exc, "retry_after", None)
        return Response(
            error_body(exc.code, exc.text, **extra),
            status=exc.status_code,
            headers={"Retry-After": str(retry_after)} if retry_after is not None else None,
        )
    if isinstance(exc, yatzy.YatzyError):
        return Response(
            error_body(exc.code, engine_message(exc)), status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, (OperationalError, InterfaceError)):
        logger.warning("database unavailable: %s", type(exc).__name__)
        body, answer_status, headers = database_unavailable()
        return Response(body, status=answer_status, headers=headers)
    if isinstance(exc, DatabaseError):
        return None
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        if exc.get_codes() == {api_settings.NON_FIELD_ERRORS_KEY: ["null"]}:
            # A body of ``null``: DRF's "No data provided" is its one text without gettext.
            exc.detail = {
                api_settings.NON_FIELD_ERRORS_KEY: [
                    exceptions.ErrorDetail(str(NO_DATA), code="null")
                ]
            }
        response.data = error_body(
            "invalid_input", _message_from_details(exc.detail)[:500], details=_bounded(exc.detail)
        )
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        response.data = error_body(code, _message_from_details(exc.detail))
    return response
