"""A live stack for end-to-end tests: gunicorn and a real Celery worker as separate
processes, on the test database and the configured broker (Redis in CI's production
run, the filesystem broker in the embedded default)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from daily import clock

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = quote(db["USER"] or "")
    password = quote(db["PASSWORD"] or "")
    host = f"{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}"
    return f"postgres://{user}:{password}@{host}/{db['NAME']}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LiveStack:
    url: str
    env: dict[str, str]
    processes: dict[str, subprocess.Popen]

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Token {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)

    def register(self, username: str) -> str:
        """A new player's API token."""
        with self.client() as http:
            response = http.post(
                "/api/v1/accounts/register/",
                json={"username": username, "password": "a-long-enough-passphrase"},
            )
        assert response.status_code == 201, response.text
        return response.json()["token"]

    def play_daily_round(self, token: str) -> dict:
        """Play today's round to the end over HTTP (one roll a turn, the best box); every
        answer must be a success. Returns the final state."""
        with self.client(token) as http:
            response = http.post(f"/api/v1/daily/{clock.today().isoformat()}/rounds/")
            state = response.raise_for_status().json()
            while state["status"] == "in_progress":
                turn, url = state["turn"], f"/api/v1/rounds/{state['id']}"
                roll = {"hold": [], "turn": turn, "roll": 0}
                state = http.post(f"{url}/roll/", json=roll).raise_for_status().json()
                category = max(state["options"], key=state["options"].get)
                score = {"category": category, "turn": turn}
                state = http.post(f"{url}/score/", json=score).raise_for_status().json()
        return state

    def start_worker(self, queues: str | None = None) -> subprocess.Popen:
        """A worker process; ``queues`` (``-Q``, e.g. ``celery,analysis``) other than the
        default queue."""
        extra = ["-Q", queues] if queues else []
        worker = subprocess.Popen(
            [
                str(BIN / "celery"),
                *("-A", "config", "worker", "--pool=solo", "--loglevel=WARNING", *extra),
            ],
            cwd=ROOT,
            env=self.env,
        )
        self.processes["worker"] = worker
        return worker

    def stop(self) -> None:
        for process in self.processes.values():
            _stop(process)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _start_stack(env_overrides: dict[str, str]) -> LiveStack:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DAILY_SEED_SECRET": settings.DAILY_SEED_SECRET,
        "CONN_MAX_AGE": "0",
        "VAR_DIR": str(Path(settings.VAR_DIR)),
        **env_overrides,
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    stack = LiveStack(url=f"http://127.0.0.1:{port}", env=env, processes={})
    stack.processes["web"] = subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "config.wsgi:application",
            f"--bind=127.0.0.1:{port}",
            "--workers=2",
            "--threads=4",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=env,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{stack.url}/api/schema/", timeout=2).status_code == 200:
                return stack
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            stack.stop()
            raise RuntimeError("gunicorn did not start")
        time.sleep(0.2)


@pytest.fixture
def live_stack_factory(transactional_db, settings_override_for_live) -> Iterator:
    """Start gunicorn (without a worker) with extra environment; stopped at teardown."""
    stacks: list[LiveStack] = []

    def start(**env_overrides: str) -> LiveStack:
        stacks.append(_start_stack(env_overrides))
        return stacks[-1]

    yield start
    for stack in stacks:
        stack.stop()


@pytest.fixture
def live_stack(live_stack_factory) -> LiveStack:
    """gunicorn and one Celery worker on the test database and the configured broker."""
    stack = live_stack_factory()
    stack.start_worker()
    return stack


@pytest.fixture
def settings_override_for_live():
    """Jobs sent from the test process go to the real broker, not inline."""
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = True


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("condition not met in time")
