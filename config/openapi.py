"""Shared OpenAPI pieces: the error body every endpoint may answer with, and the
answers the web server gives before a request reaches the API."""

from typing import Any

from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

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


URI_TOO_LONG = {
    "description": (
        "The request line (method, path and query) is longer than the web server accepts "
        "(gunicorn: 4094 bytes). Refused before the API, with the server's own body."
    )
}


def document_server_limits(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every operation may get a 414 from the web
    server in front of the API; a client generated from the schema should expect it."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation["responses"].setdefault("414", URI_TOO_LONG)
    return result
