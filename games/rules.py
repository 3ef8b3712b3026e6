"""The rules as players read them (SPEC §7, Rules): the one place for box names, ruleset
names and rules texts, in the active language.

The engine says what the rules are (boxes in printed order, scoring, options, bonuses,
the maximum total); this module only words them. Every example roll is scored by the
engine when the rules are shown, with the options in force, so a page can never
disagree with play. Box names are the ones printed on each country's score pads
(docs/i18n.md says where they come from), under the message context ``box``.

>>> from django.utils import translation
>>> with translation.override("sv"):
...     box_name("full_house"), box_name("chance")
('Kåk', 'Chans')
>>> rules = ruleset_rules(yatzy.get_ruleset("maxi", full_straight_points=30))
>>> [box["example"] for box in rules["boxes"] if box["id"] == "full_straight"]
[{'dice': [1, 2, 3, 4, 5, 6], 'points': 30}]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

import yatzy
from config.messages import render
from yatzy.game import ROLLS_PER_TURN
from yatzy.rules import UPPER_CATEGORIES, Category, RulesetName, YahtzeeRuleset

BOX_NAMES: dict[Category, Promise] = {
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

RULESET_TITLES: dict[RulesetName, Promise] = {
    "maxi": pgettext_lazy("ruleset", "Maxi Yatzy"),
    "yatzy": pgettext_lazy("ruleset", "Yatzy"),
    "yahtzee": pgettext_lazy("ruleset", "Yahtzee"),
}

_SUMMARIES: dict[RulesetName, Promise] = {
    "maxi": _(
        "The Scandinavian game for six dice: twenty boxes, bigger combinations, and a "
        "Maxi Yatzy of six equal dice. Only the dice that form a combination count; when "
        "the dice can be read in several ways, the best reading counts."
    ),
    "yatzy": _(
        "The Scandinavian classic for five dice and fifteen boxes. Only the dice that form "
        "a combination count; when the dice can be read in several ways, the best reading "
        "counts."
    ),
    "yahtzee": _(
        "The American game for five dice and thirteen boxes: the full house and the "
        "straights score fixed points, and every extra Yahtzee earns a bonus."
    ),
}

_TURN = ngettext_lazy(
    "A turn has up to %(rolls)d roll. The first roll throws all the dice; before each "
    "further roll, hold the dice you want to keep (a held die may be released again). "
    "After any roll, fill exactly one open box; a box the dice do not fit scores 0. "
    "Each box is filled once, so the game has as many turns as boxes.",
    "A turn has up to %(rolls)d rolls. The first roll throws all the dice; before each "
    "further roll, hold the dice you want to keep (a held die may be released again). "
    "After any roll, fill exactly one open box; a box the dice do not fit scores 0. "
    "Each box is filled once, so the game has as many turns as boxes.",
    "rolls",
)
_JOKER = _(
    "Joker rule: an extra Yahtzee must fill the matching upper box if it is open; "
    "otherwise any open lower box, where the full house and the straights score their "
    "full points; if no lower box is open, an upper box, for 0."
)
_UPPER_BONUS = ngettext_lazy(
    "When the six upper boxes total %(threshold)d or more, they earn %(points)d bonus point.",
    "When the six upper boxes total %(threshold)d or more, they earn %(points)d bonus points.",
    "points",
)

_OPTION_TITLES: dict[str, Promise] = {
    "forced_order": _("Forced order"),
    "saved_rolls": _("Saved rolls"),
    "upper_bonus": _("Upper bonus"),
    "full_straight_points": _("Full straight points"),
    "extra_yatzy_bonus": _("Extra Yatzy bonus"),
    "five_of_a_kind_full_house": _("Five of a kind as a full house"),
}
_OPTION_DESCRIPTIONS: dict[str, Promise] = {
    "forced_order": _("Fill the boxes from top to bottom, one per turn, in printed order."),
    "saved_rolls": _("The rolls a turn leaves unused are saved for extra rolls in later turns."),
    "upper_bonus": _("The upper total that earns the bonus, and the bonus: [threshold, points]."),
    "full_straight_points": _("What 1-2-3-4-5-6 scores: %(choices)s, depending on the edition."),
    "extra_yatzy_bonus": _(
        "House rule: points for each further Yatzy while the Yatzy box holds its full "
        "score; 0 is off."
    ),
    "five_of_a_kind_full_house": _("House rule: five equal dice also count as a full house."),
}

_UPPER = _("The sum of the dice that show %(face)d.")
_SCANDINAVIAN: dict[Category, Promise] = {
    "one_pair": _("Two dice with the same face: their sum. With several pairs, the highest."),
    "two_pairs": _("Two pairs of different faces: the sum of those four dice."),
    "three_pairs": _("Three pairs of different faces: the sum of those six dice."),
    "three_of_a_kind": _("Three dice with the same face: the sum of those three."),
    "four_of_a_kind": _("Four dice with the same face: the sum of those four."),
    "five_of_a_kind": _("Five dice with the same face: the sum of those five."),
    "small_straight": ngettext_lazy(
        "1-2-3-4-5: %(points)d point.", "1-2-3-4-5: %(points)d points.", "points"
    ),
    "large_straight": ngettext_lazy(
        "2-3-4-5-6: %(points)d point.", "2-3-4-5-6: %(points)d points.", "points"
    ),
    "full_straight": ngettext_lazy(
        "1-2-3-4-5-6: %(points)d point.", "1-2-3-4-5-6: %(points)d points.", "points"
    ),
    "full_house": _("Three dice of one face and two of another: the sum of those five."),
    "villa": _("Two different three of a kinds: the sum of all six dice."),
    "tower": _("Four dice of one face and two of another: the sum of all six dice."),
    "chance": _("Any dice: the sum of them all."),
    "yatzy": ngettext_lazy(
        "All %(count)d dice with the same face: %(points)d points.",
        "All %(count)d dice with the same face: %(points)d points.",
        "count",
    ),
}
_SCANDINAVIAN["maxi_yatzy"] = _SCANDINAVIAN["yatzy"]
_YAHTZEE: dict[Category, Promise] = {
    "three_of_a_kind": _("At least three dice with the same face: the sum of all the dice."),
    "four_of_a_kind": _("At least four dice with the same face: the sum of all the dice."),
    "full_house": ngettext_lazy(
        "Three dice of one face and two of another: %(points)d point.",
        "Three dice of one face and two of another: %(points)d points.",
        "points",
    ),
    "small_straight": ngettext_lazy(
        "Four faces in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): %(points)d point.",
        "Four faces in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): %(points)d points.",
        "points",
    ),
    "large_straight": ngettext_lazy(
        "Five faces in a row: %(points)d point.",
        "Five faces in a row: %(points)d points.",
        "points",
    ),
    "yahtzee": ngettext_lazy(
        "All five dice with the same face: %(points)d points. Each further Yahtzee while "
        "this box holds them earns %(bonus)d bonus point.",
        "All five dice with the same face: %(points)d points. Each further Yahtzee while "
        "this box holds them earns %(bonus)d bonus points.",
        "bonus",
    ),
    "chance": _SCANDINAVIAN["chance"],
}
_EXTRA_YATZY = ngettext_lazy(
    "House rule: each further one while this box holds its points earns %(bonus)d bonus "
    "point; the dice fill another open box as usual.",
    "House rule: each further one while this box holds its points earns %(bonus)d bonus "
    "points; the dice fill another open box as usual.",
    "bonus",
)
_FIVE_EQUAL_SCANDINAVIAN = _("House rule: five equal dice count too, as their sum.")
_FIVE_EQUAL_YAHTZEE = _("House rule: five equal dice count as a full house too.")

# A roll for each box that scores there (never a zero), per ruleset; its points come
# from the engine with the options in force.
_FIVE_DICE: dict[Category, tuple[int, ...]] = {
    "ones": (1, 1, 1, 4, 5),
    "twos": (2, 2, 3, 5, 6),
    "threes": (3, 3, 3, 3, 6),
    "fours": (1, 2, 4, 4, 6),
    "fives": (5, 5, 5, 2, 1),
    "sixes": (6, 6, 6, 3, 2),
    "one_pair": (3, 3, 5, 5, 6),
    "two_pairs": (3, 3, 5, 5, 6),
    "three_of_a_kind": (4, 4, 4, 6, 1),
    "four_of_a_kind": (2, 2, 2, 2, 5),
    "small_straight": (1, 2, 3, 4, 5),
    "large_straight": (2, 3, 4, 5, 6),
    "full_house": (6, 6, 6, 5, 5),
    "chance": (1, 3, 4, 5, 6),
    "yatzy": (4, 4, 4, 4, 4),
    "yahtzee": (4, 4, 4, 4, 4),
}
_EXAMPLES: dict[RulesetName, dict[Category, tuple[int, ...]]] = {
    "yatzy": _FIVE_DICE,
    "yahtzee": {**_FIVE_DICE, "small_straight": (1, 2, 3, 4, 6)},
    "maxi": {
        "ones": (1, 1, 1, 3, 4, 6),
        "twos": (2, 2, 3, 5, 6, 6),
        "threes": (3, 3, 3, 3, 1, 6),
        "fours": (4, 4, 4, 1, 2, 6),
        "fives": (5, 5, 5, 2, 1, 3),
        "sixes": (6, 6, 6, 6, 3, 2),
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
        "chance": (1, 2, 4, 5, 6, 6),
        "maxi_yatzy": (6, 6, 6, 6, 6, 6),
    },
}


def box_name(box: str) -> str:
    """The name of box ``box`` in the active language; an unknown id is shown as is.

    >>> from django.utils import translation
    >>> with translation.override("nl"):
    ...     box_name("tower"), box_name("three_pairs"), box_name("chance")
    ('Toren', 'Drie paar', 'Kans')
    """
    name = BOX_NAMES.get(box)  # type: ignore[call-overload]
    return box if name is None else str(name)


def ruleset_title(name: str) -> str:
    """A ruleset's name in the active language; an unknown name is shown as is."""
    title = RULESET_TITLES.get(name)  # type: ignore[call-overload]
    return name if title is None else str(title)


