"""End to end over real HTTP: gunicorn, a Celery worker process, the configured database
and broker. Players register, play full daily rounds, and race on one round."""

from concurrent.futures import ThreadPoolExecutor

import pytest

import yatzy
from config import health
from daily import clock, tasks
from daily.models import Challenge
from games.models import Round
from leaderboards.models import PendingBoardUpdate
from tests.live.conftest import wait_for

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def test_a_daily_round_played_over_http_matches_the_engine(live_stack):
    state = live_stack.play_daily_round(live_stack.register("live-player"))
    assert state["ranked"] and state["seed"] is None
    challenge = Challenge.objects.get(date=clock.today())
    replayed = yatzy.Game.replay(yatzy.get_ruleset("maxi"), bytes(challenge.seed), state["actions"])
    assert state["status"] == "completed"
    assert replayed.total == state["total"] == Round.objects.get(pk=state["id"]).total


def test_parallel_identical_rolls_over_http_apply_once(live_stack):
    token = live_stack.register("racer")
    with live_stack.client(token) as http:
        state = http.post(f"/api/v1/daily/{clock.today().isoformat()}/rounds/").json()

    def roll(_index):
        with live_stack.client(token) as http:
            return http.post(
                f"/api/v1/rounds/{state['id']}/roll/", json={"hold": [], "turn": 0, "roll": 0}
            )

    with ThreadPoolExecutor(max_workers=20) as pool:
        responses = list(pool.map(roll, range(20)))
    assert sorted(r.status_code for r in responses) == [200] + [409] * 19
    assert Round.objects.get(pk=state["id"]).actions == [{"type": "roll", "hold": []}]


def test_the_worker_process_runs_the_daily_jobs(live_stack):
    tasks.challenges_ensure_upcoming.delay()
    wait_for(lambda: Challenge.objects.filter(date__gt=clock.today()).exists())
    assert Challenge.objects.filter(date=clock.today()).exists()


def test_rounds_complete_while_the_broker_is_down(live_stack_factory):
    stack = live_stack_factory(CELERY_BROKER_URL="redis://127.0.0.1:9/0")  # nothing listens
    state = stack.play_daily_round(stack.register("offline-broker"))
    stored = Round.objects.get(pk=state["id"])
    assert (stored.status, stored.total) == ("completed", state["total"])
    # Its board job could not be sent; the update it owes is on record for the catch-up.
    assert PendingBoardUpdate.objects.filter(round_id=stored.pk).exists()


def test_a_request_line_too_long_is_414_as_the_schema_says(live_stack):
    with live_stack.client() as http:
        schema = http.get("/api/schema/", headers={"Accept": "application/json"}).json()
        response = http.get("/api/v1/leaderboards/best-day/", params={"cursor": "x" * 5000})
    assert response.status_code == 414
    operation = schema["paths"]["/api/v1/leaderboards/best-day/"]["get"]
    assert "414" in operation["responses"]


def worker_check(body: dict[str, str]) -> str:
    """The name of the worker's check in a health answer: a ping on Redis, the
    heartbeat on the filesystem broker (config.health)."""
    prefix = "WorkerHeartbeat(" if health.uses_filesystem_broker() else "WorkerPing("
    [name] = [name for name in body if name.startswith(prefix)]
    return name


def test_health_is_200_with_database_cache_and_worker(live_stack_factory):
    stack = live_stack_factory()
    health.heartbeat_path().unlink(missing_ok=True)  # no worker has run a job yet
    with stack.client() as http:
        before = http.get("/health/", headers={"Accept": "application/json"})
    assert before.status_code == 503
    failing = [name for name, value in before.json().items() if value != "OK"]
    assert failing == [worker_check(before.json())]

    stack.start_worker()

    def healthy():
        with stack.client() as http:
            response = http.get("/health/", headers={"Accept": "application/json"})
        return response if response.status_code == 200 else None

    body = wait_for(healthy).json()
    assert all(value == "OK" for value in body.values())
    assert body[worker_check(body)] == "OK"
    assert any(name.startswith("Database") for name in body)
