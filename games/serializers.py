from rest_framework import serializers

import yatzy
from config.fields import (
    BoundedListField,
    ClosedBodySerializer,
    FlatBodySerializer,
    OptionsField,
    QueryIntegerField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
)
from games.models import Round

LEVELS = [level.value for level in Round.Level]
STATUSES = [status.value for status in Round.Status]


class RollSerializer(FlatBodySerializer):
    """Roll the dice not held. `turn` and `roll` are the state you last saw: when the
    round has moved on, the answer is 409 with its current state."""

    hold = BoundedListField(
        child=StrictIntegerField(min_value=0, max_value=99),
        max_length=10,
        default=list,
        help_text="Positions (0-based) of the dice to keep; empty on a turn's first roll.",
    )
    turn = StrictIntegerField(min_value=0, max_value=99, help_text="Turn you last saw.")
    roll = StrictIntegerField(min_value=0, max_value=99, help_text="Rolls used you last saw.")


class ScoreSerializer(FlatBodySerializer):
    """Score the dice in a box. `turn` is the turn you last saw, and `roll` (optional)
    the rolls used you last saw: when the round has moved on, the answer is 409 with its
    current state. Without `roll`, a reroll you did not see (from another tab or device)
    is scored."""

    # A box id exactly as the rules name it: " chance" is no box (as " solo" is no mode).
    category = StrictCharField(
        max_length=32, trim_whitespace=False, help_text="Box id, e.g. `three_pairs`."
    )
    turn = StrictIntegerField(min_value=0, max_value=99, help_text="Turn you last saw.")
    roll = StrictIntegerField(
        min_value=0,
        max_value=99,
        required=False,
        help_text="Rolls used you last saw (optional): given, dice rolled since are a 409.",
    )


class OpponentTurnSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    rolls = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The dice after each roll ([] on a finished game while you have an "
        "unfinished round on its dice).",
    )
    holds = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The positions held before each reroll.",
    )
    category = serializers.CharField()
    points = serializers.IntegerField(help_text="The box's points, as in the scorecard.")
    extra_bonus = serializers.IntegerField(
        help_text="The extra bonus the score earned beside the box's points (Yahtzee's "
        "joker: 100 for a further yahtzee; else 0), so the turn added points + extra_bonus."
    )


class OpponentSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=LEVELS)
    scorecard = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    upper_total = serializers.IntegerField()
    bonus = serializers.IntegerField()
    extra_bonus = serializers.IntegerField(
        help_text="Its further yatzies' points (Yahtzee's 100s, or the house rule's)."
    )
    total = serializers.IntegerField()
    turns = OpponentTurnSerializer(many=True, help_text="Its turns so far, oldest first.")


class RoundSerializer(serializers.Serializer):
    """The player's view of a round (read-only)."""

    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=[mode.value for mode in Round.Mode])
    date = serializers.DateField(allow_null=True)
    ruleset = serializers.ChoiceField(choices=list(yatzy.RULESETS))
    rules = serializers.DictField(help_text="The ruleset options in force for this round.")
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=["in_progress", "completed", "expired"])
    theme = serializers.CharField(help_text="Die skin: `christmas` in December.")
    theme_name = serializers.CharField(help_text="The die skin's name, in your language.")
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
    level = serializers.ChoiceField(
        choices=LEVELS, allow_null=True, help_text="The computer's level (computer games)."
    )
    opponent = OpponentSerializer(allow_null=True, help_text="The computer's game.")
    result = serializers.ChoiceField(
        choices=["win", "loss", "draw"],
        allow_null=True,
        help_text="For you, once a computer game is over.",
    )
    party = serializers.UUIDField(allow_null=True, help_text="Party rounds: the party.")
    seat = serializers.IntegerField(allow_null=True, help_text="Party rounds: the seat (from 0).")
    share = serializers.CharField(
        allow_null=True, help_text="Friend rounds: the code they were started from."
    )
    shareable = serializers.BooleanField(
        help_text="Whether `POST rounds/{id}/share/` takes this round: it is finished."
    )
    loss = serializers.FloatField(
        allow_null=True,
        help_text="Expected points your decisions gave away against optimal play; null until "
        "the round is analysed (completed rounds, once their day is revealed).",
    )
    luck = serializers.FloatField(
        allow_null=True,
        help_text="What the dice gave you: total - the table's expected score + loss, so "
        "total = expected - loss + luck; null until analysed.",
    )
    excluded = serializers.BooleanField(
        help_text="An administrator took this ranked round off every board (fair play)."
    )


class RoundSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=["in_progress", "completed", "expired"])
    ranked = serializers.BooleanField()
    total = serializers.IntegerField(allow_null=True)
    excluded = serializers.BooleanField(help_text="Taken off every board by an administrator.")


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
    theme_name = serializers.CharField(help_text="The die skin's name, in your language.")
    expert_total = serializers.IntegerField(
        allow_null=True,
        help_text="What the expert (optimal play) scored on the day's dice; after reveal.",
    )
    my_round = RoundSummarySerializer(
        allow_null=True, help_text="Your ranked round of the day: its total is your score."
    )
    practice_round = RoundSummarySerializer(
        allow_null=True, help_text="Your unfinished practice round of the day, if any."
    )


