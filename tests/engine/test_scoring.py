"""Scoring of every box of every ruleset, the tricky readings, and ruleset options."""

import itertools
import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.engine.helpers import MAXIMA
from yatzy import (
    RULESETS,
    InvalidDiceError,
    InvalidOptionError,
    OptionNotApplicableError,
    RulesetError,
    UnknownCategoryError,
    UnknownOptionError,
    UnknownRulesetError,
    get_ruleset,
)

YATZY_CASES = [
    ("ones", (1, 1, 2, 3, 1), 3),
    ("ones", (2, 3, 4, 5, 6), 0),
    ("twos", (2, 2, 2, 2, 2), 10),
    ("threes", (3, 3, 1, 2, 4), 6),
    ("fours", (4, 4, 4, 4, 1), 16),
    ("fives", (5, 5, 5, 2, 1), 15),  # SPEC example
    ("sixes", (6, 1, 2, 3, 4), 6),
    ("sixes", (1, 1, 2, 3, 4), 0),
    ("one_pair", (3, 3, 5, 5, 6), 10),
    ("one_pair", (6, 6, 6, 6, 6), 12),
    ("one_pair", (1, 2, 3, 4, 6), 0),
    ("two_pairs", (3, 3, 5, 5, 6), 16),
    ("two_pairs", (2, 2, 2, 5, 5), 14),  # 3+2 reads as two pairs
    ("two_pairs", (4, 4, 4, 4, 2), 0),  # four equal are not two pairs
    ("two_pairs", (6, 6, 6, 6, 6), 0),
    ("three_of_a_kind", (4, 4, 4, 6, 1), 12),  # SPEC example
    ("three_of_a_kind", (2, 2, 2, 2, 2), 6),
    ("three_of_a_kind", (3, 3, 5, 5, 6), 0),
    ("four_of_a_kind", (2, 2, 2, 2, 5), 8),
    ("four_of_a_kind", (6, 6, 6, 6, 6), 24),
    ("four_of_a_kind", (5, 5, 5, 1, 1), 0),
    ("small_straight", (5, 4, 3, 2, 1), 15),
    ("small_straight", (2, 3, 4, 5, 6), 0),
    ("large_straight", (2, 3, 4, 5, 6), 20),
    ("large_straight", (1, 2, 3, 4, 5), 0),
    ("full_house", (6, 6, 6, 5, 5), 28),
    ("full_house", (5, 5, 6, 6, 6), 28),
    ("full_house", (2, 2, 2, 2, 3), 0),
    ("full_house", (6, 6, 6, 6, 6), 0),  # needs two different faces
    ("full_house", (1, 1, 2, 2, 3), 0),
    ("chance", (1, 2, 3, 4, 6), 16),
    ("yatzy", (3, 3, 3, 3, 3), 50),
    ("yatzy", (3, 3, 3, 3, 4), 0),
]