def _box_description(rs: yatzy.Ruleset, box: Category) -> str:
    if box in UPPER_CATEGORIES:
        return render(_UPPER, {"face": UPPER_CATEGORIES.index(box) + 1})
    example = _EXAMPLES[rs.name][box]
    params = {"points": rs.score(box, example), "count": rs.dice_count}
    if rs.name == "yahtzee":
        text = render(_YAHTZEE[box], {**params, "bonus": YahtzeeRuleset.extra_yahtzee_points})
        if box == "full_house" and getattr(rs, "five_of_a_kind_full_house", False):
            text += " " + str(_FIVE_EQUAL_YAHTZEE)
        return text
    text = render(_SCANDINAVIAN[box], params)
    if box == "full_house" and getattr(rs, "five_of_a_kind_full_house", False):
        text += " " + str(_FIVE_EQUAL_SCANDINAVIAN)
    bonus = getattr(rs, "extra_yatzy_bonus", 0)
    if box == rs.yatzy_category and bonus:
        text += " " + render(_EXTRA_YATZY, {"bonus": bonus})
    return text


def _option(rs: yatzy.Ruleset, spec: yatzy.OptionSpec) -> dict[str, Any]:
    choices = ", ".join(str(choice) for choice in spec.choices or ())
    return {
        "name": spec.name,
        "title": str(_OPTION_TITLES[spec.name]),
        "description": render(_OPTION_DESCRIPTIONS[spec.name], {"choices": choices}),
        "kind": spec.kind,
        "default": spec.default,
        "value": rs.options[spec.name],
        "choices": list(spec.choices) if spec.choices is not None else None,
        "minimum": spec.minimum,
        "maximum": spec.maximum,
    }


