"""What a person reads about a box or an option: the one place for their display names,
descriptions and example rolls. The engine knows box ids and points only; the points of
each example come from the engine (``Ruleset.score``), never from here.

Names are the ones players use, not word-for-word translations, so each carries the
``box`` context for the translators ("Chance" the box, not chance the word).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

BOX_NAMES: dict[str, Promise] = {
    "ones": pgettext_lazy("box", "Ones"),
    "twos": pgettext_lazy("box", "Twos"),
    "threes": pgettext_lazy("box", "Threes"),
    "fours": pgettext_lazy("box", "Fours"),
    "fives": pgettext_lazy("box", "Fives"),
    "sixes": pgettext_lazy("box", "Sixes"),
    "one_pair": pgettext_lazy("box", "One pair"),
    "two_pairs": pgettext_lazy("box", "Two pairs"),
    "three_pairs": pgettext_lazy("box", "Three pairs"),
    "three_of_a_kind": pgettext_lazy("box", "Three of a kind"),
    "four_of_a_kind": pgettext_lazy("box", "Four of a kind"),
    "five_of_a_kind": pgettext_lazy("box", "Five of a kind"),
    "small_straight": pgettext_lazy("box", "Small straight"),
    "large_straight": pgettext_lazy("box", "Large straight"),
    "full_straight": pgettext_lazy("box", "Full straight"),
    "full_house": pgettext_lazy("box", "Full house"),
    "villa": pgettext_lazy("box", "Villa"),
    "tower": pgettext_lazy("box", "Tower"),
    "chance": pgettext_lazy("box", "Chance"),
    "yatzy": pgettext_lazy("box", "Yatzy"),
    "maxi_yatzy": pgettext_lazy("box", "Maxi Yatzy"),
    "yahtzee": pgettext_lazy("box", "Yahtzee"),
}

RULESET_NAMES: dict[str, Promise] = {
    "maxi": pgettext_lazy("ruleset", "Maxi Yatzy"),
    "yatzy": pgettext_lazy("ruleset", "Yatzy"),
    "yahtzee": pgettext_lazy("ruleset", "Yahtzee"),
}

_UPPER = _("The sum of the dice showing this face.")

# Scandinavian scoring (yatzy, maxi): only the dice forming the combination count.
_SCANDINAVIAN: dict[str, Promise] = {
    "ones": _UPPER,
    "twos": _UPPER,
    "threes": _UPPER,
    "fours": _UPPER,
    "fives": _UPPER,
    "sixes": _UPPER,
    "one_pair": _("The highest pair: two dice of one face."),
    "two_pairs": _("Two pairs of different faces, the best two."),
    "three_pairs": _("Three pairs of different faces."),
    "three_of_a_kind": _("Three dice of one face."),
    "four_of_a_kind": _("Four dice of one face."),
    "five_of_a_kind": _("Five dice of one face."),
    "small_straight": _("1-2-3-4-5."),
    "large_straight": _("2-3-4-5-6."),
    "full_straight": _("1-2-3-4-5-6."),
    "full_house": _("Three of one face and a pair of another: the sum of those five dice."),
    "villa": _("Two different three of a kinds: the sum of the six dice."),
    "tower": _("Four of one face and a pair of another: the sum of the six dice."),
    "chance": _("The sum of all dice."),
    "yatzy": _("All five dice equal."),
    "maxi_yatzy": _("All six dice equal."),
}

_YAHTZEE: dict[str, Promise] = {
    **{box: _UPPER for box in ("ones", "twos", "threes", "fours", "fives", "sixes")},
    "three_of_a_kind": _("At least three equal dice: the sum of all dice."),
    "four_of_a_kind": _("At least four equal dice: the sum of all dice."),
    "full_house": _("Three of one face and two of another."),
    "small_straight": _("Any four faces in a row."),
    "large_straight": _("Five faces in a row."),
    "yahtzee": _("All five dice equal; each further Yahtzee earns a bonus."),
    "chance": _("The sum of all dice."),
}

DESCRIPTIONS: dict[str, dict[str, Promise]] = {
    "maxi": _SCANDINAVIAN,
    "yatzy": _SCANDINAVIAN,
    "yahtzee": _YAHTZEE,
}

# An example roll per box (SPEC §2's examples where it has one), as many dice as the game.
EXAMPLES: dict[str, dict[str, tuple[int, ...]]] = {
    "maxi": {
        "ones": (1, 1, 3, 4, 1, 6),
        "twos": (2, 2, 2, 5, 6, 1),
        "threes": (3, 3, 3, 3, 1, 2),
        "fours": (4, 4, 4, 4, 2, 6),
        "fives": (5, 5, 5, 2, 1, 3),
        "sixes": (6, 6, 6, 6, 1, 2),
        "one_pair": (3, 3, 5, 5, 6, 1),
        "two_pairs": (3, 3, 5, 5, 6, 6),
        "three_pairs": (2, 2, 4, 4, 6, 6),
        "three_of_a_kind": (4, 4, 4, 6, 1, 2),
        "four_of_a_kind": (2, 2, 2, 2, 5, 6),
        "five_of_a_kind": (5, 5, 5, 5, 5, 1),
        "small_straight": (1, 2, 3, 4, 5, 5),
        "large_straight": (2, 3, 4, 5, 6, 6),
        "full_straight": (1, 2, 3, 4, 5, 6),
        "full_house": (6, 6, 6, 5, 5, 1),
        "villa": (3, 3, 3, 5, 5, 5),
        "tower": (4, 4, 4, 4, 2, 2),
        "chance": (6, 5, 4, 4, 2, 1),
        "maxi_yatzy": (4, 4, 4, 4, 4, 4),
    },
    "yatzy": {
        "ones": (1, 1, 3, 4, 1),
        "twos": (2, 2, 2, 5, 6),
        "threes": (3, 3, 3, 1, 2),
        "fours": (4, 4, 4, 2, 6),
        "fives": (5, 5, 5, 2, 1),
        "sixes": (6, 6, 6, 1, 2),
        "one_pair": (3, 3, 5, 5, 6),
        "two_pairs": (3, 3, 5, 5, 6),
        "three_of_a_kind": (4, 4, 4, 6, 1),
        "four_of_a_kind": (2, 2, 2, 2, 5),
        "small_straight": (1, 2, 3, 4, 5),
        "large_straight": (2, 3, 4, 5, 6),
        "full_house": (6, 6, 6, 5, 5),
        "chance": (6, 5, 4, 2, 1),
        "yatzy": (3, 3, 3, 3, 3),
    },
    "yahtzee": {
        "ones": (1, 1, 3, 4, 1),
        "twos": (2, 2, 2, 5, 6),
        "threes": (3, 3, 3, 1, 2),
        "fours": (4, 4, 4, 2, 6),
        "fives": (5, 5, 5, 2, 1),
        "sixes": (6, 6, 6, 1, 2),
        "three_of_a_kind": (4, 4, 4, 6, 1),
        "four_of_a_kind": (2, 2, 2, 2, 5),
        "full_house": (6, 6, 6, 5, 5),
        "small_straight": (1, 2, 3, 4, 4),
        "large_straight": (2, 3, 4, 5, 6),
        "yahtzee": (3, 3, 3, 3, 3),
        "chance": (6, 5, 4, 2, 1),
    },
}

OPTION_TEXTS: dict[str, Promise] = {
    "forced_order": _("Boxes are filled top to bottom, one a turn, in printed order."),
    "saved_rolls": _("Unused rolls of a turn are saved for later turns."),
    "upper_bonus": _("Threshold and points of the upper bonus."),
    "full_straight_points": _("Points of the full straight: 21, 25 or 30."),
    "extra_yatzy_bonus": _("Points for each further yatzy while the yatzy box is full."),
    "five_of_a_kind_full_house": _("Five equal dice also count as a full house."),
}


def box_name(box: str) -> str:
    """The display name of a box id, in the active language.

    >>> box_name("three_pairs")
    'Three pairs'
    """
    return str(BOX_NAMES[box])
