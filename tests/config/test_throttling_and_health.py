"""Throttles answer 429 with a code, survive a cache outage; health reports 200 or 503,
the worker through its heartbeat on the filesystem broker; every response carries a
request id."""

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.utils.module_loading import import_string
from rest_framework.test import APIClient

from config import health, tasks

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
JSON = "application/json"


@pytest.fixture
def filesystem_broker(settings, tmp_path):
    """The embedded default's worker check, on a heartbeat file of this test's own."""
    settings.CELERY_BROKER_URL = "filesystem://localhost/"
    settings.VAR_DIR = tmp_path


@pytest.fixture
def fresh_heartbeat(filesystem_broker):
    health.worker_heartbeat_record()


def register(client, name):
    return client.post(
        "/api/v1/accounts/register/",
        {"username": name, "password": "a-long-enough-passphrase"},
        format="json",
    )


def test_register_is_throttled_per_ip_with_a_code(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "register": "2/hour",
        },
    }
    client = APIClient()
    assert [register(client, f"u{i}").status_code for i in range(2)] == [201, 201]
    third = register(client, "u3")
    assert third.status_code == 429
    assert third.json()["code"] == "throttled"
    assert "Retry-After" in third.headers


def test_throttle_lets_requests_through_when_the_cache_is_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens here
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    assert register(APIClient(), "during-outage").status_code == 201


def test_health_is_503_when_the_cache_is_down(settings, fresh_heartbeat):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    response = APIClient().get("/health/", HTTP_ACCEPT=JSON)
    assert response.status_code == 503
    failing = [name for name, result in response.json().items() if result != "OK"]
    assert failing == ["Cache(alias='default')"]


def test_health_answers_a_browser_or_plain_curl_with_its_page(fresh_heartbeat):
    # Without a JSON Accept header the answer is the HTML page, with the same status as
    # the JSON one; it was a 500 before the health_check app was installed.
    assert APIClient().get("/health/", HTTP_ACCEPT=JSON).status_code == 200
    for accept in ("*/*", "text/html"):
        response = APIClient().get("/health/", HTTP_ACCEPT=accept)
        assert response.status_code == 200, response.content[:200]
        assert response["Content-Type"].startswith("text/html")
        assert b"Database" in response.content
        assert b"WorkerHeartbeat" in response.content


def test_health_page_is_503_when_the_worker_heartbeat_is_stale(fresh_heartbeat):
    two_minutes_ago = time.time() - 120
    os.utime(health.heartbeat_path(), (two_minutes_ago, two_minutes_ago))
    response = APIClient().get("/health/", HTTP_ACCEPT=JSON)
    assert response.status_code == 503
    assert "ago" in response.json()["WorkerHeartbeat()"]
    page = APIClient().get("/health/", HTTP_ACCEPT="text/html")
    assert page.status_code == 503
    assert page["Content-Type"].startswith("text/html")


def test_health_is_503_before_any_worker_heartbeat(filesystem_broker):
    response = APIClient().get("/health/", HTTP_ACCEPT=JSON)
    assert response.status_code == 503
    assert "No Celery worker" in response.json()["WorkerHeartbeat()"]


