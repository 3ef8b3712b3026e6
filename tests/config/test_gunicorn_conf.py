"""gunicorn's master freezes what it holds before forking (issue #25, item 4): the
objects every worker inherits are left out of the workers' garbage collections, whose
writes would otherwise copy those pages into each worker (docs/benchmarks.md)."""

from __future__ import annotations

import gc
import json
import os
import runpy
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from games import tables
from reliability.stack import Postgres
from tests.live.conftest import free_port

CONF = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"


def test_the_master_freezes_its_objects_once_warm(monkeypatch: pytest.MonkeyPatch) -> None:
    warmed = []
    # The warm-up itself (seconds of numba) is covered by tests/games/test_tables_watch.py.
    monkeypatch.setattr(tables, "tables_warm", lambda: warmed.append(gc.get_freeze_count()))
    conf = runpy.run_path(str(CONF))
    gc.unfreeze()
    try:
        conf["when_ready"](object())
        assert warmed == [0]  # warmed first, with nothing frozen yet
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_web_concurrency_0_stops_gunicorn_naming_it() -> None:
    """WEB_CONCURRENCY=0 passed gunicorn's --check-config, and gunicorn listened with no
    worker: every request hung. (gunicorn itself refuses a word or a negative number.)"""
    workers = "0"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    result = subprocess.run(
        [str(gunicorn), "-c", str(CONF), "--check-config", "config.wsgi:application"],
        cwd=CONF.parents[1],
        env={**os.environ, "WEB_CONCURRENCY": workers},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert f"WEB_CONCURRENCY must be a whole number of at least 1, not '{workers}'" in (
        result.stdout + result.stderr
    )


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("GUNICORN_LOGLEVEL", "verbose", "GUNICORN_LOGLEVEL must be debug, info, warning"),
        ("GUNICORN_TIMEOUT", "30s", "GUNICORN_TIMEOUT must be a whole number of at least 0"),
        ("GUNICORN_BIND", "0.0.0.0:99999", "GUNICORN_BIND must be HOST:PORT with a port from 1"),
        ("GUNICORN_BIND", "localhost:http", "GUNICORN_BIND must be HOST:PORT with a port from 1"),
        ("GUNICORN_BIND", "127.0.0.1:0", "GUNICORN_BIND must be HOST:PORT with a port from 1"),
    ],
)
def test_a_misspelt_gunicorn_variable_stops_the_start_naming_it(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    """gunicorn read an unknown log level as `info` without a word; a timeout with a unit
    was a bare traceback, and so was a port out of range or not a number in the bind
    address (OverflowError, RuntimeError); port 0 listened on a port nobody knew."""
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit, match=message):
        runpy.run_path(str(CONF))


def test_the_gunicorn_log_level_reads_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUNICORN_LOGLEVEL", "Warning")
    monkeypatch.setenv("GUNICORN_TIMEOUT", "0")
    conf = runpy.run_path(str(CONF))
    assert (conf["loglevel"], conf["timeout"]) == ("warning", 0)


@contextmanager
def deployed_gunicorn(tmp_path: Path, **env_overrides: str) -> Iterator[tuple[str, list[str]]]:
    """gunicorn as deployed (``deploy/gunicorn.conf.py``, DEBUG off, one worker): its
    address (host, port), answering; at exit, stopped, and its output in the list."""
    port = free_port()
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "k" * 50,
        "DAILY_SEED_SECRET": "s" * 32,
        "LOG_FORMAT": "json",
        "SECURE_SSL_REDIRECT": "false",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "VAR_DIR": str(tmp_path / "var"),
        **env_overrides,
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(CONF), "config.wsgi:application"],
        cwd=CONF.parents[1],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    output: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{port}/health/", timeout=5)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        yield f"127.0.0.1:{port}", output
    finally:
        server.send_signal(signal.SIGTERM)
        output.append(server.communicate(timeout=60)[0].decode(errors="replace"))


