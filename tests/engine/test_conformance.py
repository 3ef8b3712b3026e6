"""Public scoring cases from other implementations, read from the shared folder at test time.

The files live in ``shared/conformance`` beside the repository, never inside it; without
that folder these tests are skipped. Every row is checked, or skipped with its reason.
"""

from pathlib import Path
from typing import Any

import pytest

from yatzy import get_ruleset

CONFORMANCE = Path(__file__).resolve().parents[2] / ".." / "shared" / "conformance"

EMILYBACHE_BOXES = {
    "score_pair": "one_pair",
    "two_pair": "two_pairs",
    "TWO_PAIRS": "two_pairs",
    "smallStraight": "small_straight",
    "largeStraight": "large_straight",
    "fullHouse": "full_house",
}

PRECISIT_RULESETS = {"yatzy-scandinavian": "yatzy", "yahtzee": "yahtzee"}
PRECISIT_MODIFIERS: dict[str, dict[str, Any]] = {
    "fh5": {"five_of_a_kind_full_house": True},
    "forced": {"forced_order": True},  # fill order only; scoring must be unaffected
}
PRECISIT_UNSUPPORTED = {"tp4": "variant +tp4 (four equal as two pairs) is not offered"}

# Finnish Maxi Yatzy names: Cottage is 3+2 (our full house), House is 3+3 (our villa).
TEEAALTO_BOXES = {
    "Ones": "ones", "Twos": "twos", "Threes": "threes", "Fours": "fours",
    "Fives": "fives", "Sixes": "sixes", "Pair": "one_pair", "TwoPairs": "two_pairs",
    "ThreePairs": "three_pairs", "ThreeOfAKind": "three_of_a_kind",
    "FourOfAKind": "four_of_a_kind", "FiveOfAKind": "five_of_a_kind",
    "SmallStraight": "small_straight", "LargeStraight": "large_straight",
    "FullStraight": "full_straight", "Cottage": "full_house", "House": "villa",
    "Tower": "tower", "Chance": "chance", "Yatzy": "maxi_yatzy",
}  # fmt: skip
# teeaalto's six-of-a-kind box is worth 50; our maxi_yatzy (SPEC §2.1) is worth 100.
TEEAALTO_YATZY_POINTS = 50


def rows(filename: str) -> list[Any]:
    """One pytest param per data row: (fields, expected points), id "file:line"."""
    path = CONFORMANCE / filename
    if not path.is_file():
        return [
            pytest.param(
                [], 0, marks=pytest.mark.skip(reason=f"conformance file not found: {path}")
            )
        ]
    params = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.strip() and not line.startswith("#"):
            *fields, expected = (field.strip() for field in line.split("|"))
            params.append(pytest.param(fields, int(expected), id=f"{filename}:{number}"))
    return params


def dice_of(text: str) -> tuple[int, ...]:
    return tuple(int(die) for die in text.split(","))


@pytest.mark.parametrize(("fields", "expected"), rows("emilybache_yatzy_python.txt"))
def test_emilybache_yatzy(fields: list[str], expected: int) -> None:
    box, dice = fields
    assert get_ruleset("yatzy").score(EMILYBACHE_BOXES.get(box, box), dice_of(dice)) == expected


@pytest.mark.parametrize(("fields", "expected"), rows("precisit_yatzy_solver_scoring.txt"))
def test_precisit(fields: list[str], expected: int) -> None:
    variant, box, dice = fields
    base, *modifiers = variant.split("+")
    for modifier in modifiers:
        if modifier in PRECISIT_UNSUPPORTED:
            pytest.skip(PRECISIT_UNSUPPORTED[modifier])
    options = {name: value for m in modifiers for name, value in PRECISIT_MODIFIERS[m].items()}
    ruleset = get_ruleset(PRECISIT_RULESETS[base], **options)
    assert ruleset.score(box, dice_of(dice)) == expected


@pytest.mark.parametrize(("fields", "expected"), rows("teeaalto_maxiyatzy.txt"))
def test_teeaalto_maxi(fields: list[str], expected: int) -> None:
    box, dice = fields
    category = TEEAALTO_BOXES[box]
    if category == "maxi_yatzy" and expected:
        assert expected == TEEAALTO_YATZY_POINTS
        expected = get_ruleset("maxi").yatzy_points
    assert get_ruleset("maxi").score(category, dice_of(dice)) == expected
