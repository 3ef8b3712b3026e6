"""What the engine tells the rules pages: each option's default and allowed values, the
maximum total under any options, and the arguments of its errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import yatzy
from yatzy import RULESETS, get_ruleset, option_specs


@pytest.mark.parametrize("name", RULESETS)
def test_option_specs_are_what_get_ruleset_accepts(name: str) -> None:
    specs = option_specs(name)
    assert [spec.name for spec in specs] == list(get_ruleset(name).options)
    assert {spec.name: spec.default for spec in specs} == get_ruleset(name).options
    for spec in specs:
        for choice in spec.choices or ():
            assert get_ruleset(name, **{spec.name: choice}).options[spec.name] == choice
        if spec.minimum is not None:
            low = [spec.minimum] * 2 if spec.kind == "pair" else spec.minimum
            get_ruleset(name, **{spec.name: low})
            below = [spec.minimum - 1] * 2 if spec.kind == "pair" else spec.minimum - 1
            with pytest.raises(yatzy.InvalidOptionError) as refused:
                get_ruleset(name, **{spec.name: below})
            assert refused.value.params == {
                "reason": spec.kind,
                "option": spec.name,
                "value": below,
                "max": spec.maximum,
            }
        if spec.maximum is not None:
            high = [spec.maximum] * 2 if spec.kind == "pair" else spec.maximum
            get_ruleset(name, **{spec.name: high})
            above = [spec.maximum + 1] * 2 if spec.kind == "pair" else spec.maximum + 1
            with pytest.raises(yatzy.InvalidOptionError):
                get_ruleset(name, **{spec.name: above})


def test_a_value_outside_the_choices_names_them() -> None:
    with pytest.raises(yatzy.InvalidOptionError) as refused:
        get_ruleset("maxi", full_straight_points=22)
    assert refused.value.params["choices"] == [21, 25, 30]
    assert refused.value.code == "invalid_option"


@pytest.mark.parametrize(
    ("name", "options", "total"),
    [
        ("yatzy", {}, 374),
        ("maxi", {}, 649),
        ("yahtzee", {}, 1575),
        ("maxi", {"full_straight_points": 30}, 658),
        ("yatzy", {"upper_bonus": (106, 50)}, 324),  # 105 is the most the upper boxes make
        ("yahtzee", {"forced_order": True}, 475),
        ("yatzy", {"extra_yatzy_bonus": 50, "forced_order": True}, 374),
        ("yatzy", {"five_of_a_kind_full_house": True}, 376),
    ],
)
def test_the_maximum_total_follows_the_options(name: str, options: dict, total: int) -> None:
    assert get_ruleset(name, **options).max_total == total


@given(
    name=st.sampled_from(RULESETS),
    seed=st.binary(min_size=32, max_size=32),
    bonus=st.sampled_from([0, 5, 50]),
)
def test_no_game_scores_above_the_maximum_total(name: str, seed: bytes, bonus: int) -> None:
    rs = get_ruleset(name, **({"extra_yatzy_bonus": bonus} if name != "yahtzee" else {}))
    game = yatzy.Game(rs, seed)
    while not game.is_over:
        game.roll()
        options = game.options()
        game.score(max(options, key=options.__getitem__))
    assert game.total <= rs.max_total


def test_game_errors_carry_their_arguments() -> None:
    game = yatzy.Game(get_ruleset("yatzy"), bytes(32))
    with pytest.raises(yatzy.NoRollYetError) as no_roll:
        game.score("chance")
    assert no_roll.value.params == {"turn": 0}
    game.roll()
    with pytest.raises(yatzy.InvalidHoldError) as bad_hold:
        game.roll(hold=[7])
    assert bad_hold.value.params == {"reason": "positions", "last": 4}
    game.score("chance")
    game.roll()
    with pytest.raises(yatzy.CategoryUsedError) as used:
        game.score("chance")
    assert used.value.params == {"category": "chance"}
    with pytest.raises(yatzy.UnknownCategoryError) as unknown:
        game.score("villa")
    assert unknown.value.params["category"] == "villa"
