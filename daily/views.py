import datetime as dt

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.openapi import ERROR_RESPONSES
from daily import clock, selectors, services
from daily.serializers import ChallengeSerializer
from games.selectors import round_payload
from games.serializers import RoundSerializer


class DailyTodayView(APIView):
    @extend_schema(
        responses={200: ChallengeSerializer, **ERROR_RESPONSES},
        summary="Today's challenge",
        operation_id="daily_today",
    )
    def get(self, request: Request) -> Response:
        challenge = services.challenge_for_play(day=clock.today())
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
        challenge = services.challenge_for_play(day=day)
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
        rnd, created = services.daily_round_start(player=request.user, day=day)
        return Response(
            round_payload(rnd), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )
