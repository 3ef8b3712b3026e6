"""A body over ``API_MAX_BODY_BYTES`` is the same 413 JSON under runserver (``make run``)
as under gunicorn, each a real server process; the server goes on answering."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import httpx
import pytest
from django.conf import settings

from reliability.embedded import embedded_env
from tests.live.conftest import BIN, ROOT, free_port, wait_for

pytestmark = pytest.mark.live


def _runserver(tmp_path) -> Iterator[str]:
    env = embedded_env(os.environ, tmp_path)
    port = free_port()
    server = subprocess.Popen(
        [
            str(BIN / "python"),
            "manage.py",
            "runserver",
            "--noreload",
            "--skip-checks",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _answers(url), timeout=60)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=20)


def _answers(url: str) -> bool:
    try:
        httpx.get(f"{url}/health/", timeout=2)
    except httpx.TransportError:
        return False
    return True


@pytest.fixture(
    params=["runserver", pytest.param("gunicorn", marks=pytest.mark.django_db(transaction=True))]
)
def server(request, tmp_path) -> Iterator[str]:
    """The URL of a real server process: runserver as under ``make run``, or gunicorn."""
    if request.param == "gunicorn":
        yield request.getfixturevalue("live_stack_factory")().url
    else:
        yield from _runserver(tmp_path)


def _post_too_large(http: httpx.Client) -> httpx.Response:
    return http.post(
        "/api/v1/accounts/register/",
        content=b'{"username": "' + b"x" * (settings.API_MAX_BODY_BYTES + 100) + b'"}',
        headers={"Content-Type": "application/json"},
    )


def test_a_body_over_the_limit_is_413_json_and_the_connection_serves_on(server):
    with httpx.Client(base_url=server, timeout=30) as http:
        # Twice and then another request over one connection: the server discarded the
        # unread body each time.
        for _ in range(2):
            response = _post_too_large(http)
            assert response.status_code == 413, response.text[:300]
            assert response.headers["Content-Type"] == "application/json"
            assert response.json()["code"] == "request_too_large"
        missing = http.get("/api/v1/nothing/")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_a_chunked_body_is_411_json_never_read_as_empty(server):
    """Django reads a body by its Content-Length only: a chunked one (no length) was
    taken as empty and answered 400 "turn: This field is required."; it is refused
    with 411 before anything reads it, and the server goes on answering."""

    def chunks():
        yield b'{"username": "chunked", '
        yield b'"password": "a-long-enough-passphrase"}'

    with httpx.Client(base_url=server, timeout=30) as http:
        response = http.post(
            "/api/v1/accounts/register/",
            content=chunks(),
            headers={"Content-Type": "application/json", "Connection": "close"},
        )
    assert response.request.headers["Transfer-Encoding"] == "chunked"
    assert response.status_code == 411, response.text[:300]
    assert response.json()["code"] == "length_required"
    with httpx.Client(base_url=server, timeout=30) as http:
        missing = http.get("/api/v1/nothing/")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
