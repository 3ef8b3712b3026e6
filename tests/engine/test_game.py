"""Game flow (SPEC §2, §9): rolls, holds, scoring, options, bonuses, errors, rebuilding."""

import json
from typing import Any

import pytest

from tests.engine.helpers import MAXIMA, ScriptedGame
from yatzy import (
    CategoryUsedError,
    Game,
    GameError,
    GameOverError,
    InvalidActionError,
    InvalidHoldError,
    InvalidSeedError,
    InvalidSnapshotError,
    JokerRuleError,
    NoRollsLeftError,
    NoRollYetError,
    OutOfOrderError,
    UnknownCategoryError,
    YatzyError,
    get_ruleset,
)
from yatzy.dice import draw

SEED = bytes(range(32))


def test_new_game_shows_nothing_before_the_first_roll() -> None:
    game = Game(get_ruleset("maxi"), SEED)
    assert (game.turn, game.rolls_used, game.rolls_left, game.saved_rolls) == (0, 0, 3, 0)
    assert game.dice == ()
    assert game.options() == {}
    assert game.scorecard == dict.fromkeys(get_ruleset("maxi").categories)
    assert (game.upper_total, game.bonus, game.extra_bonus, game.total) == (0, 0, 0, 0)
    assert not game.is_over
    assert game.actions == []


def test_first_roll_throws_all_dice_from_the_stream() -> None:
    game = Game(get_ruleset("maxi"), SEED)
    assert game.roll() == draw(SEED, 0, 0, 6) == game.dice
    assert (game.rolls_used, game.rolls_left) == (1, 2)


def test_later_roll_fills_the_free_positions_in_ascending_order() -> None:
    game = Game(get_ruleset("maxi"), SEED)
    first = game.roll()
    second = game.roll(hold=[4, 1])
    fresh = iter(draw(SEED, 0, 1, 4))
    assert second == tuple(first[p] if p in (1, 4) else next(fresh) for p in range(6))
    assert game.actions[-1] == {"type": "roll", "hold": [1, 4]}


def test_players_keeping_the_same_dice_get_the_same_new_dice() -> None:
    games = [Game(get_ruleset("yatzy"), SEED) for _ in range(2)]
    for game in games:
        game.roll()
    assert games[0].roll(hold=[0, 2]) == games[1].roll(hold=(2, 0))


def test_each_turn_has_its_own_first_roll() -> None:
    game = Game(get_ruleset("yatzy"), SEED)
    game.roll()
    game.roll(hold=[0])
    game.score("chance")
    assert game.dice == ()
    assert game.roll() == draw(SEED, 1, 0, 5)


def test_score_fills_the_box_and_starts_the_next_turn() -> None:
    game = ScriptedGame(get_ruleset("maxi"))
    assert game.play((5, 5, 5, 2, 1, 6), "fives") == 15
    assert game.scorecard["fives"] == 15
    assert (game.turn, game.rolls_used, game.dice, game.options()) == (1, 0, (), {})
    assert game.actions[-1] == {"type": "score", "category": "fives"}


def test_a_box_that_does_not_fit_scores_zero() -> None:
    game = ScriptedGame(get_ruleset("yatzy"))
    assert game.play((1, 2, 3, 4, 6), "yatzy") == 0
    assert game.scorecard["yatzy"] == 0


def test_options_list_every_open_box_with_its_points() -> None:
    game = ScriptedGame(get_ruleset("yatzy"))
    game.play((1, 1, 1, 1, 1), "ones")
    game.roll_dice((6, 6, 6, 5, 5))
    options = game.options()
    assert "ones" not in options
    assert options["full_house"] == 28
    assert options["two_pairs"] == 22
    assert list(options) == [c for c in get_ruleset("yatzy").categories if c != "ones"]


