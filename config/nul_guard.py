"""No NUL character from an address or a query string reaches a view.

PostgreSQL refuses a NUL in a text parameter (``DataError``): a path or query value
carrying one (``/players/a%00b/``, ``/admin/…/?status__exact=%00``) was a 500 wherever
it went into a query, and no name, code, filter or id of this site holds one. The request
is a 400 before any view runs: the site's error page, under /api/ the API's JSON
(``config.api_guard``). Bodies need no guard here: Django's and DRF's text fields refuse
NUL themselves, and a log-in's lookup asks nothing of the database for one
(``accounts.models.PlayerManager``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse


class NulGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "%00" in query or "\x00" in query:
            raise BadRequest("NUL character in the address")
        return self.get_response(request)