def ruleset_options(rs: yatzy.Ruleset) -> list[dict[str, Any]]:
    """The options of ``rs`` as a player reads them: each one's name, title and
    description, its default, allowed values and the value in force (what the rules
    page and the forms of new games show).

    >>> [(o["name"], o["value"]) for o in ruleset_options(yatzy.get_ruleset("yahtzee"))][:2]
    [('forced_order', False), ('saved_rolls', False)]
    """
    return [_option(rs, spec) for spec in yatzy.option_specs(rs.name)]


def ruleset_rules(rs: yatzy.Ruleset) -> dict[str, Any]:
    """The rules of ``rs`` (with its options in force) as a player reads them: dice,
    turns, how a turn goes, the upper bonus, the maximum total, the options with their
    defaults and allowed values, and the boxes in printed order, each with its name, a
    description and an example roll with the points the engine gives it."""
    threshold, points = rs.upper_bonus
    rules = [render(_TURN, {"rolls": ROLLS_PER_TURN})]
    rules += [
        str(_OPTION_DESCRIPTIONS[name])
        for name in ("forced_order", "saved_rolls")
        if rs.options[name]
    ]
    if rs.name == "yahtzee":
        rules.append(str(_JOKER))
    return {
        "name": rs.name,
        "title": ruleset_title(rs.name),
        "summary": str(_SUMMARIES[rs.name]),
        "dice": rs.dice_count,
        "turns": len(rs.categories),
        "rolls_per_turn": ROLLS_PER_TURN,
        "rules": rules,
        "upper_bonus": {
            "threshold": threshold,
            "points": points,
            "text": render(_UPPER_BONUS, {"threshold": threshold, "points": points}),
        },
        "max_total": rs.max_total,
        "options": ruleset_options(rs),
        "boxes": [
            {
                "id": box,
                "name": box_name(box),
                "section": "upper" if box in UPPER_CATEGORIES else "lower",
                "description": _box_description(rs, box),
                "example": {
                    "dice": list(_EXAMPLES[rs.name][box]),
                    "points": rs.score(box, _EXAMPLES[rs.name][box]),
                },
            }
            for box in rs.categories
        ],
    }


