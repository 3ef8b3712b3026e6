"""A ruleset described for a person: its boxes with names, descriptions and an example
roll each, the upper bonus, the maximum total and the options.

The server describes rulesets at ``GET rulesets/{name}/`` (SPEC §7, Rules);
:func:`from_server` reads that answer. Where a server has no such endpoint (404),
:func:`from_engine` describes the ruleset from the local engine instead, in English,
with the example points computed by :meth:`yatzy.Ruleset.score`. Both give a
:class:`RulesDescription`, which is all :mod:`client.render` shows.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yatzy
from yatzy.game import ROLLS_PER_TURN

TITLES = {"maxi": "Maxi Yatzy", "yatzy": "Yatzy", "yahtzee": "Yahtzee"}

BOX_NAMES: dict[str, str] = {
    "ones": "Ones",
    "twos": "Twos",
    "threes": "Threes",
    "fours": "Fours",
    "fives": "Fives",
    "sixes": "Sixes",
    "one_pair": "One pair",
    "two_pairs": "Two pairs",
    "three_pairs": "Three pairs",
    "three_of_a_kind": "Three of a kind",
    "four_of_a_kind": "Four of a kind",
    "five_of_a_kind": "Five of a kind",
    "small_straight": "Small straight",
    "large_straight": "Large straight",
    "full_straight": "Full straight",
    "full_house": "Full house",
    "villa": "Villa",
    "tower": "Tower",
    "chance": "Chance",
    "yatzy": "Yatzy",
    "maxi_yatzy": "Maxi Yatzy",
    "yahtzee": "Yahtzee",
}

_FACE_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")

# Scandinavian scoring (yatzy, maxi): only the dice of the combination count.
_SCANDINAVIAN: dict[str, str] = {
    **{box: f"The sum of the dice showing {i + 1}." for i, box in enumerate(_FACE_NAMES)},
    "one_pair": "Two equal dice: their sum (the highest pair).",
    "two_pairs": "Two pairs of different faces: the sum of those four dice.",
    "three_pairs": "Three pairs of different faces: the sum of those six dice.",
    "three_of_a_kind": "Three equal dice: their sum.",
    "four_of_a_kind": "Four equal dice: their sum.",
    "five_of_a_kind": "Five equal dice: their sum.",
    "small_straight": "1-2-3-4-5: 15 points.",
    "large_straight": "2-3-4-5-6: 20 points.",
    "full_straight": "1-2-3-4-5-6.",
    "full_house": "Three of one face and a pair of another: the sum of those five dice.",
    "villa": "Two different three of a kinds: the sum of those six dice.",
    "tower": "Four of one face and a pair of another: the sum of those six dice.",
    "chance": "Any dice: their sum.",
    "yatzy": "All five dice equal: 50 points.",
    "maxi_yatzy": "All six dice equal: 100 points.",
}

_YAHTZEE: dict[str, str] = {
    **{box: f"The sum of the dice showing {i + 1}." for i, box in enumerate(_FACE_NAMES)},
    "three_of_a_kind": "At least three equal dice: the sum of all dice.",
    "four_of_a_kind": "At least four equal dice: the sum of all dice.",
    "full_house": "Three of one face and two of another: 25 points.",
    "small_straight": "Four in a row: 30 points.",
    "large_straight": "Five in a row: 40 points.",
    "yahtzee": "All five dice equal: 50 points; each further Yahtzee earns 100 more "
    "while this box holds 50, and is scored under the joker rule.",
    "chance": "Any dice: their sum.",
}

# An example roll per box that shows what the box is about, for 5 and for 6 dice.
_EXAMPLES: dict[int, dict[str, tuple[int, ...]]] = {
    5: {
        "ones": (1, 1, 3, 4, 1),
        "twos": (2, 5, 2, 6, 1),
        "threes": (3, 3, 3, 2, 6),
        "fours": (4, 4, 1, 5, 4),
        "fives": (5, 5, 5, 2, 1),
        "sixes": (6, 6, 2, 6, 3),
        "one_pair": (3, 3, 5, 5, 1),
        "two_pairs": (3, 3, 5, 5, 6),
        "three_of_a_kind": (4, 4, 4, 6, 1),
        "four_of_a_kind": (2, 2, 2, 2, 5),
        "small_straight": (1, 2, 3, 4, 5),
        "large_straight": (2, 3, 4, 5, 6),
        "full_house": (6, 6, 6, 5, 5),
        "chance": (6, 5, 4, 2, 1),
        "yatzy": (4, 4, 4, 4, 4),
        "yahtzee": (4, 4, 4, 4, 4),
    },
    6: {
        "ones": (1, 1, 3, 4, 1, 6),
        "twos": (2, 5, 2, 6, 1, 2),
        "threes": (3, 3, 3, 2, 6, 1),
        "fours": (4, 4, 1, 5, 4, 4),
        "fives": (5, 5, 5, 2, 1, 3),
        "sixes": (6, 6, 2, 6, 3, 6),
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
        "chance": (6, 5, 4, 3, 2, 2),
        "maxi_yatzy": (6, 6, 6, 6, 6, 6),
    },
}

# Options with their allowed values in words (the engine checks them).
_OPTION_TEXTS: dict[str, tuple[str, str]] = {
    "forced_order": ("true, false", "Fill the boxes top to bottom."),
    "saved_rolls": ("true, false", "Unused rolls of a turn are banked for later turns."),
    "upper_bonus": (
        "[threshold, points]",
        "The upper bonus: points once the upper boxes reach the threshold.",
    ),
    "full_straight_points": ("21, 25, 30", "Points of 1-2-3-4-5-6."),
    "extra_yatzy_bonus": (
        "an integer >= 0 (0 = off)",
        "Points for each further yatzy while the yatzy box holds its full score.",
    ),
    "five_of_a_kind_full_house": ("true, false", "Five equal dice also count as a full house."),
}


@dataclass(frozen=True)
class BoxRule:
    """One box: id, name, what it scores, an example roll and its points."""

    id: str
    name: str
    description: str
    example: tuple[int, ...]
    points: int


@dataclass(frozen=True)
class OptionRule:
    """One option: its value in force, its default and the values it allows."""

    name: str
    value: Any
    default: Any
    allowed: str
    description: str


@dataclass(frozen=True)
class RulesDescription:
    """Everything ``rules RULESET`` shows, from whichever source."""

    name: str
    title: str
    dice: int
    turns: int
    rolls_per_turn: int
    boxes: list[BoxRule]
    upper_bonus: tuple[int, int]
    max_total: int | None
    options: list[OptionRule] = field(default_factory=list)
    source: str = "server"
    notes: list[str] = field(default_factory=list)


def parse_option_value(text: str) -> Any:
    """An option's value from the command line: JSON-ish, else the text itself.

    >>> parse_option_value("true"), parse_option_value("25"), parse_option_value("75,50")
    (True, 25, [75, 50])
    """
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if "," in text:
        return [parse_option_value(part) for part in text.split(",")]
    try:
        return int(text)
    except ValueError:
        return text


def _max_total(rs: yatzy.Ruleset) -> tuple[int, list[str]]:
    """Every box at its best plus the upper bonus (Yahtzee: twelve extra Yahtzees)."""
    rolls = itertools.combinations_with_replacement(range(1, 7), rs.dice_count)
    best = dict.fromkeys(rs.categories, 0)
    for dice in rolls:
        for box, points in rs.scores(dice).items():
            best[box] = max(best[box], points)
    threshold, bonus = rs.upper_bonus
    upper = sum(best[box] for box in rs.categories[:6])
    total = sum(best.values()) + (bonus if upper >= threshold else 0)
    notes: list[str] = []
    if rs.name == "yahtzee":
        total += 100 * (len(rs.categories) - 1)
    elif rs.options.get("extra_yatzy_bonus"):
        notes.append("Not counting extra yatzy bonuses.")
    return total, notes


def from_engine(name: str, options: Mapping[str, Any] | None = None) -> RulesDescription:
    """Describe ruleset ``name`` with ``options`` from the local engine (in English).

    >>> rules = from_engine("maxi")
    >>> rules.dice, rules.turns, rules.upper_bonus, rules.max_total
    (6, 20, (84, 100), 649)
    >>> rules.boxes[16].name, rules.boxes[16].example, rules.boxes[16].points
    ('Villa', (3, 3, 3, 5, 5, 5), 24)
    """
    rs = yatzy.get_ruleset(name, **dict(options or {}))
    texts = _YAHTZEE if rs.name == "yahtzee" else _SCANDINAVIAN
    examples = _EXAMPLES[rs.dice_count]
    boxes = [
        BoxRule(
            id=box,
            name=BOX_NAMES[box],
            description=_box_text(rs, box, texts[box]),
            example=examples[box],
            points=rs.score(box, examples[box]),
        )
        for box in rs.categories
    ]
    defaults = yatzy.get_ruleset(rs.name).options
    option_rules = [
        OptionRule(
            name=option,
            value=value,
            default=defaults[option],
            allowed=_OPTION_TEXTS[option][0],
            description=_OPTION_TEXTS[option][1],
        )
        for option, value in rs.options.items()
    ]
    total, notes = _max_total(rs)
    return RulesDescription(
        name=rs.name,
        title=TITLES[rs.name],
        dice=rs.dice_count,
        turns=len(rs.categories),
        rolls_per_turn=ROLLS_PER_TURN,
        boxes=boxes,
        upper_bonus=rs.upper_bonus,
        max_total=total,
        options=option_rules,
        source="engine",
        notes=notes,
    )


def _box_text(rs: yatzy.Ruleset, box: str, text: str) -> str:
    if box == "full_straight":
        return f"{text[:-1]}: {rs.options['full_straight_points']} points."
    return text


def _pair(value: object) -> tuple[int, int]:
    if isinstance(value, Mapping):
        return int(value["threshold"]), int(value["points"])
    if isinstance(value, list | tuple) and len(value) == 2:
        return int(value[0]), int(value[1])
    raise ValueError(f"not an upper bonus: {value!r}")


def _options(value: object) -> list[OptionRule]:
    items: list[tuple[str, Mapping[str, Any]]]
    if isinstance(value, Mapping):
        items = [
            (str(k), v if isinstance(v, Mapping) else {"default": v}) for k, v in value.items()
        ]
    elif isinstance(value, list):
        items = [(str(option["name"]), option) for option in value if isinstance(option, Mapping)]
    else:
        items = []
    rules = []
    for name, option in items:
        allowed = option.get("allowed", option.get("values", ""))
        if isinstance(allowed, list):
            allowed = ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in allowed)
        rules.append(
            OptionRule(
                name=name,
                value=option.get("value", option.get("default")),
                default=option.get("default"),
                allowed=str(allowed),
                description=str(option.get("description", "")),
            )
        )
    return rules


def from_server(body: Mapping[str, Any]) -> RulesDescription:
    """Read the answer of ``GET rulesets/{name}/``.

    The expected shape (SPEC §7): ``{name, title?, dice, turns, rolls_per_turn?,
    boxes: [{id, name, description, example: {dice, points}}], upper_bonus: {threshold,
    points} (or [threshold, points]), max_total, options: [{name, default, allowed,
    value?, description?}] (or {name: {default, allowed, ...}})}``.
    """
    boxes = []
    for box in body["boxes"]:
        example = box.get("example") or {}
        boxes.append(
            BoxRule(
                id=str(box["id"]),
                name=str(box.get("name") or BOX_NAMES.get(box["id"], box["id"])),
                description=str(box.get("description", "")),
                example=tuple(example.get("dice", ())),
                points=int(example.get("points", 0)),
            )
        )
    name = str(body["name"])
    return RulesDescription(
        name=name,
        title=str(body.get("title") or TITLES.get(name, name)),
        dice=int(body["dice"]),
        turns=int(body.get("turns", len(boxes))),
        rolls_per_turn=int(body.get("rolls_per_turn", ROLLS_PER_TURN)),
        boxes=boxes,
        upper_bonus=_pair(body["upper_bonus"]),
        max_total=int(body["max_total"]) if body.get("max_total") is not None else None,
        options=_options(body.get("options")),
        source="server",
    )


def box_name(box: str) -> str:
    """A box's English name (the scorecard's label).

    >>> box_name("full_house")
    'Full house'
    """
    return BOX_NAMES.get(box, box.replace("_", " ").capitalize())
