from rest_framework import serializers


class MyRoundSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.CharField()
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
    my_round = MyRoundSerializer(allow_null=True)
