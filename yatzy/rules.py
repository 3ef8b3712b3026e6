"""Rulesets: box ids, how each box scores, bonuses and options (SPEC §2).

A ruleset is an immutable value: its class says which game it is (boxes, dice, how
each box scores) and its fields are the options in force. Every box of every
possible roll is scored once per ruleset value, into a table keyed by the sorted
dice, so scoring in a game is a dictionary lookup.
"""

import abc
import dataclasses
import functools
import itertools
import reprlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Literal, get_args

from yatzy.errors import (
    InvalidDiceError,
    InvalidOptionError,
    OptionNotApplicableError,
    UnknownCategoryError,
    UnknownOptionError,
    UnknownRulesetError,
)

Category = Literal[
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "one_pair",
    "two_pairs",
    "three_pairs",
    "three_of_a_kind",
    "four_of_a_kind",
    "five_of_a_kind",
    "small_straight",
    "large_straight",
    "full_straight",
    "full_house",
    "villa",
    "tower",
    "chance",
    "yatzy",
    "maxi_yatzy",
    "yahtzee",
]
"""A box id, stable across the API; each ruleset uses some of them."""

RulesetName = Literal["maxi", "yatzy", "yahtzee"]
RULESETS: tuple[RulesetName, ...] = get_args(RulesetName)
"""The names :func:`get_ruleset` knows."""

Dice = tuple[int, ...]
FACES = range(1, 7)
UPPER_CATEGORIES: tuple[Category, ...] = ("ones", "twos", "threes", "fours", "fives", "sixes")

# counts[face] is how many dice show face (counts[0] is always 0).
Counts = tuple[int, ...]
Scorer = Callable[[Counts], int]

_HIGH_FACES_FIRST = range(6, 0, -1)


def _face_total(face: int) -> Scorer:
    def score(counts: Counts) -> int:
        return face * counts[face]

    return score


def _of_a_kind(n: int) -> Scorer:
    """n times the highest face shown at least n times (Scandinavian: only those dice count)."""

    def score(counts: Counts) -> int:
        return next((n * face for face in _HIGH_FACES_FIRST if counts[face] >= n), 0)

    return score


def _pairs(k: int) -> Scorer:
    """The best k pairs of different faces: N equal dice are never two pairs."""

    def score(counts: Counts) -> int:
        faces = [face for face in _HIGH_FACES_FIRST if counts[face] >= 2]
        return 2 * sum(faces[:k]) if len(faces) >= k else 0

    return score


def _set_and_set(big: int, small: int) -> Scorer:
    """``big`` dice of one face plus ``small`` of another, best reading (house, villa, tower).

    The faces must differ, so N equal dice never qualify; 4+2 also reads as 3+2.
    """

    def score(counts: Counts) -> int:
        return max(
            (
                big * a + small * b
                for a in FACES
                for b in FACES
                if a != b and counts[a] >= big and counts[b] >= small
            ),
            default=0,
        )

    return score


def _straight(first: int, last: int, points: int) -> Scorer:
    def score(counts: Counts) -> int:
        return points if all(counts[face] for face in range(first, last + 1)) else 0

    return score


def _any_run(length: int, points: int) -> Scorer:
    """Yahtzee straights: any ``length`` consecutive faces."""
    runs = [range(first, first + length) for first in range(1, 8 - length)]

    def score(counts: Counts) -> int:
        return points if any(all(counts[face] for face in run) for run in runs) else 0

    return score


def _chance(counts: Counts) -> int:
    return sum(face * counts[face] for face in FACES)


def _all_equal(counts: Counts) -> bool:
    return max(counts) == sum(counts)


def _if_all_equal(points: int) -> Scorer:
    def score(counts: Counts) -> int:
        return points if _all_equal(counts) else 0

    return score


def _dice_total_if_of_a_kind(n: int) -> Scorer:
    """Yahtzee's three/four of a kind: at least n equal dice score the sum of all dice."""

    def score(counts: Counts) -> int:
        return _chance(counts) if max(counts) >= n else 0

    return score


def _three_and_two(points: int) -> Scorer:
    """Yahtzee's full house: exactly three of one face and two of another."""

    def score(counts: Counts) -> int:
        return points if sorted(count for count in counts if count) == [2, 3] else 0

    return score


def _or_when_all_equal(scorer: Scorer, all_equal_scorer: Scorer) -> Scorer:
    """The ``five_of_a_kind_full_house`` house rule: all-equal dice also score this box."""

    def score(counts: Counts) -> int:
        return all_equal_scorer(counts) if _all_equal(counts) else scorer(counts)

    return score


