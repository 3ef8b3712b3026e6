"""verify: a revealed round checks out, and every kind of difference fails it loudly."""

import copy
import hashlib

import pytest

import yatzy
from client.storage import RoundRecord
from client.verify import NotVerifiable, stream_values, verify_round
from yatzy.dice import draw
from yatzy.strategy import bot_turn

SEED = hashlib.sha256(b"a test seed").digest()


def played(ruleset="maxi", *, computer=False):
    """A finished round as the API shows it once over, and the record of what a client
    was shown while playing it."""
    rs = yatzy.get_ruleset(ruleset)
    game, bot = yatzy.Game(rs, SEED), yatzy.Game(rs, SEED)
    record = RoundRecord(round_id="r1", commitment=yatzy.commitment(SEED), rolls={})
    turns = []
    while not game.is_over:
        record.rolls[f"{game.turn}/1"] = list(game.roll())
        record.rolls[f"{game.turn}/2"] = list(game.roll(hold=[0, 1]))
        game.score(max(game.options(), key=game.options().get))
        if computer:
            turn = bot_turn(bot, "easy")
            turns.append(
                {
                    "turn": turn.turn,
                    "rolls": [list(r) for r in turn.rolls],
                    "holds": [list(h) for h in turn.holds],
                    "category": turn.category,
                    "points": turn.points,
                }
            )
    state = {
        "id": "r1",
        "mode": "computer" if computer else "solo",
        "ruleset": ruleset,
        "rules": rs.options,
        "seed": SEED.hex(),
        "commitment": yatzy.commitment(SEED),
        "actions": game.actions,
        "dice": [],
        "scorecard": game.scorecard,
        "upper_total": game.upper_total,
        "bonus": game.bonus,
        "extra_bonus": game.extra_bonus,
        "total": game.total,
    }
    if computer:
        state["opponent"] = {
            "level": "easy",
            "scorecard": bot.scorecard,
            "upper_total": bot.upper_total,
            "bonus": bot.bonus,
            "total": bot.total,
            "turns": turns,
        }
        state["result"] = (
            "win" if game.total > bot.total else "loss" if game.total < bot.total else "draw"
        )
    return state, record


def failures(report):
    return [check.text for check in report.failures]


def test_the_independent_dice_stream_agrees_with_the_engines():
    for turn in range(5):
        for roll in range(3):
            assert stream_values(SEED, turn, roll, 6) == draw(SEED, turn, roll, 6)


def test_a_fair_round_is_verified_roll_by_roll_against_what_the_client_was_shown():
    state, record = played()
    report = verify_round(state, record=record)
    assert report.ok, failures(report)
    assert (report.rolls_checked, report.rolls_seen) == (40, 40)
    assert len(report.turns) == 20
    assert all(roll.seen for line in report.turns for roll in line.rolls)


def test_a_fair_computer_game_is_verified_with_the_opponents_turns():
    state, record = played("yatzy", computer=True)
    report = verify_round(state, record=record)
    assert report.ok, failures(report)
    assert len(report.opponent_turns) == 15
    assert any("result" in check.text for check in report.checks)


def test_a_round_whose_seed_is_hidden_cannot_be_verified_yet():
    state, _ = played()
    with pytest.raises(NotVerifiable, match="not revealed"):
        verify_round({**state, "seed": None})


def test_a_seed_that_does_not_match_the_commitment_fails():
    state, record = played()
    other = hashlib.sha256(b"another seed").hexdigest()
    report = verify_round({**state, "commitment": other}, record=record)
    assert not report.ok
    assert any("round's commitment" in text for text in failures(report))


def test_a_seed_swapped_after_play_fails_against_the_recorded_commitment_and_dice():
    state, record = played()
    # The server shows a different seed with a matching commitment: only the client's
    # record of what it was shown before the reveal can tell.
    seed = hashlib.sha256(b"swapped").digest()
    forged = {**state, "seed": seed.hex(), "commitment": yatzy.commitment(seed)}
    report = verify_round(forged, record=record)
    texts = failures(report)
    assert any("this client saw" in text for text in texts)


def test_dice_shown_during_play_that_the_seed_does_not_give_fail():
    state, record = played()
    record.rolls["3/2"] = [6, 6, 6, 6, 6, 6]
    report = verify_round(state, record=record)
    assert failures(report) and "turn 4 roll 2" in failures(report)[0]
    assert "this client was shown 6 6 6 6 6 6" in failures(report)[0]


def test_a_box_or_total_other_than_the_engines_fails():
    state, _ = played()
    tampered = copy.deepcopy(state)
    tampered["scorecard"]["chance"] += 1
    tampered["total"] += 1
    texts = failures(verify_round(tampered))
    assert any("scorecard differs" in text and "chance" in text for text in texts)
    assert any("total" in text and "server says" in text for text in texts)


def test_an_illegal_action_log_fails():
    state, _ = played()
    actions = [{"type": "score", "category": "chance"}, *state["actions"]]
    texts = failures(verify_round({**state, "actions": actions}))
    assert texts == ["action 1 of the log is illegal: roll before filling a box (turn 0)"]


def test_an_opponent_roll_the_seed_does_not_give_fails():
    state, record = played("yatzy", computer=True)
    tampered = copy.deepcopy(state)
    tampered["opponent"]["turns"][2]["rolls"][0] = [6, 6, 6, 6, 6]
    texts = failures(verify_round(tampered, record=record))
    assert any("computer's turn 3 roll 1" in text for text in texts)


def test_a_daily_round_is_checked_against_the_days_published_commitment():
    state, record = played()
    challenge = {
        "date": "2026-12-01",
        "ruleset": "maxi",
        "rules": state["rules"],
        "commitment": state["commitment"],
        "seed": state["seed"],
    }
    report = verify_round(
        state, challenge=challenge, record=record, day_record=(state["commitment"], "t")
    )
    assert report.ok, failures(report)
    other = {**challenge, "commitment": "0" * 64}
    assert any("published for the day" in t for t in failures(verify_round(state, challenge=other)))
