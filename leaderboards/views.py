from abc import ABC, abstractmethod
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import player_of
from config.openapi import ERROR_RESPONSES
from leaderboards import boards, selectors
from leaderboards.links import page_link
from leaderboards.serializers import (
    AdventCalendarSerializer,
    BoardPageSerializer,
    BoardQuerySerializer,
    DecisionsBoardPageSerializer,
)

BOARD_PARAMETERS = [
    OpenApiParameter("page", int, description="1-based page number."),
    OpenApiParameter(
        "around", str, enum=["me"], description="The entries around you instead of a page."
    ),
    OpenApiParameter("season", str, description="A season's slug: the season's board."),
    OpenApiParameter(
        "cursor", str, description="Set by the `next`/`previous` links; keep it as given."
    ),
]


def _board_response(request: Request, board: selectors.Board, query: dict[str, Any]) -> Response:
    view = selectors.board_view(
        board=board,
        player=player_of(request),
        around=query.get("around") == "me",
        page=query["page"],
        cursor=query.get("cursor"),
    )
    url = request.build_absolute_uri()
    body: dict[str, Any] = {
        "name": boards.board_name(board.kind),
        "count": view.count,
        "next": page_link(url, view.page, view.after, step=1) if view.has_next else None,
        "previous": page_link(url, view.page, view.before, step=-1) if view.has_previous else None,
        "results": view.results,
        "me": view.me,
    }
    if board.kind == boards.DAILY:
        body["frozen"] = board.frozen
        body["expert"] = selectors.board_expert(board=board)
    if board.analysed is not None:
        body["analysed"] = board.analysed
    if board.kind == boards.DECISIONS_MEAN:
        body["min_days"] = boards.DECISIONS_MIN_DAYS
    return Response(body)


def _query(request: Request) -> dict[str, Any]:
    serializer = BoardQuerySerializer(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# A page of one board, or the window around the caller; each subclass names its board
# from the path and the `season` query parameter. (A comment, not a docstring: the
# schema would show a docstring as the operation's description.)
class _BoardView(APIView, ABC):
    @abstractmethod
    def board(self, season: str | None, **path: Any) -> selectors.Board:
        """The board this view shows, from its path and the ``season`` parameter."""

    @extend_schema(
        parameters=BOARD_PARAMETERS,
        responses={200: BoardPageSerializer, **ERROR_RESPONSES},
    )
    def get(self, request: Request, **path: Any) -> Response:
        query = _query(request)
        return _board_response(request, self.board(query.get("season"), **path), query)


@extend_schema_view(
    get=extend_schema(
        summary="Today's dice: the ranked scores of one date",
        description="Today or a past date; future dates are 404.",
    )
)
class DailyBoardView(_BoardView):
    def board(self, season: str | None, **path: Any) -> selectors.Board:
        return selectors.board_daily(day=path["day"], season_slug=season)


@extend_schema_view(get=extend_schema(summary="Best day: each player's best ranked daily score"))
class BestDayBoardView(_BoardView):
    def board(self, season: str | None, **path: Any) -> selectors.Board:
        return selectors.board_ranked(kind=boards.BEST, season_slug=season)


@extend_schema_view(
    get=extend_schema(
        summary="Most days in a row: longest streak, with the current streak beside it"
    )
)
class StreakBoardView(_BoardView):
    def board(self, season: str | None, **path: Any) -> selectors.Board:
        return selectors.board_ranked(kind=boards.STREAK, season_slug=season)


@extend_schema_view(
    get=extend_schema(summary="Advent: the sum of each player's ranked scores of December 1-24")
)
class AdventBoardView(_BoardView):
    def board(self, season: str | None, **path: Any) -> selectors.Board:
        return selectors.board_advent(year=path["year"], season_slug=season)


@extend_schema_view(
    get=extend_schema(
        operation_id="leaderboards_decisions_day_retrieve",
        summary="Best decisions of one date: each analysed ranked round's loss, lowest first",
        description="Once a day is revealed, its ranked rounds are analysed (SPEC §12); "
        "`value` is the expected points a round's decisions gave away against optimal "
        "play, and ties share a rank, compared in hundredths of a point. `analysed` is "
        "false while the analysis has not reached every round. Future dates are 404.",
        responses={200: DecisionsBoardPageSerializer, **ERROR_RESPONSES},
    )
)
class DecisionsDayBoardView(_BoardView):
    def board(self, season: str | None, **path: Any) -> selectors.Board:
        return selectors.board_decisions(day=path["day"], season_slug=season)


@extend_schema_view(
    get=extend_schema(
        operation_id="leaderboards_decisions_retrieve",
        summary="Best decisions on average: each player's mean loss over their analysed days",
        description="Players with at least `min_days` analysed days; overall, or of the "
        "season named by `season` (its slug or id).",
        responses={200: DecisionsBoardPageSerializer, **ERROR_RESPONSES},
    )
)
class DecisionsBoardView(_BoardView):
    def board(self, season: str | None, **path: Any) -> selectors.Board:
        return selectors.board_decisions(season_slug=season)


class AdventCalendarView(APIView):
    @extend_schema(
        responses={200: AdventCalendarSerializer, **ERROR_RESPONSES},
        summary="Your advent calendar: 24 doors, one per daily challenge of December 1-24",
    )
    def get(self, request: Request, year: int) -> Response:
        calendar = selectors.advent_calendar(player=player_of(request), year=year)
        for door in calendar["doors"]:
            replayable = door.pop("replayable")
            door["replay"] = reverse("daily-rounds", args=[door["date"]]) if replayable else None
        return Response(calendar)
