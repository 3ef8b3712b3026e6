"""verify: a revealed round checks out, and every kind of difference fails it loudly.

The rounds are played on the engine, answered as the API answers (the round payload
with its action log), and journaled by :class:`client.storage.Journal` as the play
session journals them; a "tampered server" is a later answer built from another action
log, consistent in itself (scorecard and totals recomputed), so only the seed, the
commitments and the journal can tell.
"""

import copy
import hashlib
import json

import pytest
from rich.console import Console

import yatzy
from client import render
from client.storage import Journal
from client.verify import NotVerifiable, stream_values, verify_round
from yatzy.dice import draw
from yatzy.strategy import bot_turn

SEED = hashlib.sha256(b"a test seed").digest()
NAMES = {"sixes": "Sixes", "chance": "Chance", "twos": "Twos", "ones": "Ones"}


def box_name(box):
    return NAMES.get(box, box.replace("_", " ").capitalize())


def answer(game, *, computer=None):
    """The API's round payload for ``game`` (the seed once it is over)."""
    state = {
        "id": "r1",
        "mode": "computer" if computer else "solo",
        "ruleset": game.ruleset.name,
        "rules": game.ruleset.options,
        "status": "completed" if game.is_over else "in_progress",
        "turn": game.turn,
        "roll": game.rolls_used,
        "dice": list(game.dice),
        "scorecard": game.scorecard,
        "upper_total": game.upper_total,
        "bonus": game.bonus,
        "extra_bonus": game.extra_bonus,
        "total": game.total,
        "actions": game.actions,
        "seed": SEED.hex() if game.is_over else None,
        "commitment": yatzy.commitment(SEED),
    }
    if computer:
        state |= computer
    return state


def played(tmp_path, ruleset="maxi", *, computer=False, elsewhere=0):
    """A finished round as the API shows it once over, and the journal a client kept
    while playing it: each turn rolls, rolls again keeping dice 1 and 2, and scores the
    box of the turn's number (sixes in turn 6, chance in turn 19 of Maxi). The first
    ``elsewhere`` turns are played without the client (in a browser)."""
    rs = yatzy.get_ruleset(ruleset)
    game, bot = yatzy.Game(rs, SEED), yatzy.Game(rs, SEED)
    journal = Journal(tmp_path)
    turns = []
    opponent = None
    for category in rs.categories:
        here = game.turn >= elsewhere
        if here:
            journal.shown(answer(game), fetched=game.turn == elsewhere)
        for hold in ([], [0, 1]):
            before = answer(game)
            game.roll(hold)
            if here:
                journal.acted({"type": "roll", "hold": hold}, answer(game), before=before)
                journal.shown(answer(game))
        before = answer(game)
        game.score(category)
        if computer:
            extra_before = bot.extra_bonus
            turn = bot_turn(bot, "easy")
            turns.append(
                {
                    "turn": turn.turn,
                    "rolls": [list(r) for r in turn.rolls],
                    "holds": [list(h) for h in turn.holds],
                    "category": turn.category,
                    "points": turn.points,
                    "extra_bonus": bot.extra_bonus - extra_before,
                }
            )
        if here:
            journal.acted({"type": "score", "category": category}, answer(game), before=before)
    if computer:
        opponent = {
            "opponent": {
                "level": "easy",
                "scorecard": bot.scorecard,
                "upper_total": bot.upper_total,
                "bonus": bot.bonus,
                "total": bot.total,
                "turns": turns,
            },
            "result": yatzy.result_of(game.total, bot.total),
        }
    state = answer(game, computer=opponent)
    journal.shown(state)
    return state, journal.get("r1")


def retold(state, actions):
    """The server's answer retold from another action log, consistent in itself."""
    rs = yatzy.get_ruleset(state["ruleset"])
    game = yatzy.Game.replay(rs, SEED, actions)
    return {**answer(game), "seed": SEED.hex()}


def day_of(state):
    """The daily challenge a round of 2026-12-01 belongs to, as the API shows it."""
    return {
        "date": "2026-12-01",
        "ruleset": state["ruleset"],
        "rules": state["rules"],
        "commitment": state["commitment"],
        "seed": state["seed"],
    }


def failures(report):
    return [check.text for check in report.failures]


def printed(report):
    console = Console(width=200, color_system=None, record=True)
    console.print(render.verify_report(report, names=render.Names(NAMES)))
    return " ".join(console.export_text().split())


def test_the_independent_dice_stream_agrees_with_the_engines():
    for turn in range(5):
        for roll in range(3):
            assert stream_values(SEED, turn, roll, 6) == draw(SEED, turn, roll, 6)