MAXI_CASES = [
    # SPEC §2.1 examples
    ("fives", (5, 5, 5, 2, 1, 6), 15),
    ("one_pair", (3, 3, 5, 5, 6, 1), 10),
    ("two_pairs", (3, 3, 5, 5, 6, 6), 22),
    ("three_pairs", (2, 2, 4, 4, 6, 6), 24),
    ("three_of_a_kind", (4, 4, 4, 6, 1, 2), 12),
    ("four_of_a_kind", (2, 2, 2, 2, 5, 6), 8),
    ("five_of_a_kind", (5, 5, 5, 5, 5, 1), 25),
    ("small_straight", (1, 2, 3, 4, 5, 5), 15),
    ("large_straight", (2, 3, 4, 5, 6, 6), 20),
    ("full_straight", (6, 5, 4, 3, 2, 1), 21),
    ("full_house", (6, 6, 6, 5, 5, 1), 28),
    ("villa", (3, 3, 3, 5, 5, 5), 24),
    ("tower", (4, 4, 4, 4, 2, 2), 20),
    ("chance", (1, 2, 3, 4, 5, 6), 21),
    ("maxi_yatzy", (2, 2, 2, 2, 2, 2), 100),
    # the other boxes
    ("ones", (1, 1, 1, 1, 1, 1), 6),
    ("twos", (2, 3, 2, 4, 2, 5), 6),
    ("threes", (1, 2, 4, 5, 6, 6), 0),
    ("fours", (4, 4, 1, 1, 1, 1), 8),
    ("sixes", (6, 6, 6, 6, 6, 5), 30),
    ("maxi_yatzy", (2, 2, 2, 2, 2, 3), 0),
    ("full_straight", (1, 2, 3, 4, 5, 5), 0),
    ("small_straight", (2, 3, 4, 5, 6, 6), 0),
    ("large_straight", (1, 2, 3, 4, 5, 1), 0),
    # 4+2: full house 3a+2b, two pairs 2a+2b, tower; not three pairs or villa
    ("full_house", (4, 4, 4, 4, 2, 2), 16),
    ("full_house", (2, 2, 2, 2, 6, 6), 18),
    ("two_pairs", (4, 4, 4, 4, 2, 2), 12),
    ("three_pairs", (4, 4, 4, 4, 2, 2), 0),
    ("villa", (4, 4, 4, 4, 2, 2), 0),
    ("tower", (1, 1, 6, 6, 6, 6), 26),
    # 3+3: the best reading of two pairs and full house, and a villa
    ("two_pairs", (3, 3, 3, 5, 5, 5), 16),
    ("full_house", (3, 3, 3, 5, 5, 5), 21),
    ("full_house", (1, 1, 1, 6, 6, 6), 20),
    ("three_of_a_kind", (3, 3, 3, 5, 5, 5), 15),
    ("three_pairs", (3, 3, 3, 5, 5, 5), 0),
    ("tower", (3, 3, 3, 5, 5, 5), 0),
    # six equal dice: every "N of a kind", never pairs of different faces
    ("one_pair", (6, 6, 6, 6, 6, 6), 12),
    ("three_of_a_kind", (6, 6, 6, 6, 6, 6), 18),
    ("four_of_a_kind", (6, 6, 6, 6, 6, 6), 24),
    ("five_of_a_kind", (6, 6, 6, 6, 6, 6), 30),
    ("two_pairs", (6, 6, 6, 6, 6, 6), 0),
    ("three_pairs", (6, 6, 6, 6, 6, 6), 0),
    ("full_house", (6, 6, 6, 6, 6, 6), 0),
    ("villa", (6, 6, 6, 6, 6, 6), 0),
    ("tower", (6, 6, 6, 6, 6, 6), 0),
    # five equal plus one
    ("full_house", (2, 2, 2, 2, 2, 6), 0),
    ("tower", (2, 2, 2, 2, 2, 6), 0),
    ("two_pairs", (2, 2, 2, 2, 2, 6), 0),
    # 2+2+2 and 3+2+1
    ("two_pairs", (1, 1, 4, 4, 6, 6), 20),
    ("three_pairs", (1, 1, 4, 4, 6, 6), 22),
    ("full_house", (1, 1, 4, 4, 6, 6), 0),
    ("two_pairs", (2, 2, 2, 6, 6, 1), 16),
    ("three_pairs", (2, 2, 2, 6, 6, 1), 0),
    ("four_of_a_kind", (5, 5, 5, 1, 1, 1), 0),
]

YAHTZEE_CASES = [
    ("ones", (1, 1, 2, 3, 4), 2),
    ("twos", (2, 2, 2, 5, 5), 6),
    ("threes", (3, 3, 3, 3, 1), 12),
    ("fours", (4, 1, 2, 3, 5), 4),
    ("fives", (5, 5, 5, 2, 1), 15),  # the seed's example
    ("sixes", (6, 6, 6, 6, 6), 30),
    ("three_of_a_kind", (4, 4, 4, 1, 2), 15),  # sum of all dice
    ("three_of_a_kind", (5, 5, 5, 5, 5), 25),
    ("three_of_a_kind", (3, 3, 5, 5, 6), 0),
    ("four_of_a_kind", (4, 4, 4, 4, 2), 18),
    ("four_of_a_kind", (4, 4, 4, 1, 2), 0),
    ("full_house", (2, 2, 3, 3, 3), 25),
    ("full_house", (5, 5, 5, 5, 5), 0),  # only through the joker or the house rule
    ("full_house", (4, 4, 4, 4, 2), 0),
    ("small_straight", (1, 2, 3, 4, 6), 30),
    ("small_straight", (3, 4, 5, 6, 6), 30),
    ("small_straight", (1, 2, 3, 5, 6), 0),
    ("large_straight", (1, 2, 3, 4, 5), 40),
    ("large_straight", (6, 5, 4, 3, 2), 40),
    ("large_straight", (1, 2, 3, 4, 6), 0),
    ("yahtzee", (5, 5, 5, 5, 5), 50),
    ("yahtzee", (5, 5, 5, 5, 4), 0),
    ("chance", (1, 1, 2, 3, 4), 11),
]


