"""Views that exist for the benchmarks only. ``config.urls`` routes them when the
``BENCH_ENDPOINTS`` setting is on (``bench.api`` sets it for its server); never in
production."""

from django.http import HttpRequest, JsonResponse


def plain_json(request: HttpRequest) -> JsonResponse:
    """The framework's floor: Django's request cycle and middleware answering a small
    JSON body, with no DRF, no authentication and no database."""
    return JsonResponse({"ok": True})