_UPPER_SCORERS: dict[Category, Scorer] = {
    category: _face_total(face) for face, category in zip(FACES, UPPER_CATEGORIES, strict=True)
}

_SCANDINAVIAN_SCORERS: dict[Category, Scorer] = {
    **_UPPER_SCORERS,
    "one_pair": _of_a_kind(2),
    "two_pairs": _pairs(2),
    "three_pairs": _pairs(3),
    "three_of_a_kind": _of_a_kind(3),
    "four_of_a_kind": _of_a_kind(4),
    "five_of_a_kind": _of_a_kind(5),
    "small_straight": _straight(1, 5, 15),
    "large_straight": _straight(2, 6, 20),
    "full_house": _set_and_set(3, 2),
    "villa": _set_and_set(3, 3),
    "tower": _set_and_set(4, 2),
    "chance": _chance,
}


OptionKind = Literal["flag", "points", "choice", "pair"]
"""How an option's value is written: ``flag`` true/false, ``points`` an integer >= 0,
``choice`` one of a few integers, ``pair`` two integers >= 0 (threshold, points)."""

FULL_STRAIGHT_POINTS = (21, 25, 30)
"""The values ``full_straight_points`` may take (editions differ)."""


# Option numbers above this are no house rule anyone plays, and would only make the
# solver's arrays (and its integer arithmetic) huge.
OPTION_NUMBER_MAX = 10_000


def _invalid(option: str, value: object, expected: str) -> InvalidOptionError:
    # `expected` doubles as the reason: a service words the message from it.
    allowed: dict[str, object] = (
        {"choices": list(FULL_STRAIGHT_POINTS)} if expected == "choice" else {}
    )
    if expected in ("points", "pair"):
        allowed["max"] = OPTION_NUMBER_MAX
    return InvalidOptionError(
        f"option {option!r} must be {_EXPECTED[expected]}, not {reprlib.repr(value)}",
        reason=expected,
        option=option,
        value=value,
        **allowed,
    )


_EXPECTED: dict[str, str] = {
    "flag": "true or false",
    "points": f"an integer from 0 to {OPTION_NUMBER_MAX}",
    "choice": ", ".join(map(str, FULL_STRAIGHT_POINTS[:-1])) + f" or {FULL_STRAIGHT_POINTS[-1]}",
    "pair": f"[threshold, points], two integers from 0 to {OPTION_NUMBER_MAX}",
}


def _check_flag(option: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise _invalid(option, value, "flag")


def _check_points(option: str, value: object) -> int:
    # `type(...) is int` rather than isinstance: True is not a number of points.
    if type(value) is int and 0 <= value <= OPTION_NUMBER_MAX:
        return value
    raise _invalid(option, value, "points")


def _check_full_straight_points(option: str, value: object) -> int:
    if type(value) is int and value in FULL_STRAIGHT_POINTS:
        return value
    raise _invalid(option, value, "choice")


def _check_upper_bonus(option: str, value: object) -> tuple[int, int]:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(type(number) is int and 0 <= number <= OPTION_NUMBER_MAX for number in value)
    ):
        return (value[0], value[1])
    raise _invalid(option, value, "pair")


def _json_value(option_value: object) -> object:
    return list(option_value) if isinstance(option_value, tuple) else option_value


# Each option's check and how its value is written; OptionSpec and the checks both read
# this table, so what the rules page says is allowed is what the engine accepts.
_OPTIONS: dict[str, tuple[Callable[[str, object], Any], OptionKind]] = {
    "forced_order": (_check_flag, "flag"),
    "saved_rolls": (_check_flag, "flag"),
    "upper_bonus": (_check_upper_bonus, "pair"),
    "full_straight_points": (_check_full_straight_points, "choice"),
    "extra_yatzy_bonus": (_check_points, "points"),
    "five_of_a_kind_full_house": (_check_flag, "flag"),
}
_OPTION_CHECKS: dict[str, Callable[[str, object], Any]] = {
    name: check for name, (check, _kind) in _OPTIONS.items()
}


