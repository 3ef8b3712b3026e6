"""Headers every page carries: a Content-Security-Policy that allows nothing inline
and nothing from elsewhere, and ``Cache-Control: private`` so that no shared cache ever
hands one player's page to another."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

# No 'unsafe-inline', no 'unsafe-eval': scripts and styles are files of this site; an
# injected <script> or style attribute does not run.
POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)
# Two third-party pages need inline styles: Swagger UI (/api/docs/) styles its own
# elements at run time and shows data: images (its script is a file, the split view);
# the health check's page (/health/, for an operator's browser) has a <style> block.
# Neither shows anything a player wrote.
THIRD_PARTY_PREFIXES = ("/api/docs/", "/health/")
THIRD_PARTY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)


class PageHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not response.get("Content-Type", "").startswith("text/html"):
            return response
        third_party = request.path.startswith(THIRD_PARTY_PREFIXES)
        policy = THIRD_PARTY_POLICY if third_party else POLICY
        response.setdefault("Content-Security-Policy", policy)
        patch_cache_control(response, private=True, no_cache=True)
        return response
