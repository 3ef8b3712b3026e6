"""Hints and analysis through the API: their shapes against the engine, the refusal
matrix (each mode, revealed or not), and the 503 while a table is being built."""

import datetime as dt

import pytest
import time_machine

import yatzy
from games import tables
from games.models import StrategyTable
from tests.factories import make_player, play_round
from tests.games.conftest import hint, new_game, play_by_hints, play_worst_boxes, roll, score
from yatzy.strategy import best_move
from yatzy.strategy.advice import Position

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)
AFTER_REVEAL = dt.datetime(2026, 11, 21, 0, 31, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _tables(yatzy_table, yahtzee_table):
    """The Yatzy and Yahtzee tables are built once per session (seconds)."""


def test_before_the_first_roll_the_only_move_is_to_roll(yatzy_table):
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yatzy")
    advice = hint(client, state)
    assert (advice["turn"], advice["roll"], advice["dice"]) == (0, 0, [])
    assert advice["moves"] == [advice["best"]]
    assert advice["best"]["kind"] == "roll"
    assert advice["best"]["expected"] == pytest.approx(yatzy_table.start_value, abs=1e-4)


def test_after_a_roll_every_distinct_hold_and_box_comes_best_first(yatzy_table):
    _, client = make_player()
    state = roll(client, new_game(client, mode="solo", ruleset="yatzy"))
    advice = hint(client, state)
    moves = advice["moves"]
    assert advice["best"] == moves[0] and advice["dice"] == state["dice"]
    expected = [move["expected"] for move in moves]
    assert expected == sorted(expected, reverse=True)
    holds = [move for move in moves if move["kind"] == "hold"]
    boxes = [move for move in moves if move["kind"] == "score"]
    # Holds keeping the same faces appear once; every legal box appears with its points.
    assert len({tuple(move["keep"]) for move in holds}) == len(holds)
    assert {move["category"]: move["points"] for move in boxes} == state["options"]
    for move in holds:
        assert sorted(state["dice"][p] for p in move["hold"]) == sorted(move["keep"])
    # The same answer as the engine's own best move on the same position.
    position = Position.from_scorecard(
        yatzy.get_ruleset("yatzy"), state["scorecard"], 0, state["roll"], state["dice"]
    )
    engine = best_move(position, table=yatzy_table)
    assert len(engine.moves) == len(moves)
    assert advice["best"]["expected"] == pytest.approx(engine.best.expected, abs=1e-4)


def test_after_the_third_roll_only_boxes_remain():
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yahtzee")
    for _ in range(3):
        state = roll(client, state)
    assert {move["kind"] for move in hint(client, state)["moves"]} == {"score"}


def test_a_finished_round_has_no_hint_and_an_unfinished_one_no_analysis():
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yatzy")
    early = client.get(f"/api/v1/rounds/{state['id']}/analysis/")
    assert early.status_code == 400 and early.json()["code"] == "round_in_progress"
    final = play_worst_boxes(client, state)
    late = client.get(f"/api/v1/rounds/{final['id']}/hint/")
    assert late.status_code == 400 and late.json()["code"] == "game_over"


def test_following_every_hint_loses_nothing_and_bad_boxes_lose_points():
    _, client = make_player()
    good = play_by_hints(client, new_game(client, mode="solo", ruleset="yatzy"))
    analysis = client.get(f"/api/v1/rounds/{good['id']}/analysis/").json()
    assert analysis["total"] == good["total"]
    assert analysis["loss"] == pytest.approx(0, abs=1e-6)
    assert len(analysis["decisions"]) >= 15  # every box, and every reroll
    for decision in analysis["decisions"]:
        assert decision["loss"] == pytest.approx(0, abs=1e-6)
        assert decision["played"]["expected"] == pytest.approx(decision["best"]["expected"])

    bad = play_worst_boxes(client, new_game(client, mode="solo", ruleset="yatzy"))
    analysis = client.get(f"/api/v1/rounds/{bad['id']}/analysis/").json()
    decisions = analysis["decisions"]
    # One roll a turn, so every decision is a box: the fewest points each time.
    assert [d["kind"] for d in decisions] == ["score"] * 15
    assert [d["played"]["category"] for d in decisions] == [
        action["category"] for action in bad["actions"] if action["type"] == "score"
    ]
    assert sum(d["played"]["points"] for d in decisions) + bad["bonus"] == bad["total"]
    assert analysis["loss"] == pytest.approx(sum(d["loss"] for d in decisions), abs=1e-3)
    assert analysis["loss"] > 30
    assert analysis["expected_start"] == pytest.approx(248.4399894, abs=1e-4)


def daily_rounds(client):
    """A ranked and a practice round of 2026-11-20, both finished, played on the day."""
    with time_machine.travel(NOON, tick=False):
        ranked = client.post("/api/v1/daily/2026-11-20/rounds/").json()
        play_round(client, ranked["id"])
        practice = client.post("/api/v1/daily/2026-11-20/rounds/").json()
        play_round(client, practice["id"])
    return ranked, practice


@pytest.mark.parametrize("path", ["hint/", "analysis/"])
def test_no_daily_round_has_advice_before_its_day_is_revealed(path):
    _, client = make_player()
    ranked, practice = daily_rounds(client)
    with time_machine.travel(NOON, tick=False):
        unfinished = client.post("/api/v1/daily/2026-11-20/rounds/").json()
    with time_machine.travel(AFTER_REVEAL - dt.timedelta(minutes=2), tick=False):
        for rnd in (ranked, practice, unfinished):
            response = client.get(f"/api/v1/rounds/{rnd['id']}/{path}")
            assert response.status_code == 403, (rnd["ranked"], response.json())
            assert response.json()["code"] == "hint_unavailable"


def test_every_round_of_a_revealed_day_may_be_studied(settings):
    # The daily is Maxi, whose table takes minutes to build; the test plays its daily
    # rounds on a Maxi day and asks once the day is revealed: the refusal is gone, and
    # what remains is the (honest) 503 while the Maxi table does not exist.
    _, client = make_player()
    ranked, practice = daily_rounds(client)
    with time_machine.travel(AFTER_REVEAL, tick=False):
        for rnd in (ranked, practice):
            response = client.get(f"/api/v1/rounds/{rnd['id']}/analysis/")
            assert response.status_code == 503, response.json()
            assert response.json()["code"] == "table_building"


@pytest.mark.parametrize("mode", ["solo", "computer"])
def test_solo_and_computer_rounds_always_have_advice(mode):
    _, client = make_player()
    state = new_game(client, mode=mode, ruleset="yatzy")
    assert client.get(f"/api/v1/rounds/{state['id']}/hint/").status_code == 200
    final = play_worst_boxes(client, state)
    assert client.get(f"/api/v1/rounds/{final['id']}/analysis/").status_code == 200


def test_a_missing_table_is_503_with_retry_after_until_the_worker_has_built_it():
    _, client = make_player()
    options = {"upper_bonus": [63, 30]}
    state = new_game(client, mode="solo", ruleset="yahtzee", options=options)
    row = StrategyTable.objects.get(key=tables.table_key(yatzy.get_ruleset("yahtzee", **options)))
    assert row.status == "queued"  # starting the game queued its table
    response = client.get(f"/api/v1/rounds/{state['id']}/hint/")
    assert response.status_code == 503
    assert response.json()["code"] == "table_building"
    assert int(response["Retry-After"]) >= 2
    # What the worker's beat job does: claim the queued table and build it.
    assert tables.tables_build_due() == [row.key]
    row.refresh_from_db()
    assert (row.status, row.progress) == ("ready", 1.0)
    assert hint(client, state)["best"]["kind"] == "roll"
    assert tables.tables_build_due() == []  # nothing left to build


def test_a_table_whose_build_failed_is_built_again_when_a_hint_needs_it():
    _, client = make_player()
    options = {"upper_bonus": [63, 31]}
    state = new_game(client, mode="solo", ruleset="yahtzee", options=options)
    key = tables.table_key(yatzy.get_ruleset("yahtzee", **options))
    # What the worker records when a build raises (a full disk, say).
    StrategyTable.objects.filter(key=key).update(status="failed", error="OSError: no space")
    response = client.get(f"/api/v1/rounds/{state['id']}/hint/")
    assert response.status_code == 503 and response.json()["code"] == "table_building"
    # The 503 says it is being built: it is queued again, and the next build makes it.
    assert StrategyTable.objects.get(key=key).status == "queued"
    assert tables.tables_build_due() == [key]
    assert hint(client, state)["best"]["kind"] == "roll"


def test_saved_rolls_have_no_hint():
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="maxi", options={"saved_rolls": True})
    response = client.get(f"/api/v1/rounds/{state['id']}/hint/")
    assert response.status_code == 400 and response.json()["code"] == "hint_unsupported"