@dataclasses.dataclass(frozen=True)
class OptionSpec:
    """One option of a ruleset: its name, how its value is written, its default and
        the values it allows (``choices`` for a flag or a choice, ``minimum`` and ``maximum`` for
    numbers).

        >>> spec = option_specs("maxi")[4]
        >>> spec.name, spec.kind, spec.default, spec.choices, spec.minimum
        ('full_straight_points', 'choice', 21, (21, 25, 30), None)
    """

    name: str
    kind: OptionKind
    default: Any
    """JSON-able: ``upper_bonus`` is a list ``[threshold, points]``."""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None


_ALLOWED: dict[OptionKind, dict[str, Any]] = {
    "flag": {"choices": (False, True)},
    "points": {"minimum": 0, "maximum": OPTION_NUMBER_MAX},
    "choice": {"choices": FULL_STRAIGHT_POINTS},
    "pair": {"minimum": 0, "maximum": OPTION_NUMBER_MAX},
}


def option_specs(name: str, /) -> tuple[OptionSpec, ...]:
    """The options ruleset ``name`` accepts, in the order of :attr:`Ruleset.options`,
    with their defaults and allowed values. An unknown name raises
    :class:`~yatzy.errors.UnknownRulesetError`.

    >>> [(spec.name, spec.default) for spec in option_specs("yahtzee")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('forced_order', False), ('saved_rolls', False), ('upper_bonus', [63, 35]),
     ('five_of_a_kind_full_house', False)]
    """
    return tuple(
        OptionSpec(
            name=field.name,
            kind=_OPTIONS[field.name][1],
            default=_json_value(field.default),
            **_ALLOWED[_OPTIONS[field.name][1]],
        )
        for field in dataclasses.fields(_ruleset_type(name))
    )


