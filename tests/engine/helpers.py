"""Test helpers: a game with scripted dice, a random player, and the box maxima."""

import random
from collections.abc import Iterable

from yatzy import Category, Game, Ruleset, get_ruleset


class ScriptedGame(Game):
    """A real Game whose dice come from a script instead of the seed.

    It overrides only ``Game._draw``, the single source of dice, so every other rule
    runs through the production code.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset, bytes(32))
        self.script: list[tuple[int, ...]] = []

    def _draw(self, turn: int, roll: int, count: int) -> tuple[int, ...]:
        values = self.script.pop(0)
        assert len(values) == count, f"script gave {values} for {count} dice"
        return values

    def roll_dice(self, dice: Iterable[int], hold: Iterable[int] = ()) -> tuple[int, ...]:
        """Roll, the non-held dice showing ``dice`` in ascending position order."""
        self.script.append(tuple(dice))
        return self.roll(hold)

    def play(self, dice: Iterable[int], category: str) -> int:
        """One turn: a single roll showing ``dice``, then fill ``category``."""
        self.roll_dice(dice)
        return self.score(category)


def play_randomly(game: Game, rnd: random.Random, max_actions: int | None = None) -> None:
    """Take random legal actions until the game is over (or ``max_actions`` were taken)."""
    taken = 0
    while not game.is_over and (max_actions is None or taken < max_actions):
        if game.rolls_used == 0:
            game.roll()
        elif game.rolls_left and rnd.random() < 0.6:
            game.roll([p for p in range(game.ruleset.dice_count) if rnd.random() < 0.5])
        else:
            game.score(rnd.choice(list(game.options())))
        taken += 1


# The most each box can score (SPEC §2), default options.
MAXIMA: dict[str, dict[Category, int]] = {
    "yatzy": {
        "ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
        "one_pair": 12, "two_pairs": 22, "three_of_a_kind": 18, "four_of_a_kind": 24,
        "small_straight": 15, "large_straight": 20, "full_house": 28, "chance": 30,
        "yatzy": 50,
    },
    "maxi": {
        "ones": 6, "twos": 12, "threes": 18, "fours": 24, "fives": 30, "sixes": 36,
        "one_pair": 12, "two_pairs": 22, "three_pairs": 30, "three_of_a_kind": 18,
        "four_of_a_kind": 24, "five_of_a_kind": 30, "small_straight": 15,
        "large_straight": 20, "full_straight": 21, "full_house": 28, "villa": 33,
        "tower": 34, "chance": 36, "maxi_yatzy": 100,
    },
    "yahtzee": {
        "ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
        "three_of_a_kind": 30, "four_of_a_kind": 30, "full_house": 25,
        "small_straight": 30, "large_straight": 40, "yahtzee": 50, "chance": 30,
    },
}  # fmt: skip

# A spread of option combinations for the properties; every option appears somewhere.
RULESET_VARIANTS: list[Ruleset] = [
    get_ruleset("maxi"),
    get_ruleset("yatzy"),
    get_ruleset("yahtzee"),
    get_ruleset("maxi", saved_rolls=True, extra_yatzy_bonus=50, full_straight_points=30),
    get_ruleset("maxi", forced_order=True, upper_bonus=(75, 50)),
    get_ruleset("yatzy", saved_rolls=True, five_of_a_kind_full_house=True, extra_yatzy_bonus=25),
    get_ruleset("yatzy", forced_order=True),
    get_ruleset("yahtzee", saved_rolls=True, five_of_a_kind_full_house=True),
    get_ruleset("yahtzee", forced_order=True, upper_bonus=[60, 40]),
]
