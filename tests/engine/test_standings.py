"""Ranks, results and the bonus pace: the pure functions every layer calls
(yatzy/standings.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import yatzy


def card(ruleset: yatzy.Ruleset, upper: dict[str, list[int]]) -> dict[str, int | None]:
    """A scorecard whose upper boxes hold what the engine scores ``upper``'s dice."""
    filled = {box: ruleset.score(box, dice) for box, dice in upper.items()}
    return {box: filled.get(box) for box in ruleset.categories}


@pytest.mark.parametrize(
    ("ruleset", "par_of_sixes"), [("maxi", 24), ("yatzy", 18), ("yahtzee", 18)]
)
def test_par_is_three_of_each_face_or_four_in_maxi(ruleset, par_of_sixes):
    rs = yatzy.get_ruleset(ruleset)
    pace = yatzy.bonus_pace(rs, card(rs, {}))
    assert pace["par"] == yatzy.bonus_par(rs)
    assert pace["par"]["sixes"] == par_of_sixes
    assert pace["par"]["ones"] == par_of_sixes // 6
    assert (pace["pace"], pace["boxes"], pace["reached"]) == (0, {}, False)


def test_each_filled_box_is_above_or_below_its_par_and_the_pace_is_their_sum():
    rs = yatzy.get_ruleset("yatzy")
    pace = yatzy.bonus_pace(rs, card(rs, {"sixes": [6, 6, 6, 6, 1], "twos": [2, 2, 1, 3, 4]}))
    # Four sixes are 6 ahead of three; two twos are 2 behind.
    assert pace["boxes"] == {"sixes": 6, "twos": -2}
    assert pace["pace"] == 4
    assert pace["needed"] == 63 - 28


def test_a_threshold_that_does_not_split_evenly_gives_fractional_par():
    rs = yatzy.get_ruleset("maxi", upper_bonus=(75, 50))
    pace = yatzy.bonus_pace(rs, card(rs, {"sixes": [6, 6, 6, 6, 1, 2]}))
    assert pace["par"]["sixes"] == 21.4
    assert pace["boxes"] == {"sixes": 2.6}
    assert (pace["threshold"], pace["points"]) == (75, 50)


def test_the_pace_says_when_the_bonus_is_reached():
    rs = yatzy.get_ruleset("yatzy")
    full = {box: [face] * 5 for face, box in enumerate(rs.categories[:6], start=1)}
    pace = yatzy.bonus_pace(rs, card(rs, full))
    assert pace["reached"] and pace["needed"] == 0 and pace["pace"] == 105 - 63


def test_the_pace_agrees_with_the_games_own_bonus():
    rs = yatzy.get_ruleset("maxi")
    game = yatzy.Game(rs, bytes(32))
    while not game.is_over:
        game.roll()
        game.score(next(box for box in rs.categories if game.scorecard[box] is None))
    pace = yatzy.bonus_pace(rs, game.scorecard)
    assert pace["reached"] == (game.bonus > 0)
    assert pace["needed"] == max(0, 84 - game.upper_total)


def test_equal_values_share_a_rank_and_the_next_rank_skips():
    assert yatzy.competition_ranks([300, 250, 250, 100]) == [1, 2, 2, 4]
    assert yatzy.competition_ranks([1.5, 0.0, 0.0], higher_first=False) == [3, 1, 1]


@given(st.lists(st.integers(0, 650), max_size=30))
def test_a_rank_is_one_plus_the_entries_strictly_ahead(values):
    ranks = yatzy.competition_ranks(values)
    for value, rank in zip(values, ranks, strict=True):
        assert rank == 1 + len([other for other in values if other > value])
        # Sorted best first, an entry's rank is its position unless it ties the one above.
        position = sorted(values, reverse=True).index(value) + 1
        assert rank == position


@given(st.integers(0, 1575), st.integers(0, 1575))
def test_the_higher_total_wins_and_equal_totals_draw(mine, theirs):
    result = yatzy.result_of(mine, theirs)
    assert result == {1: "win", -1: "loss", 0: "draw"}[(mine > theirs) - (mine < theirs)]
    assert yatzy.result_of(theirs, mine) == {"win": "loss", "loss": "win", "draw": "draw"}[result]