@pytest.mark.parametrize(
    ("name", "options", "turns", "total"),
    [
        (
            "yatzy",
            {},
            [
                ((1, 1, 1, 1, 1), "ones"), ((2, 2, 2, 2, 2), "twos"),
                ((3, 3, 3, 3, 3), "threes"), ((4, 4, 4, 4, 4), "fours"),
                ((5, 5, 5, 5, 5), "fives"), ((6, 6, 6, 6, 6), "sixes"),
                ((6, 6, 6, 6, 6), "one_pair"), ((6, 6, 5, 5, 1), "two_pairs"),
                ((6, 6, 6, 6, 6), "three_of_a_kind"), ((6, 6, 6, 6, 6), "four_of_a_kind"),
                ((1, 2, 3, 4, 5), "small_straight"), ((2, 3, 4, 5, 6), "large_straight"),
                ((6, 6, 6, 5, 5), "full_house"), ((6, 6, 6, 6, 6), "chance"),
                ((6, 6, 6, 6, 6), "yatzy"),
            ],
            374,
        ),
        (
            "maxi",
            {},
            [
                ((1,) * 6, "ones"), ((2,) * 6, "twos"), ((3,) * 6, "threes"),
                ((4,) * 6, "fours"), ((5,) * 6, "fives"), ((6,) * 6, "sixes"),
                ((6,) * 6, "one_pair"), ((6, 6, 5, 5, 1, 1), "two_pairs"),
                ((6, 6, 5, 5, 4, 4), "three_pairs"), ((6,) * 6, "three_of_a_kind"),
                ((6,) * 6, "four_of_a_kind"), ((6,) * 6, "five_of_a_kind"),
                ((1, 2, 3, 4, 5, 5), "small_straight"), ((2, 3, 4, 5, 6, 6), "large_straight"),
                ((1, 2, 3, 4, 5, 6), "full_straight"), ((6, 6, 6, 5, 5, 1), "full_house"),
                ((6, 6, 6, 5, 5, 5), "villa"), ((6, 6, 6, 6, 5, 5), "tower"),
                ((6,) * 6, "chance"), ((6,) * 6, "maxi_yatzy"),
            ],
            649,
        ),
        (
            # Thirteen Yahtzees: the joker sends each to its upper box, then to the lower ones.
            "yahtzee",
            {},
            [((6,) * 5, "yahtzee")]
            + [((face,) * 5, box) for face, box in enumerate(
                ["ones", "twos", "threes", "fours", "fives", "sixes"], start=1)]
            + [((6,) * 5, box) for box in (
                "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
                "large_straight", "chance")],
            1575,
        ),
    ],
)  # fmt: skip
def test_maximum_total_is_reachable(
    name: str, options: dict[str, Any], turns: list[tuple[tuple[int, ...], str]], total: int
) -> None:
    game = ScriptedGame(get_ruleset(name, **options))
    for dice, category in turns:
        game.play(dice, category)
    assert game.is_over
    assert game.scorecard == MAXIMA[name]
    assert game.total == total
    assert game.rolls_left == 0 and game.options() == {}


def test_upper_bonus_comes_once_the_threshold_is_reached() -> None:
    game = ScriptedGame(get_ruleset("maxi", upper_bonus=(75, 50)))
    for face, box in [(6, "sixes"), (5, "fives"), (4, "fours")]:
        game.play((face,) * 4 + (1, 2), box)
    assert (game.upper_total, game.bonus) == (60, 0)
    game.play((3, 3, 3, 3, 3, 1), "threes")
    assert (game.upper_total, game.bonus, game.total) == (75, 50, 125)


# -- saved rolls and forced order ---------------------------------------------------------


def test_unused_rolls_are_banked_and_spent_later() -> None:
    game = Game(get_ruleset("maxi", saved_rolls=True), SEED)
    game.roll()
    game.score("chance")
    assert (game.saved_rolls, game.rolls_left) == (2, 5)
    first = game.roll()
    for _ in range(3):
        game.roll(hold=[0])
    assert game.dice[0] == first[0]
    assert game.dice[1:] == draw(SEED, 1, 3, 5)  # the 4th roll reads stream r = 3
    assert (game.rolls_used, game.rolls_left, game.saved_rolls) == (4, 1, 1)
    game.roll()
    with pytest.raises(NoRollsLeftError):
        game.roll()
    game.score("ones")
    assert game.saved_rolls == 0


