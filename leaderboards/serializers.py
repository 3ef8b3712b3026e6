from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from config.fields import QueryIntegerField
from leaderboards.selectors import Cursor


class BoardQuerySerializer(serializers.Serializer):
    """Query parameters every board accepts."""

    page = QueryIntegerField(min_value=1, required=False, default=1)
    around = serializers.ChoiceField(
        choices=["me"], required=False, help_text="`me`: the entries around you, not a page."
    )
    season = serializers.SlugField(required=False, help_text="A season's slug.")
    cursor = serializers.CharField(
        required=False,
        help_text="Set by the `next` and `previous` links: where the page starts or ends.",
    )

    def validate_cursor(self, token: str) -> Cursor:
        try:
            return Cursor.decode(token)
        except ValueError:
            raise serializers.ValidationError(
                _("Not a cursor from this board's links."), code="invalid"
            ) from None


class BoardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Competition rank: ties share it (1, 2, 2, 4).")
    username = serializers.CharField()
    display_name = serializers.CharField()
    value = serializers.IntegerField(
        help_text="Score, best score, longest streak or advent sum, by board."
    )
    achieved_at = serializers.DateTimeField(help_text="Earlier first within a tie.")
    current = serializers.IntegerField(
        required=False, help_text="Streak boards only: the current streak."
    )


class ExpertLineSerializer(serializers.Serializer):
    value = serializers.IntegerField(help_text="What optimal play scored on the day's dice.")
    rank = serializers.IntegerField(help_text="The rank that score has among the players.")


class _PageSerializer(serializers.Serializer):
    """What every board's page has."""

    name = serializers.CharField(help_text="The board's name, in your language.")
    count = serializers.IntegerField(help_text="Entries on the board.")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)


class BoardPageSerializer(_PageSerializer):
    """One page of a board, best first, with your own line."""

    results = BoardEntrySerializer(many=True)
    me = BoardEntrySerializer(allow_null=True, help_text="Your line, or null.")
    frozen = serializers.BooleanField(
        required=False, help_text="Daily boards: the day is closed and the ranks are final."
    )
    expert = ExpertLineSerializer(
        required=False,
        allow_null=True,
        help_text="Daily boards, once the day is revealed: the expert's score on its dice.",
    )


class DecisionsEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="Competition rank, lowest loss first: losses equal to the hundredth tie."
    )
    username = serializers.CharField()
    display_name = serializers.CharField()
    value = serializers.FloatField(
        help_text="Expected points lost to the decisions (a day's), or their mean over the "
        "analysed days, in points to the hundredth."
    )
    achieved_at = serializers.DateTimeField(help_text="Earlier first within a tie.")


class DecisionsBoardPageSerializer(_PageSerializer):
    """One page of a revealed day's decisions board, lowest loss first, with your own
    line."""

    results = DecisionsEntrySerializer(many=True)
    me = DecisionsEntrySerializer(allow_null=True, help_text="Your line, or null.")
    analysed = serializers.BooleanField(
        required=False,
        help_text="A day's board: every completed ranked round of the day is analysed.",
    )
    min_days = serializers.IntegerField(
        required=False, help_text="Mean boards: the analysed days a player needs to be on it."
    )


class AdventDoorSerializer(serializers.Serializer):
    day = serializers.IntegerField()
    date = serializers.DateField()
    state = serializers.ChoiceField(
        choices=["locked", "open", "played", "missed", "empty"],
        help_text="`empty`: a past day without a daily challenge.",
    )
    score = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True, help_text="Rank on that day's board.")
    replay = serializers.CharField(
        allow_null=True, help_text="Past doors: POST here to start an unranked replay."
    )


class AdventCalendarSerializer(serializers.Serializer):
    year = serializers.IntegerField()
    theme = serializers.CharField()
    theme_name = serializers.CharField(help_text="The die skin's name, in your language.")
    doors = AdventDoorSerializer(many=True)
    total = serializers.IntegerField(help_text="Sum of your ranked scores of December 1-24.")
    rank = serializers.IntegerField(allow_null=True, help_text="Your rank on the advent board.")
    previous_year = serializers.IntegerField(
        allow_null=True, help_text="The year before, when its December had dailies."
    )