class GameCreateSerializer(ClosedBodySerializer):
    mode = StrictChoiceField(
        choices=[Round.Mode.SOLO.value, Round.Mode.COMPUTER.value, Round.Mode.PARTY.value]
    )
    ruleset = StrictChoiceField(
        choices=list(yatzy.RULESETS),
        required=False,
        help_text="Default: your settings' ruleset.",
    )
    options = OptionsField(
        required=False, help_text="Ruleset options; default: your settings' options."
    )
    level = StrictChoiceField(
        choices=LEVELS, required=False, help_text="Computer games: default `medium`."
    )
    seats = BoundedListField(
        child=StrictCharField(max_length=100, allow_blank=True, trim_whitespace=False),
        max_length=10,
        required=False,
        help_text="Party games: 2-4 seat names (trimmed, 1-30 characters, distinct).",
    )


class GamesQuerySerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=[mode.value for mode in Round.Mode], required=False)
    status = serializers.ChoiceField(choices=STATUSES, required=False)
    page = QueryIntegerField(min_value=1, required=False)


class SeatTotalSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=[mode.value for mode in Round.Mode])
    ruleset = serializers.ChoiceField(choices=list(yatzy.RULESETS))
    date = serializers.DateField(allow_null=True)
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=STATUSES)
    can_give_up = serializers.BooleanField(
        help_text="Whether DELETE games/{id}/ would give the game up: an unfinished solo, "
        "computer or party game (a party none of whose seats' rounds is shared)."
    )
    turn = serializers.IntegerField(help_text="The current turn (a party's: its current seat's).")
    total = serializers.IntegerField()
    level = serializers.ChoiceField(choices=LEVELS, allow_null=True)
    opponent_total = serializers.IntegerField(allow_null=True)
    result = serializers.ChoiceField(choices=["win", "loss", "draw"], allow_null=True)
    seats = SeatTotalSerializer(
        many=True, allow_null=True, help_text="Parties: each seat's total so far."
    )
    started_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(
        allow_null=True, help_text="When it ended (a party: when its last seat finished)."
    )


class MoveSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["roll", "hold", "score"])
    hold = serializers.ListField(
        child=serializers.IntegerField(), help_text="Positions to keep (a hold)."
    )
    keep = serializers.ListField(
        child=serializers.IntegerField(), help_text="The faces those positions show."
    )
    category = serializers.CharField(allow_null=True, help_text="The box (a score).")
    points = serializers.IntegerField(allow_null=True, help_text="Its points (a score).")
    expected = serializers.FloatField(help_text="Final score expected after this move.")


class HintSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    roll = serializers.IntegerField()
    dice = serializers.ListField(child=serializers.IntegerField())
    best = MoveSerializer()
    moves = MoveSerializer(many=True, help_text="Every distinct legal move, best first.")


class DecisionSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    roll = serializers.IntegerField(help_text="Rolls used when deciding.")
    dice = serializers.ListField(child=serializers.IntegerField())
    kind = serializers.ChoiceField(choices=["hold", "score"])
    played = MoveSerializer()
    best = MoveSerializer()
    loss = serializers.FloatField(help_text="Expected points given away.")


class AnalysisSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    expected_start = serializers.FloatField(help_text="Expected final score at the start.")
    loss = serializers.FloatField(help_text="Expected points given away in all.")
    decisions = DecisionSerializer(many=True)


# -- parties ----------------------------------------------------------------------------


class PartySeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    round = RoundSerializer()


class StandingSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="Equal totals share a rank (a draw).")


class PartySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=["party"])
    ruleset = serializers.ChoiceField(choices=list(yatzy.RULESETS))
    rules = serializers.DictField()
    status = serializers.ChoiceField(choices=["in_progress", "completed"])
    current_seat = serializers.IntegerField(
        allow_null=True, help_text="Whose turn it is (null once the party is over)."
    )
    seats = PartySeatSerializer(many=True)
    standings = StandingSerializer(many=True, help_text="Highest total first.")
    created_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)


class PartyRollSerializer(RollSerializer):
    """Roll for the seat whose turn it is: `seat`, `turn` and `roll` as you last saw
    them (409 with the party's state when it has moved on)."""

    seat = StrictIntegerField(min_value=0, max_value=9, help_text="Seat whose turn you saw.")


class PartyScoreSerializer(ScoreSerializer):
    """Score for the seat whose turn it is: `seat` and `turn` as you last saw them (409
    with the party's state when it has moved on)."""

    seat = StrictIntegerField(min_value=0, max_value=9, help_text="Seat whose turn you saw.")


# -- friend challenges ------------------------------------------------------------------


class ShareSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="8 characters of Crockford base32; any case.")
    url = serializers.CharField(help_text="The page a friend opens: `/f/{code}`.")


class SharePlaySerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    view = serializers.ChoiceField(choices=["blind", "target"], allow_null=True)
    status = serializers.ChoiceField(choices=STATUSES)
    total = serializers.IntegerField(allow_null=True)
    started_at = serializers.DateTimeField()