def test_without_saved_rolls_nothing_is_banked() -> None:
    game = Game(get_ruleset("maxi"), SEED)
    game.roll()
    game.score("chance")
    assert (game.saved_rolls, game.rolls_left) == (0, 3)


def test_forced_order_offers_only_the_next_box() -> None:
    game = ScriptedGame(get_ruleset("yatzy", forced_order=True))
    game.roll_dice((6, 6, 6, 6, 6))
    assert game.options() == {"ones": 0}
    with pytest.raises(OutOfOrderError):
        game.score("yatzy")
    game.score("ones")
    game.roll_dice((2, 2, 1, 1, 1))
    assert game.options() == {"twos": 4}


# -- Yahtzee: extra Yahtzees and the forced joker -----------------------------------------


def yahtzee_game(yahtzee_box: int, **options: Any) -> ScriptedGame:
    game = ScriptedGame(get_ruleset("yahtzee", **options))
    game.play((4, 4, 4, 4, 4) if yahtzee_box else (1, 2, 3, 4, 6), "yahtzee")
    assert game.scorecard["yahtzee"] == yahtzee_box
    return game


@pytest.mark.parametrize(("yahtzee_box", "bonus"), [(50, 100), (0, 0)])
def test_joker_sends_an_extra_yahtzee_to_its_upper_box(yahtzee_box: int, bonus: int) -> None:
    game = yahtzee_game(yahtzee_box)
    game.roll_dice((5, 5, 5, 5, 5))
    assert game.options() == {"fives": 25}
    with pytest.raises(JokerRuleError):
        game.score("chance")
    game.score("fives")
    assert game.extra_bonus == bonus
    assert game.total == yahtzee_box + 25 + bonus


def test_joker_opens_the_lower_boxes_at_full_value_once_the_upper_box_is_filled() -> None:
    game = yahtzee_game(50)
    game.play((5, 5, 5, 1, 2), "fives")
    game.roll_dice((5, 5, 5, 5, 5))
    assert game.options() == {
        "three_of_a_kind": 25,
        "four_of_a_kind": 25,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 25,
    }
    with pytest.raises(JokerRuleError):
        game.score("ones")
    assert game.score("large_straight") == 40
    assert game.extra_bonus == 100


def test_joker_scratches_an_upper_box_when_no_lower_box_is_open() -> None:
    game = yahtzee_game(50)
    lower = ["three_of_a_kind", "four_of_a_kind", "full_house", "small_straight"]
    for box in [*lower, "large_straight", "chance", "sixes"]:
        game.play((1, 2, 3, 4, 6), box)
    game.roll_dice((6, 6, 6, 6, 6))
    assert game.options() == {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 0}
    assert game.score("twos") == 0
    assert game.extra_bonus == 100


def test_five_equal_before_the_yahtzee_box_is_filled_is_no_joker() -> None:
    game = ScriptedGame(get_ruleset("yahtzee"))
    game.roll_dice((3, 3, 3, 3, 3))
    options = game.options()
    assert len(options) == 13
    assert (options["full_house"], options["threes"], options["yahtzee"]) == (0, 15, 50)
    game.score("chance")
    assert game.extra_bonus == 0


def test_yahtzee_house_rule_lets_five_equal_be_a_full_house() -> None:
    game = ScriptedGame(get_ruleset("yahtzee", five_of_a_kind_full_house=True))
    game.roll_dice((3, 3, 3, 3, 3))
    assert game.options()["full_house"] == 25


def test_forced_order_yahtzee_still_counts_the_extra_bonus() -> None:
    game = ScriptedGame(get_ruleset("yahtzee", forced_order=True))
    for box in get_ruleset("yahtzee").categories[:11]:
        game.play((1, 2, 3, 4, 6), box)
    game.play((2, 2, 2, 2, 2), "yahtzee")
    game.roll_dice((2, 2, 2, 2, 2))
    assert game.options() == {"chance": 10}
    game.score("chance")
    assert game.extra_bonus == 100