@pytest.mark.parametrize(
    ("name", "category", "dice", "points"),
    [("yatzy", *case) for case in YATZY_CASES]
    + [("maxi", *case) for case in MAXI_CASES]
    + [("yahtzee", *case) for case in YAHTZEE_CASES],
)
def test_box_scores_dice(name: str, category: str, dice: tuple[int, ...], points: int) -> None:
    assert get_ruleset(name).score(category, dice) == points


@pytest.mark.parametrize("name", RULESETS)
def test_every_box_has_a_table_case(name: str) -> None:
    cases = {"yatzy": YATZY_CASES, "maxi": MAXI_CASES, "yahtzee": YAHTZEE_CASES}[name]
    assert {category for category, _, _ in cases} == set(get_ruleset(name).categories)


@pytest.mark.parametrize(
    ("name", "count", "categories"),
    [
        (
            "yatzy",
            5,
            "ones twos threes fours fives sixes one_pair two_pairs three_of_a_kind "
            "four_of_a_kind small_straight large_straight full_house chance yatzy",
        ),
        (
            "maxi",
            6,
            "ones twos threes fours fives sixes one_pair two_pairs three_pairs "
            "three_of_a_kind four_of_a_kind five_of_a_kind small_straight large_straight "
            "full_straight full_house villa tower chance maxi_yatzy",
        ),
        (
            "yahtzee",
            5,
            "ones twos threes fours fives sixes three_of_a_kind four_of_a_kind full_house "
            "small_straight large_straight yahtzee chance",
        ),
    ],
)
def test_ruleset_has_dice_and_boxes_in_printed_order(
    name: str, count: int, categories: str
) -> None:
    rs = get_ruleset(name)
    assert (rs.name, rs.dice_count, rs.categories) == (name, count, tuple(categories.split()))


# Reference for the Scandinavian boxes, straight from the rule "only the dice forming the
# combination count; the highest reading counts": try every subset of the dice.
SUBSET_SHAPES = {
    "one_pair": [2],
    "two_pairs": [2, 2],
    "three_pairs": [2, 2, 2],
    "three_of_a_kind": [3],
    "four_of_a_kind": [4],
    "five_of_a_kind": [5],
    "full_house": [2, 3],
    "villa": [3, 3],
    "tower": [2, 4],
}
STRAIGHTS = {"small_straight": (1, 2, 3, 4, 5), "large_straight": (2, 3, 4, 5, 6)}


def reference_score(name: str, category: str, dice: tuple[int, ...]) -> int:
    if category in SUBSET_SHAPES:
        return max(
            (
                sum(subset)
                for size in range(len(dice) + 1)
                for subset in itertools.combinations(dice, size)
                if sorted(Counter(subset).values()) == SUBSET_SHAPES[category]
            ),
            default=0,
        )
    if category in STRAIGHTS:
        return {"small_straight": 15, "large_straight": 20}[category] * set(
            STRAIGHTS[category]
        ).issubset(dice)
    if category == "full_straight":
        return 21 * (set(dice) == {1, 2, 3, 4, 5, 6})
    if category in ("yatzy", "maxi_yatzy"):
        return (50 if name == "yatzy" else 100) * (len(set(dice)) == 1)
    if category == "chance":
        return sum(dice)
    face = ("ones", "twos", "threes", "fours", "fives", "sixes").index(category) + 1
    return face * dice.count(face)


@pytest.mark.parametrize("name", ["yatzy", "maxi"])
def test_scandinavian_boxes_match_the_subset_reading_for_every_roll(name: str) -> None:
    rs = get_ruleset(name)
    for dice in itertools.combinations_with_replacement(range(1, 7), rs.dice_count):
        expected = {category: reference_score(name, category, dice) for category in rs.categories}
        assert rs.scores(dice) == expected, dice


