"""The upper bonus pace (the score sheet's tip in the seeds): each upper box against
three of its face, four in Maxi, or the threshold's share of it under other options."""

import pytest

import yatzy
from games.selectors import round_bonus_pace


def game_with(ruleset: yatzy.Ruleset, upper: dict[str, list[int]]) -> yatzy.Game:
    """A game whose upper boxes hold the points of ``upper`` (dice chosen, not rolled):
    a snapshot the engine checks as it restores it."""
    card = {box: None for box in ruleset.categories}
    actions = []
    for box, dice in upper.items():
        card[box] = ruleset.score(box, dice)
        actions += [{"type": "roll", "hold": []}, {"type": "score", "category": box}]
    snapshot = yatzy.Game(ruleset, bytes(32)).snapshot()
    upper_total = sum(points for points in card.values() if points is not None)
    threshold, points = ruleset.upper_bonus
    bonus = points if upper_total >= threshold else 0
    snapshot.update(
        actions=actions,
        scorecard=card,
        turn=len(upper),
        upper_total=upper_total,
        bonus=bonus,
        total=upper_total + bonus,
    )
    return yatzy.Game.from_snapshot(snapshot)


@pytest.mark.parametrize(
    ("ruleset", "par_of_sixes"), [("maxi", 24), ("yatzy", 18), ("yahtzee", 18)]
)
def test_par_is_three_of_each_face_or_four_in_maxi(ruleset, par_of_sixes):
    pace = round_bonus_pace(yatzy.Game(yatzy.get_ruleset(ruleset), bytes(32)))
    assert pace["par"]["sixes"] == par_of_sixes
    assert pace["par"]["ones"] == par_of_sixes // 6
    assert (pace["pace"], pace["boxes"], pace["reached"]) == (0, {}, False)


def test_each_filled_box_is_above_or_below_its_par_and_the_pace_is_their_sum():
    rs = yatzy.get_ruleset("yatzy")
    game = game_with(rs, {"sixes": [6, 6, 6, 6, 1], "twos": [2, 2, 1, 3, 4]})
    pace = round_bonus_pace(game)
    # Four sixes are 6 ahead of three; two twos are 2 behind.
    assert pace["boxes"] == {"sixes": 6, "twos": -2}
    assert pace["pace"] == 4
    assert pace["needed"] == 63 - 28


def test_a_threshold_that_does_not_split_evenly_gives_fractional_par():
    rs = yatzy.get_ruleset("maxi", upper_bonus=(75, 50))
    pace = round_bonus_pace(game_with(rs, {"sixes": [6, 6, 6, 6, 1, 2]}))
    assert pace["par"]["sixes"] == 21.4
    assert pace["boxes"] == {"sixes": 2.6}
    assert (pace["threshold"], pace["points"]) == (75, 50)


def test_the_pace_says_when_the_bonus_is_reached():
    rs = yatzy.get_ruleset("yatzy")
    full = {box: [face] * 5 for face, box in enumerate(rs.categories[:6], start=1)}
    pace = round_bonus_pace(game_with(rs, full))
    assert pace["reached"] and pace["needed"] == 0 and pace["pace"] == 105 - 63
