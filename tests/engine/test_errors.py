"""The engine's errors stay small whatever it was given."""

import pytest

from yatzy import Game, YatzyError, get_ruleset


@pytest.mark.parametrize(
    "act",
    [
        lambda: get_ruleset("yatzy").score("chance", [1] * 100_000),
        lambda: get_ruleset("yatzy").score("x" * 100_000, [1, 2, 3, 4, 5]),
        lambda: get_ruleset("x" * 100_000),
        lambda: get_ruleset("maxi", **{"x" * 100_000: 1}),
        lambda: get_ruleset("maxi", full_straight_points="9" * 100_000),
        lambda: Game(get_ruleset("yatzy"), bytes(32)).roll(list(range(100_000))),
    ],
)
def test_an_error_shows_what_it_was_given_in_a_few_characters(act) -> None:
    """Whatever a caller passes, the engine's message stays short (it named the whole
    value: 3 MB for a million dice)."""
    with pytest.raises(YatzyError) as raised:
        act()
    assert len(raised.value.message) < 300, raised.value.message[:400]