@pytest.mark.parametrize("name", RULESETS)
def test_box_maxima_add_up_to_the_maximum_total(name: str) -> None:
    rs = get_ruleset(name)
    threshold, bonus = rs.upper_bonus
    upper = sum(MAXIMA[name][category] for category in rs.categories[:6])
    extra_yahtzees = 12 * 100 if name == "yahtzee" else 0
    total = sum(MAXIMA[name].values()) + bonus * (upper >= threshold) + extra_yahtzees
    assert total == {"yatzy": 374, "maxi": 649, "yahtzee": 1575}[name]


@given(data=st.data(), name=st.sampled_from(RULESETS))
def test_a_box_never_scores_above_its_maximum(data: st.DataObject, name: str) -> None:
    rs = get_ruleset(name)
    dice = data.draw(st.lists(st.integers(1, 6), min_size=rs.dice_count, max_size=rs.dice_count))
    for category, points in rs.scores(dice).items():
        assert 0 <= points <= MAXIMA[name][category]


@given(data=st.data(), name=st.sampled_from(RULESETS))
def test_score_ignores_dice_order(data: st.DataObject, name: str) -> None:
    rs = get_ruleset(name)
    dice = data.draw(st.lists(st.integers(1, 6), min_size=rs.dice_count, max_size=rs.dice_count))
    shuffled = data.draw(st.permutations(dice))
    assert rs.scores(dice) == rs.scores(shuffled)
    assert all(
        rs.score(category, shuffled) == rs.scores(dice)[category] for category in rs.categories
    )


# -- options ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options", "category", "dice", "points"),
    [
        ("maxi", {"full_straight_points": 25}, "full_straight", (1, 2, 3, 4, 5, 6), 25),
        ("maxi", {"full_straight_points": 30}, "full_straight", (1, 2, 3, 4, 5, 6), 30),
        ("yatzy", {"five_of_a_kind_full_house": True}, "full_house", (6, 6, 6, 6, 6), 30),
        ("yatzy", {"five_of_a_kind_full_house": True}, "full_house", (1, 1, 1, 1, 1), 5),
        ("yatzy", {"five_of_a_kind_full_house": True}, "full_house", (2, 2, 3, 3, 3), 13),
        ("yatzy", {"five_of_a_kind_full_house": True}, "full_house", (4, 4, 4, 4, 2), 0),
        ("yatzy", {"five_of_a_kind_full_house": True}, "two_pairs", (6, 6, 6, 6, 6), 0),
        ("yahtzee", {"five_of_a_kind_full_house": True}, "full_house", (3, 3, 3, 3, 3), 25),
        ("yahtzee", {"five_of_a_kind_full_house": True}, "full_house", (3, 3, 3, 3, 2), 0),
        ("yatzy", {"forced_order": True, "saved_rolls": True}, "chance", (6, 6, 6, 6, 6), 30),
    ],
)
def test_option_changes_scoring(
    name: str, options: dict[str, object], category: str, dice: tuple[int, ...], points: int
) -> None:
    assert get_ruleset(name, **options).score(category, dice) == points


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("yatzy", {"forced_order": False, "saved_rolls": False, "upper_bonus": [63, 50],
                   "extra_yatzy_bonus": 0, "five_of_a_kind_full_house": False}),
        ("maxi", {"forced_order": False, "saved_rolls": False, "upper_bonus": [84, 100],
                  "extra_yatzy_bonus": 0, "full_straight_points": 21}),
        ("yahtzee", {"forced_order": False, "saved_rolls": False, "upper_bonus": [63, 35],
                     "five_of_a_kind_full_house": False}),
    ],
)  # fmt: skip
def test_default_options_are_listed_in_full(name: str, options: dict[str, object]) -> None:
    assert get_ruleset(name).options == options


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("maxi", {}),
        ("maxi", {"upper_bonus": (75, 50), "saved_rolls": True, "extra_yatzy_bonus": 50}),
        ("yatzy", {"forced_order": True, "five_of_a_kind_full_house": True}),
        ("yahtzee", {"upper_bonus": [0, 0], "five_of_a_kind_full_house": True}),
    ],
)
def test_options_are_json_and_rebuild_an_equal_ruleset(
    name: str, options: dict[str, object]
) -> None:
    rs = get_ruleset(name, **options)
    stored = json.loads(json.dumps(rs.options))
    assert get_ruleset(rs.name, **stored) == rs
    assert get_ruleset(rs.name, **stored) is rs  # shared, so its score table is built once


