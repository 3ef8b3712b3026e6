"""Computer games through the API: the computer plays each of the player's turns after
them on the same seed, logged turn by turn; the expert plays the exact table."""

import json
from collections import Counter

import pytest

import yatzy
from games import selectors as game_selectors
from games.models import Round, StrategyTable
from tests.factories import make_player
from tests.games.conftest import new_game, roll, score
from yatzy.strategy import analyse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _tables(yatzy_table, yahtzee_table):
    """The Yatzy and Yahtzee tables are built once per session (seconds)."""


def easy_hold(dice):
    """What the easy computer keeps: every die of its most frequent face (the higher on
    a tie)."""
    face, _ = max(Counter(dice).items(), key=lambda fc: (fc[1], fc[0]))
    return [i for i, die in enumerate(dice) if die == face]


def test_the_computer_plays_each_turn_after_the_player_on_the_same_dice():
    _, client = make_player()
    state = new_game(client, mode="computer", ruleset="yatzy", level="easy")
    assert state["level"] == "easy"
    assert state["opponent"] == {
        "level": "easy",
        "scorecard": {box: None for box in yatzy.get_ruleset("yatzy").categories},
        "upper_total": 0,
        "bonus": 0,
        "extra_bonus": 0,
        "total": 0,
        "turns": [],
    }
    while state["status"] == "in_progress":
        turn, rolls = state["turn"], []
        state = roll(client, state)
        rolls.append(state["dice"])
        # The player keeps what the easy computer keeps, so both see the same dice.
        while state["rolls_left"] and len(easy_hold(state["dice"])) < 5:
            state = roll(client, state, easy_hold(state["dice"]))
            rolls.append(state["dice"])
        assert len(state["opponent"]["turns"]) == turn  # not its turn yet
        state = score(client, state, max(state["options"], key=state["options"].get))
        played = state["opponent"]["turns"][turn]
        assert played["turn"] == turn
        assert played["rolls"] == rolls  # the same first roll, the same new dice after
        assert len(played["holds"]) == len(played["rolls"]) - 1
        assert state["opponent"]["scorecard"][played["category"]] == played["points"]
    assert len(state["opponent"]["turns"]) == 15
    mine, theirs = state["total"], state["opponent"]["total"]
    assert state["result"] == ("win" if mine > theirs else "loss" if mine < theirs else "draw")


def test_the_computers_game_replays_from_the_revealed_seed():
    _, client = make_player()
    state = new_game(client, mode="computer", ruleset="yahtzee", level="hard")
    while state["status"] == "in_progress":
        state = roll(client, state)
        seen = json.dumps(state)
        assert state["seed"] is None
        state = score(client, state, min(state["options"], key=state["options"].get))
    seed = bytes.fromhex(state["seed"])
    assert seed.hex() not in seen
    bot = yatzy.Game(yatzy.get_ruleset("yahtzee"), seed)
    for played in state["opponent"]["turns"]:
        assert [list(bot.roll())] == played["rolls"][:1]
        for hold, dice in zip(played["holds"], played["rolls"][1:], strict=True):
            assert list(bot.roll(hold)) == dice
        assert bot.score(played["category"]) == played["points"]
    assert bot.total == state["opponent"]["total"]


def bot_actions(turns):
    actions = []
    for played in turns:
        actions.append({"type": "roll", "hold": []})
        actions += [{"type": "roll", "hold": hold} for hold in played["holds"]]
        actions.append({"type": "score", "category": played["category"]})
    return actions


def test_the_expert_loses_nothing_against_the_exact_table(yatzy_table):
    _, client = make_player()
    state = new_game(client, mode="computer", ruleset="yatzy", level="expert")
    while state["status"] == "in_progress":
        state = roll(client, state)
        state = score(client, state, next(iter(state["options"])))
    seed = bytes.fromhex(state["seed"])
    graded = analyse(
        yatzy.get_ruleset("yatzy"), seed, bot_actions(state["opponent"]["turns"]), table=yatzy_table
    )
    assert graded.total == state["opponent"]["total"]
    assert len(graded.decisions) >= 15
    assert max(decision.loss for decision in graded.decisions) == pytest.approx(0, abs=1e-9)


def test_an_expert_game_without_its_table_is_503_and_creates_nothing():
    _, client = make_player()
    response = client.post(
        "/api/v1/games/", {"mode": "computer", "ruleset": "maxi", "level": "expert"}, format="json"
    )
    assert response.status_code == 503
    assert response.json()["code"] == "table_building"
    assert "Retry-After" in response
    assert not Round.objects.exists()
    assert StrategyTable.objects.get(ruleset="maxi").status == "queued"


def test_the_expert_has_no_strategy_for_saved_rolls():
    _, client = make_player()
    response = client.post(
        "/api/v1/games/",
        {
            "mode": "computer",
            "ruleset": "maxi",
            "level": "expert",
            "options": {"saved_rolls": True},
        },
        format="json",
    )
    assert response.status_code == 400 and response.json()["code"] == "expert_unsupported"


def test_a_computer_game_defaults_to_medium():
    _, client = make_player()
    assert new_game(client, mode="computer", ruleset="yatzy")["level"] == "medium"


def test_the_computers_extra_yahtzee_is_shown_so_its_column_adds_up(monkeypatch):
    # Every roll is five sixes: the computer's second Yahtzee (joker in sixes) earns
    # +100, which its total holds; its card must show it as the player's does.
    import yatzy.game

    monkeypatch.setattr(yatzy.game, "draw", lambda seed, turn, roll, count: (6,) * count)
    _, client = make_player()
    state = new_game(client, mode="computer", ruleset="yahtzee", level="easy")
    assert state["opponent"]["extra_bonus"] == 0
    state = score(client, roll(client, state), "yahtzee")
    state = score(client, roll(client, state), "sixes")
    for card in (state, state["opponent"]):
        assert card["extra_bonus"] == 100
        filled = sum(points for points in card["scorecard"].values() if points is not None)
        assert filled + card["bonus"] + card["extra_bonus"] == card["total"] == 180
    # Each of its turns says its box's points and the extra bonus that score earned: the
    # joker's 100 beside the 30 of sixes (the page and the client say 130).
    turns = state["opponent"]["turns"]
    assert [(turn["points"], turn["extra_bonus"]) for turn in turns] == [(50, 0), (30, 100)]


def test_the_computers_turns_without_their_dice_tell_no_extra_bonus(monkeypatch):
    """Where the computer's dice are hidden (a round on the same seed unfinished, SPEC §7),
    which of its turns earned a joker's 100 would tell that its dice were a further
    yahtzee: its turns keep boxes and points only, and the card still adds up."""
    import yatzy.game

    monkeypatch.setattr(yatzy.game, "draw", lambda seed, turn, roll, count: (6,) * count)
    _, client = make_player()
    state = new_game(client, mode="computer", ruleset="yahtzee", level="easy")
    state = score(client, roll(client, state), "yahtzee")
    state = score(client, roll(client, state), "sixes")
    rnd = Round.objects.get(pk=state["id"])
    shown = game_selectors._opponent_view(rnd)
    hidden = game_selectors._opponent_view(rnd, dice=False)
    assert [turn["extra_bonus"] for turn in shown["turns"]] == [0, 100]
    assert [turn["extra_bonus"] for turn in hidden["turns"]] == [0, 0]
    assert [turn["rolls"] for turn in hidden["turns"]] == [[], []]
    assert hidden["extra_bonus"] == 100 and hidden["total"] == shown["total"]
