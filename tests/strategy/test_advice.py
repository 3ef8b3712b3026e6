"""Best moves and analyses agree with the table and with the engine's rules."""

import copy
import random
from pathlib import Path

import pytest

import yatzy
from yatzy.strategy import Table, analyse, best_move, load_table
from yatzy.strategy.advice import Position, TableFuture, TurnPlan


def _random_games(rs: yatzy.Ruleset, count: int, seed: int) -> list[yatzy.Game]:
    """Games stopped at random points, played by random legal actions."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        game = yatzy.Game(rs, rng.randbytes(32))
        for _ in range(rng.randrange(3 * len(rs.categories))):
            if game.is_over:
                break
            if game.rolls_left and (game.rolls_used == 0 or rng.random() < 0.6):
                game.roll(
                    [p for p in range(rs.dice_count) if game.rolls_used and rng.random() < 0.5]
                )
            else:
                game.score(rng.choice(list(game.options())))
        if not game.is_over:
            games.append(game)
    return games


@pytest.mark.parametrize("name", ["yatzy", "yahtzee"])
def test_boxes_offered_are_the_engine_options_with_their_points(
    name: str, request: pytest.FixtureRequest
) -> None:
    table = request.getfixturevalue(f"{name}_table")
    for game in _random_games(yatzy.get_ruleset(name), 150, seed=1):
        if game.rolls_used:
            boxes = {
                m.category: m.points for m in best_move(game, table=table).moves if not m.is_roll
            }
            assert boxes == game.options()


def test_joker_positions_offer_only_the_boxes_the_rule_allows(yahtzee_table: Table) -> None:
    game = yatzy.Game(yatzy.get_ruleset("yahtzee"), bytes(32))
    game._draw = lambda turn, roll, count: (3,) * count  # type: ignore[method-assign]
    game.roll()
    game.score("yahtzee")
    game.roll()
    moves = best_move(game, table=yahtzee_table).moves
    assert {m.category for m in moves if not m.is_roll} == {"threes"}
    (threes,) = (m for m in moves if m.category == "threes")
    # 15 in threes and the 100 bonus on top of the banked 50, then the state after it:
    # yahtzee (bit 11) and threes (bit 2) filled, yahtzee box full (bit 13), 15 up top.
    after = yahtzee_table.value(1 << 11 | 1 << 2 | 1 << 13, 15)
    assert threes.points == 15
    assert threes.expected == pytest.approx(50 + 15 + 100 + after)


def test_turn_value_equals_the_table_value_of_the_state(yatzy_table: Table) -> None:
    for game in _random_games(yatzy.get_ruleset("yatzy"), 40, seed=2):
        position = Position.of(game)
        plan = TurnPlan.build(position, TableFuture(yatzy_table))
        assert plan.start == pytest.approx(yatzy_table.value(position.mask, position.upper))


def test_moves_are_sorted_and_holds_keep_the_named_faces(yatzy_table: Table) -> None:
    for game in _random_games(yatzy.get_ruleset("yatzy"), 60, seed=3):
        moves = best_move(game, table=yatzy_table).moves
        assert [m.expected for m in moves] == sorted((m.expected for m in moves), reverse=True)
        for move in moves:
            if move.is_roll and game.dice:
                assert sorted(game.dice[p] for p in move.hold) == list(move.keep)


@pytest.mark.parametrize("name", ["yatzy", "yahtzee"])
def test_every_distinct_hold_is_offered_holding_every_die_included(
    name: str, request: pytest.FixtureRequest
) -> None:
    table = request.getfixturevalue(f"{name}_table")
    rerolls = [g for g in _random_games(yatzy.get_ruleset(name), 150, seed=5) if g.rolls_left]
    rerolls = [g for g in rerolls if g.rolls_used]
    assert len(rerolls) > 20
    for game in rerolls:
        moves = best_move(game, table=table).moves
        keeps = sorted(m.keep for m in moves if m.is_roll)
        distinct = {
            tuple(sorted(game.dice[p] for p in range(len(game.dice)) if mask >> p & 1))
            for mask in range(1 << len(game.dice))
        }
        assert keeps == sorted(distinct)
        (all_held,) = (m for m in moves if m.is_roll and len(m.hold) == len(game.dice))
        after = copy.deepcopy(game)
        after.roll(all_held.hold)
        assert after.dice == game.dice
        assert all_held.expected == pytest.approx(best_move(after, table=table).best.expected)
        assert all_held.expected <= moves[0].expected


def test_first_move_of_a_turn_is_to_roll_at_the_table_value(yatzy_table: Table) -> None:
    advice = best_move(yatzy.Game(yatzy.get_ruleset("yatzy"), bytes(32)), table=yatzy_table)
    assert len(advice.moves) == 1 and advice.best.is_roll and advice.best.hold == ()
    assert advice.best.expected == pytest.approx(248.4399894, abs=1e-6)


def test_best_move_of_a_finished_game_is_an_error(yatzy_table: Table) -> None:
    game = yatzy.Game(yatzy.get_ruleset("yatzy"), bytes(32))
    while not game.is_over:
        game.roll()
        game.score(next(iter(game.options())))
    with pytest.raises(yatzy.GameOverError):
        best_move(game, table=yatzy_table)


def _play_best(rs: yatzy.Ruleset, seed: bytes, table: Table) -> yatzy.Game:
    game = yatzy.Game(rs, seed)
    while not game.is_over:
        move = best_move(game, table=table).best
        if move.is_roll:
            game.roll(move.hold)
        else:
            assert move.category is not None
            game.score(move.category)
    return game


def test_analysis_of_best_play_loses_nothing(yatzy_table: Table) -> None:
    game = _play_best(yatzy.get_ruleset("yatzy"), bytes(range(32)), yatzy_table)
    analysis = analyse(game.ruleset, game.seed, game.actions, table=yatzy_table)
    assert analysis.total == game.total
    assert analysis.loss == pytest.approx(0.0, abs=1e-9)
    assert len(analysis.decisions) == len(game.actions) - 15  # a turn's first roll is no choice


def test_analysis_charges_a_worse_box_by_its_expected_cost(yatzy_table: Table) -> None:
    game = yatzy.Game(yatzy.get_ruleset("yatzy"), bytes(32))
    game.roll()
    moves = best_move(game, table=yatzy_table).moves
    worst = next(m for m in reversed(moves) if not m.is_roll)
    assert worst.category is not None
    game.score(worst.category)
    (decision,) = analyse(game.ruleset, game.seed, game.actions, table=yatzy_table).decisions
    assert decision.loss == pytest.approx(moves[0].expected - worst.expected)
    assert decision.loss > 0


_ROLL = {"type": "roll", "hold": []}


@pytest.mark.parametrize(
    ("actions", "code"),
    [
        ([_ROLL, {"type": "roll", "hold": [9]}], "invalid_hold"),
        ([_ROLL, _ROLL, _ROLL, _ROLL], "no_rolls_left"),
        ([_ROLL, {"type": "score", "category": "yahtzee"}], "unknown_category"),
        ([_ROLL, {"type": "score", "category": "chance"}] * 2, "category_used"),
        ([_ROLL, {"type": "score"}], "invalid_action"),
        ([_ROLL, {"type": "roll", "hold": "01"}], "invalid_action"),
    ],
)
def test_an_illegal_action_log_raises_the_engines_error(
    actions: list[dict[str, object]], code: str, yatzy_table: Table
) -> None:
    """An action log is replayed as ``Game.replay`` replays it: an illegal action raises
    the engine's own error with its stable code (SPEC §9), never an IndexError or a
    KeyError from grading it."""
    with pytest.raises(yatzy.YatzyError) as raised:
        analyse(yatzy.get_ruleset("yatzy"), bytes(32), actions, table=yatzy_table)
    assert raised.value.code == code


@pytest.mark.parametrize(
    "options",
    [{"forced_order": True, "extra_yatzy_bonus": 50}, {"forced_order": True}],
)
def test_extra_yatzy_bonus_and_forced_order_follow_the_engine(
    options: dict[str, object], tmp_path: Path
) -> None:
    rs = yatzy.get_ruleset("yatzy", **options)
    table = load_table(rs, directory=tmp_path, build=True)
    for game in _random_games(rs, 60, seed=4):
        position = Position.of(game)
        plan = TurnPlan.build(position, TableFuture(table))
        assert plan.start == pytest.approx(table.value(position.mask, position.upper))
        if game.rolls_used:
            moves = best_move(game, table=table).moves
            assert {m.category: m.points for m in moves if not m.is_roll} == game.options()


def test_position_from_stored_parts_gets_the_same_advice_as_the_game(yatzy_table: Table) -> None:
    for game in _random_games(yatzy.get_ruleset("yatzy"), 20, seed=5):
        snapshot = game.snapshot()
        position = Position.from_scorecard(
            game.ruleset,
            snapshot["scorecard"],
            snapshot["extra_bonus"],
            snapshot["rolls_used"],
            snapshot["dice"],
        )
        assert best_move(position, table=yatzy_table) == best_move(game, table=yatzy_table)


def _copy(game: yatzy.Game) -> yatzy.Game:
    return copy.deepcopy(game, memo={id(game.ruleset): game.ruleset})


def test_box_values_match_the_engine_score_bonuses_and_next_state(yahtzee_table: Table) -> None:
    """Score every possible roll in every allowed box through the engine: the points,
    the extra yahtzee bonus and the state reached must be what the table assumed."""
    rs = yatzy.get_ruleset("yahtzee")
    ms = yahtzee_table.rules.ms
    games = [g for g in _random_games(rs, 40, seed=6) if g.rolls_used == 0][:5]
    yahtzee_filled = yatzy.Game(rs, bytes(32))
    yahtzee_filled._draw = lambda turn, roll, count: (4,) * count  # type: ignore[method-assign]
    yahtzee_filled.roll()
    yahtzee_filled.score("yahtzee")
    for game in [*games, yahtzee_filled]:
        for k in range(ms.first_outcome, ms.n_keeps):
            dice = ms.faces(k)
            rolled = _copy(game)
            rolled._draw = lambda turn, roll, count, dice=dice: dice[:count]  # type: ignore[method-assign]
            rolled.roll()
            moves = best_move(rolled, table=yahtzee_table).moves
            for move in (m for m in moves if not m.is_roll):
                assert move.category is not None
                after = _copy(rolled)
                after.score(move.category)
                position = Position.of(after)
                value = yahtzee_table.value(position.mask, position.upper)
                assert move.expected == pytest.approx(after.total - after.bonus + value)