def test_a_fair_round_is_verified_move_by_move_against_the_journal(tmp_path):
    state, record = played(tmp_path)
    report = verify_round(state, record=record, box_name=box_name)
    assert report.ok, failures(report)
    assert (report.rolls_checked, report.rolls_seen) == (40, 40)
    assert len(report.turns) == 20 and {line.journal for line in report.turns} == {"here"}
    assert all(roll.seen for line in report.turns for roll in line.rolls)
    assert any("each of the 60 moves made here" in check.text for check in report.checks)
    text = printed(report)
    assert "engine and SPEC §3 agree" in text and "VERIFIED: every die" in text
    assert "6 4 1 6 4 6 6 ✓ → keep 1 2 → 4 1 4 3 5 1 ✓ → Sixes 0 played here" in text


def test_a_fair_computer_game_is_verified_with_the_opponents_turns(tmp_path):
    state, record = played(tmp_path, "yatzy", computer=True)
    report = verify_round(state, record=record)
    assert report.ok, failures(report)
    assert len(report.opponent_turns) == 15
    assert any("result" in check.text for check in report.checks)


def test_the_computers_joker_turn_is_checked_with_its_extra_bonus(tmp_path, monkeypatch):
    """A computer turn carries its box's points and the extra bonus the score earned
    (Yahtzee's joker: 100 for a further yahtzee): both are recomputed and checked, and
    the recomputed line says "30 +100". Every roll is five sixes (the engine's draw
    replaced, so the dice stream's own check is left out here)."""
    import yatzy.game

    monkeypatch.setattr(yatzy.game, "draw", lambda seed, turn, roll, count: (6,) * count)
    state, record = played(tmp_path, "yahtzee", computer=True)
    turns = state["opponent"]["turns"]
    assert [(turn["points"], turn["extra_bonus"]) for turn in turns][:2] == [(50, 0), (30, 100)]
    report = verify_round(state, record=record)
    assert not [text for text in failures(report) if "computer" in text]
    assert [(line.points, line.extra_bonus) for line in report.opponent_turns][:2] == [
        (50, 0),
        (30, 100),
    ]
    assert "Sixes 30 +100" in printed(report)
    turns[1]["extra_bonus"] = 0  # a server that says the joker earned nothing
    assert any(
        "extra bonus of 100, the server says 0" in text
        for text in failures(verify_round(state, record=record))
    )


def test_a_round_whose_seed_is_hidden_cannot_be_verified_yet(tmp_path):
    state, _ = played(tmp_path)
    with pytest.raises(NotVerifiable, match="not revealed"):
        verify_round({**state, "seed": None})


def test_a_seed_that_does_not_match_the_commitment_fails(tmp_path):
    state, record = played(tmp_path)
    other = hashlib.sha256(b"another seed").hexdigest()
    report = verify_round({**state, "commitment": other}, record=record)
    assert not report.ok
    assert any("round's commitment" in text for text in failures(report))


def test_a_seed_swapped_after_play_fails_against_the_recorded_commitment_and_dice(tmp_path):
    state, record = played(tmp_path)
    # The server shows a different seed with a matching commitment: only the client's
    # record of what it was shown before the reveal can tell.
    seed = hashlib.sha256(b"swapped").digest()
    forged = {**state, "seed": seed.hex(), "commitment": yatzy.commitment(seed)}
    texts = failures(verify_round(forged, record=record))
    # The commitment it saw, to compare by hand.
    assert any(
        "this client saw" in text and f"({state['commitment']}): NOT" in text for text in texts
    )
    assert any("but this client was shown" in text for text in texts)


def test_dice_shown_during_play_that_the_seed_does_not_give_fail(tmp_path):
    state, record = played(tmp_path)
    shown = [e for e in record.events if e["event"] == "shown" and (e["turn"], e["roll"]) == (3, 2)]
    shown[0]["dice"] = [6, 6, 6, 6, 6, 6]
    texts = failures(verify_round(state, record=record, box_name=box_name))
    assert len(texts) == 1 and texts[0].startswith("turn 4 (Fours): roll 2: the seed gives")
    assert "this client was shown 6 6 6 6 6 6" in texts[0]


def test_a_box_or_total_other_than_the_engines_fails(tmp_path):
    state, _ = played(tmp_path)
    tampered = copy.deepcopy(state)
    tampered["scorecard"]["chance"] += 1
    tampered["total"] += 1
    texts = failures(verify_round(tampered))
    assert any("scorecard differs" in text and "chance" in text for text in texts)
    assert any("total" in text and "server says" in text for text in texts)


