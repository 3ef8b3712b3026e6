"""``config.postgresql``: Django's PostgreSQL backend with a health check that asks the
socket, not the server, and prepared statements for the play path (issue #25)."""

import time

import psycopg
import pytest
from django.db import connection

from config.db import prepared_cursor
from games import services
from leaderboards.selectors import board_rank
from tests.factories import make_player

postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's backend")


def other_connection() -> psycopg.Connection:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        user=settings["USER"],
        password=settings["PASSWORD"],
        dbname=settings["NAME"],
        autocommit=True,
    )


@pytest.mark.django_db
def test_a_prepared_cursor_runs_statements_with_parameters_on_every_backend():
    with prepared_cursor(connection) as cursor:
        cursor.execute("SELECT %s + %s", [40, 2])
        assert cursor.fetchone()[0] == 42


@postgresql
@pytest.mark.django_db(transaction=True)
def test_the_health_check_sends_nothing_to_a_healthy_connection():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 42 AS marker")
    pid = connection.connection.info.backend_pid
    assert connection.is_usable()
    with other_connection() as other:
        (last,) = other.execute(
            "SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]
        ).fetchone()
    assert last == "SELECT 42 AS marker"  # not Django's SELECT 1


@postgresql
@pytest.mark.django_db(transaction=True)
def test_a_connection_the_server_ended_is_replaced_before_the_next_request_uses_it():
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with other_connection() as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while connection.is_usable() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not connection.is_usable()
    # What Django does at a request's start: the next query checks, reconnects, runs.
    connection.health_check_done = False
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid


@postgresql
@pytest.mark.django_db
def test_the_round_read_the_actions_write_and_the_rank_lookup_are_prepared_once_per_connection():
    player, _client = make_player("prepared")
    rnd = services.game_create(player=player, mode="solo", ruleset="yatzy")
    services.round_roll(round_id=rnd.id, player=player, hold=[], turn=0, roll=0)
    services.round_roll(round_id=rnd.id, player=player, hold=[0], turn=0, roll=1)
    for _ in range(2):
        assert board_rank(board="day:2026-12-02", player_id=player.pk) is None
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [statement for (statement,) in cursor.fetchall()]
    round_table = '"games_round"'
    reads = [s for s in statements if s.startswith("SELECT") and f"FROM {round_table}" in s]
    writes = [s for s in statements if s.startswith(f"UPDATE {round_table}")]
    ranks = [s for s in statements if '"leaderboards_boardentry"' in s]
    assert (len(reads), len(writes), len(ranks)) == (1, 1, 1), statements