@dataclasses.dataclass(frozen=True)
class Ruleset(abc.ABC):
    """A game's rules: its dice, boxes in printed order, scoring and options.

    The fields are the options in force; build one with :func:`get_ruleset`.

    >>> rs = get_ruleset("yatzy")
    >>> rs.name, rs.dice_count, len(rs.categories), rs.categories[:3]
    ('yatzy', 5, 15, ('ones', 'twos', 'threes'))
    """

    name: ClassVar[RulesetName]
    dice_count: ClassVar[int]
    categories: ClassVar[tuple[Category, ...]]
    yatzy_category: ClassVar[Category]
    """The box for all dice equal."""
    yatzy_points: ClassVar[int]
    _category_index: ClassVar[dict[str, int]]

    forced_order: bool = False
    """Boxes are filled top to bottom in printed order."""
    saved_rolls: bool = False
    """Unused rolls of a turn are banked for later turns."""
    upper_bonus: tuple[int, int] = (63, 50)
    """(threshold, points): the upper boxes earn ``points`` once they total ``threshold``."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "categories" in cls.__dict__:
            cls._category_index = {category: i for i, category in enumerate(cls.categories)}

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            checked = _OPTION_CHECKS[field.name](field.name, getattr(self, field.name))
            # Normalise in place (e.g. a JSON list [84, 100] becomes the tuple (84, 100)).
            object.__setattr__(self, field.name, checked)

    @property
    def options(self) -> dict[str, Any]:
        """The options in force, JSON-able: ``get_ruleset(rs.name, **rs.options)`` rebuilds it.

        >>> get_ruleset("maxi", upper_bonus=(75, 50)).options  # doctest: +NORMALIZE_WHITESPACE
        {'forced_order': False, 'saved_rolls': False, 'upper_bonus': [75, 50],
         'extra_yatzy_bonus': 0, 'full_straight_points': 21}
        """
        return {name: _json_value(getattr(self, name)) for name in _option_names(type(self))}

    def score(self, category: str, dice: Iterable[int]) -> int:
        """Points of ``dice`` in box ``category``, with no game context (no joker, no bonus).

        >>> get_ruleset("maxi").score("full_house", [4, 4, 4, 4, 2, 2])
        16
        >>> get_ruleset("yatzy").score("two_pairs", (6, 6, 6, 6, 6))
        0
        """
        return self._row(dice)[self._index(category)]

    def scores(self, dice: Iterable[int]) -> dict[Category, int]:
        """Points of ``dice`` in every box, in printed order.

        >>> get_ruleset("yahtzee").scores([2, 3, 4, 5, 5])["small_straight"]
        30
        """
        return dict(zip(self.categories, self._row(dice), strict=True))

    @functools.cached_property
    def max_total(self) -> int:
        """The highest total a game of these rules can reach.

        Every box is filled in a turn of its own with any dice, so each box can reach
        its maximum in one game; the upper bonus counts when the upper boxes' maxima
        reach its threshold. Where further yatzies pay (Yahtzee's 100, the
        ``extra_yatzy_bonus`` house rule), a box filled after the yatzy box may instead
        take a further yatzy: the most all-equal dice score there (joker values in
        Yahtzee) plus that bonus, whichever is more. With ``forced_order`` only the
        boxes printed after the yatzy box come after it.

        >>> [get_ruleset(name).max_total for name in RULESETS]
        [649, 374, 1575]
        >>> get_ruleset("maxi", full_straight_points=30, upper_bonus=(75, 50)).max_total
        608
        >>> get_ruleset("yahtzee", forced_order=True).max_total  # only chance after it
        475
        """
        maxima = list(self._box_maxima)
        threshold, bonus = self.upper_bonus
        upper_bonus = bonus if sum(maxima[: len(UPPER_CATEGORIES)]) >= threshold else 0
        extra = self._extra_yatzy_points()
        yatzy_box = self._category_index[self.yatzy_category]
        if extra:
            card: list[int | None] = [None] * len(maxima)
            card[yatzy_box] = self.yatzy_points
            rows = [self._points((face,) * self.dice_count, card) for face in FACES]
            after = range(yatzy_box + 1 if self.forced_order else 0, len(maxima))
            for box in after:
                if box != yatzy_box:
                    maxima[box] = max(maxima[box], max(row[box] for row in rows) + extra)
        return sum(maxima) + upper_bonus

    @functools.cached_property
    def _table(self) -> dict[Dice, tuple[int, ...]]:
        return _score_table(self)

    @functools.cached_property
    def _box_maxima(self) -> tuple[int, ...]:
        """The most each box can score; joker values never exceed it either."""
        return tuple(map(max, zip(*self._table.values(), strict=True)))

    def _index(self, category: str) -> int:
        try:
            return self._category_index[category]
        except (KeyError, TypeError):
            raise UnknownCategoryError(
                f"{reprlib.repr(category)} is not a box of {self.name} "
                f"(boxes: {', '.join(self.categories)})",
                category=category,
                ruleset=self.name,
                boxes=list(self.categories),
            ) from None

    def _row(self, dice: Iterable[int]) -> tuple[int, ...]:
        try:
            key = tuple(sorted(dice))
            row = self._table.get(key)
        except TypeError:
            row = None
        # Equality alone would let True or 1.0 stand for a 1.
        if row is None or not all(type(die) is int for die in key):
            raise InvalidDiceError(
                f"dice must be {self.dice_count} integers from 1 to 6, not {reprlib.repr(dice)}",
                count=self.dice_count,
            )
        return row

    @abc.abstractmethod
    def _scorers(self) -> dict[Category, Scorer]:
        """How each box of this game scores, by box id."""

    # The game asks the ruleset three things; Yahtzee's joker rule overrides two of them.

    def _points(self, key: Dice, card: Sequence[int | None]) -> tuple[int, ...]:
        """Points each box would get for the sorted dice ``key`` on this scorecard."""
        return self._table[key]

    def _allowed(self, key: Dice, card: Sequence[int | None]) -> list[int]:
        """Indices of the boxes that may be filled with the sorted dice ``key``."""
        open_boxes = [i for i, points in enumerate(card) if points is None]
        return open_boxes[:1] if self.forced_order else open_boxes

    def _extra_bonus(self, key: Dice, card: Sequence[int | None]) -> int:
        """Bonus for scoring ``key`` now: a further yatzy while the yatzy box is full."""
        yatzy_box = card[self._category_index[self.yatzy_category]]
        if key[0] == key[-1] and yatzy_box == self.yatzy_points:
            return self._extra_yatzy_points()
        return 0

    @abc.abstractmethod
    def _extra_yatzy_points(self) -> int:
        """Points for each further yatzy while the yatzy box holds its full score."""


@dataclasses.dataclass(frozen=True)
class _ScandinavianRuleset(Ruleset):
    extra_yatzy_bonus: int = 0
    """House rule: points for each further yatzy while the yatzy box holds its full score."""

    def _extra_yatzy_points(self) -> int:
        return self.extra_yatzy_bonus


@dataclasses.dataclass(frozen=True)
class YatzyRuleset(_ScandinavianRuleset):
    """Classic Scandinavian Yatzy: 5 dice, 15 boxes, 50 at 63, max 374."""

    name = "yatzy"
    dice_count = 5
    categories = (
        *UPPER_CATEGORIES,
        "one_pair",
        "two_pairs",
        "three_of_a_kind",
        "four_of_a_kind",
        "small_straight",
        "large_straight",
        "full_house",
        "chance",
        "yatzy",
    )
    yatzy_category = "yatzy"
    yatzy_points = 50

    five_of_a_kind_full_house: bool = False
    """House rule: five equal dice also score full house, as their sum."""

    def _scorers(self) -> dict[Category, Scorer]:
        full_house = _SCANDINAVIAN_SCORERS["full_house"]
        if self.five_of_a_kind_full_house:
            full_house = _or_when_all_equal(full_house, _chance)
        return {
            **_SCANDINAVIAN_SCORERS,
            "full_house": full_house,
            "yatzy": _if_all_equal(self.yatzy_points),
        }


@dataclasses.dataclass(frozen=True)
class MaxiRuleset(_ScandinavianRuleset):
    """Maxi Yatzy: 6 dice, 20 boxes, 100 at 84, max 649."""

    name = "maxi"
    dice_count = 6
    categories = (
        *UPPER_CATEGORIES,
        "one_pair",
        "two_pairs",
        "three_pairs",
        "three_of_a_kind",
        "four_of_a_kind",
        "five_of_a_kind",
        "small_straight",
        "large_straight",
        "full_straight",
        "full_house",
        "villa",
        "tower",
        "chance",
        "maxi_yatzy",
    )
    yatzy_category = "maxi_yatzy"
    yatzy_points = 100

    upper_bonus: tuple[int, int] = (84, 100)
    full_straight_points: int = 21
    """Points of 1-2-3-4-5-6: 21 (their sum), 25 or 30 depending on the edition."""

    def _scorers(self) -> dict[Category, Scorer]:
        return {
            **_SCANDINAVIAN_SCORERS,
            "full_straight": _straight(1, 6, self.full_straight_points),
            "maxi_yatzy": _if_all_equal(self.yatzy_points),
        }


# Under the joker rule these boxes score their full fixed value; the others score as usual.
_JOKER_POINTS: dict[Category, int] = {"full_house": 25, "small_straight": 30, "large_straight": 40}


@dataclasses.dataclass(frozen=True)
class YahtzeeRuleset(Ruleset):
    """American Yahtzee: 5 dice, 13 boxes, 35 at 63, extra Yahtzees and the joker rule."""

    name = "yahtzee"
    dice_count = 5
    categories = (
        *UPPER_CATEGORIES,
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yahtzee",
        "chance",
    )
    yatzy_category = "yahtzee"
    yatzy_points = 50
    extra_yahtzee_points: ClassVar[int] = 100

    upper_bonus: tuple[int, int] = (63, 35)
    five_of_a_kind_full_house: bool = False
    """House rule: five equal dice score full house 25 even without the joker."""

    def _scorers(self) -> dict[Category, Scorer]:
        full_house = _three_and_two(_JOKER_POINTS["full_house"])
        if self.five_of_a_kind_full_house:
            full_house = _or_when_all_equal(full_house, _if_all_equal(_JOKER_POINTS["full_house"]))
        return {
            **_UPPER_SCORERS,
            "three_of_a_kind": _dice_total_if_of_a_kind(3),
            "four_of_a_kind": _dice_total_if_of_a_kind(4),
            "full_house": full_house,
            "small_straight": _any_run(4, _JOKER_POINTS["small_straight"]),
            "large_straight": _any_run(5, _JOKER_POINTS["large_straight"]),
            "yahtzee": _if_all_equal(self.yatzy_points),
            "chance": _chance,
        }

    def _extra_yatzy_points(self) -> int:
        return self.extra_yahtzee_points

    def _joker_applies(self, key: Dice, card: Sequence[int | None]) -> bool:
        return key[0] == key[-1] and card[self._category_index["yahtzee"]] is not None

    def _points(self, key: Dice, card: Sequence[int | None]) -> tuple[int, ...]:
        row = self._table[key]
        if not self._joker_applies(key, card):
            return row
        joker_row = list(row)
        for category, points in _JOKER_POINTS.items():
            joker_row[self._category_index[category]] = points
        return tuple(joker_row)

    def _allowed(self, key: Dice, card: Sequence[int | None]) -> list[int]:
        # forced_order already names the one box to fill; the joker then only sets its points.
        if self.forced_order or not self._joker_applies(key, card):
            return super()._allowed(key, card)
        matching_upper = key[0] - 1
        if card[matching_upper] is None:
            return [matching_upper]
        open_boxes = super()._allowed(key, card)
        open_lower = [i for i in open_boxes if i >= len(UPPER_CATEGORIES)]
        return open_lower or open_boxes


_RULESET_TYPES: dict[str, type[Ruleset]] = {
    cls.name: cls for cls in (MaxiRuleset, YatzyRuleset, YahtzeeRuleset)
}


# Bounded caches: solo players choose options freely, so there is no fixed set of rulesets.
@functools.lru_cache(maxsize=64)
def _interned(ruleset: Ruleset) -> Ruleset:
    """One shared instance per ruleset value, so its cached tables are built once."""
    return ruleset


@functools.lru_cache(maxsize=64)
def _score_table(ruleset: Ruleset) -> dict[Dice, tuple[int, ...]]:
    """Every box's points for every sorted roll (252 rolls of 5 dice, 462 of 6)."""
    scorers = ruleset._scorers()
    row_scorers = [scorers[category] for category in ruleset.categories]
    table = {}
    for key in itertools.combinations_with_replacement(FACES, ruleset.dice_count):
        counts = tuple(key.count(face) for face in range(7))
        table[key] = tuple(scorer(counts) for scorer in row_scorers)
    return table


