"""The view that serves the OpenAPI schema (apart from ``config.openapi``, which DRF
imports as its schema class before drf-spectacular's views can be imported)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, ClassVar

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse
from django.utils import translation
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework.renderers import BaseRenderer

from config.i18n import LANGUAGE_CODES


@dataclass(frozen=True)
class BuiltSchema:
    content: bytes
    content_type: str
    disposition: str


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema, built once per process for each language and format it is
    served in, then served from memory.

    Generating it takes 0.5-1.7 s of CPU (docs/benchmarks.md), and it depends only on
    the code, the language of its texts (``Accept-Language``, a player's profile,
    drf-spectacular's ``?lang=``) and the format (YAML or JSON, by ``Accept`` or
    ``?format=``): at most 12 languages by 4 renderers. A ``lang`` the site does not offer
    and a ``version`` (the API has one) are ignored rather than each kept apart, so no
    query can make the process keep more. Generation is serialised: drf-spectacular
    imports its extensions lazily, and two threads doing it at once can fail one of them
    (seen as 500s under gunicorn's threads).
    """

    _lock = threading.Lock()
    _built: ClassVar[dict[tuple[str, type[BaseRenderer]], BuiltSchema]] = {}

    @extend_schema(exclude=True)  # as drf-spectacular's own view: not in the schema
    def get(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        language = request.GET.get("lang")
        if language not in LANGUAGE_CODES:
            language = translation.get_language()
        renderer = request.accepted_renderer
        key = (language, type(renderer))
        built = self._built.get(key)
        if built is None:
            with self._lock:
                built = self._built.get(key)
                if built is None:
                    built = self._built[key] = self._build(request, language, renderer)
        response = HttpResponse(built.content, content_type=built.content_type)
        response["Content-Disposition"] = built.disposition
        return response

    def _build(self, request: Any, language: str, renderer: BaseRenderer) -> BuiltSchema:
        with translation.override(language):
            generated = self._get_schema_response(request)  # type: ignore[no-untyped-call]
            content = renderer.render(
                generated.data, renderer.media_type, self.get_renderer_context()
            )
        if isinstance(content, str):
            content = content.encode(renderer.charset or "utf-8")
        content_type = renderer.media_type
        if renderer.charset:
            content_type += f"; charset={renderer.charset}"
        return BuiltSchema(content, content_type, generated["Content-Disposition"])

    def _get_version_parameter(self, request: Any) -> None:
        return None


@receiver(setting_changed)
def _forget_built_schemas(**_kwargs: Any) -> None:
    """Tests that change settings (the URLconf, drf-spectacular's) get a fresh schema."""
    SchemaView._built.clear()
