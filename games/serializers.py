from rest_framework import serializers

from config.fields import BoundedListField, StrictCharField, StrictIntegerField


class RollSerializer(serializers.Serializer):
    hold = BoundedListField(
        child=StrictIntegerField(min_value=0, max_value=99),
        max_length=10,
        default=list,
        help_text="Positions (0-based) of the dice to keep; empty on a turn's first roll.",
    )
    turn = StrictIntegerField(min_value=0, max_value=99, help_text="Turn you last saw.")
    roll = StrictIntegerField(min_value=0, max_value=99, help_text="Rolls used you last saw.")


class ScoreSerializer(serializers.Serializer):
    category = StrictCharField(max_length=32, help_text="Box id, e.g. `three_pairs`.")
    turn = StrictIntegerField(min_value=0, max_value=99, help_text="Turn you last saw.")


class RoundSerializer(serializers.Serializer):
    """The player's view of a round (read-only)."""

    id = serializers.UUIDField()
    mode = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    ruleset = serializers.ChoiceField(choices=["maxi", "yatzy", "yahtzee"])
    rules = serializers.DictField(help_text="The ruleset options in force for this round.")
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=["in_progress", "completed", "expired"])
    theme = serializers.CharField(help_text="Die skin: `christmas` in December.")
    turn = serializers.IntegerField(help_text="0-based index of the current turn.")
    turns = serializers.IntegerField(help_text="Number of turns (boxes) in the game.")
    roll = serializers.IntegerField(help_text="Rolls used this turn.")
    rolls_left = serializers.IntegerField()
    dice = serializers.ListField(
        child=serializers.IntegerField(), help_text="Empty until the turn's first roll."
    )
    scorecard = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    options = serializers.DictField(
        child=serializers.IntegerField(), help_text="Legal boxes now and the points each gives."
    )
    upper_total = serializers.IntegerField()
    bonus = serializers.IntegerField()
    extra_bonus = serializers.IntegerField()
    total = serializers.IntegerField()
    actions = serializers.ListField(child=serializers.DictField(), help_text="The action log.")
    commitment = serializers.CharField(help_text="sha256 of the seed, hex.")
    seed = serializers.CharField(allow_null=True, help_text="Hex; null until revealed.")
    started_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)


class RoundSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=["in_progress", "completed", "expired"])
    ranked = serializers.BooleanField()
    total = serializers.IntegerField(allow_null=True)


class ChallengeSerializer(serializers.Serializer):
    """A day's challenge as a player sees it (read-only)."""

    date = serializers.DateField()
    ruleset = serializers.CharField()
    rules = serializers.DictField()
    commitment = serializers.CharField(help_text="sha256 of the seed, hex; public from the start.")
    seed = serializers.CharField(allow_null=True, help_text="Hex; null until reveal_at.")
    opens_at = serializers.DateTimeField()
    closes_at = serializers.DateTimeField(help_text="When the day resets: no new ranked round.")
    reveal_at = serializers.DateTimeField(help_text="End of the grace period; the seed is shown.")
    time_zone = serializers.CharField()
    theme = serializers.CharField()
    my_round = RoundSummarySerializer(
        allow_null=True, help_text="Your ranked round of the day: its total is your score."
    )
    practice_round = RoundSummarySerializer(
        allow_null=True, help_text="Your unfinished practice round of the day, if any."
    )