@functools.cache
def _option_names(cls: type[Ruleset]) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(cls))


def get_ruleset(name: str, /, **options: Any) -> Ruleset:
    """The ruleset ``name`` ("maxi", "yatzy" or "yahtzee") with ``options`` (SPEC §2.3).

    Options left out take the ruleset's default; each is checked, and a wrong name,
    option or value raises a :class:`~yatzy.errors.RulesetError`.

    >>> get_ruleset("maxi", saved_rolls=True, full_straight_points=30).score(
    ...     "full_straight", [6, 5, 4, 3, 2, 1])
    30
    >>> get_ruleset("yatzy", full_straight_points=25)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    yatzy.errors.OptionNotApplicableError: option 'full_straight_points' does not apply to yatzy ...
    """
    key = _options_key(options)
    if key is None or not isinstance(name, str):  # the cache would choke on a list
        return _ruleset_checked(name, options)
    return _ruleset_of_key(name, key)


def _options_key(options: dict[str, Any]) -> tuple[Any, ...] | None:
    """``options`` as a key that tells apart whatever the checks tell apart (``True``
    and ``1`` hash alike, so each value comes with its type); None if a value is of a
    type no option takes."""

    def value_key(value: object) -> object:
        if isinstance(value, list | tuple):
            return (type(value).__name__, *map(value_key, value))
        if value is None or isinstance(value, bool | int | float | str):
            return (type(value).__name__, value)
        raise TypeError

    try:
        return tuple(sorted((option, value_key(value)) for option, value in options.items()))
    except TypeError:
        return None


