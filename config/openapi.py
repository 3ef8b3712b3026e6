"""Shared OpenAPI pieces: the error body every endpoint may answer with."""

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
