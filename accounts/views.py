from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.auth import player_of
from accounts.serializers import (
    LoginSerializer,
    MeSerializer,
    RegisteredSerializer,
    RegisterSerializer,
    TokenSerializer,
)
from config.openapi import ERROR_RESPONSES
from config.parsers import body_checked


class RegisterView(APIView):
    throttle_scope = "register"
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=RegisterSerializer,
        responses={201: RegisteredSerializer, **ERROR_RESPONSES},
        summary="Create a player account and its API token",
    )
    def post(self, request: Request) -> Response:
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user, token = services.user_register(**serializer.validated_data)
        data = {**MeSerializer(user).data, "token": token}
        return Response(data, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    throttle_scope = "login"
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=LoginSerializer,
        responses={200: TokenSerializer, **ERROR_RESPONSES},
        summary="Log in: exchange username and password for a new API token",
        description=(
            "Each log-in issues a new token, shown only in this answer (the server keeps "
            "a hash of it); earlier tokens stay valid until their own log-out."
        ),
    )
    def post(self, request: Request) -> Response:
        serializer = LoginSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        token = services.user_token_create(user=serializer.validated_data["user"])
        return Response({"token": token})


class LogoutView(APIView):
    @extend_schema(
        request=None,
        responses={204: None, **ERROR_RESPONSES},
        summary="Revoke the token this request carries (your other log-ins stay)",
    )
    def post(self, request: Request) -> Response:
        body_checked(request)
        token = request.auth if isinstance(request.auth, AuthToken) else None
        services.user_logout(user=player_of(request), token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    @extend_schema(responses={200: MeSerializer, **ERROR_RESPONSES}, summary="The caller's profile")
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(request.user).data)

    @extend_schema(
        request=MeSerializer,
        responses={200: MeSerializer, **ERROR_RESPONSES},
        summary="Change display name, language or time zone",
    )
    def patch(self, request: Request) -> Response:
        serializer = MeSerializer(request.user, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        user = services.user_update(user=player_of(request), data=serializer.validated_data)
        return Response(MeSerializer(user).data)