def test_an_illegal_action_log_fails(tmp_path):
    state, _ = played(tmp_path)
    actions = [{"type": "score", "category": "chance"}, *state["actions"]]
    texts = failures(verify_round({**state, "actions": actions}))
    assert texts == ["action 1 of the log is illegal: roll before filling a box (turn 0)"]


def test_an_opponent_roll_the_seed_does_not_give_fails(tmp_path):
    state, record = played(tmp_path, "yatzy", computer=True)
    tampered = copy.deepcopy(state)
    tampered["opponent"]["turns"][2]["rolls"][0] = [6, 6, 6, 6, 6]
    texts = failures(verify_round(tampered, record=record))
    assert any("computer's turn 3 roll 1" in text for text in texts)


def test_a_daily_round_is_checked_against_the_days_published_commitment(tmp_path):
    state, record = played(tmp_path)
    challenge = day_of(state)
    report = verify_round(
        state, challenge=challenge, record=record, day_record=(state["commitment"], "t")
    )
    assert report.ok, failures(report)
    other = {**challenge, "commitment": "0" * 64}
    assert any("published for the day" in t for t in failures(verify_round(state, challenge=other)))


# -- each check can fail ---------------------------------------------------------------------


def test_an_engine_whose_dice_are_not_spec_3s_fails_and_no_agreement_is_claimed(
    tmp_path, monkeypatch
):
    state, _ = played(tmp_path, "yatzy")

    def off_by_one(seed, turn, roll, count):
        return tuple(value % 6 + 1 for value in draw(seed, turn, roll, count))

    monkeypatch.setattr("yatzy.game.draw", off_by_one)
    report = verify_round(state)  # no journal: the dice of the server's log against SPEC §3
    texts = failures(report)
    assert texts and texts[0].startswith("turn 1 roll 1: the engine rolled ")
    assert ", SPEC §3 gives " in texts[0]
    assert not any("agree" in check.text for check in report.checks)
    assert "agree" not in printed(report)


def test_dice_on_the_table_other_than_the_logs_fail():
    rs = yatzy.get_ruleset("yatzy")
    game = yatzy.Game(rs, SEED)
    game.roll()
    game.roll([0])
    state = {**answer(game), "status": "expired", "seed": SEED.hex()}  # unfinished, revealed
    assert verify_round(state).ok
    other = [die % 6 + 1 for die in game.dice]
    texts = failures(verify_round({**state, "dice": other}))
    assert texts == [
        f"the dice on the table now: {' '.join(map(str, game.dice))}, but the server shows "
        + " ".join(map(str, other))
    ]


def test_a_day_whose_commitment_differs_from_the_one_seen_before_the_reveal_fails(tmp_path):
    state, record = played(tmp_path)
    challenge = day_of(state)
    seen = ("f" * 64, "2026-12-01T08:00:00+00:00")
    texts = failures(verify_round(state, challenge=challenge, record=record, day_record=seen))
    assert texts == [
        "it equals the day's commitment this client saw at 2026-12-01T08:00:00+00:00, "
        f"before the reveal ({'f' * 64}): NOT"
    ]


# -- the server's log against the journal ----------------------------------------------------


def test_two_turns_whose_boxes_the_server_swapped_fail_naming_both(tmp_path):
    state, record = played(tmp_path)
    actions = copy.deepcopy(state["actions"])
    scores = {a["category"]: a for a in actions if a["type"] == "score"}
    scores["sixes"]["category"], scores["chance"]["category"] = "chance", "sixes"
    forged = retold(state, actions)
    assert forged["total"] != state["total"]
    assert verify_round(forged).ok  # the server's own story holds together
    texts = failures(verify_round(forged, record=record, box_name=box_name))
    sixes, chance = state["scorecard"]["sixes"], state["scorecard"]["chance"]
    assert texts[0] == (
        f"turn 6 (Sixes): this client's Sixes ({sixes} points) after roll 2, the server's "
        f"log has Chance ({forged['scorecard']['chance']} points) after roll 2 instead"
    )
    assert texts[1] == (
        f"turn 19 (Chance): this client's Chance ({chance} points) after roll 2, the "
        f"server's log has Sixes ({forged['scorecard']['sixes']} points) after roll 2 instead"
    )
    assert texts[2].startswith("after turn 6 this client was shown the total ")
    assert texts[3] == (
        f"after turn 20 this client was shown the total {state['total']}, the server's log "
        f"gives {forged['total']}"
    )
    assert len(texts) == 4
    assert "VERIFICATION FAILED" in printed(verify_round(forged, record=record))


