"""Shared OpenAPI pieces: the error body every endpoint may answer with, and the schema
class that documents every status an operation can answer, including those the API's
edge and DRF give before a view's own code runs (406, 411, 413, 415, 429, 503, and the
web server's 414)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import force_instance
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

from config.fields import ClosedBodySerializer
from config.parsers import BODY_METHODS

ErrorSerializer = inline_serializer(
    name="Error",
    fields={
        "code": serializers.CharField(help_text="Stable machine-readable error code."),
        "message": serializers.CharField(help_text="Human-readable explanation."),
        "details": serializers.JSONField(required=False, help_text="Per-field errors."),
        "current": serializers.JSONField(
            required=False, help_text="On 409: the current state to resync from."
        ),
    },
)

ERROR_RESPONSES = {
    400: OpenApiResponse(ErrorSerializer, description="Illegal action or bad input."),
    401: OpenApiResponse(ErrorSerializer, description="No or invalid credentials."),
    404: OpenApiResponse(ErrorSerializer, description="Not found (or not yours)."),
    409: OpenApiResponse(ErrorSerializer, description="Stale state or conflict."),
}

_ERROR_REF = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer"},
        "description": "Seconds to wait before trying again.",
    }
}


def _error(description: str, *, retry_after: bool = False) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": description, "content": _ERROR_REF}
    if retry_after:
        answer["headers"] = _RETRY_AFTER
    return answer


URI_TOO_LONG = _error(
    "`uri_too_long`: the request line (method, path and query) is longer than the web "
    "server accepts (gunicorn: 4094 bytes); refused before the API."
)
TOO_LARGE = _error("`request_too_large`: the body is over the API's limit (4 KB).")
LENGTH_REQUIRED = _error(
    "`length_required`: the body came without a `Content-Length` (chunked); send its length."
)
NOT_ACCEPTABLE = _error(
    "`not_acceptable`: the `Accept` header admits no JSON (`application/json` or `*/*`)."
)
NOT_JSON = _error("`unsupported_media_type`: the body is not `application/json`.")
THROTTLED = _error("`throttled`: too many requests; wait `Retry-After` seconds.", retry_after=True)
UNAVAILABLE = _error(
    "`database_unavailable` (or another dependency; `service_unavailable` from the deploy's"
    " proxy while the app does not answer): retry after `Retry-After` seconds. (A request"
    " that outlives gunicorn's worker timeout is a 504 `timeout`: it may have been applied.)",
    retry_after=True,
)


class ApiSchema(AutoSchema):
    """drf-spectacular's schema, plus the answers every operation of this API can get
    whatever its view declares."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation.setdefault("responses", {})
        if self.method in BODY_METHODS:
            # Operations without a request body check one sent anyway (body_checked).
            responses.setdefault("411", LENGTH_REQUIRED)
            responses.setdefault("413", TOO_LARGE)
            responses.setdefault("415", NOT_JSON)
        responses.setdefault("406", NOT_ACCEPTABLE)
        if getattr(self.view, "throttle_scope", None):
            responses.setdefault("429", THROTTLED)
        responses.setdefault("503", UNAVAILABLE)
        responses.setdefault("414", URI_TOO_LONG)
        return operation

    def _map_serializer(self, serializer: Any, direction: str, *args: Any, **kwargs: Any) -> Any:
        schema = super()._map_serializer(serializer, direction, *args, **kwargs)  # type: ignore[no-untyped-call]
        instance = force_instance(serializer)  # type: ignore[no-untyped-call]
        if direction == "request" and isinstance(instance, ClosedBodySerializer):
            # A command body refuses any field it does not name (config.fields).
            schema["additionalProperties"] = False
        return schema