@functools.lru_cache(maxsize=256)
def _ruleset_of_key(name: str, key: tuple[Any, ...]) -> Ruleset:
    # Each restored game asks for its ruleset: the checks run once per set of options.
    # The key's values come back as they were given (their types dropped).
    return _ruleset_checked(name, {option: _key_value(value) for option, value in key})


def _key_value(key: Any) -> Any:
    kind, *values = key
    if kind in ("list", "tuple"):
        items = [_key_value(value) for value in values]
        return items if kind == "list" else tuple(items)
    return values[0]


def _ruleset_checked(name: str, options: dict[str, Any]) -> Ruleset:
    cls = _ruleset_type(name)
    accepted = list(_option_names(cls))
    for option in sorted(options.keys() - accepted):
        known_options = f"{name} accepts: {', '.join(accepted)}"
        error = OptionNotApplicableError if option in _OPTIONS else UnknownOptionError
        message = (
            f"option {reprlib.repr(option)} does not apply to {name} ({known_options})"
            if option in _OPTIONS
            else f"unknown option {reprlib.repr(option)} ({known_options})"
        )
        raise error(message, option=option, ruleset=name, accepted=accepted)
    return _interned(cls(**options))


def _ruleset_type(name: str) -> type[Ruleset]:
    try:
        return _RULESET_TYPES[name]
    except (KeyError, TypeError):
        raise UnknownRulesetError(
            f"unknown ruleset {reprlib.repr(name)} (known: {', '.join(RULESETS)})",
            name=name,
            known=list(RULESETS),
        ) from None