# -- Scandinavian extra yatzy house rule ----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "bonus", "first_yatzy", "expected"),
    [
        ("yatzy", 50, (2, 2, 2, 2, 2), 50),
        ("yatzy", 50, (1, 2, 3, 4, 6), 0),  # yatzy box scratched: no bonus
        ("yatzy", 0, (2, 2, 2, 2, 2), 0),  # option off
        ("maxi", 25, (2,) * 6, 25),
    ],
)
def test_extra_yatzy_bonus_needs_a_full_yatzy_box(
    name: str, bonus: int, first_yatzy: tuple[int, ...], expected: int
) -> None:
    rs = get_ruleset(name, extra_yatzy_bonus=bonus)
    game = ScriptedGame(rs)
    game.play(first_yatzy, rs.categories[-1])
    game.roll_dice((6,) * rs.dice_count)
    # No joker: the dice go to any open box as usual.
    assert len(game.options()) == len(rs.categories) - 1
    game.score("chance")
    assert game.extra_bonus == expected
    assert game.total == game.scorecard[rs.categories[-1]] + 6 * rs.dice_count + expected


# -- illegal actions ------------------------------------------------------------------------


def test_scoring_before_rolling_is_illegal() -> None:
    game = Game(get_ruleset("yatzy"), SEED)
    with pytest.raises(NoRollYetError):
        game.score("chance")


def test_a_fourth_roll_is_illegal() -> None:
    game = Game(get_ruleset("yatzy"), SEED)
    for _ in range(3):
        game.roll()
    with pytest.raises(NoRollsLeftError):
        game.roll()


@pytest.mark.parametrize(
    ("rolls_before", "hold"),
    [
        (0, [0]),
        (1, [-1]),
        (1, [6]),
        (1, [1, 1]),
        (1, ["1"]),
        (1, [True]),
        (1, [1.0]),
        (1, None),
        (1, "01"),
        (1, [0, "a"]),
    ],
)
def test_bad_hold_is_illegal(rolls_before: int, hold: Any) -> None:
    game = Game(get_ruleset("maxi"), SEED)
    for _ in range(rolls_before):
        game.roll()
    before = game.snapshot()
    with pytest.raises(InvalidHoldError):
        game.roll(hold)
    assert game.snapshot() == before


def test_holding_every_die_is_a_legal_but_wasted_roll() -> None:
    game = Game(get_ruleset("yatzy"), SEED)
    dice = game.roll()
    assert game.roll(hold=range(5)) == dice
    assert game.rolls_left == 1


def rolled_game(rolls: int, **options: Any) -> Game:
    game = Game(get_ruleset("yatzy", **options), SEED)
    for _ in range(rolls):
        game.roll()
    return game


def finished_game() -> Game:
    game = ScriptedGame(get_ruleset("yatzy"))
    for box in get_ruleset("yatzy").categories:
        game.play((1, 2, 3, 4, 6), box)
    return game


def game_with_chance_used() -> Game:
    game = ScriptedGame(get_ruleset("yatzy"))
    game.play((1, 2, 3, 4, 5), "chance")
    game.roll_dice((1, 1, 1, 1, 1))
    return game


def extra_yahtzee_game() -> Game:
    game = yahtzee_game(50)
    game.roll_dice((3, 3, 3, 3, 3))
    return game