def test_health_pings_the_worker_on_a_broker_with_broadcast(settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    checks = [check for check, _options in health.configured_checks()]
    assert health.WorkerPing in checks
    assert health.WorkerHeartbeat not in checks


def test_the_health_checks_are_named_without_addresses_and_alike_everywhere(settings):
    """/health/ answers anyone, keyed by the checks' names: the Redis check's named the
    server's host, port and database, and the worker ping's held the Celery app's memory
    address, a key that changed from one web process to the next."""
    settings.REDIS_URL = "redis://10.9.8.7:6390/4"
    settings.CELERY_BROKER_URL = "redis://10.9.8.7:6390/5"
    names = [
        repr((import_string(check) if isinstance(check, str) else check)(**options))
        for check, options in health.configured_checks()
    ]
    assert names == [
        "Database(alias='default')",
        "Cache(alias='default')",
        "Redis()",
        "WorkerPing()",
    ]


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server (Debian)")
def test_the_worker_ping_is_asked_again_when_redis_has_restarted(tmp_path):
    """After a Redis restart the broker pool's first connection is the old server's
    socket: the ping failed on it with an unexpected error (503 "Unknown Error" in every
    web process once, though Redis was back). Here no worker runs, so the right answer,
    before and after the restart, is that none answered."""
    from celery import Celery
    from health_check.exceptions import ServiceUnavailable

    from reliability.stack import Redis, free_port

    redis = Redis(tmp_path, free_port())
    redis.start()
    try:
        # Not the current app: the rest of this process's tests send their jobs
        # through the project's own.
        app = Celery("health-test", broker=redis.url, set_as_current=False)
        check = health.WorkerPing(app=app, timeout=dt.timedelta(seconds=0.2))
        with pytest.raises(ServiceUnavailable, match="workers unavailable"):
            check.run()  # the pool now holds a connection
        redis.stop()
        redis.start()
        with pytest.raises(ServiceUnavailable, match="workers unavailable"):
            check.run()
        redis.stop()  # down for good: the broker's fault, said as such
        with pytest.raises(ServiceUnavailable):
            check.run()
        app.close()
    finally:
        redis.stop()


@pytest.mark.parametrize("broker", ["refuses", "never answers"])
def test_the_worker_ping_says_at_once_that_the_broker_is_down(broker):
    """A broker that refuses connections (Redis stopped) made the ping's publish retry
    for about 6 s, twice: /health/ answered its 503 after 12 s, longer than a load
    balancer's check waits, holding a web worker all that time; one that accepts and
    never answers (Redis frozen) held it until the socket gave up. Both are said within
    a few timeouts of the check's own."""
    import socket
    import threading

    from celery import Celery
    from health_check.exceptions import ServiceUnavailable

    silent = socket.create_server(("127.0.0.1", 0))  # accepts (the kernel does), says nothing
    port = silent.getsockname()[1]
    if broker == "refuses":
        silent.close()  # nothing listens there now
    app = Celery("health-test", broker=f"redis://127.0.0.1:{port}/0", set_as_current=False)
    check = health.WorkerPing(app=app, timeout=dt.timedelta(seconds=0.5))
    raised: list[BaseException] = []

    def run() -> None:
        try:
            check.run()
        except BaseException as exc:  # handed to the test's thread
            raised.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=4)  # a load balancer's usual wait; the check allows 2 x 0.5 s
    try:
        assert not worker.is_alive(), "the check was still waiting on the broker after 4 s"
        assert len(raised) == 1 and isinstance(raised[0], ServiceUnavailable), raised
        assert "The broker does not answer" in str(raised[0])
        assert str(port) not in str(raised[0])  # the address is the log's (the cause)
        assert raised[0].__cause__ is not None
    finally:
        silent.close()
        app.close()


def test_the_redis_check_gives_up_on_a_redis_that_never_answers(settings):
    """A Redis that accepts and never answers (frozen) held the Redis check, and the
    /health/ request with it, until the socket gave up: its client had no timeout."""
    import asyncio
    import socket

    from health_check.exceptions import HealthCheckException

    with socket.create_server(("127.0.0.1", 0)) as silent:
        settings.REDIS_URL = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        ((name, options),) = [c for c in health.configured_checks() if c[0] is health.RedisPing]
        check = name(**options)

        async def run() -> None:
            await asyncio.wait_for(check.run(), timeout=4)  # a load balancer's usual wait

        with pytest.raises(HealthCheckException, match="Redis"):
            asyncio.run(run())


def test_the_heartbeat_job_is_what_health_reads(filesystem_broker):
    assert APIClient().get("/health/", HTTP_ACCEPT=JSON).status_code == 503
    # apply(), not delay(): even an eager delay() opens the app's broker connection pool,
    # which would keep this test's broker URL for the rest of the session.
    tasks.worker_heartbeat.apply()
    assert APIClient().get("/health/", HTTP_ACCEPT=JSON).status_code == 200


def beat_schedule(tmp_path, broker: str) -> dict[str, str]:
    """The beat schedule that settings build for ``broker``: {entry: schedule}."""
    code = (
        "import json; from django.conf import settings; print(json.dumps("
        "{name: str(entry['schedule']) for name, entry in settings.CELERY_BEAT_SCHEDULE.items()}))"
    )
    env = {**os.environ, "CELERY_BROKER_URL": broker, "VAR_DIR": str(tmp_path)}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def test_the_beat_sends_a_heartbeat_every_10_s_on_the_filesystem_broker_only(tmp_path):
    assert beat_schedule(tmp_path, "filesystem://localhost/")["worker-heartbeat"] == "0:00:10"
    assert "worker-heartbeat" not in beat_schedule(tmp_path, "redis://127.0.0.1:6379/0")


def test_responses_carry_a_request_id_and_keep_a_sane_incoming_one():
    client = APIClient()
    made_up = client.get("/api/v1/accounts/me/")
    assert len(made_up.headers["X-Request-ID"]) == 32
    kept = client.get("/api/v1/accounts/me/", HTTP_X_REQUEST_ID="abc-123")
    assert kept.headers["X-Request-ID"] == "abc-123"
    replaced = client.get("/api/v1/accounts/me/", HTTP_X_REQUEST_ID="bad id\nwith newline")
    assert replaced.headers["X-Request-ID"] != "bad id\nwith newline"
    # A sane id and a line break after it: "$" matched before the final newline, and
    # the echoed header was a 500 (Django refuses a newline in a header's value).
    trailing = client.get("/api/v1/accounts/me/", HTTP_X_REQUEST_ID="abc-123\n")
    assert trailing.status_code == 401 and len(trailing.headers["X-Request-ID"]) == 32