def test_a_roll_the_server_deleted_fails_as_missing(tmp_path):
    state, record = played(tmp_path)
    actions = copy.deepcopy(state["actions"])
    del actions[3 * 3 + 1]  # turn 4's second roll: its box scores the first roll's dice
    forged = retold(state, actions)
    assert verify_round(forged).ok
    texts = failures(verify_round(forged, record=record, box_name=box_name))
    fours, dice = state["scorecard"]["fours"], " ".join(map(str, record.dice_seen(3, 2)))
    assert texts == [
        "turn 4 (Fours): this client's roll 2 keeping dice 1 2, the server's log has Fours "
        f"({forged['scorecard']['fours']} points) after roll 1 instead; this client's Fours "
        f"({fours} points) after roll 2 is missing from the server's log; this client was "
        f"shown roll 2 ({dice}), which the server's log never reaches"
    ]


def test_a_roll_the_server_added_fails_as_extra(tmp_path):
    state, record = played(tmp_path)
    actions = copy.deepcopy(state["actions"])
    actions.insert(2 * 3 + 2, {"type": "roll", "hold": [0, 1, 2, 3, 4, 5]})  # a third roll
    forged = retold(state, actions)
    texts = failures(verify_round(forged, record=record, box_name=box_name))
    assert texts[0].startswith("turn 3 (Threes): this client's Threes (")
    assert "after roll 2, the server's log has roll 3 keeping dice 1 2 3 4 5 6 instead" in texts[0]
    assert "the server's log has Threes (" in texts[0]
    assert "after roll 3, which this client did not make" in texts[0]


@pytest.mark.parametrize("first", ["chance", "sixes"])
def test_an_action_the_journal_holds_twice_at_one_point_fails_as_extra(tmp_path, first):
    """A second action at one point of the round (a journal edited, or a client that
    recorded an action the server never took), whether it comes before the real one or
    repeats it, fails the round: the server's log holds one action a point."""
    state, record = played(tmp_path)
    (sixes,) = (
        e for e in record.events if e.get("event") == "action" and e.get("category") == "sixes"
    )
    extra = {**sixes, "category": first, "points": 0 if first == "chance" else sixes["points"]}
    record.events.insert(record.events.index(sixes), extra)
    texts = failures(verify_round(state, record=record, box_name=box_name))
    assert len(texts) == 1 and texts[0].startswith("turn 6 ("), texts
    assert "as well, a second action at the same point of the round" in texts[0]
    assert "VERIFICATION FAILED" in printed(verify_round(state, record=record))


def test_a_completed_round_whose_log_does_not_finish_it_fails():
    """A server calling a round completed with no actions and an empty scorecard (its
    own story consistent) passed as VERIFIED."""
    empty = retold({"ruleset": "maxi"}, [])
    forged = {**empty, "status": "completed"}
    texts = failures(verify_round(forged))
    assert texts == ["the round is over: 0 of 20 boxes filled, but the server says it is completed"]
    assert verify_round({**empty, "status": "in_progress"}).ok


def test_turns_played_elsewhere_are_reported_as_not_checked_not_failures(tmp_path):
    state, record = played(tmp_path, elsewhere=3)
    report = verify_round(state, record=record)
    assert report.ok, failures(report)
    assert [line.journal for line in report.turns[:4]] == ["elsewhere"] * 3 + ["here"]
    assert "Turn(s) 1-3 were played elsewhere" in printed(report)
    assert "played here" in printed(report) and "elsewhere: not checked" in printed(report)
    # A forgery in those turns is caught only by what this client was shown afterwards.
    actions = copy.deepcopy(state["actions"])
    actions[2]["category"], actions[5]["category"] = "twos", "ones"
    forged = retold(state, actions)
    assert failures(verify_round(forged, record=record)) == [
        "after turn 3 this client was shown the total 4, the server's log gives 0",
        f"after turn 20 this client was shown the total {state['total']}, the server's log "
        f"gives {forged['total']}",
    ]


def test_a_roll_made_elsewhere_between_two_moves_here_is_not_a_failure(tmp_path):
    """The client saw roll 1 and scored; meanwhile the browser had rolled again: the
    server's answer puts the score after roll 2, so roll 2 was not this client's."""
    rs = yatzy.get_ruleset("yatzy")
    game = yatzy.Game(rs, SEED)
    journal = Journal(tmp_path)
    journal.shown(answer(game), fetched=True)
    before = answer(game)
    game.roll()
    journal.acted({"type": "roll", "hold": []}, answer(game), before=before)
    journal.shown(answer(game))
    before = answer(game)
    game.roll([0])  # the browser
    game.score("chance")
    journal.acted({"type": "score", "category": "chance"}, answer(game), before=before)
    for category in [box for box in rs.categories if box != "chance"]:
        game.roll()
        game.score(category)
    report = verify_round({**answer(game), "seed": SEED.hex()}, record=journal.get("r1"))
    assert report.ok, failures(report)
    assert report.turns[0].journal == "partly here"