@pytest.mark.parametrize(
    ("make_game", "action", "error"),
    [
        pytest.param(lambda: rolled_game(0), lambda g: g.score("chance"), NoRollYetError,
                     id="score before rolling"),
        pytest.param(lambda: rolled_game(0), lambda g: g.roll([0]), InvalidHoldError,
                     id="hold on first roll"),
        pytest.param(lambda: rolled_game(3), lambda g: g.roll([0]), NoRollsLeftError,
                     id="fourth roll"),
        pytest.param(lambda: rolled_game(1), lambda g: g.score("villa"), UnknownCategoryError,
                     id="unknown box"),
        pytest.param(game_with_chance_used, lambda g: g.score("chance"), CategoryUsedError,
                     id="box used"),
        pytest.param(finished_game, lambda g: g.score("chance"), GameOverError,
                     id="score after the end"),
        pytest.param(finished_game, lambda g: g.roll(), GameOverError, id="roll after the end"),
        pytest.param(lambda: rolled_game(1, forced_order=True), lambda g: g.score("twos"),
                     OutOfOrderError, id="out of order"),
        pytest.param(extra_yahtzee_game, lambda g: g.score("chance"), JokerRuleError,
                     id="joker"),
    ],
)  # fmt: skip
def test_illegal_action_raises_its_code_and_changes_nothing(
    make_game: Any, action: Any, error: type[GameError]
) -> None:
    game = make_game()
    before = game.snapshot()
    with pytest.raises(error) as raised:
        action(game)
    assert isinstance(raised.value, YatzyError) and isinstance(raised.value, ValueError)
    assert raised.value.code == error.code
    assert game.snapshot() == before


def test_error_codes_are_stable() -> None:
    codes = {
        error.code
        for error in (
            NoRollYetError,
            NoRollsLeftError,
            InvalidHoldError,
            UnknownCategoryError,
            CategoryUsedError,
            GameOverError,
            OutOfOrderError,
            JokerRuleError,
            InvalidActionError,
        )
    }
    assert codes == {
        "no_roll_yet",
        "no_rolls_left",
        "invalid_hold",
        "unknown_category",
        "category_used",
        "game_over",
        "out_of_order",
        "joker_rule",
        "invalid_action",
    }


@pytest.mark.parametrize("seed", [bytes(31), bytes(33), "00" * 32, None])
def test_seed_must_be_32_bytes(seed: Any) -> None:
    with pytest.raises(InvalidSeedError):
        Game(get_ruleset("yatzy"), seed)


# -- replay and snapshots -------------------------------------------------------------------


def test_replay_rebuilds_the_game_from_its_actions() -> None:
    game = Game(get_ruleset("maxi", saved_rolls=True), SEED)
    game.roll()
    game.score("chance")
    game.roll()
    game.roll(hold=[0, 1])
    replayed = Game.replay(game.ruleset, SEED, json.loads(json.dumps(game.actions)))
    assert replayed.snapshot() == game.snapshot()


@pytest.mark.parametrize(
    "action",
    [
        {"type": "roll"},
        {"type": "roll", "hold": 0},
        {"type": "score"},
        {"type": "jump", "hold": []},
        {"type": "roll", "hold": [], "extra": 1},
        ["roll", []],
        None,
    ],
)
def test_replay_rejects_malformed_actions(action: Any) -> None:
    with pytest.raises(InvalidActionError):
        Game.replay(get_ruleset("yatzy"), SEED, [action])


def test_replay_rejects_illegal_actions_with_their_own_code() -> None:
    with pytest.raises(NoRollYetError):
        Game.replay(get_ruleset("yatzy"), SEED, [{"type": "score", "category": "chance"}])


def played_game() -> Game:
    game = Game(get_ruleset("yahtzee", saved_rolls=True), SEED)
    for box in ("chance", "ones", "sixes"):
        game.roll()
        game.score(box)
    game.roll()
    game.roll(hold=[2])
    return game


def test_snapshot_is_json_and_restores_the_same_game() -> None:
    game = played_game()
    stored = json.loads(json.dumps(game.snapshot()))
    restored = Game.from_snapshot(stored)
    assert restored.snapshot() == game.snapshot()
    assert restored.options() == game.options()
    assert restored.roll(hold=[0]) == game.roll(hold=[0])


def test_snapshot_restores_with_its_keys_reordered() -> None:
    # PostgreSQL jsonb does not keep key order.
    game = played_game()
    stored = json.loads(json.dumps(game.snapshot(), sort_keys=True))
    assert Game.from_snapshot(stored).snapshot() == game.snapshot()


def test_snapshot_holds_ruleset_seed_actions_and_state() -> None:
    snapshot = played_game().snapshot()
    assert snapshot["ruleset"] == {"name": "yahtzee", "options": played_game().ruleset.options}
    assert bytes.fromhex(snapshot["seed"]) == SEED
    assert (snapshot["turn"], snapshot["rolls_used"], len(snapshot["dice"])) == (3, 2, 5)
    assert snapshot["saved_rolls"] == 6
    assert len(snapshot["actions"]) == 8


