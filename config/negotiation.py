"""Content negotiation: DRF's, with its answer for the common case given at once.

Nearly every API request accepts anything (no ``Accept`` header, or ``*/*``) or asks
for ``application/json``, and every view has the one JSON renderer: DRF's negotiation
parses the header and ranks media types to find that renderer on each request (about a
fortieth of a roll's CPU). For exactly these cases the answer is DRF's own, given
without the parsing; every other request (another ``Accept``, a ``format`` override, a
view with several renderers) goes through DRF's code, after one check DRF leaves out:
a range with ``q=0`` refuses what it matches (RFC 9110 §12.5.1), so ``Accept:
application/json;q=0`` or ``*/*;q=0`` is 406 like ``text/html``, not an answer in JSON.
A ``format`` override no renderer has (``?format=xml``) is the same refusal, 406
``not_acceptable`` saying what the API answers, where DRF raised ``Http404``: the path
exists, and "Not found." sent clients looking for a wrong address.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        accept = request.META.get("HTTP_ACCEPT")
        if len(renderers) == 1 and not format_suffix:
            (renderer,) = renderers
            if (accept is None or accept in ("*/*", renderer.media_type)) and (
                self.settings.URL_FORMAT_OVERRIDE not in request.query_params
            ):
                return renderer, renderer.media_type
        asked = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        if asked and not any(renderer.format == asked for renderer in renderers):
            raise NotAcceptable(
                _("Unknown format: leave out format, or send format=json."),
                available_renderers=renderers,
            )
        selected: tuple[BaseRenderer, str] = super().select_renderer(
            request, renderers, format_suffix
        )
        if accept is None or acceptable(accept, selected[0].media_type):
            return selected
        # DRF took a range with q=0 as admitting what it refuses: choose again among the
        # renderers the header admits.
        admitted = [renderer for renderer in renderers if acceptable(accept, renderer.media_type)]
        if not admitted:
            raise NotAcceptable(available_renderers=renderers)
        chosen: tuple[BaseRenderer, str] = super().select_renderer(request, admitted, format_suffix)
        return chosen


def acceptable(accept: str, media_type: str) -> bool:
    """Whether an ``Accept`` header admits ``media_type``: the most specific range that
    matches it decides, by its quality (RFC 9110 §12.5.1); none matching, it does not.

    >>> [acceptable(h, "application/json") for h in ("*/*", "*/*;q=0", "text/html")]
    [True, False, False]
    >>> acceptable("application/json;q=0, */*", "application/json")
    False
    >>> acceptable("application/*;q=0.5, application/json; q=0.0", "application/json")
    False
    >>> acceptable("text/html, application/*;q=0.2", "application/json")
    True
    """
    kind, _, subtype = media_type.partition("/")
    best: tuple[int, float] | None = None
    for item in accept.split(","):
        media_range, *params = (part.strip() for part in item.split(";"))
        range_kind, _, range_subtype = media_range.lower().partition("/")
        if (range_kind, range_subtype) == ("*", "*"):
            specificity = 0
        elif range_kind != kind:
            continue
        elif range_subtype == "*":
            specificity = 1
        elif range_subtype == subtype:
            specificity = 2
        else:
            continue
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 1.0
        if best is None or specificity > best[0]:
            best = (specificity, quality)
    return best is not None and best[1] > 0
