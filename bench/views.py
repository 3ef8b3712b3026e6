"""Views that exist for the benchmarks only. ``bench.urls`` routes them, included by
``config.urls`` when the ``BENCH_ENDPOINTS`` setting is on (``bench.api`` sets it for
its server); never in production."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import engines


def plain_json(request: HttpRequest) -> JsonResponse:
    """The framework's floor: Django's request cycle and middleware answering a small
    JSON body, with no DRF, no authentication and no database."""
    return JsonResponse({"ok": True})


_PLAIN = engines["django"].from_string(
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>'
    "</head><body><main><h1>{{ title }}</h1><p>{{ text }}</p></main></body></html>"
)


def plain_page(request: HttpRequest) -> HttpResponse:
    """The pages' floor (``bench.pages``' baseline): a small template rendered through
    Django's template engine and the whole middleware stack, with no database read and
    no context processor."""
    return HttpResponse(_PLAIN.render({"title": "Maxi Yatzy Daily", "text": "A plain page."}))