def tampered(change: Any) -> dict[str, Any]:
    snapshot = json.loads(json.dumps(played_game().snapshot()))
    change(snapshot)
    return snapshot


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda s: s.pop("total"), id="missing key"),
        pytest.param(lambda s: s.update(extra=1), id="extra key"),
        pytest.param(lambda s: s.update(version=2), id="version"),
        pytest.param(lambda s: s.update(ruleset={"name": "chess", "options": {}}), id="ruleset"),
        pytest.param(lambda s: s["ruleset"]["options"].update(saved_rolls=1), id="option"),
        pytest.param(lambda s: s["ruleset"]["options"].pop("saved_rolls"), id="option dropped"),
        pytest.param(lambda s: s.update(seed="zz" * 32), id="seed not hex"),
        pytest.param(lambda s: s.update(seed="00" * 32), id="other seed"),
        pytest.param(lambda s: s.update(dice=[1, 1, 1, 1, 1]), id="dice"),
        pytest.param(lambda s: s.update(turn=4), id="turn"),
        pytest.param(lambda s: s.update(rolls_used=1), id="rolls_used"),
        pytest.param(lambda s: s.update(saved_rolls=9), id="saved_rolls"),
        pytest.param(lambda s: s.update(total=999), id="total"),
        pytest.param(lambda s: s.update(is_over=True), id="is_over"),
        pytest.param(lambda s: s["scorecard"].update(chance=99), id="points above maximum"),
        pytest.param(lambda s: s["scorecard"].update(chance=-1), id="negative points"),
        pytest.param(lambda s: s["scorecard"].update(chance=None), id="box emptied"),
        pytest.param(lambda s: s["scorecard"].update(twos=2), id="box filled"),
        pytest.param(lambda s: s["scorecard"].update(chance=s["scorecard"]["chance"] - 1),
                     id="points changed"),
        pytest.param(lambda s: s["scorecard"].pop("chance"), id="box missing"),
        pytest.param(lambda s: s.update(extra_bonus=50), id="extra bonus"),
        pytest.param(lambda s: s.update(actions={}), id="actions not a list"),
        pytest.param(lambda s: s["actions"].append({"type": "roll"}), id="bad action"),
        pytest.param(lambda s: s["actions"].insert(0, {"type": "roll", "hold": [0]}),
                     id="hold on first roll"),
        pytest.param(lambda s: s["actions"].pop(0), id="score without roll"),
        pytest.param(lambda s: s["actions"][-1].update(hold=[9]), id="bad hold"),
        # Equal but of another JSON type: 1.0 or true for 1, 0 for false.
        pytest.param(lambda s: s.update(version=True), id="version true"),
        pytest.param(lambda s: s.update(version=1.0), id="version float"),
        pytest.param(lambda s: s.update(extra_bonus=0.0), id="extra bonus float"),
        pytest.param(lambda s: s.update(extra_bonus=False), id="extra bonus false"),
        pytest.param(lambda s: s.update(turn=float(s["turn"])), id="turn float"),
        pytest.param(lambda s: s.update(rolls_used=float(s["rolls_used"])), id="rolls float"),
        pytest.param(lambda s: s.update(total=float(s["total"])), id="total float"),
        pytest.param(lambda s: s.update(is_over=int(s["is_over"])), id="is_over number"),
    ],
)  # fmt: skip
def test_from_snapshot_rejects_a_snapshot_that_contradicts_itself(change: Any) -> None:
    with pytest.raises(InvalidSnapshotError) as raised:
        Game.from_snapshot(tampered(change))
    assert raised.value.code == "invalid_snapshot"


@pytest.mark.parametrize("data", [None, [], "snapshot", {"version": 1}])
def test_from_snapshot_rejects_what_is_not_a_snapshot(data: Any) -> None:
    with pytest.raises(InvalidSnapshotError):
        Game.from_snapshot(data)
