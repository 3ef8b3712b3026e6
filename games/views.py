import datetime as dt
from uuid import UUID

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.openapi import ERROR_RESPONSES, ErrorSerializer
from daily import clock
from daily.services import challenge_for_play
from games import selectors, services
from games.serializers import (
    AnalysisSerializer,
    ChallengeSerializer,
    GameCreateSerializer,
    GamesQuerySerializer,
    GameSummarySerializer,
    HintSerializer,
    RollSerializer,
    RoundSerializer,
    ScoreSerializer,
)

UNAVAILABLE = {
    403: OpenApiResponse(
        ErrorSerializer, description="`hint_unavailable`: a daily whose day is not over."
    ),
    503: OpenApiResponse(
        ErrorSerializer,
        description="`table_building`: the strategy table is being built; see `Retry-After`.",
    ),
}


class GamesView(GenericAPIView):
    throttle_scope = "play"

    @extend_schema(
        parameters=[GamesQuerySerializer],
        responses={200: GameSummarySerializer(many=True), **ERROR_RESPONSES},
        summary="Your games of every mode, newest first",
    )
    def get(self, request: Request) -> Response:
        query = GamesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rounds = selectors.games_for_player(
            player=request.user,
            mode=query.validated_data.get("mode"),
            status=query.validated_data.get("status"),
        )
        page = self.paginate_queryset(rounds)
        assert page is not None
        return self.get_paginated_response([selectors.game_summary(rnd) for rnd in page])

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: RoundSerializer, **ERROR_RESPONSES, 503: UNAVAILABLE[503]},
        summary="Start a solo or computer game",
        description=(
            "A new round on 32 random bytes from the server: its commitment is shown now, "
            "its seed once the game is over. Ruleset and options default to your settings "
            "and are fixed for the game. A computer game's opponent plays each of your "
            "turns after you, on the same dice."
        ),
    )
    def post(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = services.game_create(player=request.user, **serializer.validated_data)
        return Response(selectors.round_payload(rnd), status=status.HTTP_201_CREATED)


class RoundHintView(APIView):
    throttle_scope = "play"

    @extend_schema(
        responses={200: HintSerializer, **ERROR_RESPONSES, **UNAVAILABLE},
        summary="The best move now, and every other legal move",
    )
    def get(self, request: Request, round_id: UUID) -> Response:
        rnd = selectors.round_get_for_player(round_id=round_id, player=request.user)
        return Response(selectors.round_hint(rnd))


class RoundAnalysisView(APIView):
    throttle_scope = "play"

    @extend_schema(
        responses={200: AnalysisSerializer, **ERROR_RESPONSES, **UNAVAILABLE},
        summary="Every decision of a finished round against the best one",
    )
    def get(self, request: Request, round_id: UUID) -> Response:
        rnd = selectors.round_get_for_player(round_id=round_id, player=request.user)
        return Response(selectors.round_analysis(rnd))


class DailyTodayView(APIView):
    @extend_schema(
        responses={200: ChallengeSerializer, **ERROR_RESPONSES},
        summary="Today's challenge",
        operation_id="daily_today",
    )
    def get(self, request: Request) -> Response:
        challenge = challenge_for_play(day=clock.today())
        return Response(selectors.challenge_payload(challenge=challenge, player=request.user))


DAY_PARAMETER = OpenApiParameter(
    "day", OpenApiTypes.DATE, OpenApiParameter.PATH, description="Challenge date, 2026-12-01"
)


class DailyDateView(APIView):
    @extend_schema(
        parameters=[DAY_PARAMETER],
        responses={200: ChallengeSerializer, **ERROR_RESPONSES},
        summary="The challenge of a date (today or past; future dates are 404)",
    )
    def get(self, request: Request, day: dt.date) -> Response:
        challenge = challenge_for_play(day=day)
        return Response(selectors.challenge_payload(challenge=challenge, player=request.user))


class DailyRoundsView(APIView):
    throttle_scope = "play"

    @extend_schema(
        parameters=[DAY_PARAMETER],
        request=None,
        responses={200: RoundSerializer, 201: RoundSerializer, **ERROR_RESPONSES},
        summary="Start a round on a date's challenge, or get your unfinished one",
        description=(
            "The first round you start on the challenge's own day is ranked; later rounds "
            "and rounds on past days are practice. 201 when a round was created, 200 when "
            "your unfinished round is returned."
        ),
    )
    def post(self, request: Request, day: dt.date) -> Response:
        rnd, created = services.round_start_daily(player=request.user, day=day)
        return Response(
            selectors.round_payload(rnd),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


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
