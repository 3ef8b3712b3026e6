"""The API's outer edge: every answer under ``/api/`` is JSON in the error shape, DEBUG
or not, a body over the limit is refused before anything reads it, and so is a body
without a length (chunked), which Django would read as empty: for the methods whose body
the API reads (``BODY_METHODS``); a GET's body is never read, so never refused.

Django answers some requests before DRF sees them: a path no route matches (with
``DEBUG`` on, its debug page), an exception a view did not handle, a request Django
itself finds suspicious. This middleware turns each such non-JSON error under ``/api/``
into ``{"code", "message"}`` with the same status, so a client never has to parse HTML.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase, HttpResponseRedirectBase
from django.middleware.common import CommonMiddleware as DjangoCommonMiddleware
from django.utils.http import escape_leading_slashes
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions

from config.api_errors import error_body
from config.parsers import BODY_METHODS, too_large

API_PREFIX = "/api/"

# Codes and messages for the statuses Django produces without DRF (the pages word their
# 403 and 404 alike: web.helpers).
STATUS_ANSWERS = {
    400: ("bad_request", _("The request is malformed.")),
    403: ("permission_denied", _("You may not do this.")),
    404: ("not_found", _("Not found.")),
    405: ("method_not_allowed", _("This method is not allowed here.")),
    # The schema's renderers are not JSON's, so its 406 comes here: worded as DRF's are.
    406: ("not_acceptable", exceptions.NotAcceptable.default_detail),
    411: ("length_required", _("Send the request body with a Content-Length header.")),
    413: ("request_too_large", _("The request body is too large.")),
    # gunicorn's own answers (config.gunicorn_worker).
    414: ("uri_too_long", _("The request line (method, path and query) is too long.")),
    431: ("headers_too_large", _("The request headers are too large.")),
    # gunicorn's 417 (an Expect it does not know) and 501 (a Transfer-Encoding it does not
    # know): the request's fault, not the server's.
    417: ("expectation_failed", _("The request's Expect header is not one this server meets.")),
    500: ("server_error", _("The server could not answer this request; the error is logged.")),
    501: (
        "not_implemented",
        _("The request asks for something this server does not do (its Transfer-Encoding)."),
    ),
    503: ("service_unavailable", _("The service is not answering; retry shortly.")),
    # A request the worker timeout ended: it may have been applied (its commit may have
    # come before), so a client must not take it for one refused.
    504: (
        "timeout",
        _(
            "The server took too long to answer; the request may have been carried out, "
            "so check before sending it again."
        ),
    ),
}


def status_error(status: int) -> tuple[str, str]:
    """The code and message, in the active language, of an error answer with
    ``status`` that no one worded (Django's, gunicorn's)."""
    if status in STATUS_ANSWERS:
        return STATUS_ANSWERS[status][0], str(STATUS_ANSWERS[status][1])
    code = "server_error" if status >= 500 else "error"
    return code, gettext("The request failed (HTTP status %(status)d).") % {"status": status}


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class ApiGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        if request.method not in BODY_METHODS:
            return self._answer(request)
        if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            # Django reads a body by its Content-Length only: a chunked one would be
            # taken as empty and answered as if its fields were missing.
            code, message = STATUS_ANSWERS[411]
            return JsonResponse(error_body(code, str(message)), status=411)
        limit = settings.API_MAX_BODY_BYTES
        if _declared_length(request) > limit:
            exc = too_large(limit)
            response: HttpResponse = JsonResponse(
                error_body(exc.default_code, str(exc.detail)), status=exc.status_code
            )
            # No ``Connection: close``: PEP 3333 keeps hop-by-hop headers from
            # applications; runserver (wsgiref) answered one with a 500 and gunicorn
            # drops it. Each server discards the unread body itself (gunicorn up to a
            # bound, then it closes the connection).
            return response
        return self._answer(request)

    def _answer(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        allowed = response.get("Allow")
        if allowed is not None and "OPTIONS" in allowed:
            # DRF lists OPTIONS on every view; this API answers it 405 (no metadata,
            # config/settings.py), so it is not among the methods allowed.
            response["Allow"] = ", ".join(m for m in allowed.split(", ") if m != "OPTIONS")
        if response.status_code >= 400 and not response.get("Content-Type", "").startswith(
            "application/json"
        ):
            _rewrite_as_json(response)
        return response


def _rewrite_as_json(response: HttpResponse) -> None:
    """Replace an error's body by the API's error shape, keeping status and headers."""
    code, message = status_error(response.status_code)
    response.content = json.dumps(error_body(code, message)).encode()
    response["Content-Type"] = "application/json"
    if response.has_header("Content-Length"):
        # CommonMiddleware measured the HTML body; a client reading the old length would
        # wait for bytes that never come (runserver and gunicorn send what is declared).
        response["Content-Length"] = str(len(response.content))


class PermanentRedirectKeepingMethod(HttpResponseRedirectBase):
    """308 (RFC 9110 §15.4.9): permanent, and the client repeats the method and body."""

    status_code = 308


def _keeps_method(request: HttpRequest) -> bool:
    """Whether a missing trailing slash is a 308 (the method and body kept): under
    ``/api/`` always, elsewhere for anything but GET and HEAD (a form posted to a page
    without its slash), whose Django 301 a browser may cache."""
    return request.path.startswith(API_PREFIX) or request.method not in ("GET", "HEAD")


class CommonMiddleware(DjangoCommonMiddleware):
    """Django's, except that a path missing its trailing slash is a 308 to the one with
    it under ``/api/`` whatever the method, and for a POST (or any method but GET and
    HEAD) anywhere. Django answered a POST there with a 301, which clients follow as a
    GET (a 405 in the API: the command lost; a page's form shown again, unsent), and
    with ``DEBUG`` on (``make run``) raised a RuntimeError instead (a 500 for a typo)."""

    def get_full_path_with_slash(self, request: HttpRequest) -> str:
        if not _keeps_method(request):
            return str(super().get_full_path_with_slash(request))
        return str(escape_leading_slashes(request.get_full_path(force_append_slash=True)))

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        # The status first: every answer passes here, and only a 404 may be redirected.
        if (
            response.status_code == 404
            and _keeps_method(request)
            and self.should_redirect_with_slash(request)
        ):
            return PermanentRedirectKeepingMethod(self.get_full_path_with_slash(request))
        return super().process_response(request, response)
