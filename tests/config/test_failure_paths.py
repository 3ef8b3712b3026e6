"""Behaviour that only shows when something fails or is configured unusually: the 503
for an unreachable database, jobs retrying through a database outage, the login and
play throttles, the close of a day that lost many board updates, the duration form of
DAILY_GRACE and JSON log lines with the request id."""

import datetime as dt
import io
import json
import logging
import logging.config
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import time_machine
from django.conf import settings as django_settings
from django.db import OperationalError, connection
from kombu.exceptions import OperationalError as KombuOperationalError
from rest_framework.test import APIClient

from games import tasks as game_tasks
from leaderboards import tasks as board_tasks
from leaderboards.models import BoardEntry, BoardHistogram, PendingBoardUpdate
from reliability.stack import Redis, free_port
from tests.factories import make_player, play_round

ROOT = Path(__file__).resolve().parents[2]
NOON = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)


class DatabaseDown:
    """Makes the next ``failures`` statements fail as a dropped connection does."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.refused = 0

    def __call__(self, execute, sql, params, many, context):
        if self.refused < self.failures:
            self.refused += 1
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)


@pytest.mark.django_db
def test_an_unreachable_database_is_a_503_with_a_code_and_retry_after():
    _, client = make_player()
    with connection.execute_wrapper(DatabaseDown(failures=10**6)):
        response = client.get("/api/v1/daily/")
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"
    assert int(response["Retry-After"]) > 0


@pytest.fixture
def eager_failures_kept():
    """Eager jobs keep their failure in the result instead of raising it, so a retry is
    re-run the way a worker would run it."""
    from config.celery import app

    previous = app.conf.task_eager_propagates
    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = previous


@pytest.mark.django_db
def test_a_job_retries_while_the_database_is_down_and_then_runs(eager_failures_kept):
    # Two refused statements, then the database is back: the job is retried (Celery
    # re-runs it inline in eager mode) instead of being acknowledged and dropped.
    outage = DatabaseDown(failures=2)
    with time_machine.travel(NOON, tick=False), connection.execute_wrapper(outage):
        result = game_tasks.days_close_due.apply()
    assert outage.refused == 2
    assert result.successful(), result.traceback
    assert result.get() == []


@pytest.mark.django_db
def test_a_job_gives_up_after_its_retries_while_the_database_stays_down(eager_failures_kept):
    outage = DatabaseDown(failures=10**6)
    with connection.execute_wrapper(outage):
        result = game_tasks.days_close_due.apply()
    assert result.failed()
    assert isinstance(result.result, OperationalError)
    assert outage.refused == game_tasks.days_close_due.max_retries + 1


def _rates(settings, **rates):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
    }


@pytest.mark.django_db
def test_logins_are_throttled_per_address_even_when_the_password_is_right(settings):
    _rates(settings, login="3/minute")
    user, _ = make_player()
    client = APIClient()
    body = {"username": user.username, "password": "correct-horse-battery-9"}
    codes = [
        client.post("/api/v1/accounts/token/", body, format="json").status_code for _ in range(4)
    ]
    assert codes == [200, 200, 200, 429]
    other = APIClient(REMOTE_ADDR="203.0.113.9")
    assert other.post("/api/v1/accounts/token/", body, format="json").status_code == 200


@pytest.mark.django_db
def test_play_is_throttled_per_player_not_per_address(settings):
    _rates(settings, play="3/minute")
    with time_machine.travel(NOON, tick=False):
        _, first = make_player()
        _, second = make_player()
        state = first.post("/api/v1/daily/2026-11-20/rounds/").json()
        url = f"/api/v1/rounds/{state['id']}/roll/"
        codes = [
            first.post(url, {"hold": [], "turn": 0, "roll": roll}, format="json").status_code
            for roll in range(3)
        ]
        # The start counted too: the fourth play request of this player is refused...
        assert codes == [200, 200, 429]
        refused = first.post(url, {"hold": [], "turn": 0, "roll": 2}, format="json")
        # ...while another player on the same address plays on.
        other = second.post("/api/v1/daily/2026-11-20/rounds/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert other.status_code == 201


@pytest.mark.django_db(transaction=True)
def test_a_day_that_lost_more_updates_than_the_limit_closes_with_a_full_reconcile(monkeypatch):
    # Three ranked rounds complete while the broker refuses every job, so none of their
    # board updates runs. Above the per-player limit, the close enqueues one reconcile,
    # which (unlike per-player refreshes) also drops boards nothing calls for.
    from leaderboards import jobs

    monkeypatch.setattr(jobs, "CATCH_UP_PER_PLAYER_LIMIT", 2)
    BoardHistogram.objects.create(board="daily:2020-01-01", value=10, count=1)

    def broker_down(*args):
        raise KombuOperationalError("Error 111 connecting to redis: Connection refused.")

    with time_machine.travel(NOON, tick=False):
        with monkeypatch.context() as outage:
            outage.setattr(board_tasks.board_record_round, "delay", broker_down)
            totals = {}
            for _ in range(3):
                user, client = make_player()
                state = client.post("/api/v1/daily/2026-11-20/rounds/").json()
                totals[user.pk] = play_round(client, state["id"])["total"]
        assert PendingBoardUpdate.objects.count() == 3
        assert not BoardEntry.objects.exists()
    with time_machine.travel(dt.datetime(2026, 11, 21, 0, 31, tzinfo=dt.UTC), tick=False):
        assert game_tasks.days_close_due.delay().get() == ["2026-11-20"]
    for board in ("daily:2026-11-20", "best", "streak"):
        lines = dict(BoardEntry.objects.filter(board=board).values_list("player_id", "value"))
        assert lines == (totals if board != "streak" else dict.fromkeys(totals, 1)), board
    assert not BoardHistogram.objects.filter(board="daily:2020-01-01").exists()


def _setting_in_subprocess(expression: str, **env: str) -> str:
    import os

    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            f"from django.conf import settings; print({expression})",
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(("value", "minutes"), [("00:30:00", 30), ("01:15:00", 75), ("45", 45)])
def test_daily_grace_takes_minutes_or_a_duration(value, minutes):
    shown = _setting_in_subprocess("int(settings.DAILY_GRACE.total_seconds())", DAILY_GRACE=value)
    assert int(shown) == minutes * 60


@pytest.mark.django_db
def test_json_log_lines_carry_the_request_id_of_their_request():
    # The production logging configuration (LOG_FORMAT=json), writing into a buffer.
    config = json.loads(json.dumps(django_settings.LOGGING, default=str))
    stream = io.StringIO()
    config["handlers"]["console"].update(formatter="json", stream=stream)
    config["handlers"]["console"]["stream"] = "ext://sys.stderr"
    previous = logging.root.handlers[:]
    logging.config.dictConfig(config)
    handler = logging.root.handlers[0]
    handler.setStream(stream)
    try:
        response = APIClient().get("/api/v1/accounts/me/", HTTP_X_REQUEST_ID="req-42")
    finally:
        logging.root.handlers[:] = previous
    assert response.status_code == 401
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    unauthorized = [line for line in lines if line.get("logger") == "django.request"]
    assert unauthorized, lines
    assert all(line["request_id"] == "req-42" for line in unauthorized)
    assert {"time", "level", "logger", "message"} <= set(unauthorized[0])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "logged_in"),
    [
        ("/", False),
        ("/", True),
        ("/boards/best-day/", False),
        ("/games/", True),
        ("/settings/", True),
    ],
)
def test_an_unreachable_database_is_a_503_page_with_retry_after(client, logged_in, path):
    client.raise_request_exception = False
    """The pages answer a database outage as the API does: 503 with Retry-After and the
    same message, not a 500 (raised by a view, or by the middleware reading a logged-in
    player's session)."""
    if logged_in:
        player, _ = make_player()
        client.force_login(player)
    with connection.execute_wrapper(DatabaseDown(failures=10**6)):
        response = client.get(path)
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert "The database is unavailable; retry shortly." in response.content.decode()


@pytest.mark.django_db
def test_the_api_with_a_session_answers_a_database_outage_in_its_json(client):
    """An API request with a session (the browser's) reads the player in the middleware,
    before DRF: the outage there went to the pages' 503 page, HTML under /api/."""
    client.raise_request_exception = False
    player, _ = make_player()
    client.force_login(player)
    with connection.execute_wrapper(DatabaseDown(failures=10**6)):
        response = client.get("/api/v1/accounts/me/")
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"
    assert int(response["Retry-After"]) > 0


def _run_while_stopped(
    pid: int, code: str, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """Python ``code`` run in a fresh process while the server ``pid`` is stopped
    (SIGSTOP: it accepts connections and never answers), the server let go after."""
    os.kill(pid, signal.SIGSTOP)
    try:
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        os.kill(pid, signal.SIGCONT)


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server (Debian)")
def test_a_job_sent_while_redis_is_frozen_gives_up_within_seconds(tmp_path):
    """A Redis broker that accepts and never answers (stopped by SIGSTOP, swapping, a
    half-open connection) held the job sent after a commit without end: the request that
    completed a ranked round waited until gunicorn killed its worker, and the player got
    an HTML 500 for a score that was stored. The broker's socket timeouts bound the send;
    the update it owes is caught up later (``boards_catch_up``)."""
    redis = Redis(tmp_path, free_port())
    redis.start()
    assert redis.process is not None
    code = (
        "import time, django; django.setup()\n"
        "from django.db import transaction\n"
        "from config.celery import enqueue_on_commit\n"
        "from leaderboards import tasks\n"
        "started = time.monotonic()\n"
        "with transaction.atomic():\n"
        "    enqueue_on_commit(tasks.boards_catch_up)\n"
        "print(time.monotonic() - started)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CELERY_BROKER_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CELERY_BROKER_URL=redis.url,
    )
    try:
        result = _run_while_stopped(redis.process.pid, code, env)
    finally:
        redis.process.terminate()
        redis.process.wait()
    assert result.returncode == 0, result.stderr
    assert float(result.stdout) < 12  # gunicorn's timeout is 30 s, the client's 25 s
    assert "send leaderboards.tasks.boards_catch_up" in result.stderr  # logged, not raised


def test_a_frozen_postgresql_server_is_a_database_error_within_seconds(scratch_postgres):
    """A PostgreSQL server that accepts connections and never answers (its postmaster
    stopped by SIGSTOP: a stalled host, a hung storage) held every new connection
    without end: each request of a web worker without a connection (a fresh worker,
    CONN_MAX_AGE over, the connection dropped) and each health check waited until
    gunicorn killed the worker. libpq's connect_timeout bounds it: the connection
    fails, which the API answers 503 ``database_unavailable``."""
    postgres = scratch_postgres
    code = (
        "import time, django; django.setup()\n"
        "from django.db import OperationalError, connection\n"
        "started = time.monotonic()\n"
        "try:\n"
        "    connection.ensure_connection()\n"
        "except OperationalError:\n"
        "    print(time.monotonic() - started)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env["DATABASE_URL"] = postgres.url
    postmaster = int(postgres.data.joinpath("postmaster.pid").read_text().split()[0])
    result = _run_while_stopped(postmaster, code, env)
    assert result.returncode == 0, result.stderr
    assert float(result.stdout) < 12  # gunicorn's timeout is 30 s