def test_without_a_journal_only_the_servers_own_log_is_checked_and_the_report_says_so(tmp_path):
    state, _ = played(tmp_path)
    report = verify_round(state)
    assert report.ok and not report.journal
    text = printed(report)
    assert "This machine has no journal of round r1" in text
    assert "only the server's own log could be checked" in text
    assert "VERIFIED against the server's own log only" in text


def test_a_journal_of_the_first_version_still_checks_the_dice(tmp_path):
    state, record = played(tmp_path)
    rolls = {f"{e['turn']}/{e['roll']}": e["dice"] for e in record.states_shown() if e["roll"]}
    rolls["4/1"] = [1, 1, 1, 1, 1, 1]
    path = Journal(tmp_path)._path("r1")
    path.write_text(json.dumps({"commitment": state["commitment"], "rolls": rolls}))
    legacy = Journal(tmp_path).get("r1")
    texts = failures(verify_round(state, record=legacy, box_name=box_name))
    assert len(texts) == 1 and texts[0].startswith("turn 5 (Fives): roll 1: the seed gives")


def _opponent_cut_to(state, turns):
    """The computer's side of ``state`` told from its first ``turns`` turns only, its
    card and totals recomputed so that it holds together."""
    opponent = copy.deepcopy(state["opponent"])
    bot = yatzy.Game(yatzy.get_ruleset(state["ruleset"]), SEED)
    opponent["turns"] = opponent["turns"][:turns]
    for recorded in opponent["turns"]:
        for index, _ in enumerate(recorded["rolls"]):
            bot.roll(recorded["holds"][index - 1] if index else [])
        bot.score(recorded["category"])
    opponent |= {"scorecard": bot.scorecard, "upper_total": bot.upper_total, "total": bot.total}
    return opponent


@pytest.mark.parametrize("cut", ["truncated", "missing"])
def test_a_result_the_computers_log_does_not_back_fails(tmp_path, cut):
    state, record = played(tmp_path, "yatzy", computer=True)
    claimed = "win" if state["result"] != "win" else "loss"
    forged = {**state, "result": claimed}
    if cut == "truncated":
        forged["opponent"] = _opponent_cut_to(state, 3)
    else:
        del forged["opponent"]
    report = verify_round(forged, record=record)
    assert not report.ok
    assert any(claimed in text for text in failures(report))


def test_a_round_without_its_total_is_not_verified(tmp_path):
    state, record = played(tmp_path)
    forged = {key: value for key, value in state.items() if key != "total"}
    report = verify_round(forged, record=record)
    assert not report.ok
    assert "VERIFIED" not in printed(report)


def test_a_round_played_here_without_a_commitment_shown_before_the_reveal_fails(tmp_path):
    # A server that left the commitment out of every answer while the round was played
    # here committed to nothing: its seed, told at the reveal, is no "committed seed".
    state, record = played(tmp_path)
    record.commitment = record.commitment_seen_at = None  # what the journal keeps then
    report = verify_round(state, record=record)
    assert not report.ok
    assert any("commitment" in text for text in failures(report))


@pytest.mark.parametrize("fetched", [True, False])
def test_a_state_shown_after_a_later_one_fails_unless_it_is_a_redraw(tmp_path, fetched):
    """A server that answers a read (or an action) with an earlier state than it had
    shown fails verify; the same state drawn again by a client (a typo, a hold), not
    news from the server, does not when it was not read afresh."""
    state, record = played(tmp_path)
    shown = record.states_shown()
    early = next(e for e in shown if (e["turn"], e["roll"]) == (2, 1))
    late = next(e for e in shown if (e["turn"], e["roll"]) == (3, 1))
    record.events.insert(record.events.index(late) + 1, {**early, "fetched": fetched})
    texts = failures(verify_round(state, record=record, box_name=box_name))
    if fetched:
        assert texts == [
            "turn 3 (Threes): the server showed roll 1 after it had shown a later state"
        ]
    else:
        assert texts == []
    # Not shown before: whatever its "fetched", it goes back.
    record.events.insert(record.events.index(late) + 1, {**early, "dice": [9], "fetched": False})
    texts = failures(verify_round(state, record=record, box_name=box_name))
    assert any("after it had shown a later state" in text for text in texts), texts