class SharePlaysSerializer(ShareSerializer):
    created_at = serializers.DateTimeField()
    plays = SharePlaySerializer(many=True, help_text="Who played your code, oldest first.")


class FriendStartSerializer(ClosedBodySerializer):
    view = StrictChoiceField(
        choices=["blind", "target"],
        help_text="`target`: see the total to beat now; `blind`: only once you finish.",
    )


class TurnLineSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    category = serializers.CharField()
    points = serializers.IntegerField()
    dice = serializers.ListField(child=serializers.IntegerField())


class CardSumsSerializer(serializers.Serializer):
    """What the engine adds to a finished scorecard (its boxes plus these are its total)."""

    upper_total = serializers.IntegerField(required=False, help_text="Once finished.")
    bonus = serializers.IntegerField(required=False, help_text="Once finished: the upper bonus.")
    extra_bonus = serializers.IntegerField(required=False, help_text="Once finished.")


class FriendRoundSerializer(CardSumsSerializer):
    """Your round of this code: its scorecard and total once it is finished, and its
    turns once both rounds are."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=STATUSES)
    theme = serializers.CharField(help_text="The round's die skin (`christmas` in December).")
    total = serializers.IntegerField(allow_null=True, help_text="Once finished.")
    scorecard = serializers.DictField(
        child=serializers.IntegerField(allow_null=True), allow_null=True
    )
    turns = TurnLineSerializer(many=True, allow_null=True, help_text="Once both are finished.")


class SharerRoundSerializer(CardSumsSerializer):
    """The sharer's round, once both rounds are finished: scorecard, total and turns."""

    scorecard = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    theme = serializers.CharField(help_text="The round's die skin (`christmas` in December).")
    total = serializers.IntegerField()
    turns = TurnLineSerializer(many=True)


class FriendViewSerializer(ShareSerializer):
    sharer = serializers.CharField(help_text="Who challenges you (display name).")
    mode = serializers.ChoiceField(choices=[mode.value for mode in Round.Mode])
    date = serializers.DateField(allow_null=True, help_text="A shared daily: its day.")
    ruleset = serializers.ChoiceField(choices=list(yatzy.RULESETS))
    options = serializers.DictField()
    counts = serializers.ChoiceField(
        choices=["ranked", "practice"],
        allow_null=True,
        help_text=(
            "A shared daily: whether your round of it is (or would be) your ranked round "
            "of the day, or practice; null for other games."
        ),
    )
    view = serializers.ChoiceField(choices=["blind", "target"], allow_null=True)
    target = serializers.IntegerField(
        allow_null=True, help_text="The sharer's total: with `target`, or once you finish."
    )
    my_round = FriendRoundSerializer(allow_null=True)
    sharer_round = SharerRoundSerializer(
        allow_null=True, help_text="Only once both rounds are finished."
    )


# -- rules ------------------------------------------------------------------------------


class ExampleSerializer(serializers.Serializer):
    dice = serializers.ListField(child=serializers.IntegerField())
    points = serializers.IntegerField(help_text="What the engine scores these dice in the box.")


class BoxRulesSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The box id the API takes, e.g. `three_pairs`.")
    name = serializers.CharField(help_text="Its name in your language, as score pads print it.")
    section = serializers.ChoiceField(choices=["upper", "lower"])
    description = serializers.CharField()
    example = ExampleSerializer(help_text="A roll that scores in this box.")


class OptionRulesSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The option, as `options` and the query take it.")
    title = serializers.CharField()
    description = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=["flag", "points", "choice", "pair"],
        help_text=(
            "`flag`: true or false; `points`: an integer from `minimum` to `maximum`; "
            "`choice`: one of `choices`; `pair`: [threshold, points], integers from "
            "`minimum` to `maximum` (`75,50` in a query)."
        ),
    )
    default = serializers.JSONField()
    value = serializers.JSONField(help_text="The value in force in this answer.")
    choices = serializers.ListField(child=serializers.JSONField(), allow_null=True)
    minimum = serializers.IntegerField(allow_null=True)
    maximum = serializers.IntegerField(allow_null=True)


class UpperBonusSerializer(serializers.Serializer):
    threshold = serializers.IntegerField()
    points = serializers.IntegerField()
    text = serializers.CharField()


class RulesetRulesSerializer(serializers.Serializer):
    name = serializers.ChoiceField(choices=list(yatzy.RULESETS))
    title = serializers.CharField()
    summary = serializers.CharField()
    dice = serializers.IntegerField()
    turns = serializers.IntegerField(help_text="One per box.")
    rolls_per_turn = serializers.IntegerField()
    rules = serializers.ListField(
        child=serializers.CharField(), help_text="How a turn goes, and the options that change it."
    )
    upper_bonus = UpperBonusSerializer()
    max_total = serializers.IntegerField(help_text="The highest total these rules allow.")
    options = OptionRulesSerializer(many=True)
    boxes = BoxRulesSerializer(many=True, help_text="In printed order.")
