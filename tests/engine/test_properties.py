"""Hypothesis properties of whole games, over a spread of rulesets and options."""

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.helpers import RULESET_VARIANTS, ScriptedGame, play_randomly
from yatzy import Game, GameError, Ruleset

rulesets = st.sampled_from(RULESET_VARIANTS)
seeds = st.binary(min_size=32, max_size=32)


@given(ruleset=rulesets, seed=seeds, rnd=st.randoms(use_true_random=False))
def test_replaying_the_action_log_reproduces_the_game(
    ruleset: Ruleset, seed: bytes, rnd: random.Random
) -> None:
    game = Game(ruleset, seed)
    play_randomly(game, rnd)
    assert game.is_over
    replayed = Game.replay(ruleset, seed, json.loads(json.dumps(game.actions)))
    assert replayed.snapshot() == game.snapshot()


@given(
    ruleset=rulesets,
    seed=seeds,
    rnd=st.randoms(use_true_random=False),
    stop_after=st.integers(0, 80),
)
def test_snapshot_round_trips_at_any_point(
    ruleset: Ruleset, seed: bytes, rnd: random.Random, stop_after: int
) -> None:
    game = Game(ruleset, seed)
    play_randomly(game, rnd, max_actions=stop_after)
    snapshot = game.snapshot()
    restored = Game.from_snapshot(json.loads(json.dumps(snapshot)))
    assert restored.snapshot() == snapshot
    assert restored.options() == game.options()
    assert restored.rolls_left == game.rolls_left
    # Both continue identically from there.
    play_randomly(game, random.Random(stop_after))
    play_randomly(restored, random.Random(stop_after))
    assert restored.snapshot() == game.snapshot()


# Dice that are often all equal, so the joker and extra-yatzy paths come up.
def dice_for(ruleset: Ruleset) -> st.SearchStrategy[tuple[int, ...]]:
    count = ruleset.dice_count
    return st.one_of(
        st.integers(1, 6).map(lambda face: (face,) * count),
        st.tuples(*[st.integers(1, 6)] * count),
    )


@given(data=st.data(), ruleset=rulesets)
def test_options_agree_with_what_score_records(data: st.DataObject, ruleset: Ruleset) -> None:
    game = ScriptedGame(ruleset)
    while not game.is_over:
        game.roll_dice(data.draw(dice_for(ruleset)))
        options = game.options()
        assert options, "some box can always be filled"
        category = data.draw(st.sampled_from(sorted(options)))
        total_before, extra_before = game.total, game.extra_bonus
        points = game.score(category)
        assert points == options[category] == game.scorecard[category]
        box_total = sum(p for p in game.scorecard.values() if p is not None)
        assert game.total == box_total + game.bonus + game.extra_bonus
        assert game.total >= total_before + points
        assert game.extra_bonus >= extra_before


def random_action(data: st.DataObject, ruleset: Ruleset) -> tuple[str, Any]:
    """Any roll or score request, legal or not."""
    hold = st.lists(st.one_of(st.integers(-2, ruleset.dice_count + 1), st.text(max_size=1)))
    category = st.one_of(st.sampled_from(ruleset.categories), st.sampled_from(["villa", "", "x"]))
    return data.draw(
        st.one_of(st.tuples(st.just("roll"), hold), st.tuples(st.just("score"), category))
    )


@settings(max_examples=40)
@given(data=st.data(), ruleset=rulesets, seed=seeds)
def test_illegal_actions_leave_the_game_unchanged(
    data: st.DataObject, ruleset: Ruleset, seed: bytes
) -> None:
    game = Game(ruleset, seed)
    for _ in range(40):
        kind, argument = random_action(data, ruleset)
        before = game.snapshot()
        try:
            game.roll(argument) if kind == "roll" else game.score(argument)
        except GameError:
            assert game.snapshot() == before