def test_a_hint_then_its_move_is_what_the_round_does(yatzy_table):
    _, client = make_player()
    state = roll(client, new_game(client, mode="solo", ruleset="yatzy"))
    best = hint(client, state)["best"]
    after = score(client, state, best["category"]) if best["kind"] == "score" else None
    if after is None:
        after = roll(client, state, best["hold"])
        assert [after["dice"][p] for p in best["hold"]] == [state["dice"][p] for p in best["hold"]]
    else:
        assert after["scorecard"][best["category"]] == best["points"]


def test_past_the_custom_table_limit_no_game_starts_without_its_hints(settings):
    settings.STRATEGY_TABLES_MAX_CUSTOM = 1
    _, client = make_player()
    first = new_game(client, mode="solo", ruleset="yatzy", options={"upper_bonus": [60, 50]})
    assert client.get(f"/api/v1/rounds/{first['id']}/hint/").status_code == 503  # queued
    body = {"mode": "solo", "ruleset": "yatzy", "options": {"upper_bonus": [62, 50]}}
    refused = client.post("/api/v1/games/", body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "custom_tables_full"
    # The first game's options are queued: another game with them costs no quota.
    new_game(client, mode="solo", ruleset="yatzy", options={"upper_bonus": [60, 50]})
    # The usual options always have their table.
    assert hint(client, new_game(client, mode="solo", ruleset="yatzy"))["best"]["kind"] == "roll"


def test_hints_have_their_own_budget_and_never_throttle_rolls(settings):
    """A hint is a read: asking for hints (on every roll, or several times while
    thinking) must not use up the player's ``play`` budget and throttle their rolls.
    Hints and analyses count against ``advice`` (``THROTTLE_ADVICE``), pages and API."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "play": "3/minute",
            "advice": "4/minute",
        },
    }
    _, client = make_player()
    state = new_game(client, mode="solo", ruleset="yatzy")  # play: 1
    for _ in range(4):
        hint(client, state)
    refused = client.get(f"/api/v1/rounds/{state['id']}/hint/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert "Retry-After" in refused
    state = roll(client, state)  # play: 2, after five hints
    assert client.get(f"/api/v1/rounds/{state['id']}/analysis/").status_code == 429
    roll(client, state, [0])  # play: 3