@pytest.mark.live
def test_gunicorns_own_lines_are_json_lines_with_log_format_json(tmp_path: Path) -> None:
    """docs/operations.md, Logs: JSON lines in production, from web too. gunicorn's own
    lines (its start, each worker booted, its shutdown) were in gunicorn's text format,
    which a JSON log pipeline cannot read."""
    with deployed_gunicorn(tmp_path) as (_address, logs):
        pass
    output = logs[0]
    lines = [line for line in output.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # a text line fails here
    loggers = {record["logger"] for record in records}
    assert "gunicorn.error" in loggers, output
    assert any("Booting worker" in record["message"] for record in records), output
    # GUNICORN_ACCESSLOG unset: no access line (a logconfig_dict turned them on).
    assert "gunicorn.access" not in loggers, output


@pytest.mark.live
def test_gunicorn_as_deployed_opens_no_control_socket(tmp_path: Path) -> None:
    """gunicorn 25+ opens a control socket at one path per user (~/.gunicorn/gunicorn.ctl
    without XDG_RUNTIME_DIR): masters on one host (bench.api --processes, the tests'
    stacks) took it from each other. The deploy uses none."""
    home = tmp_path / "home"
    home.mkdir()
    with deployed_gunicorn(tmp_path, HOME=str(home), XDG_RUNTIME_DIR="") as (address, _logs):
        assert httpx.get(f"http://{address}/api/v1/rulesets/", timeout=10).status_code == 200
        assert not list(home.rglob("*.ctl"))
    assert not list(home.rglob("*.ctl"))


def _raw(address: str, request: bytes, *rest: bytes) -> bytes:
    """The whole answer to ``request`` sent as it is on a fresh connection (and each of
    ``rest`` in its own packet, 100 ms after the one before)."""
    host, port = address.split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(request)
        for packet in rest:
            time.sleep(0.1)
            sock.sendall(packet)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


# Requests gunicorn refuses before Django sees them, and its status for each.
UNPARSABLE = {
    "a header name with a space": (b"Bad Header: x\r\n", b"", 400),
    "a header over 8190 bytes": (b"X-A: " + b"a" * 9000 + b"\r\n", b"", 431),
    "two Content-Lengths": (b"Content-Length: 2\r\nContent-Length: 3\r\n", b"{}", 400),
    "a folded header": (b"X-A: a\r\n b\r\n", b"", 400),
    "a request line over 4094 bytes": (b"", b"", 414),
    "a Transfer-Encoding it does not know": (b"Transfer-Encoding: foo, chunked\r\n", b"", 501),
    "an Expect it does not know": (b"Expect: foo\r\n", b"", 417),
}


@pytest.mark.live
def test_gunicorns_own_error_answers_are_the_apis_json_under_api(tmp_path: Path) -> None:
    """A request gunicorn cannot parse got its HTML page, under /api/ too, where a client
    reads the API's error shape (config/api_errors.py); the pages keep gunicorn's."""
    with deployed_gunicorn(tmp_path) as (address, logs):
        # A target no URL parser reads stopped the worker on a ValueError (a reset).
        odd = _raw(address, b"GET http://[::1/api/ HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert odd.startswith(b"HTTP/1.1 "), odd
        for case, (headers, body, status) in UNPARSABLE.items():
            for path, api in [("/api/v1/daily/", True), ("/play/", False)]:
                target = path + ("?q=" + "a" * 5000 if status == 414 else "")
                request = f"POST {target} HTTP/1.1\r\nHost: localhost\r\n".encode()
                answer = _raw(address, request + headers + b"\r\n" + body)
                head, _, content = answer.partition(b"\r\n\r\n")
                assert head.startswith(f"HTTP/1.1 {status} ".encode()), (case, answer)
                if not api:
                    assert b"Content-Type: text/html" in head, (case, answer)
                    continue
                assert b"Content-Type: application/json" in head, (case, answer)
                assert f"Content-Length: {len(content)}".encode() in head, (case, answer)
                error = json.loads(content)
                assert set(error) == {"code", "message"}, (case, error)
                code = {
                    400: "bad_request",
                    414: "uri_too_long",
                    417: "expectation_failed",
                    431: "headers_too_large",
                    501: "not_implemented",
                }
                assert error["code"] == code[status], (case, error)
    assert "ValueError" not in logs[0], logs[0]


@pytest.mark.live
def test_a_request_whose_first_packet_ends_inside_its_path_is_still_told_apart(
    tmp_path: Path,
) -> None:
    """Which requests are the API's is read from their first bytes before gunicorn parses
    them; a request whose first packet ended before its target showed ``/api/`` (``POST
    /ap``, the rest 100 ms later; or inside the method) got gunicorn's HTML page. The
    worker waits for the rest of the target now, when it is not there."""
    rest = b" HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n"
    with deployed_gunicorn(tmp_path) as (address, _logs):
        api = _raw(address, b"POST /ap", b"i/v1/daily/" + rest)
        page = _raw(address, b"POST /pl", b"ay/1/" + rest)
        in_method = _raw(address, b"PO", b"ST /api/v1/daily/" + rest)
        proxied = _raw(address, b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\nGET /a", b"pi/v1/" + rest)
    head, _, content = api.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ") and b"application/json" in head, api
    assert json.loads(content)["code"] == "bad_request"
    assert page.startswith(b"HTTP/1.1 400 ") and b"Content-Type: text/html" in page, page
    assert in_method == api, in_method
    assert proxied.startswith(b"HTTP/1.1 400 ") and b"application/json" in proxied, proxied


@pytest.mark.live
def test_a_request_the_worker_timeout_ends_is_a_json_504_under_api(
    tmp_path: Path, scratch_postgres: Postgres
) -> None:
    """PostgreSQL frozen (SIGSTOP: a stalled host, a hung storage): a request waits in its
    query until gunicorn's worker timeout, then the arbiter's SIGABRT and SIGKILL end the
    worker. The client's connection was closed without an answer (psycopg spends the
    moment between the two signals trying to cancel the query); under /api/ it is now a
    504 ``timeout``, which a client takes as maybe applied (a 503 reads as refused, and a
    request the timeout ends may have committed first)."""
    postgres = scratch_postgres
    frozen: list[int] = []
    try:
        env = {"DATABASE_URL": postgres.url, "GUNICORN_TIMEOUT": "2", "CONN_MAX_AGE": "600"}
        with deployed_gunicorn(tmp_path, **env) as (address, _logs):
            url = f"http://{address}/api/v1/accounts/register/"
            body = {"username": "frozen", "password": "a-long-enough-passphrase"}
            httpx.post(url, json=body, timeout=30)  # the worker's connection, opened
            postmaster = int(postgres.data.joinpath("postmaster.pid").read_text().split()[0])
            children = subprocess.run(
                ["pgrep", "-P", str(postmaster)], capture_output=True, text=True, check=True
            )
            frozen = [postmaster, *map(int, children.stdout.split())]
            for pid in frozen:
                os.kill(pid, signal.SIGSTOP)
            started = time.monotonic()
            response = httpx.post(url, json=body, timeout=30)
            assert time.monotonic() - started < 10
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
    assert response.status_code == 504, response.text
    assert response.json()["code"] == "timeout"