@pytest.mark.parametrize(
    ("name", "options", "error"),
    [
        ("chess", {}, UnknownRulesetError),
        ("Maxi", {}, UnknownRulesetError),
        (["maxi"], {}, UnknownRulesetError),  # unhashable: the ruleset cache refused it
        ({"maxi": 1}, {"forced_order": True}, UnknownRulesetError),
        (None, {}, UnknownRulesetError),
        ("maxi", {"bonus": 1}, UnknownOptionError),
        ("maxi", {"forced_order": 1}, InvalidOptionError),
        ("maxi", {"saved_rolls": "yes"}, InvalidOptionError),
        ("maxi", {"upper_bonus": (84,)}, InvalidOptionError),
        ("maxi", {"upper_bonus": (84, 100, 1)}, InvalidOptionError),
        ("maxi", {"upper_bonus": (-1, 100)}, InvalidOptionError),
        ("maxi", {"upper_bonus": (84.0, 100)}, InvalidOptionError),
        ("maxi", {"upper_bonus": "84,100"}, InvalidOptionError),
        ("maxi", {"upper_bonus": None}, InvalidOptionError),
        ("maxi", {"full_straight_points": 22}, InvalidOptionError),
        ("maxi", {"full_straight_points": "21"}, InvalidOptionError),
        ("maxi", {"extra_yatzy_bonus": -1}, InvalidOptionError),
        ("maxi", {"extra_yatzy_bonus": 1.5}, InvalidOptionError),
        ("maxi", {"extra_yatzy_bonus": True}, InvalidOptionError),
        ("yatzy", {"five_of_a_kind_full_house": 1}, InvalidOptionError),
        ("maxi", {"five_of_a_kind_full_house": True}, OptionNotApplicableError),
        ("yatzy", {"full_straight_points": 21}, OptionNotApplicableError),
        ("yahtzee", {"full_straight_points": 25}, OptionNotApplicableError),
        ("yahtzee", {"extra_yatzy_bonus": 50}, OptionNotApplicableError),
    ],
)
def test_bad_ruleset_or_option_raises_a_typed_error(
    name: str, options: dict[str, object], error: type[RulesetError]
) -> None:
    with pytest.raises(error) as raised:
        get_ruleset(name, **options)
    assert raised.value.code == error.code
    assert isinstance(raised.value, ValueError)
    assert raised.value.message == str(raised.value) != ""


def test_error_codes_are_stable() -> None:
    assert (
        UnknownRulesetError.code,
        UnknownOptionError.code,
        InvalidOptionError.code,
        OptionNotApplicableError.code,
        InvalidDiceError.code,
        UnknownCategoryError.code,
    ) == (
        "unknown_ruleset",
        "unknown_option",
        "invalid_option",
        "option_not_applicable",
        "invalid_dice",
        "unknown_category",
    )


@pytest.mark.parametrize(
    "dice",
    [
        (1, 2, 3, 4),
        (1, 2, 3, 4, 5, 6),
        (0, 1, 2, 3, 4),
        (1, 2, 3, 4, 7),
        (True, 1, 1, 1, 1),
        (1.0, 2, 3, 4, 5),
        "12345",
        None,
        (1, 2, "3", 4, 5),
    ],
)
def test_score_rejects_bad_dice(dice: object) -> None:
    with pytest.raises(InvalidDiceError):
        get_ruleset("yatzy").score("chance", dice)  # type: ignore[arg-type]


@pytest.mark.parametrize("category", ["villa", "bogus", "", None, 3])
def test_score_rejects_a_box_the_ruleset_lacks(category: object) -> None:
    with pytest.raises(UnknownCategoryError):
        get_ruleset("yatzy").score(category, (1, 2, 3, 4, 5))  # type: ignore[arg-type]