_INTEGER = re.compile(r"-?[0-9]{1,9}")
_PAIR = re.compile(r"([0-9]{1,9}),([0-9]{1,9})")


def _option_value(spec: yatzy.OptionSpec | None, text: str) -> object:
    """A query parameter as the option's JSON value; what does not read as one is
    passed on as the text, for the engine to refuse with its own code."""
    if spec is None:
        return text
    if spec.kind == "flag":
        return {"true": True, "false": False}.get(text, text)
    if spec.kind == "pair":
        pair = _PAIR.fullmatch(text)
        return [int(pair[1]), int(pair[2])] if pair else text
    return int(text) if _INTEGER.fullmatch(text) else text


def ruleset_from_query(name: str, query: Mapping[str, str]) -> yatzy.Ruleset:
    """The ruleset ``name`` with the options of a query string (``forced_order=true``,
    ``full_straight_points=30``, ``upper_bonus=75,50``), checked by the engine: a bad
    name, option or value raises its :class:`yatzy.RulesetError`.

    >>> ruleset_from_query("maxi", {"upper_bonus": "75,50"}).upper_bonus
    (75, 50)
    >>> ruleset_from_query("yatzy", {"forced_order": "yes"})
    Traceback (most recent call last):
    ...
    yatzy.errors.InvalidOptionError: option 'forced_order' must be true or false, not 'yes'
    >>> ruleset_from_query("yatzy", QueryDict("forced_order=true&forced_order=false"))
    Traceback (most recent call last):
    ...
    yatzy.errors.InvalidOptionError: option 'forced_order' is given 2 times
    """
    specs = {spec.name: spec for spec in yatzy.option_specs(name)}
    given = query.lists() if isinstance(query, QueryDict) else ((k, [v]) for k, v in query.items())
    options = {}
    for key, values in given:
        if len(values) > 1:  # which one would be a guess: the last, as Django reads it
            raise yatzy.InvalidOptionError(
                f"option {key!r} is given {len(values)} times",
                reason="repeated",
                option=key,
                count=len(values),
            )
        options[key] = _option_value(specs.get(key), values[0])
    return yatzy.get_ruleset(name, **options)
