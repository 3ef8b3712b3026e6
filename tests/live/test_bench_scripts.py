"""The API benchmark's wrk scripts (bench/wrk/) against a live server: every answer is a
success, and the play script's rolls and scores pass the preconditions it reads back,
through the end of a round and into the next."""

import os
import shutil

import pytest

from accounts.services import user_token_create
from bench.api import PHASES, wrk
from daily import clock
from games import services
from tests.factories import make_player

pytestmark = [
    pytest.mark.live,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed"),
]


def _round_at_its_last_turn(player):
    """A ranked round of today with every turn but the last played."""
    rnd, _ = services.round_start_daily(player=player, day=clock.today())
    for turn in range(19):
        _, game = services.round_roll(round_id=rnd.id, player=player, hold=[], turn=turn, roll=0)
        services.round_score(
            round_id=rnd.id, player=player, category=next(iter(game.options())), turn=turn
        )
    return rnd


def test_the_bench_scripts_get_only_successes(live_stack_factory, tmp_path):
    stack = live_stack_factory(BENCH_ENDPOINTS="true", THROTTLE_PLAY="1000000/minute")
    players = tmp_path / "players.txt"
    lines = []
    for _ in range(2):
        player, _ = make_player()
        token = user_token_create(user=player)
        lines.append(f"{token} {_round_at_its_last_turn(player).id}\n")
    players.write_text("".join(lines))
    env = {**os.environ, "BENCH_PLAYERS": str(players), "BENCH_DAY": clock.today().isoformat()}

    for name, path, script in PHASES[:2]:
        phase = wrk(name, stack.url + path, script, 2, 1, env)
        assert phase.requests > 0 and phase.errors == {}, phase
    play = wrk("play", stack.url, "play.lua", 2, 2, env)
    assert play.errors == {}, play
    # Each connection resynced, finished its round and started the next one.
    assert set(play.answers) == {"get 200", "roll 200", "score 200", "start 201"}, play
    assert play.answers["get 200"] == 2 and play.answers["start 201"] >= 2, play
