import datetime as dt
from uuid import UUID

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import yatzy
from accounts.auth import player_of
from config.api_errors import NotFoundError, error_text
from config.openapi import ERROR_RESPONSES, ErrorSerializer
from config.parsers import body_checked
from daily import clock
from daily.services import challenge_for_play
from games import rules, selectors, services
from games.serializers import (
    AnalysisSerializer,
    ChallengeSerializer,
    FriendStartSerializer,
    FriendViewSerializer,
    GameCreateSerializer,
    GamesQuerySerializer,
    GameSummarySerializer,
    HintSerializer,
    PartyRollSerializer,
    PartyScoreSerializer,
    PartySerializer,
    RollSerializer,
    RoundSerializer,
    RulesetRulesSerializer,
    ScoreSerializer,
    SharePlaysSerializer,
    ShareSerializer,
)

# A party action's answers: a seat the party does not have is 400, another seat's turn
# the 409 of every stale action.
PARTY_ACT_RESPONSES = {
    **ERROR_RESPONSES,
    400: OpenApiResponse(
        ErrorSerializer,
        description="Illegal action or bad input; `invalid_seat`: the party has no such seat.",
    ),
    409: OpenApiResponse(
        ErrorSerializer,
        description="Stale state, or another seat's turn: `current` is the party's state.",
    ),
}

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
            player=player_of(request),
            mode=query.validated_data.get("mode"),
            status=query.validated_data.get("status"),
        )
        page = self.paginate_queryset(rounds)
        assert page is not None
        return self.get_paginated_response([selectors.game_summary(rnd) for rnd in page])

    @extend_schema(
        request=GameCreateSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                description=(
                    "Optional, 1-100 visible ASCII characters but the comma (a UUID, "
                    "say), new for each game: the same request sent again with the same "
                    "key (its answer was lost) answers the game the first one started "
                    "instead of starting another; the key asking for another game is 409 "
                    "`idempotency_key_reused`."
                ),
            )
        ],
        responses={
            201: PolymorphicProxySerializer(
                component_name="NewGame",
                serializers={
                    "solo": RoundSerializer,
                    "computer": RoundSerializer,
                    "party": PartySerializer,
                },
                resource_type_field_name="mode",
            ),
            **ERROR_RESPONSES,
            400: OpenApiResponse(
                ErrorSerializer,
                description=(
                    "Bad input or rules (`invalid_input`, the engine's codes), or a quota: "
                    "`too_many_unfinished_games` (20 outside the daily), "
                    "`custom_tables_quota` (your games need the most strategy tables for "
                    "other options one player may ask for), `custom_tables_full` (the "
                    "server keeps no more of them; a game with these options would have "
                    "no hints), `invalid_seats`; `invalid_idempotency_key`."
                ),
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`idempotency_key_reused`: the key started a game with other fields.",
            ),
            503: UNAVAILABLE[503],
        },
        summary="Start a solo, computer or party game",
        description=(
            "A new round on 32 random bytes from the server: its commitment is shown now, "
            "its seed once the game is over. Ruleset and options default to your settings "
            "and are fixed for the game. A computer game's opponent plays each of your "
            "turns after you, on the same dice. A party (`seats`: 2-4 names) answers with "
            "the party: a round per seat, each on its own dice."
        ),
    )
    def post(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = services.game_start(
            player=player_of(request),
            request_key=request.headers.get("Idempotency-Key"),
            **serializer.validated_data,
        )
        return Response(selectors.game_payload(game), status=status.HTTP_201_CREATED)


ABANDON_RESPONSES = {
    204: None,
    **ERROR_RESPONSES,
    400: OpenApiResponse(
        ErrorSerializer,
        description="`abandon_not_allowed`: a daily or friend round, which cannot be given up.",
    ),
    409: OpenApiResponse(ErrorSerializer, description="`game_finished`: the game is over."),
}

ABANDON_DESCRIPTION = (
    "The game is deleted with its rounds and never shows its seed; it no longer counts "
    "among your 20 unfinished games. Solo, computer and party games only. Of a roll or "
    "score racing with it, one wins: the action first (409 `game_finished` if it ended "
    "the game), or the give-up (the action is 404). Sent again, it is 404."
)


class GameDetailView(APIView):
    throttle_scope = "play"

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "game_id",
                OpenApiTypes.UUID,
                OpenApiParameter.PATH,
                description="A game's `id` as the games list shows it (a party's is the party's).",
            )
        ],
        responses=ABANDON_RESPONSES,
        summary="Give up an unfinished solo, computer or party game",
        description=ABANDON_DESCRIPTION,
    )
    def delete(self, request: Request, game_id: UUID) -> Response:
        body_checked(request)
        services.game_abandon(game_id=game_id, player=player_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundHintView(APIView):
    throttle_scope = "advice"

    @extend_schema(
        responses={200: HintSerializer, **ERROR_RESPONSES, **UNAVAILABLE},
        summary="The best move now, and every other legal move",
    )
    def get(self, request: Request, round_id: UUID) -> Response:
        rnd = selectors.round_get_for_player(round_id=round_id, player=player_of(request))
        return Response(selectors.round_hint(rnd))


class RoundAnalysisView(APIView):
    throttle_scope = "advice"

    @extend_schema(
        responses={200: AnalysisSerializer, **ERROR_RESPONSES, **UNAVAILABLE},
        summary="Every decision of a finished round against the best one",
    )
    def get(self, request: Request, round_id: UUID) -> Response:
        rnd = selectors.round_get_for_player(round_id=round_id, player=player_of(request))
        return Response(selectors.round_analysis(rnd))


class DailyTodayView(APIView):
    @extend_schema(
        responses={200: ChallengeSerializer, **ERROR_RESPONSES},
        summary="Today's challenge",
        operation_id="daily_today",
    )
    def get(self, request: Request) -> Response:
        challenge = challenge_for_play(day=clock.today())
        return Response(selectors.challenge_payload(challenge=challenge, player=player_of(request)))


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
        return Response(selectors.challenge_payload(challenge=challenge, player=player_of(request)))


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
        body_checked(request)
        rnd, created = services.round_start_daily(player=player_of(request), day=day)
        return Response(
            selectors.round_payload(rnd),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class RoundDetailView(APIView):
    @extend_schema(responses={200: RoundSerializer, **ERROR_RESPONSES}, summary="A round's state")
    def get(self, request: Request, round_id: UUID) -> Response:
        rnd = selectors.round_get_for_player(round_id=round_id, player=player_of(request))
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
            round_id=round_id, player=player_of(request), **serializer.validated_data
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
            round_id=round_id, player=player_of(request), **serializer.validated_data
        )
        return Response(selectors.round_payload(rnd, game))


# -- parties ----------------------------------------------------------------------------


class PartyDetailView(APIView):
    @extend_schema(responses={200: PartySerializer, **ERROR_RESPONSES}, summary="A party")
    def get(self, request: Request, party_id: UUID) -> Response:
        return Response(selectors.party_view(party_id=party_id, player=player_of(request)))

    @extend_schema(
        responses=ABANDON_RESPONSES,
        summary="Give up an unfinished party",
        description=ABANDON_DESCRIPTION,
    )
    def delete(self, request: Request, party_id: UUID) -> Response:
        body_checked(request)
        services.party_abandon(party_id=party_id, player=player_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PartyRollView(APIView):
    throttle_scope = "play"

    @extend_schema(
        request=PartyRollSerializer,
        responses={200: PartySerializer, **PARTY_ACT_RESPONSES},
        summary="Roll for the seat whose turn it is",
    )
    def post(self, request: Request, party_id: UUID) -> Response:
        serializer = PartyRollSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        party = services.party_act(
            party_id=party_id, player=player_of(request), action="roll", **serializer.validated_data
        )
        return Response(selectors.party_payload(party))


class PartyScoreView(APIView):
    throttle_scope = "play"

    @extend_schema(
        request=PartyScoreSerializer,
        responses={200: PartySerializer, **PARTY_ACT_RESPONSES},
        summary="Fill a box for the seat whose turn it is; the next seat's turn begins",
    )
    def post(self, request: Request, party_id: UUID) -> Response:
        serializer = PartyScoreSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        party = services.party_act(
            party_id=party_id,
            player=player_of(request),
            action="score",
            **serializer.validated_data,
        )
        return Response(selectors.party_payload(party))


# -- friend challenges ------------------------------------------------------------------

CODE_PARAMETER = OpenApiParameter(
    "code", str, OpenApiParameter.PATH, description="A friend code, e.g. `7KQ3-0ABC` (any case)."
)


class RoundShareView(APIView):
    @extend_schema(
        request=None,
        responses={200: ShareSerializer, **ERROR_RESPONSES},
        summary="Share your finished round: its friend code (the same code every time)",
    )
    def post(self, request: Request, round_id: UUID) -> Response:
        body_checked(request)
        share = services.share_create(round_id=round_id, player=player_of(request))
        return Response(
            {"code": share.code, "url": request.build_absolute_uri(selectors.share_url(share))}
        )

    @extend_schema(
        responses={200: SharePlaysSerializer, **ERROR_RESPONSES},
        summary="Who played your round's code, and their scores",
    )
    def get(self, request: Request, round_id: UUID) -> Response:
        share = selectors.share_of_round(round_id=round_id, player=player_of(request))
        body = selectors.share_plays(share)
        body["url"] = request.build_absolute_uri(body["url"])
        return Response(body)


class FriendView(APIView):
    throttle_scope = "friend"

    @extend_schema(
        parameters=[CODE_PARAMETER],
        responses={200: FriendViewSerializer, **ERROR_RESPONSES},
        summary="A friend challenge: who shared it, its rules, and how you stand",
        description=(
            "A revoked code is 404 `share_not_found`, except to a friend who played it: "
            "they keep the comparison. Before a shared daily's day is revealed, the "
            "sharer's turns show boxes and points with no dice (`dice: []`)."
        ),
    )
    def get(self, request: Request, code: str) -> Response:
        player = player_of(request)
        share = selectors.share_get(code=code, player=player)
        body = selectors.friend_view(share=share, player=player)
        body["url"] = request.build_absolute_uri(body["url"])
        return Response(body)

    @extend_schema(
        parameters=[CODE_PARAMETER],
        responses={204: None, **ERROR_RESPONSES},
        summary="Revoke your code: no new rounds; 404 to all but the friends who played it",
        description="Idempotent: revoking your code again is 204 and changes nothing.",
    )
    def delete(self, request: Request, code: str) -> Response:
        body_checked(request)
        services.share_revoke(code=code, player=player_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class FriendRoundsView(APIView):
    throttle_scope = "friend"

    @extend_schema(
        parameters=[CODE_PARAMETER],
        request=FriendStartSerializer,
        responses={
            200: RoundSerializer,
            201: RoundSerializer,
            **ERROR_RESPONSES,
            409: OpenApiResponse(
                ErrorSerializer,
                description=(
                    "`same_dice_unfinished`: you have an unfinished round on these same "
                    "dice (from another code); `current` is that round. "
                    "`start_conflict`: a concurrent start; retry."
                ),
            ),
        },
        summary="Play a friend's code: your round on the same dice, ruleset and options",
        description=(
            "201 when a round was started, 200 when your unfinished round of this code is "
            "returned. A shared daily is that day's daily round: ranked if it is your "
            "first round on the day itself. A revoked code starts nothing (404)."
        ),
    )
    def post(self, request: Request, code: str) -> Response:
        serializer = FriendStartSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd, created = services.friend_round_start(
            code=code, player=player_of(request), view=serializer.validated_data["view"]
        )
        return Response(
            selectors.round_payload(rnd),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


# -- rules ------------------------------------------------------------------------------


class RulesetListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: RulesetRulesSerializer(many=True), **ERROR_RESPONSES},
        summary="The rules of every ruleset, with their default options",
        description="No login needed; with a token, in your profile language.",
    )
    def get(self, request: Request) -> Response:
        return Response([rules.ruleset_rules(yatzy.get_ruleset(name)) for name in yatzy.RULESETS])


class RulesetDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "name", str, OpenApiParameter.PATH, enum=list(yatzy.RULESETS), description="Ruleset"
            ),
            OpenApiParameter(
                "options",
                OpenApiTypes.OBJECT,
                OpenApiParameter.QUERY,
                style="form",
                explode=True,
                description=(
                    "Any of the ruleset's options, e.g. `?full_straight_points=30`, "
                    "`?forced_order=true`, `?upper_bonus=75,50`; checked by the engine "
                    "(400 `unknown_option`, `option_not_applicable`, `invalid_option`)."
                ),
            ),
        ],
        responses={200: RulesetRulesSerializer, **ERROR_RESPONSES},
        summary="The rules of one ruleset, with the options given in the query",
        description=(
            "Dice, turns, the upper bonus, the maximum total, the options (defaults, "
            "allowed values, the values in force) and the boxes in printed order, each "
            "with its name, a description and an example roll scored by the engine. An "
            "unknown ruleset is 404 `unknown_ruleset`."
        ),
    )
    def get(self, request: Request, name: str) -> Response:
        try:
            rs = rules.ruleset_from_query(name, request.query_params)
        except yatzy.UnknownRulesetError as exc:
            raise NotFoundError(error_text(exc), code=exc.code) from exc
        return Response(rules.ruleset_rules(rs))
