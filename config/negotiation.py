"""Content negotiation: DRF's, with its answer for the common case given at once.

Nearly every API request accepts anything (no ``Accept`` header, or ``*/*``) or asks
for ``application/json``, and every view has the one JSON renderer: DRF's negotiation
parses the header and ranks media types to find that renderer on each request (about a
fortieth of a roll's CPU). For exactly these cases the answer is DRF's own, given
without the parsing; every other request (another ``Accept``, a ``format`` override, a
view with several renderers) goes through DRF's code unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        if len(renderers) == 1 and not format_suffix:
            (renderer,) = renderers
            accept = request.META.get("HTTP_ACCEPT")
            if (accept is None or accept in ("*/*", renderer.media_type)) and (
                self.settings.URL_FORMAT_OVERRIDE not in request.query_params
            ):
                return renderer, renderer.media_type
        selected: tuple[BaseRenderer, str] = super().select_renderer(
            request, renderers, format_suffix
        )
        return selected
