from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.openapi import ERROR_RESPONSES
from games import selectors, services
from games.serializers import RollSerializer, RoundSerializer, ScoreSerializer


class RoundDetailView(APIView):
    @extend_schema(responses={200: RoundSerializer, **ERROR_RESPONSES}, summary="A round's state")
    def get(self, request: Request, round_id: UUID) -> Response:
        rnd = selectors.round_get_for_player(round_id=round_id, player=request.user)
        return Response(selectors.round_payload(rnd))


class RoundRollView(APIView):
    throttle_scope = "play"

    @extend_schema(
        request=RollSerializer,
        responses={200: RoundSerializer, **ERROR_RESPONSES},
        summary="Roll the dice that are not held",
    )
    def post(self, request: Request, round_id: UUID) -> Response:
        serializer = RollSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd, game = services.round_roll(
            round_id=round_id, player=request.user, **serializer.validated_data
        )
        return Response(selectors.round_payload(rnd, game))


class RoundScoreView(APIView):
    throttle_scope = "play"

    @extend_schema(
        request=ScoreSerializer,
        responses={200: RoundSerializer, **ERROR_RESPONSES},
        summary="Fill one open box with the current dice",
    )
    def post(self, request: Request, round_id: UUID) -> Response:
        serializer = ScoreSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd, game = services.round_score(
            round_id=round_id, player=request.user, **serializer.validated_data
        )
        return Response(selectors.round_payload(rnd, game))
